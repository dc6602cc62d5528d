import Foundation
import UQuizStorage
internal import GRDB
import QuizCore

extension AppDatabase {
    /// The quizzes' row ids in package order, to record attempts against.
    public func quizIDs(packageId: Int64) throws -> [Int64] {
        try read { db in try Self.quizIDs(packageId: packageId, in: db) }
    }

    static func quizIDs(packageId: Int64, in db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT id FROM quiz WHERE packageId = ? ORDER BY position", arguments: [packageId])
    }

    /// Records a play and its attempts in one transaction, or nothing: a play that fails to record, or a process killed
    /// before it ends, leaves the database as it was. `score` is `nil` for a play stopped before its last quiz, which
    /// then counts in the statistics but not as the package's best score.
    @discardableResult
    public func recordPlay(
        packageId: Int64, player: String, startedAt: Date, finishedAt: Date, score: Int?, attempts: [PlayAttempt]
    ) throws -> Int64 {
        // A player's name is stored and shown like any text, and held to the same rule.
        do {
            try PackageDocument.checkText(player, path: "player", name: "player name")
        } catch {
            throw StoreError.refused(detail: error.description)
        }
        return try write { db in
            var play = PlayRecord(
                id: nil, packageId: packageId, player: player, startedAt: Self.timestamp(startedAt),
                finishedAt: score == nil ? nil : Self.timestamp(finishedAt), score: score)
            try play.insert(db)
            for attempt in attempts {
                var record = AttemptRecord(
                    id: nil, playId: play.id!, quizId: attempt.quizId, player: player,
                    startedAt: Self.timestamp(attempt.endedAt), correct: attempt.result.solved,
                    seconds: attempt.result.seconds, stageReached: attempt.result.stageReached,
                    hintsUsed: attempt.result.hintsUsed)
                try record.insert(db)
            }
            return play.id!
        }
    }

    /// `2026-11-27T18:10:50Z`, as ISO8601DateFormatter wrote it, through a format style (a value) rather than a
    /// formatter made on every call, which cost more than the insert it was for.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
