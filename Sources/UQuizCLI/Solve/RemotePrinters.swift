import Foundation
import LocalUseCases
import QuizCore
import RemoteClient
import UQuizWire

/// A play on a server told line by line (`solve CODE --server URL`): one line per event, or one JSON object per line.
/// Everything the server sends is escaped before it meets the terminal.
struct RemoteSolvePrinter: RemoteSolveObserver {
    var json: Bool
    var write: (String) -> Void

    func quizStarted(_ quiz: ServerAPI.QuizState, of count: Int) {
        let seconds = (Double(quiz.endsInMs ?? 0) / 100).rounded() / 10
        if json {
            write(JSONSolvePrinter.line(["event": "quiz_start", "quiz": quiz.number, "of": count, "stages": quiz.stageCount, "seconds": seconds]))
        } else {
            write("quiz \(quiz.number)/\(count) · \(quiz.stageCount) stages · \(String(format: "%.0f", seconds)) s: type the title")
        }
    }

    func stageRevealed(_ quiz: ServerAPI.QuizState) {
        if json {
            write(JSONSolvePrinter.line(["event": "stage", "quiz": quiz.number, "stage": quiz.stage]))
        } else {
            write("  stage \(quiz.stage)/\(quiz.stageCount)")
        }
    }

    func guessRejected(_ text: String, judgement: String) {
        if json {
            write(JSONSolvePrinter.line(["event": "guess", "guess": text, "verdict": "rejected", "reason": judgement]))
        } else {
            write("  \"\(SafeText.clean(text))\": wrong (\(Self.reason(judgement)))")
        }
    }

    func hinted(_ hint: String) {
        write(json ? JSONSolvePrinter.line(["event": "hint", "hint": hint]) : "  hint: \(SafeText.clean(hint))")
    }

    func quizEnded(_ quiz: ServerAPI.QuizState) {
        guard let result = quiz.result else { return }
        let answer = quiz.answer.map { $0.title + ($0.year.map { " (\($0))" } ?? "") } ?? "?"
        if json {
            write(
                JSONSolvePrinter.line([
                    "event": "quiz_end", "quiz": quiz.number, "outcome": result.outcome.rawValue, "answer": answer,
                    "seconds": result.seconds, "stage": result.stageReached, "score": result.score,
                ]))
            return
        }
        let line =
            switch result.outcome {
            case .solved: "solved in \(String(format: "%.1f", result.seconds)) s at stage \(result.stageReached), +\(result.score)"
            case .missed: "time is up"
            case .skipped: "skipped"
            }
        write("\(ShareLine.square(for: result)) \(SafeText.clean(answer)): \(line)")
    }

    /// The server's judgement codes in the words the local game uses.
    static func reason(_ judgement: String) -> String {
        switch judgement {
        case "empty": "nothing typed"
        case "wrong_number": "the number differs"
        case "another_movie": "that is another movie's title"
        default: "not the title"
        }
    }

    func summary(_ outcome: RemoteSolve.Outcome) {
        let play = outcome.play
        let results = play.quizzes.compactMap(\.result)
        if json {
            var object: [String: Any] = [
                "event": "summary", "solved": results.count { $0.solved }, "total": play.quizzes.count, "score": play.score,
                "complete": play.finished,
            ]
            object["share"] = play.shareLine
            object["ranked"] = play.ranked
            object["unrankedReason"] = play.unrankedReason?.rawValue
            write(JSONSolvePrinter.line(object))
            return
        }
        let stopped = outcome.stopped ? " (stopped; the server runs the rest of the play out)" : ""
        let why: String? =
            switch play.unrankedReason {
            case .maker?: "you made this package"
            case .answerSeenInPlay?: "an earlier play showed you an answer in it"
            case .answerSeenInRoom?: "a live room on this package showed you its answers"
            case .dailyArchive?: "a past day's daily quiz, played from the archive"
            case nil: nil
            }
        let ranked =
            switch (play.ranked, play.daily) {
            case (true?, _): ", ranked"
            case (false?, nil): ", not ranked" + (why.map { " (\($0))" } ?? "")
            case (_, _?): why.map { ", counted in no streak (\($0))" } ?? ""
            case (nil, nil): ""
            }
        write("\(results.count { $0.solved }) of \(play.quizzes.count) solved, \(play.score) points\(ranked)\(stopped)")
        if let share = play.shareLine { write(SafeText.clean(share)) }
    }
}
