import Foundation

/// A player's daily streak and the days behind it.
public struct DailyStreak: Sendable, Equatable {
    /// One day's daily play: `yyyy-MM-dd` (UTC) and whether its quiz was solved.
    public struct Day: Codable, Sendable, Equatable {
        public var day: String
        public var solved: Bool

        public init(day: String, solved: Bool) {
            self.day = day
            self.solved = solved
        }
    }

    /// How many days, today included, the calendar of daily plays covers: five weeks.
    public static let calendarDays = 35

    public var current: Int
    public var best: Int
    /// The days of the last `calendarDays` with a finished daily play, oldest first.
    public var recentDays: [Day]

    public init(current: Int, best: Int, recentDays: [Day] = []) {
        self.current = current
        self.best = best
        self.recentDays = recentDays
    }
}
