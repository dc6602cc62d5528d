import Foundation

/// Hooks for the storage contract tests (`@testable import PostgresStore`): states of a database that no use case
/// makes, made here so that the tests need no SQL of their own.
extension PostgresQuizStore {
    /// A migrated store whose statements time out on the client after `queryTimeout` seconds.
    static func openForTesting(url: String, maxConnections: Int, queryTimeout: TimeInterval) throws -> PostgresQuizStore {
        try openWithoutSeeding(url: url).close()
        return PostgresQuizStore(
            pool: ConnectionPool(url: try PostgresURL(url), maxConnections: maxConnections, queryTimeout: queryTimeout))
    }

    /// The server processes behind the pooled connections this call can reach (one with a pool of one).
    func backendProcessForTesting() throws -> Int32 {
        try read { session in Int32(try session.one("SELECT pg_backend_pid()::bigint AS pid")!.int64("pid")) }
    }

    /// The migrations the database records, in the order applied.
    func appliedMigrations() throws -> [String] {
        try read { session in
            try session.query("SELECT name FROM uquiz_migration ORDER BY applied_at, name").map { try $0.string("name") }
        }
    }

    /// Records a migration as applied, as a newer build would have.
    func recordMigrationForTesting(_ name: String) throws {
        try write { session in try session.execute("INSERT INTO uquiz_migration (name) VALUES ($1)", [.text(name)]) }
    }

    /// A login role with a password, made once per server (roles are server-wide).
    func ensurePasswordRoleForTesting(name: String, password: String) throws {
        try write { session in
            let exists = try session.one("SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS present", [.text(name)])!
            if try !exists.bool("present") {
                // Identifiers and literals cannot be bound: both come from the test itself, letters and dashes only.
                try session.execute("CREATE ROLE \(name) LOGIN PASSWORD '\(password)'")
            }
        }
    }

    /// Ends every other connection to `database`, as a server restart would; returns how many.
    func terminateConnectionsForTesting(database: String) throws -> Int {
        try write { session in
            try session.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                [.text(database)]
            ).count
        }
    }
}
