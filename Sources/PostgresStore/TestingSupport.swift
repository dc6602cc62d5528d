import Foundation
import Logging
import UQuizStorage

/// Hooks for the storage contract tests (`@testable import PostgresStore`): states of a database that no use case
/// makes, and the store's connections seen closely, made here so that the tests need no SQL of their own.
extension PostgresQuizStore {
    /// `withRunning` with a store whose statements time out on the client after `queryTimeout` seconds (the
    /// connection is then closed), so that a test of an unanswered statement need not wait the standard 20 s.
    static func withRunningForTesting<T: Sendable>(
        url: String, maxConnections: Int, queryTimeout: TimeInterval, deadline: StoreDeadline = .standard,
        migrating: Bool = true, seedContent: (@Sendable () throws -> SeedContent)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresQuizStore) async throws -> T
    ) async throws -> T {
        let store = PostgresQuizStore(
            url: try PostgresURL(url), maxConnections: maxConnections, deadline: deadline, queryTimeout: queryTimeout,
            logger: Logger(label: "uquiz.postgres", factory: { _ in SwiftLogNoOpLogHandler() }))
        return try await store.whileRunning(migrating: migrating, seedContent: seedContent, isolation: isolation, body)
    }

    /// Lends one pooled connection to `body` as a session, outside any transaction and not bounded by the store's
    /// deadline (the test bounds it): a statement on it ends only by its answer, the query timeout or a cancellation.
    /// A connection `body` leaves broken is closed before it goes back to the pool.
    func withSessionForTesting<T: Sendable>(_ body: (Session) async throws -> T) async throws -> T {
        try await leased(body)
    }

    /// The server process behind the pooled connection this call gets (always the same one with a pool of one).
    func backendProcessForTesting() async throws -> Int32 {
        try await read { session in Int32(try await session.one("SELECT pg_backend_pid()::bigint AS pid")!.int64("pid")) }
    }

    /// The open plays as the tally of play starts says, and as counted.
    func openPlayTallyForTesting() async throws -> (tally: Int, counted: Int) {
        try await readTogether { session in
            let row = try await session.one(
                "SELECT (SELECT SUM(n) FROM open_play_tally)::bigint AS tally, (SELECT COUNT(*) FROM open_play) AS counted")!
            return (try row.int("tally"), try row.int("counted"))
        }
    }

    /// Migrates the database up to the migration named `last` (every one when `nil`), as an older build did.
    func migrateForTesting(through last: String?) async throws {
        try await Self.withDirectSession(url: url, queryTimeout: 60, logger: logger) { session in
            try await Migrations.migrate(session, url: url, through: last)
        }
    }

    /// The migrations the database records, in the order applied.
    func appliedMigrations() async throws -> [String] {
        try await read { session in
            try await session.query("SELECT name FROM uquiz_migration ORDER BY applied_at, name").map { try $0.string("name") }
        }
    }

    /// A day's daily quiz as a build before dailies per language stored it: one for every language.
    func insertDailyOfAnOlderBuildForTesting(day: String, number: Int, quizId: Int64) async throws {
        try await write { session in
            try await session.execute(
                "INSERT INTO daily (day, number, quiz_id, chosen_at) VALUES ($1, $2, $3, '2026-11-20T00:00:00Z')",
                [.text(day), .int(number), .int(quizId)])
        }
    }

        /// Records a migration as applied, as a newer build would have.
    func recordMigrationForTesting(_ name: String) async throws {
        try await write { session in try await session.execute("INSERT INTO uquiz_migration (name) VALUES ($1)", [.text(name)]) }
    }

    /// A login role with a password, made once per server (roles are server-wide).
    func ensurePasswordRoleForTesting(name: String, password: String) async throws {
        try await write { session in
            let exists = try await session.one("SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS present", [.text(name)])!
            if try !exists.bool("present") {
                // Identifiers and literals cannot be bound: both come from the test itself, letters and dashes only.
                try await session.execute("CREATE ROLE \(name) LOGIN PASSWORD '\(password)'")
            }
        }
    }

    /// Ends every other connection to `database`, as a server restart would; returns how many.
    func terminateConnectionsForTesting(database: String) async throws -> Int {
        try await write { session in
            try await session.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                [.text(database)]
            ).count
        }
    }
}

