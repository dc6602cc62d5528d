import Foundation
import Logging
import UQuizStorage

/// Databases made and dropped on a server: for tests (a fresh database per test) and developer tools.
public enum PostgresAdmin {
    /// Creates database `name` on the server of `url` (connecting to `url`'s own database to do it).
    public static func createDatabase(_ name: String, on url: String) async throws {
        try await run("CREATE DATABASE \(try quoted(name))", on: url)
    }

    /// Drops database `name`, closing whatever connections are still open to it.
    public static func dropDatabase(_ name: String, on url: String) async throws {
        try await run("DROP DATABASE IF EXISTS \(try quoted(name)) WITH (FORCE)", on: url)
    }

    /// `url` with another database: to open the database made by `createDatabase`.
    public static func url(_ url: String, database: String) throws -> String {
        try PostgresURL(url).with(database: database).connectionString
    }

    /// One statement on a connection of its own (no pool to run), closed afterwards.
    private static func run(_ sql: String, on text: String) async throws {
        let url = try PostgresURL(text)
        let quiet = Logger(label: "uquiz.postgres.admin", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            try await PostgresQuizStore.withDirectSession(url: url, queryTimeout: 60, logger: quiet) { session in
                try await session.execute(sql)
            }
        } catch {
            throw PostgresFailure.word(error)
        }
    }

    /// Database names are identifiers made by the caller: letters, digits and `_` only, so no quoting can go wrong.
    private static func quoted(_ name: String) throws -> String {
        guard !name.isEmpty, name.count <= 63, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { throw StoreError.refused(detail: "database name \"\(name)\": letters, digits and _ only") }
        return "\"\(name)\""
    }
}
