import Foundation
import QuizCore
import UQuizRules

/// `--plain`: a line per event with its time since the quiz started, for scripts and screen readers.
final class PlainSolvePrinter: SolveObserver {
    let total: Int
    let timeScale: Double
    let write: (String) -> Void

    init(total: Int, timeScale: Double, write: @escaping (String) -> Void) {
        self.total = total
        self.timeScale = timeScale
        self.write = write
    }

    func show(_ step: SolveStep) {
        if let line = line(for: step) { write(line) }
    }

    func line(for step: SolveStep) -> String? {
        let clean = SafeText.clean
        func time(_ at: Duration) -> String {
            String(format: "[%6.2fs]", (at - step.quizStart).seconds / timeScale)
        }
        switch step.event {
        case let .quizStarted(quiz, stages, at):
            return "\(time(at)) quiz \(quiz)/\(total) begins: \(stages) area\(stages == 1 ? "" : "s") to reveal"
        case let .stageRevealed(_, stage, _, at):
            return "\(time(at)) area \(stage) revealed"
        case let .guessed(_, guess, verdict, at):
            switch verdict {
            case .accepted: return "\(time(at)) \"\(clean(guess))\": right"
            case .rejected: return "\(time(at)) \"\(clean(guess))\": wrong (\(verdict.reason(for: guess)))"
            }
        case let .hintShown(_, hint, at):
            return "\(time(at)) hint: \(clean(hint))"
        case let .paused(_, at):
            return "\(time(at)) paused"
        case let .resumed(_, at):
            return "\(time(at)) resumed"
        case let .timeUp(_, at):
            return "\(time(at)) time is up"
        case let .quizEnded(_, result):
            let title = clean(step.round.quiz.title)
            switch result.outcome {
            case .solved:
                return String(format: "solved: %@ in %.1f s at area %d, +%d points", title, result.seconds, result.stageReached, result.score)
            case .missed: return "missed: it was \(title)"
            case .skipped: return "skipped: it was \(title)"
            }
        }
    }
}

/// `--json`: one object per event and line, the contract bots and other front ends build on (see README).
final class JSONSolvePrinter: SolveObserver {
    let timeScale: Double
    let write: (String) -> Void

    init(timeScale: Double, write: @escaping (String) -> Void) {
        self.timeScale = timeScale
        self.write = write
    }

    func show(_ step: SolveStep) {
        write(Self.line(object(for: step)))
    }

    func object(for step: SolveStep) -> [String: Any] {
        func ms(_ at: Duration) -> Int { Int(((at - step.quizStart).seconds * 1000).rounded()) }
        switch step.event {
        case let .quizStarted(quiz, stages, at):
            return ["event": "quiz_start", "quiz": quiz, "stages": stages, "at_ms": ms(at)]
        case let .stageRevealed(quiz, stage, scheduled, at):
            return ["event": "stage", "quiz": quiz, "stage": stage, "scheduled_ms": ms(scheduled), "at_ms": ms(at)]
        case let .guessed(quiz, guess, verdict, at):
            var object: [String: Any] = ["event": "guess", "quiz": quiz, "guess": guess, "at_ms": ms(at)]
            switch verdict {
            case .accepted: object["verdict"] = "accepted"
            case .rejected:
                object["verdict"] = "rejected"
                object["reason"] = verdict.reason(for: guess)
            }
            return object
        case let .hintShown(quiz, hint, at):
            return ["event": "hint", "quiz": quiz, "hint": hint, "at_ms": ms(at)]
        case let .paused(quiz, at):
            return ["event": "pause", "quiz": quiz, "at_ms": ms(at)]
        case let .resumed(quiz, at):
            return ["event": "resume", "quiz": quiz, "at_ms": ms(at)]
        case let .timeUp(quiz, at):
            return ["event": "time_up", "quiz": quiz, "at_ms": ms(at)]
        case let .quizEnded(quiz, result):
            return [
                "event": "quiz_end", "quiz": quiz, "outcome": result.outcome.rawValue, "title": step.round.quiz.title,
                "seconds": (result.seconds * 100).rounded() / 100, "stage_reached": result.stageReached,
                "hints": result.hintsUsed, "score": result.score,
            ]
        }
    }

    static func line(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