/// The kept tallies, the leaderboard and the plans of the reads that must not grow with the data, seen closely (as
/// QuizStore's TestingSupport.swift on SQLite).
extension PostgresQuizStore {
    /// Every kept tally that differs from a recount of the rows, one line each; empty when all agree.
    func tallyMismatchesForTesting() async throws -> [String] {
        try await readTogether { session in
            var mismatches = try await session.query(
                """
                SELECT 'package ' || package.id || ': kept ' || COALESCE(t.plays::text, 'nothing') || '/'
                       || COALESCE(t.server_attempts::text, '') || '/' || COALESCE(t.server_solves::text, '')
                       || ', counted ' || c.plays || '/' || c.attempts || '/' || c.solves AS line
                FROM package LEFT JOIN package_tally t ON t.package_id = package.id
                CROSS JOIN LATERAL (
                    SELECT (SELECT COUNT(*) FROM play WHERE play.package_id = package.id) AS plays,
                           COUNT(*) AS attempts, COUNT(*) FILTER (WHERE attempt.correct) AS solves
                    FROM attempt JOIN play ON play.id = attempt.play_id
                    WHERE play.package_id = package.id AND play.player_id IS NOT NULL
                ) c
                WHERE t.plays IS DISTINCT FROM c.plays OR t.server_attempts IS DISTINCT FROM c.attempts
                   OR t.server_solves IS DISTINCT FROM c.solves
                """
            ).map { try $0.string("line") }
            mismatches += try await session.query(
                """
                SELECT 'scores of package ' || COALESCE(k.package_id, c.package_id) || ' at '
                       || COALESCE(k.score, c.score) || ': kept ' || COALESCE(k.plays, 0) || ', counted '
                       || COALESCE(c.plays, 0) AS line
                FROM leaderboard_score k FULL JOIN (
                    SELECT package_id, score, COUNT(*) AS plays FROM play
                    WHERE ranked AND NOT EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = play.player_id)
                    GROUP BY package_id, score
                ) c ON c.package_id = k.package_id AND c.score = k.score
                WHERE COALESCE(k.plays, 0) <> COALESCE(c.plays, 0)
                """
            ).map { try $0.string("line") }
            mismatches += try await session.query(
                """
                SELECT 'quiz ' || COALESCE(k.quiz_id, c.quiz_id) || ' at stage ' || COALESCE(k.stage, c.stage)
                       || ': kept ' || COALESCE(k.attempts, 0) || '/' || COALESCE(k.solved, 0) || '/' || COALESCE(k.hinted, 0)
                       || ', counted ' || COALESCE(c.attempts, 0) || '/' || COALESCE(c.solved, 0) || '/'
                       || COALESCE(c.hinted, 0) AS line
                FROM quiz_stage_tally k FULL JOIN (
                    SELECT quiz_id, stage_reached AS stage, COUNT(*) AS attempts,
                           COUNT(*) FILTER (WHERE correct) AS solved, COUNT(*) FILTER (WHERE hints_used > 0) AS hinted
                    FROM attempt GROUP BY quiz_id, stage_reached
                ) c ON c.quiz_id = k.quiz_id AND c.stage = k.stage
                WHERE COALESCE(k.attempts, 0) <> COALESCE(c.attempts, 0) OR COALESCE(k.solved, 0) <> COALESCE(c.solved, 0)
                   OR COALESCE(k.hinted, 0) <> COALESCE(c.hinted, 0)
                """
            ).map { try $0.string("line") }
            mismatches += try await session.query(
                """
                SELECT 'player ' || COALESCE(k.player_id, c.player_id) || ': kept ' || COALESCE(k.plays, 0) || '/'
                       || COALESCE(k.points, 0) || '/' || COALESCE(k.played, 0) || '/' || COALESCE(k.solved, 0)
                       || ', counted ' || COALESCE(c.plays, 0) || '/' || COALESCE(c.points, 0) || '/'
                       || COALESCE(c.played, 0) || '/' || COALESCE(c.solved, 0) AS line
                FROM player_tally k FULL JOIN (
                    SELECT play.player_id, COUNT(*) AS plays, COALESCE(SUM(play.score), 0) AS points,
                           SUM((SELECT COUNT(*) FROM attempt WHERE attempt.play_id = play.id)) AS played,
                           SUM((SELECT COUNT(*) FILTER (WHERE correct) FROM attempt WHERE attempt.play_id = play.id)) AS solved
                    FROM play WHERE play.player_id IS NOT NULL AND play.public_id IS NOT NULL GROUP BY play.player_id
                ) c ON c.player_id = k.player_id
                WHERE COALESCE(k.plays, 0) <> COALESCE(c.plays, 0) OR COALESCE(k.points, 0) <> COALESCE(c.points, 0)
                   OR COALESCE(k.played, 0) <> COALESCE(c.played, 0) OR COALESCE(k.solved, 0) <> COALESCE(c.solved, 0)
                """
            ).map { try $0.string("line") }
            mismatches += try await session.query(
                """
                SELECT 'player ' || COALESCE(k.player_id, c.player_id) || ' at stage ' || COALESCE(k.stage, c.stage)
                       || ': kept ' || COALESCE(k.solved, 0) || ', counted ' || COALESCE(c.solved, 0) AS line
                FROM player_stage_tally k FULL JOIN (
                    SELECT play.player_id, attempt.stage_reached AS stage, COUNT(*) AS solved
                    FROM attempt JOIN play ON play.id = attempt.play_id
                    WHERE play.player_id IS NOT NULL AND play.public_id IS NOT NULL AND attempt.correct
                    GROUP BY play.player_id, attempt.stage_reached
                ) c ON c.player_id = k.player_id AND c.stage = k.stage
                WHERE COALESCE(k.solved, 0) <> COALESCE(c.solved, 0)
                """
            ).map { try $0.string("line") }
            return mismatches
        }
    }

