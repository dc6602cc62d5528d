import Foundation
import PosterGrid
import QuizCore

/// A play the server judged and finished, as stored: enough to show it again once the server's memory has let it go.
public struct StoredServerPlay: Equatable, Sendable {
    public var publicId: String
    public var packageId: Int64
    public var playerId: Int64
    public var score: Int
    /// Quiz time of all its quizzes, in seconds: the leaderboard's tie-break.
    public var elapsedSeconds: Double
    public var ranked: Bool
    /// `yyyy-MM-dd` (UTC) when it was that day's daily quiz.
    public var dailyDay: String?
    /// Each quiz's stored id and result, in the order played.
    public var attempts: [StoredAttempt]
    /// Why it could not be ranked, when its player may have known an answer.
    public var unrankedReason: UnrankedReason?

    public init(
        publicId: String, packageId: Int64, playerId: Int64, score: Int, elapsedSeconds: Double, ranked: Bool,
        dailyDay: String?, attempts: [StoredAttempt], unrankedReason: UnrankedReason? = nil
    ) {
        self.unrankedReason = unrankedReason
        self.publicId = publicId
        self.packageId = packageId
        self.playerId = playerId
        self.score = score
        self.elapsedSeconds = elapsedSeconds
        self.ranked = ranked
        self.dailyDay = dailyDay
        self.attempts = attempts
    }

    public struct StoredAttempt: Equatable, Sendable {
        public var quizId: Int64
        public var result: QuizResult

        public init(quizId: Int64, result: QuizResult) {
            self.quizId = quizId
            self.result = result
        }
    }
}

/// One line of a leaderboard.
public struct LeaderboardEntry: Hashable, Sendable {
    /// 1 for the best; equal scores in equal time share a rank.
    public var rank: Int
    public var playerId: Int64
    public var player: String
    public var score: Int
    public var elapsedSeconds: Double
    public var finishedAt: String

    public init(rank: Int, playerId: Int64, player: String, score: Int, elapsedSeconds: Double, finishedAt: String) {
        self.rank = rank
        self.playerId = playerId
        self.player = player
        self.score = score
        self.elapsedSeconds = elapsedSeconds
        self.finishedAt = finishedAt
    }
}

/// The ranked plays of a package: the best `limit`, the asker's own line (wherever it ranks) and how many there are.
public struct RankedPlays: Hashable, Sendable {
    public var top: [LeaderboardEntry]
    public var mine: LeaderboardEntry?
    public var rankedPlays: Int
    /// How many ranked plays scored each score: what the distribution of scores is drawn from.
    public var scoreCounts: [Int: Int]

    public init(top: [LeaderboardEntry], mine: LeaderboardEntry?, rankedPlays: Int, scoreCounts: [Int: Int] = [:]) {
        self.top = top
        self.mine = mine
        self.rankedPlays = rankedPlays
        self.scoreCounts = scoreCounts
    }
}

/// How one quiz of a package fares with everyone who played it: what its maker may see.
public struct QuizSolveStats: Hashable, Sendable {
    /// 1-based place in the package.
    public var position: Int
    public var attempts: Int
    public var solved: Int
    /// The mean of the stage reached by those who solved it; `nil` while nobody has.
    public var averageStage: Double?
    /// Attempts in which the player asked for the hint.
    public var hinted: Int
    /// The wrong guesses most players made, most first (at most `QuizSolveStats.commonWrongGuessCount`).
    public var commonWrongGuesses: [String]
    /// How many solves came at each stage (1 = the first area).
    public var solvedAtStage: [Int: Int]

    /// How many of a quiz's most common wrong guesses its maker sees.
    public static let commonWrongGuessCount = 5

    public init(
        position: Int, attempts: Int, solved: Int, averageStage: Double?, hinted: Int = 0, commonWrongGuesses: [String] = [],
        solvedAtStage: [Int: Int] = [:]
    ) {
        self.solvedAtStage = solvedAtStage
        self.commonWrongGuesses = commonWrongGuesses
        self.hinted = hinted
        self.position = position
        self.attempts = attempts
        self.solved = solved
        self.averageStage = averageStage
    }
}

