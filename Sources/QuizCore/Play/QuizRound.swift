import PosterGrid

/// Something that happened while a quiz was being solved; every front end (terminal, `--plain`, `--json`) shows these.
public enum PlayEvent: Sendable, Equatable {
    case quizStarted(quiz: Int, stages: Int, at: Duration)
    /// `scheduled` is when the schedule says the stage starts; `at` when the player noticed it (their difference is the
    /// player loop's lateness).
    case stageRevealed(quiz: Int, stage: Int, scheduled: Duration, at: Duration)
    case guessed(quiz: Int, guess: String, verdict: Verdict, at: Duration)
    case hintShown(quiz: Int, hint: String, at: Duration)
    case paused(quiz: Int, at: Duration)
    case resumed(quiz: Int, at: Duration)
    case timeUp(quiz: Int, at: Duration)
    case quizEnded(quiz: Int, result: QuizResult)
}

/// How one quiz went.
public struct QuizResult: Sendable, Equatable, Codable {
    public enum Outcome: String, Sendable, Codable {
        case solved
        case missed
        case skipped
    }

    public var outcome: Outcome
    /// Quiz time (pauses excluded) until the answer, the skip or the time limit.
    public var seconds: Double
    /// Stages revealed when it ended, 1…count.
    public var stageReached: Int
    public var hintsUsed: Int
    public var score: Int

    public init(outcome: Outcome, seconds: Double, stageReached: Int, hintsUsed: Int, score: Int) {
        self.outcome = outcome
        self.seconds = seconds
        self.stageReached = stageReached
        self.hintsUsed = hintsUsed
        self.score = score
    }

    public var solved: Bool { outcome == .solved }
}

/// One quiz being solved: its schedule, guesses, hints and pauses, driven by instants of one monotonic clock. Pure: the
/// caller reads the clock and feeds it in, so tests run a 20-second quiz in microseconds.
public struct QuizRound: Sendable {
    public let index: Int
    public let judge: AnswerJudge
    public let hintText: String
    /// Clock time per quiz second (0.01 when a run is a hundred times faster); results are in quiz seconds.
    public let timeScale: Double
    public private(set) var schedule: RevealSchedule
    public private(set) var revealedStages = 0
    public private(set) var hintsUsed = 0
    public private(set) var result: QuizResult?

    public var stageCount: Int { schedule.stageDurations.count }
    public var isOver: Bool { result != nil }
    public var isPaused: Bool { schedule.pauses.last.map { $0.end == nil } ?? false }

    public init(
        index: Int, judge: AnswerJudge, hint: String, stageCount: Int, stageDuration: Duration, timeLimit: Duration,
        start: Duration, timeScale: Double = 1
    ) throws(RevealScheduleError) {
        self.index = index
        self.judge = judge
        hintText = hint
        self.timeScale = timeScale
        schedule = try RevealSchedule(start: start, stageCount: stageCount, stageDuration: stageDuration, timeLimit: timeLimit)
    }

    /// Puts back what a checkpoint kept of a round (`RoomCheckpoint`): the stages are brought back by `advance`.
    mutating func restore(hintsUsed: Int, result: QuizResult?) {
        self.hintsUsed = hintsUsed
        self.result = result
    }

    /// The next clock instant at which `advance` has something to report (a stage or the time limit), if any.
    public var nextDeadline: Duration? {
        guard !isOver, !isPaused else { return nil }
        if revealedStages < stageCount, let start = schedule.window(ofStage: revealedStages).start { return start }
        return schedule.deadline
    }

    /// Reveals the stages that are due and ends the quiz when time is up.
    public mutating func advance(to now: Duration) -> [PlayEvent] {
        guard !isOver, !isPaused else { return [] }
        var events: [PlayEvent] = []
        while revealedStages < stageCount, let start = schedule.window(ofStage: revealedStages).start, start <= now {
            revealedStages += 1
            events.append(.stageRevealed(quiz: index, stage: revealedStages, scheduled: start, at: now))
        }
        if let deadline = schedule.deadline, now >= deadline {
            events.append(.timeUp(quiz: index, at: now))
            events.append(finish(.missed, at: deadline))
        }
        return events
    }

    public mutating func guess(_ text: String, at now: Duration) -> [PlayEvent] {
        var events = advance(to: now)
        guard !isOver, !isPaused else { return events }
        let verdict = judge.judge(text)
        events.append(.guessed(quiz: index, guess: text, verdict: verdict, at: now))
        if verdict.isAccepted { events.append(finish(.solved, at: now)) }
        return events
    }

    /// The first hint (초성 or first letters); later requests show the same hint and cost nothing more.
    public mutating func hint(at now: Duration) -> [PlayEvent] {
        var events = advance(to: now)
        guard !isOver, !isPaused else { return events }
        if hintsUsed == 0 { hintsUsed = 1 }
        events.append(.hintShown(quiz: index, hint: hintText, at: now))
        return events
    }

    public mutating func skip(at now: Duration) -> [PlayEvent] {
        var events = advance(to: now)
        guard !isOver else { return events }
        events.append(finish(.skipped, at: now))
        return events
    }

    public mutating func pause(at now: Duration) -> [PlayEvent] {
        var events = advance(to: now)
        guard !isOver, !isPaused, let paused = try? schedule.with(pauses: schedule.pauses + [PauseInterval(start: now, end: nil)])
        else { return events }
        schedule = paused
        events.append(.paused(quiz: index, at: now))
        return events
    }

    public mutating func resume(at now: Duration) -> [PlayEvent] {
        guard !isOver, isPaused, var last = schedule.pauses.last else { return [] }
        last.end = max(now, last.start)
        guard let resumed = try? schedule.with(pauses: schedule.pauses.dropLast() + [last]) else { return [] }
        schedule = resumed
        return [.resumed(quiz: index, at: now)] + advance(to: now)
    }

    /// How far each stage's fade has come at `now`, 0…1, for drawing the poster.
    public func reveal(at now: Duration) -> [Double] {
        if result?.solved == true || result?.outcome == .missed { return Array(repeating: 1, count: stageCount) }
        switch schedule.position(at: now) {
        case let .revealing(stage, progress):
            return (0..<stageCount).map { $0 < stage ? 1 : $0 == stage ? progress : 0 }
        case .fullyRevealed, .timeUp:
            return Array(repeating: 1, count: stageCount)
        }
    }

    private mutating func finish(_ outcome: QuizResult.Outcome, at instant: Duration) -> PlayEvent {
        let elapsed = schedule.activeElapsed(at: instant)
        let seconds = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / timeScale
        let reached = max(1, revealedStages)
        let score = outcome == .solved
            ? Scoring.score(stageReached: reached, stageCount: stageCount, elapsed: elapsed, timeLimit: schedule.timeLimit, hints: hintsUsed)
            : 0
        let result = QuizResult(outcome: outcome, seconds: seconds, stageReached: reached, hintsUsed: hintsUsed, score: score)
        self.result = result
        return .quizEnded(quiz: index, result: result)
    }
}

/// Points for a solved quiz: 100, plus 20 for each stage that was still hidden, plus up to 100 for the time left; a
/// hint halves the total. Missed and skipped quizzes score 0.
public enum Scoring {
    public static func score(stageReached: Int, stageCount: Int, elapsed: Duration, timeLimit: Duration, hints: Int) -> Int {
        let hidden = max(0, stageCount - stageReached)
        let left = max(Duration.zero, timeLimit - elapsed)
        let timeBonus = Int((100 * (left / timeLimit)).rounded())
        let total = 100 + 20 * hidden + timeBonus
        return hints > 0 ? total / 2 : total
    }
}