    /// The leaderboard as the window functions over every ranked play computed it before the tallies.
    func leaderboardByWindowFunctionsForTesting(packageId: Int64, limit: Int, playerId: Int64?) async throws -> RankedPlays {
        try await read { session in
            let rows = try await session.query(
                """
                SELECT play.player_id, player.name, play.score, play.elapsed_seconds, play.finished_at,
                       RANK() OVER (ORDER BY play.score DESC, play.elapsed_seconds ASC) AS rank,
                       ROW_NUMBER() OVER (
                           ORDER BY play.score DESC, play.elapsed_seconds ASC, play.finished_at COLLATE "C" ASC, play.id ASC
                       ) AS position
                FROM play JOIN player ON player.id = play.player_id
                WHERE play.package_id = $1 AND play.ranked
                  AND NOT EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = play.player_id)
                ORDER BY position
                """, [.int(packageId)])
            var board = RankedPlays(top: [], mine: nil, rankedPlays: rows.count)
            for row in rows {
                let entry = LeaderboardEntry(
                    rank: try row.int("rank"), playerId: try row.int64("player_id"), player: try row.string("name"),
                    score: try row.int("score"), elapsedSeconds: try row.double("elapsed_seconds"),
                    finishedAt: try row.string("finished_at"))
                if try row.int("position") <= limit { board.top.append(entry) }
                if entry.playerId == playerId { board.mine = entry }
                board.scoreCounts[entry.score, default: 0] += 1
            }
            return board
        }
    }

    /// PostgreSQL's plan for each read that must not grow with the data, by name (`EXPLAIN`, one line a node).
    func queryPlansForTesting(packageId: Int64) async throws -> [String: String] {
        try await readTogether { session in
            var plans: [String: String] = [:]
            for (name, query) in Self.growthBoundedReads(packageId: packageId) {
                plans[name] = try await session.query("EXPLAIN " + query.sql, query.values)
                    .map { try $0.string("QUERY PLAN") }.joined(separator: "\n")
            }
            return plans
        }
    }
}
