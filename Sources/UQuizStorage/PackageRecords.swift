import Foundation
import PosterGrid
import QuizCore

/// Which packages `list` shows.
public struct PackageFilter: Sendable, Equatable {
    public var level: Level?
    public var language: QuizLanguage?
    public var origin: PackageOrigin?

    public init(level: Level? = nil, language: QuizLanguage? = nil, origin: PackageOrigin? = nil) {
        self.level = level
        self.language = language
        self.origin = origin
    }
}

/// One page of `list`: the rows shown and how many match in all.
public struct PackageListPage: Sendable {
    public var rows: [PackageSummary]
    public var total: Int

    public init(rows: [PackageSummary], total: Int) {
        self.rows = rows
        self.total = total
    }
}

/// A quiz whose poster comes from TMDB, as `fetch-posters` needs it.
public struct TMDBPosterRef: Sendable, Hashable {
    public var quizId: Int64
    public var tmdbId: Int?
    public var posterPath: String
    public var language: QuizLanguage
    public var title: String

    public init(quizId: Int64, tmdbId: Int? = nil, posterPath: String, language: QuizLanguage, title: String) {
        self.quizId = quizId
        self.tmdbId = tmdbId
        self.posterPath = posterPath
        self.language = language
        self.title = title
    }
}

/// What `uquiz stats` shows.
public struct PlayStats: Sendable, Equatable {
    public struct PackageLine: Sendable, Equatable {
        public var shareCode: String
        public var title: String
        public var plays: Int
        public var attempts: Int
        public var correct: Int
        public var bestScore: Int?

        public init(shareCode: String, title: String, plays: Int, attempts: Int, correct: Int, bestScore: Int? = nil) {
            self.shareCode = shareCode
            self.title = title
            self.plays = plays
            self.attempts = attempts
            self.correct = correct
            self.bestScore = bestScore
        }
    }

    public struct HardQuiz: Sendable, Equatable {
        public var package: String
        public var position: Int
        public var title: String
        public var attempts: Int
        public var correct: Int

        public init(package: String, position: Int, title: String, attempts: Int, correct: Int) {
            self.package = package
            self.position = position
            self.title = title
            self.attempts = attempts
            self.correct = correct
        }
    }

    public var plays: Int
    public var attempts: Int
    public var correct: Int
    public var bestStreak: Int
    public var currentStreak: Int
    /// Mean stage at which correct answers came, 1 = the first area; `nil` before any.
    public var averageStage: Double?
    /// How many correct answers came at each stage.
    public var solvedAtStage: [Int: Int]
    public var packages: [PackageLine]
    public var hardest: [HardQuiz]

    public init(
        plays: Int, attempts: Int, correct: Int, bestStreak: Int, currentStreak: Int, averageStage: Double? = nil,
        solvedAtStage: [Int: Int] = [:], packages: [PackageLine], hardest: [HardQuiz]
    ) {
        self.solvedAtStage = solvedAtStage
        self.plays = plays
        self.attempts = attempts
        self.correct = correct
        self.bestStreak = bestStreak
        self.currentStreak = currentStreak
        self.averageStage = averageStage
        self.packages = packages
        self.hardest = hardest
    }
}

/// What `seed status` reports.
public struct SeedStatus: Sendable {
    public var databasePath: String
    public var schemaVersion: String
    public var schemaMigrations: Int
    public var databaseBundleVersion: String?
    public var seedPackages: Int
    public var userPackages: Int
    public var quizzes: Int
    public var movies: Int
    public var attempts: Int

    public init(databasePath: String, schemaVersion: String, schemaMigrations: Int, databaseBundleVersion: String? = nil, seedPackages: Int, userPackages: Int, quizzes: Int, movies: Int, attempts: Int) {
        self.databasePath = databasePath
        self.schemaVersion = schemaVersion
        self.schemaMigrations = schemaMigrations
        self.databaseBundleVersion = databaseBundleVersion
        self.seedPackages = seedPackages
        self.userPackages = userPackages
        self.quizzes = quizzes
        self.movies = movies
        self.attempts = attempts
    }
}

/// What `seed merge` did.
public struct MergeReport: Sendable, Equatable {
    public var added: [String] = []
    public var updated: [String] = []
    public var unchanged: [String] = []
    /// Bundled packages the user edited, which the bundle would have changed back: left as the user made them.
    public var keptEdited: [String] = []
    public var bundleVersion: String = ""

    public init(added: [String] = [], updated: [String] = [], unchanged: [String] = [], keptEdited: [String] = [], bundleVersion: String = "") {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.keptEdited = keptEdited
        self.bundleVersion = bundleVersion
    }
}

/// One quiz of a play as it ended.
public struct PlayAttempt: Sendable {
    public var quizId: Int64
    public var endedAt: Date
    public var result: QuizResult
    /// A server play's wrong guesses at the quiz, each once and normalized; no player is named with them.
    public var wrongGuesses: [String]

    public init(quizId: Int64, endedAt: Date, result: QuizResult, wrongGuesses: [String] = []) {
        self.quizId = quizId
        self.endedAt = endedAt
        self.result = result
        self.wrongGuesses = wrongGuesses
    }
}

extension ShareCode {
    /// How many share codes a new package draws, each refused by the store's unique constraint when taken, before the
    /// store gives up with `StoreError.noFreeShareCode`.
    public static let triesPerNewPackage = 20
}
