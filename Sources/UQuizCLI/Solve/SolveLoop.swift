import Foundation
import PosterGrid
import QuizCore

/// A package being solved, quiz after quiz, as `uquiz solve` runs it without a terminal (and, later, with one).
struct SolveLoop {
    struct Round {
        var quiz: Quiz
        var judge: AnswerJudge
        var number: Int
    }

    let rounds: [Round]
    let levels: LevelRules
    let level: Level
    /// 1 plays in real time; 0.01 runs the same schedule a hundred times faster.
    let timeScale: Double

    /// Everything the front end shows, in order, with the quiz it belongs to.
    struct Step {
        var round: Round
        var event: PlayEvent
        /// The instant the quiz started on the source's clock, to report times relative to it.
        var quizStart: Duration
    }

    func run(source: any SolveSource, emit: (Step) -> Void, finished: (Round, QuizResult) -> Void) -> [QuizResult] {
        var results: [QuizResult] = []
        let rule = levels[level]
        for round in rounds {
            let start = source.now()
            guard var state = try? QuizRound(
                index: round.number, judge: round.judge, hint: Hint.firstHint(for: round.quiz.title),
                stageCount: round.quiz.areas.count, stageDuration: rule.stageDuration * timeScale,
                timeLimit: levels.timeLimit * timeScale, start: start, timeScale: timeScale)
            else { continue }
            func send(_ events: [PlayEvent]) {
                for event in events { emit(Step(round: round, event: event, quizStart: start)) }
            }
            send([.quizStarted(quiz: round.number, stages: round.quiz.areas.count, at: start)])
            send(state.advance(to: start))
            while !state.isOver {
                switch source.next(until: state.nextDeadline) {
                case .deadline:
                    send(state.advance(to: source.now()))
                case .endOfInput:
                    send(state.advance(to: source.now()))
                case .line(let line):
                    let now = source.now()
                    let text = line.trimmingCharacters(in: .whitespaces)
                    switch text {
                    case "": send(state.advance(to: now))
                    case "?": send(state.hint(at: now))
                    case "/skip": send(state.skip(at: now))
                    default: send(state.guess(text, at: now))
                    }
                }
            }
            if let result = state.result {
                results.append(result)
                finished(round, result)
            }
        }
        return results
    }

    /// One line to paste anywhere: a square per quiz (🟩 solved, 🟨 solved with a hint, 🟥 missed or skipped).
    static func shareText(code: ShareCode, results: [QuizResult]) -> String {
        let squares = results.map { $0.solved ? ($0.hintsUsed > 0 ? "🟨" : "🟩") : "🟥" }.joined()
        let solved = results.filter(\.solved).count
        return "UQuiz \(code) \(solved)/\(results.count) \(squares) \(results.reduce(0) { $0 + $1.score }) pts"
    }
}

/// `--plain`: a line per event with its time since the quiz started, for scripts and screen readers.
struct PlainSolvePrinter {
    let total: Int
    let timeScale: Double

    func line(for step: SolveLoop.Step) -> String? {
        let clean = SafeText.clean
        func time(_ at: Duration) -> String {
            String(format: "[%6.2fs]", LiveSolveSource.seconds(at - step.quizStart) / timeScale)
        }
        switch step.event {
        case let .quizStarted(quiz, stages, at):
            return "\(time(at)) quiz \(quiz)/\(total) begins: \(stages) area\(stages == 1 ? "" : "s") to reveal"
        case let .stageRevealed(_, stage, _, at):
            return "\(time(at)) area \(stage) revealed"
        case let .guessed(_, guess, verdict, at):
            switch verdict {
            case .accepted: return "\(time(at)) \"\(clean(guess))\": right"
            case .rejected: return "\(time(at)) \"\(clean(guess))\": wrong (\(verdict.reason))"
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
struct JSONSolvePrinter {
    let timeScale: Double

    func object(for step: SolveLoop.Step) -> [String: Any] {
        func ms(_ at: Duration) -> Int { Int((LiveSolveSource.seconds(at - step.quizStart) * 1000).rounded()) }
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
                object["reason"] = verdict.reason
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