/// What both stores keep of a quiz's attempts at one stage reached (`stage` is `nil` for a quiz nobody played).
public struct QuizStageTally: Hashable, Sendable {
    /// 1-based place of the quiz in its package.
    public var position: Int
    public var stage: Int?
    public var attempts: Int
    public var solved: Int
    public var hinted: Int

    public init(position: Int, stage: Int?, attempts: Int, solved: Int, hinted: Int) {
        self.position = position
        self.stage = stage
        self.attempts = attempts
        self.solved = solved
        self.hinted = hinted
    }
}

extension QuizSolveStats {
    /// Each quiz's statistics from its kept tallies per stage reached (in quiz order, every quiz of the package at
    /// least once) and its most common wrong guesses (most first).
    public static func fromStageTallies(
        _ tallies: [QuizStageTally], commonWrongGuesses: [(position: Int, guess: String)]
    ) -> [QuizSolveStats] {
        var quizzes: [QuizSolveStats] = []
        var stageSums: [Int] = []
        for tally in tallies {
            if quizzes.last?.position != tally.position {
                quizzes.append(QuizSolveStats(position: tally.position, attempts: 0, solved: 0, averageStage: nil))
                stageSums.append(0)
            }
            guard let stage = tally.stage else { continue }
            let last = quizzes.count - 1
            quizzes[last].attempts += tally.attempts
            quizzes[last].solved += tally.solved
            quizzes[last].hinted += tally.hinted
            if tally.solved > 0 { quizzes[last].solvedAtStage[stage] = tally.solved }
            stageSums[last] += stage * tally.solved
        }
        for index in quizzes.indices {
            if quizzes[index].solved > 0 {
                quizzes[index].averageStage = Double(stageSums[index]) / Double(quizzes[index].solved)
            }
            let position = quizzes[index].position
            quizzes[index].commonWrongGuesses = commonWrongGuesses.filter { $0.position == position }.map(\.guess)
        }
        return quizzes
    }
}

/// How a leaderboard's ranks are found without numbering every ranked play: equal scores in equal time share a rank,
/// which is one more than the number of plays before them.
public enum LeaderboardRanking {
    /// The ranks of the first entries of a leaderboard, given in its order from the very first.
    public static func ranked(_ entries: [LeaderboardEntry]) -> [LeaderboardEntry] {
        var ranked = entries
        for index in ranked.indices {
            if index > 0, ranked[index].score == ranked[index - 1].score,
                ranked[index].elapsedSeconds == ranked[index - 1].elapsedSeconds
            {
                ranked[index].rank = ranked[index - 1].rank
            } else {
                ranked[index].rank = index + 1
            }
        }
        return ranked
    }

    /// The rank of a play scoring `score`: one more than the plays of a better score (`scoreCounts`, the ranked plays
    /// per score) and those of the same score in less time.
    public static func rank(score: Int, scoreCounts: [Int: Int], sameScoreFaster: Int) -> Int {
        1 + scoreCounts.filter { $0.key > score }.values.reduce(0, +) + sameScoreFaster
    }
}

/// The quiz chosen for one UTC day in one language.
public struct DailyChoice: Hashable, Sendable {
    /// `yyyy-MM-dd`, UTC.
    public var day: String
    /// The language of the packages it was drawn from.
    public var language: QuizLanguage
    /// 1 for the first daily quiz this server chose in its language, then one more for each day after it.
    public var number: Int
    /// `nil` once its maker deleted the quiz's package: the day keeps its number and has no quiz.
    public var quizId: Int64?
    public var packageId: Int64?
    /// The quiz's 0-based place in its package.
    public var position: Int?

