/// A span of time during which the quiz clock stood still (the player paused).
///
/// Times are offsets on one monotonic clock; the schedule never counts timer ticks, it derives every instant from the start,
/// the stage durations and these intervals, so no error accumulates however long a quiz runs.
public struct PauseInterval: Hashable, Sendable {
    public var start: Duration
    /// `nil` while the pause is still going on.
    public var end: Duration?

    public init(start: Duration, end: Duration?) {
        self.start = start
        self.end = end
    }
}

public enum RevealScheduleError: Error, Equatable, Sendable, CustomStringConvertible {
    case noStages
    case stageDurationNotPositive(stage: Int)
    case pauseEndsBeforeItStarts(index: Int)
    case pausesOverlap(index: Int)
    case openPauseNotLast(index: Int)

    public var description: String {
        switch self {
        case .noStages: "a reveal schedule needs at least one stage"
        case let .stageDurationNotPositive(stage): "stage \(stage) has a duration of 0 or less"
        case let .pauseEndsBeforeItStarts(index): "pause \(index + 1) ends before it starts"
        case let .pausesOverlap(index): "pause \(index + 1) starts before the previous pause ended"
        case let .openPauseNotLast(index): "pause \(index + 1) has not ended but another pause follows it"
        }
    }
}

/// When each stage of a quiz starts and ends, and where the quiz stands at any instant, given its start, its stage
/// durations, its time limit and the pauses so far. Stage k starts at `start + (sum of earlier stage durations) + time spent
/// paused before then`.
public struct RevealSchedule: Hashable, Sendable {
    public let start: Duration
    public let stageDurations: [Duration]
    public let timeLimit: Duration
    public let pauses: [PauseInterval]

    public init(
        start: Duration,
        stageDurations: [Duration],
        timeLimit: Duration,
        pauses: [PauseInterval] = []
    ) throws(RevealScheduleError) {
        guard !stageDurations.isEmpty else { throw .noStages }
        if let bad = stageDurations.firstIndex(where: { $0 <= .zero }) { throw .stageDurationNotPositive(stage: bad + 1) }
        for (index, pause) in pauses.enumerated() {
            if let end = pause.end, end < pause.start { throw .pauseEndsBeforeItStarts(index: index) }
            if index > 0 {
                guard let previousEnd = pauses[index - 1].end else { throw .openPauseNotLast(index: index - 1) }
                if pause.start < previousEnd { throw .pausesOverlap(index: index) }
            }
        }
        self.start = start
        self.stageDurations = stageDurations
        self.timeLimit = timeLimit
        self.pauses = pauses
    }

    /// Convenience for the common case of equal stages.
    public init(
        start: Duration,
        stageCount: Int,
        stageDuration: Duration,
        timeLimit: Duration,
        pauses: [PauseInterval] = []
    ) throws(RevealScheduleError) {
        try self.init(
            start: start,
            stageDurations: Array(repeating: stageDuration, count: stageCount),
            timeLimit: timeLimit,
            pauses: pauses
        )
    }

    /// A copy with one more pause (or with the open one closed); used by the player on Esc and on resume.
    public func with(pauses: [PauseInterval]) throws(RevealScheduleError) -> RevealSchedule {
        try RevealSchedule(start: start, stageDurations: stageDurations, timeLimit: timeLimit, pauses: pauses)
    }

    /// Quiz time (clock time minus paused time) elapsed at clock instant `time`; zero before the start.
    public func activeElapsed(at time: Duration) -> Duration {
        guard time > start else { return .zero }
        var paused = Duration.zero
        for pause in pauses where pause.start < time {
            let pauseStart = max(pause.start, start)
            let pauseEnd = min(pause.end ?? time, time)
            if pauseEnd > pauseStart { paused += pauseEnd - pauseStart }
        }
        return time - start - paused
    }

    /// The clock instant at which `active` quiz time has elapsed, or `nil` if an open pause holds it back.
    public func clockTime(atActive active: Duration) -> Duration? {
        var time = start + active
        for pause in pauses {
            let pauseStart = max(pause.start, start)
            // A pause that begins exactly when a stage would start delays that start.
            guard pauseStart <= time else { break }
            guard let end = pause.end else { return nil }
            if end > pauseStart { time += end - pauseStart }
        }
        return time
    }

    /// Quiz time at which stage `index` (from 0) starts.
    public func activeStart(ofStage index: Int) -> Duration {
        stageDurations[..<index].reduce(.zero, +)
    }

    /// Clock instants at which stage `index` (from 0) starts and ends; `nil` parts are held back by an open pause.
    public func window(ofStage index: Int) -> (start: Duration?, end: Duration?) {
        let activeStart = activeStart(ofStage: index)
        return (clockTime(atActive: activeStart), clockTime(atActive: activeStart + stageDurations[index]))
    }

    /// Clock instant at which the time limit runs out, or `nil` while an open pause holds it back.
    public var deadline: Duration? { clockTime(atActive: timeLimit) }

    public func isPaused(at time: Duration) -> Bool {
        pauses.contains { $0.start <= time && ($0.end.map { time < $0 } ?? true) }
    }

    /// Where the quiz stands at clock instant `time`.
    public func position(at time: Duration) -> RevealPosition {
        let active = activeElapsed(at: time)
        if active >= timeLimit { return .timeUp }
        var stageStart = Duration.zero
        for (index, duration) in stageDurations.enumerated() {
            if active < stageStart + duration {
                return .revealing(stage: index, progress: (active - stageStart) / duration)
            }
            stageStart += duration
        }
        return .fullyRevealed
    }
}

/// The state of a quiz's reveal at one instant.
public enum RevealPosition: Hashable, Sendable {
    /// Stage `stage` (from 0) is fading in; `progress` runs from 0 to 1. Earlier stages are fully shown.
    case revealing(stage: Int, progress: Double)
    /// Every area is shown and the clock is still running.
    case fullyRevealed
    case timeUp
}
