import PosterGrid
import QuizCore

/// One quiz of a package as it will be played: the quiz, its judge and its place in this play (1 is the first played).
public struct SolveRound: Sendable {
    public let quiz: Quiz
    public let judge: AnswerJudge
    public let number: Int
    /// The quiz's hint, made once: the server replays a play's rounds on every request.
    public let hint: String

    public init(quiz: Quiz, judge: AnswerJudge, number: Int) {
        self.quiz = quiz
        self.judge = judge
        self.number = number
        hint = Hint.firstHint(for: quiz.title)
    }
}

/// What a player did, as a front end reads it from its keyboard, its standard input or its network.
public enum SolveAction: Equatable, Sendable {
    case guess(String)
    case hint
    case skip
    case pause
    case resume
    /// Nothing happened before the deadline (or the front end wants to draw): the clock moves on.
    case tick
    /// No more input will ever come; the quiz runs out its time.
    case endOfInput
    /// The player stops the whole play now (Ctrl-C): the quiz in progress is left unfinished.
    case quit
}

/// The clock and the player's actions, injected so tests run a whole package in microseconds with exact times.
public protocol SolveInput: AnyObject {
    /// Monotonic time since the play began.
    func now() -> Duration
    /// The next action. Returns `.tick` once `deadline` has passed with no action (never before it, unless the front end
    /// wants to redraw), and `.endOfInput` when nothing more will come. With no deadline, waits for an action.
    func next(until deadline: Duration?, in round: QuizRound) -> SolveAction
}

/// Everything a front end shows: each event in order with the quiz it belongs to, and when the quiz started.
public struct SolveStep: Sendable {
    public var round: SolveRound
    public var event: PlayEvent
    /// The instant the quiz started on the input's clock, to report times relative to it.
    public var quizStart: Duration
}

/// Hooks a front end implements to show a play; every one has a do-nothing default.
public protocol SolveObserver: AnyObject {
    /// Each event as it happens.
    func show(_ step: SolveStep)
    /// The loop is about to wait for the player: a chance to draw the state as it is now.
    func willWait(_ round: SolveRound, state: QuizRound, at now: Duration)
    /// A quiz ended (after its result was recorded); a terminal holds the whole poster here.
    func quizEnded(_ round: SolveRound, result: QuizResult)
}

extension SolveObserver {
    public func show(_ step: SolveStep) {}
    public func willWait(_ round: SolveRound, state: QuizRound, at now: Duration) {}
    public func quizEnded(_ round: SolveRound, result: QuizResult) {}
}

/// The one game loop every front end rides: it drives each quiz's `QuizRound` from the input's actions and clock, and
/// tells the observer. The terminal player, `--plain` and `--json` differ only in their input and observer.
public struct SolveLoop: Sendable {
    public let rounds: [SolveRound]
    public let levels: LevelRules
    public let level: Level
    /// 1 plays in real time; 0.01 runs the same schedule a hundred times faster.
    public let timeScale: Double

    public init(rounds: [SolveRound], levels: LevelRules, level: Level, timeScale: Double) {
        self.rounds = rounds
        self.levels = levels
        self.level = level
        self.timeScale = timeScale
    }

    /// A fresh round for `round`'s quiz starting at `start`; `nil` for a quiz with no areas (nothing to reveal).
    public func state(for round: SolveRound, start: Duration) -> QuizRound? {
        try? QuizRound(
            index: round.number, judge: round.judge, hint: round.hint,
            stageCount: round.quiz.areas.count, stageDuration: levels[level].stageDuration * timeScale,
            timeLimit: levels.timeLimit * timeScale, start: start, timeScale: timeScale)
    }

    /// Plays every round in order. `finished` gets each result as its quiz ends (to record it) before the observer
    /// hears of it; a `.quit` stops the play with the results so far.
    public func run(
        input: any SolveInput, observer: any SolveObserver, finished: (SolveRound, QuizResult) throws -> Void
    ) rethrows -> [QuizResult] {
        var results: [QuizResult] = []
        for round in rounds {
            let start = input.now()
            guard var state = state(for: round, start: start) else { continue }
            func send(_ events: [PlayEvent]) {
                for event in events { observer.show(SolveStep(round: round, event: event, quizStart: start)) }
            }
            send([.quizStarted(quiz: round.number, stages: round.quiz.areas.count, at: start)])
            send(state.advance(to: start))
            while !state.isOver {
                observer.willWait(round, state: state, at: input.now())
                let action = input.next(until: state.nextDeadline, in: state)
                let now = input.now()
                switch action {
                case .tick, .endOfInput: send(state.advance(to: now))
                case .guess(let text): send(state.guess(text, at: now))
                case .hint: send(state.hint(at: now))
                case .skip: send(state.skip(at: now))
                case .pause: send(state.pause(at: now))
                case .resume: send(state.resume(at: now))
                case .quit: return results
                }
            }
            guard let result = state.result else { continue }
            results.append(result)
            try finished(round, result)
            observer.quizEnded(round, result: result)
        }
        return results
    }
}

extension Duration {
    /// Seconds as a floating-point number, for display and arithmetic with scales.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
