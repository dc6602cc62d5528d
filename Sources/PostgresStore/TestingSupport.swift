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

    /// The migrations the database records, in the order applied.
    func appliedMigrations() async throws -> [String] {
        try await read { session in
            try await session.query("SELECT name FROM uquiz_migration ORDER BY applied_at, name").map { try $0.string("name") }
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
