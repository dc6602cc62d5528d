import Foundation
import GRDB
import QuizCore

extension AppDatabase {
    /// The quizzes' row ids in package order, to record attempts against.
    public func quizIDs(packageId: Int64) throws -> [Int64] {
        try read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM quiz WHERE packageId = ? ORDER BY position", arguments: [packageId])
        }
    }

    /// Starts a play; it gets its score when it finishes, so an interrupted one shows no best score.
    public func startPlay(packageId: Int64, player: String, at date: Date) throws -> Int64 {
        // A player's name is stored and shown like any text, and held to the same rule.
        do {
            try PackageSpec.checkText(player, path: "player", name: "player name")
        } catch {
            throw StoreError.refused(detail: error.description)
        }
        return try write { db in
            var play = PlayRecord(
                id: nil, packageId: packageId, player: player, startedAt: Self.timestamp(date), finishedAt: nil, score: nil)
            try play.insert(db)
            return play.id!
        }
    }

    /// One quiz's attempt, in its own transaction as soon as the quiz ends, so a stopped solve keeps what was played.
    public func recordAttempt(playId: Int64, quizId: Int64, player: String, startedAt: Date, result: QuizResult) throws {
        try write { db in
            var attempt = AttemptRecord(
                id: nil, playId: playId, quizId: quizId, player: player, startedAt: Self.timestamp(startedAt),
                correct: result.solved, seconds: result.seconds, stageReached: result.stageReached,
                hintsUsed: result.hintsUsed)
            try attempt.insert(db)
        }
    }

    public func finishPlay(playId: Int64, score: Int, at date: Date) throws {
        try write { db in
            try db.execute(
                sql: "UPDATE play SET finishedAt = ?, score = ? WHERE id = ?", arguments: [Self.timestamp(date), score, playId])
        }
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