    public init(day: String, language: QuizLanguage, number: Int, quizId: Int64?, packageId: Int64?, position: Int?) {
        self.day = day
        self.language = language
        self.number = number
        self.quizId = quizId
        self.packageId = packageId
        self.position = position
    }
}

/// One finished server play as its player's history lists it.
public struct PlayerPlayRow: Hashable, Sendable {
    public var publicId: String
    /// The package's share code; `nil` for a daily play, which is listed as the daily rather than as its package.
    public var shareCode: String?
    public var title: String
    public var score: Int
    public var solved: Int
    public var played: Int
    public var ranked: Bool
    public var dailyDay: String?
    /// ISO 8601, UTC, as stored.
    public var finishedAt: String

    public init(
        publicId: String, shareCode: String?, title: String, score: Int, solved: Int, played: Int, ranked: Bool,
        dailyDay: String?, finishedAt: String
    ) {
        self.publicId = publicId
        self.shareCode = shareCode
        self.title = title
        self.score = score
        self.solved = solved
        self.played = played
        self.ranked = ranked
        self.dailyDay = dailyDay
        self.finishedAt = finishedAt
    }
}

/// A player's finished server plays added up.
public struct PlayerPlayTotals: Hashable, Sendable {
    public var plays: Int
    public var points: Int
    /// Quizzes solved and quizzes played, over every play.
    public var solved: Int
    public var played: Int
    /// The mean stage of the quizzes solved; `nil` while none is.
    public var averageStage: Double?
    /// How many quizzes were solved at each stage (1 = the first area).
    public var solvedAtStage: [Int: Int]

    public init(plays: Int, points: Int, solved: Int, played: Int, averageStage: Double?, solvedAtStage: [Int: Int] = [:]) {
        self.solvedAtStage = solvedAtStage
        self.plays = plays
        self.points = points
        self.solved = solved
        self.played = played
        self.averageStage = averageStage
    }

    /// The totals from a player's kept tallies and their solves per stage (zero-solve stages left out), the mean stage
    /// taken from those.
    public init(plays: Int, points: Int, solved: Int, played: Int, solvedPerStage: [Int: Int]) {
        let kept = solvedPerStage.filter { $0.value > 0 }
        let solves = kept.values.reduce(0, +)
        self.init(
            plays: plays, points: points, solved: solved, played: played,
            averageStage: solves == 0 ? nil : Double(kept.map { $0.key * $0.value }.reduce(0, +)) / Double(solves),
            solvedAtStage: kept)
    }
}

/// Why a play is played and scored but not ranked (nor, for a daily play, counted in the streak): its player may have
/// known an answer before guessing it.
public enum UnrankedReason: String, Sendable, Codable, Equatable {
    /// The player made the package.
    case maker
    /// A play of the player finished earlier showed the answer of one of its quizzes: a play of the same package, or the
    /// daily quiz that was one of them, or a package holding the daily quiz.
    case answerSeenInPlay = "answer_seen_in_play"
    /// A live room on the package, seen to its end by the player, showed the answers.
    case answerSeenInRoom = "answer_seen_in_room"
    /// A past day's daily quiz played again from the archive: its answer has been out since that day.
    case dailyArchive = "daily_archive"
}

/// Where a player has been shown the answers of some quizzes of a package before (`SharingStorage.answersShown`).
public struct AnswersShown: Hashable, Sendable {
    /// The player owns the package.
    public var maker: Bool
    /// A finished server play of the player holds an attempt at one of the quizzes, or at a quiz on the same movie in
    /// any package (a twin quiz shows the same answer), or a play still open has ended one of them or a twin.
    public var inPlay: Bool
    /// A live room on the package, or on a package with a quiz on the same movie as one of the quizzes, ended one of
    /// its quizzes (naming its answer) while the player sat in it.
    public var inRoom: Bool

    public init(maker: Bool, inPlay: Bool, inRoom: Bool) {
        self.maker = maker
        self.inPlay = inPlay
        self.inRoom = inRoom
    }
}
