/// How hard a quiz package is: fewer areas and longer stages make a harder game.
public enum Level: String, CaseIterable, Sendable, Codable, Comparable {
    case beginner
    case intermediate
    case expert

    public static func < (lhs: Level, rhs: Level) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What one level means in play.
public struct LevelRule: Hashable, Sendable, Codable {
    /// The most areas a quiz of this level reveals (one per stage).
    public var areaCount: Int
    /// How long each stage lasts before the next area starts to show.
    public var stageDuration: Duration

    public init(areaCount: Int, stageDuration: Duration) {
        self.areaCount = areaCount
        self.stageDuration = stageDuration
    }
}

/// The rules for every level plus the time limit of one quiz; read from configuration, defaulting to the original app's.
public struct LevelRules: Hashable, Sendable {
    public var beginner: LevelRule
    public var intermediate: LevelRule
    public var expert: LevelRule
    public var timeLimit: Duration

    public static let standard = LevelRules(
        beginner: LevelRule(areaCount: 5, stageDuration: .seconds(2)),
        intermediate: LevelRule(areaCount: 4, stageDuration: .seconds(2)),
        expert: LevelRule(areaCount: 3, stageDuration: .seconds(3)),
        timeLimit: .seconds(20)
    )

    public init(beginner: LevelRule, intermediate: LevelRule, expert: LevelRule, timeLimit: Duration) {
        self.beginner = beginner
        self.intermediate = intermediate
        self.expert = expert
        self.timeLimit = timeLimit
    }

    public subscript(level: Level) -> LevelRule {
        get {
            switch level {
            case .beginner: beginner
            case .intermediate: intermediate
            case .expert: expert
            }
        }
        set {
            switch level {
            case .beginner: beginner = newValue
            case .intermediate: intermediate = newValue
            case .expert: expert = newValue
            }
        }
    }

    /// Configured values that would make an unplayable game.
    public func validate() throws(LevelRulesError) {
        for level in Level.allCases {
            let rule = self[level]
            guard rule.areaCount >= 1 else { throw .areaCountTooSmall(level, rule.areaCount) }
            guard rule.stageDuration > .zero else { throw .stageDurationNotPositive(level) }
        }
        guard timeLimit > .zero else { throw .timeLimitNotPositive }
    }
}

public enum LevelRulesError: Error, Equatable, Sendable, CustomStringConvertible {
    case areaCountTooSmall(Level, Int)
    case stageDurationNotPositive(Level)
    case timeLimitNotPositive

    public var description: String {
        switch self {
        case let .areaCountTooSmall(level, count): "level \(level.rawValue) has \(count) areas: it needs at least 1"
        case let .stageDurationNotPositive(level): "level \(level.rawValue) has a stage duration of 0 or less"
        case .timeLimitNotPositive: "the quiz time limit must be more than 0 seconds"
        }
    }
}
