import Foundation
import UQuizStorage
internal import GRDB

extension AppDatabase {
    /// A new database in memory migrated up to the migration named `last`, as an older build left it.
    static func inMemoryForTesting(migratedThrough last: String) throws -> AppDatabase {
        let queue = try DatabaseQueue(configuration: configuration())
        try Schema.migrator.migrate(queue, upTo: last)
        return AppDatabase(path: inMemoryPath, writer: queue)
    }

    /// Applies the migrations the database lacks, as a newer build opening it does.
    func migrateForTesting() throws {
        try Self.migrate(writer, with: Schema.migrator)
    }
}

/// Hooks for the storage contract tests (`@testable import QuizStore`), as PostgresStore's TestingSupport.swift: the
/// kept tallies checked against a recount, the leaderboard as the window functions it replaced computed it, and the
/// query plans of the reads whose cost must not grow with the data.
extension SQLiteServerStore {
    /// A day's daily quiz as a build before dailies per language stored it: one for every language.
    func insertDailyOfAnOlderBuildForTesting(day: String, number: Int, quizId: Int64) async throws {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO daily (day, number, quizId, chosenAt) VALUES (?, ?, ?, '2026-11-20T00:00:00Z')",
                arguments: [day, number, quizId])
        }
    }

    /// Every kept tally that differs from a recount of the rows, one line each; empty when all agree.
    func tallyMismatchesForTesting() async throws -> [String] {
        try await read { db in
            var mismatches: [String] = []
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT package.id,
                           t.plays, (SELECT COUNT(*) FROM play WHERE play.packageId = package.id) AS countedPlays,
                           t.serverAttempts,
                           (SELECT COUNT(*) FROM attempt JOIN play ON play.id = attempt.playId
                            WHERE play.packageId = package.id AND play.playerId IS NOT NULL) AS countedAttempts,
                           t.serverSolves,
                           (SELECT COALESCE(SUM(attempt.correct), 0) FROM attempt JOIN play ON play.id = attempt.playId
                            WHERE play.packageId = package.id AND play.playerId IS NOT NULL) AS countedSolves
                    FROM package LEFT JOIN packageTally t ON t.packageId = package.id
                    """)
            where row["plays"] as Int? != row["countedPlays"] as Int
                || row["serverAttempts"] as Int? != row["countedAttempts"] as Int
                || row["serverSolves"] as Int? != row["countedSolves"] as Int
            {
                mismatches.append("package \(row["id"] as Int64): kept \(row) ")
            }
            mismatches += try String.fetchAll(
                db,
                sql: """
                    SELECT 'scores of package ' || packageId || ' at ' || score || ': kept ' || kept || ', counted ' || counted
                    FROM (
                        SELECT packageId, score, SUM(kept) AS kept, SUM(counted) AS counted FROM (
                            SELECT packageId, score, plays AS kept, 0 AS counted FROM leaderboardScore
                            UNION ALL
                            SELECT packageId, score, 0, 1 FROM play
                            WHERE ranked AND NOT EXISTS (SELECT 1 FROM bannedPlayer b WHERE b.playerId = play.playerId)
                        ) GROUP BY packageId, score
                    ) WHERE kept <> counted
                    """)
            mismatches += try String.fetchAll(
                db,
                sql: """
                    SELECT 'quiz ' || quizId || ' at stage ' || stage || ': kept ' || ka || '/' || ks || '/' || kh
                           || ', counted ' || ca || '/' || cs || '/' || ch
                    FROM (
                        SELECT quizId, stage, SUM(ka) AS ka, SUM(ks) AS ks, SUM(kh) AS kh,
                               SUM(ca) AS ca, SUM(cs) AS cs, SUM(ch) AS ch
                        FROM (
                            SELECT quizId, stage, attempts AS ka, solved AS ks, hinted AS kh, 0 AS ca, 0 AS cs, 0 AS ch
                            FROM quizStageTally
                            UNION ALL
                            SELECT quizId, stageReached, 0, 0, 0, 1, correct, hintsUsed > 0 FROM attempt
                        ) GROUP BY quizId, stage
                    ) WHERE ka <> ca OR ks <> cs OR kh <> ch
                    """)
            mismatches += try String.fetchAll(
                db,
                sql: """
                    SELECT 'player ' || playerId || ': kept ' || kp || '/' || kpt || '/' || kpl || '/' || ks
                           || ', counted ' || cp || '/' || cpt || '/' || cpl || '/' || cs
                    FROM (
                        SELECT playerId, SUM(kp) AS kp, SUM(kpt) AS kpt, SUM(kpl) AS kpl, SUM(ks) AS ks,
                               SUM(cp) AS cp, SUM(cpt) AS cpt, SUM(cpl) AS cpl, SUM(cs) AS cs
                        FROM (
                            SELECT playerId, plays AS kp, points AS kpt, played AS kpl, solved AS ks,
                                   0 AS cp, 0 AS cpt, 0 AS cpl, 0 AS cs
                            FROM playerTally
                            UNION ALL
                            SELECT playerId, 0, 0, 0, 0, 1, COALESCE(score, 0),
                                   (SELECT COUNT(*) FROM attempt WHERE attempt.playId = play.id),
                                   (SELECT COALESCE(SUM(correct), 0) FROM attempt WHERE attempt.playId = play.id)
                            FROM play WHERE playerId IS NOT NULL AND publicId IS NOT NULL
                        ) GROUP BY playerId
                    ) WHERE kp <> cp OR kpt <> cpt OR kpl <> cpl OR ks <> cs
                    """)
            mismatches += try String.fetchAll(
                db,
                sql: """
                    SELECT 'player ' || playerId || ' at stage ' || stage || ': kept ' || kept || ', counted ' || counted
                    FROM (
                        SELECT playerId, stage, SUM(kept) AS kept, SUM(counted) AS counted FROM (
                            SELECT playerId, stage, solved AS kept, 0 AS counted FROM playerStageTally
                            UNION ALL
                            SELECT play.playerId, attempt.stageReached, 0, 1 FROM attempt JOIN play ON play.id = attempt.playId
                            WHERE play.playerId IS NOT NULL AND play.publicId IS NOT NULL AND attempt.correct
                        ) GROUP BY playerId, stage
                    ) WHERE kept <> counted
                    """)
            return mismatches
        }
    }

    /// The leaderboard as the window functions over every ranked play computed it before the tallies: the reference
    /// the indexed reads must agree with.
    func leaderboardByWindowFunctionsForTesting(packageId: Int64, limit: Int, playerId: Int64?) async throws -> RankedPlays {
        try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    WITH board AS (
                        SELECT play.playerId, player.name, play.score, play.elapsedSeconds, play.finishedAt,
                               RANK() OVER (ORDER BY play.score DESC, play.elapsedSeconds ASC) AS rank,
                               ROW_NUMBER() OVER (
                                   ORDER BY play.score DESC, play.elapsedSeconds ASC, play.finishedAt ASC, play.id ASC
                               ) AS position
                        FROM play JOIN player ON player.id = play.playerId
                        WHERE play.packageId = ? AND play.ranked
                          AND NOT EXISTS (SELECT 1 FROM bannedPlayer b WHERE b.playerId = play.playerId)
                    )
                    SELECT * FROM board ORDER BY position
                    """,
                arguments: [packageId])
            var board = RankedPlays(top: [], mine: nil, rankedPlays: rows.count)
            for row in rows {
                let entry = LeaderboardEntry(
                    rank: row["rank"], playerId: row["playerId"], player: row["name"], score: row["score"],
                    elapsedSeconds: row["elapsedSeconds"], finishedAt: row["finishedAt"])
                if (row["position"] as Int) <= limit { board.top.append(entry) }
                if entry.playerId == playerId { board.mine = entry }
                board.scoreCounts[entry.score, default: 0] += 1
            }
            return board
        }
    }

    /// SQLite's plan for each read that must not grow with the data, by name, with `packageId` for those of one
    /// package: the details of `EXPLAIN QUERY PLAN`, one step a line.
    func queryPlansForTesting(packageId: Int64) async throws -> [String: String] {
        try await read { db in
            func plan(_ sql: String, _ arguments: StatementArguments) throws -> String {
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                    .map { $0["detail"] as String }.joined(separator: "\n")
            }
            var plans: [String: String] = [:]
            for (name, query) in AppDatabase.growthBoundedReads(packageId: packageId) {
                plans[name] = try plan(query.sql, query.arguments)
            }
            return plans
        }
    }
}

extension AppDatabase {
    /// Runs a script of several statements outside any transaction (one that opens its own), as `sqlite3` would.
    func executeScriptForTesting(_ sql: String) throws {
        try writer.writeWithoutTransaction { db in try db.execute(sql: sql) }
    }
}
