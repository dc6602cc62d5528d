import Foundation
import UQuizStorage

/// Databases made and dropped on a server: for tests (a fresh database per test) and developer tools.
public enum PostgresAdmin {
    /// Creates database `name` on the server of `url` (connecting to `url`'s own database to do it).
    public static func createDatabase(_ name: String, on url: String) throws {
        try run("CREATE DATABASE \(try quoted(name))", on: url)
    }

    /// Drops database `name`, closing whatever connections are still open to it.
    public static func dropDatabase(_ name: String, on url: String) throws {
        try run("DROP DATABASE IF EXISTS \(try quoted(name)) WITH (FORCE)", on: url)
    }

    /// `url` with another database: to open the database made by `createDatabase`.
    public static func url(_ url: String, database: String) throws -> String {
        try PostgresURL(url).with(database: database).connectionString
    }

    private static func run(_ sql: String, on url: String) throws {
        let pool = ConnectionPool(url: try PostgresURL(url), maxConnections: 1)
        defer { pool.close() }
        try PostgresQuizStore.mapped { try pool.withConnection { try $0.execute(sql) } }
    }

    /// Database names are identifiers made by the caller: letters, digits and `_` only, so no quoting can go wrong.
    private static func quoted(_ name: String) throws -> String {
        guard !name.isEmpty, name.count <= 63, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { throw StoreError.refused(detail: "database name \"\(name)\": letters, digits and _ only") }
        return "\"\(name)\""
    }
}
