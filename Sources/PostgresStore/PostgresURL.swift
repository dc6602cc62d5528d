import Foundation
import UQuizStorage

/// A connection URL, `postgres://user[:password]@host[:port]/database` (or `postgresql://`), read into its parts.
/// The password is kept for connecting only: `redacted` is what every message, log line and error names instead.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    var password: String?
    public var host: String
    public var port: Int
    public var database: String

    public init(_ text: String) throws {
        // Never echo `text` back: it may hold the password.
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw StoreError.cannotCreate(
                path: "postgres URL", reason: "it is not of the form postgres://user[:password]@host[:port]/database")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StoreError.cannotCreate(path: "postgres URL", reason: "it names no user (postgres://user@host/database)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw StoreError.cannotCreate(path: "postgres URL", reason: "it names no host (postgres://user@host/database)")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw StoreError.cannotCreate(path: "postgres URL", reason: "it names no database (postgres://user@host/database)")
        }
        self.user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? user
        self.password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        self.host = host
        self.port = components.port ?? 5432
        self.database = database.removingPercentEncoding ?? database
    }

    /// `postgres://user@host:port/database`: the URL without its password, for messages.
    public var redacted: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    public var description: String { redacted }

    /// The same server and credentials, another database: for tests that create a database per test.
    public func with(database: String) -> PostgresURL {
        var copy = self
        copy.database = database
        return copy
    }

    /// The same server and database as another user: for tests of credentials.
    public func with(user: String, password: String?) -> PostgresURL {
        var copy = self
        copy.user = user
        copy.password = password
        return copy
    }

    /// The URL with its password, to hand to another process (never to print).
    public var connectionString: String {
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? text }
        let credentials = password.map { "\(encode(user)):\(encode($0))" } ?? encode(user)
        return "postgres://\(credentials)@\(host):\(port)/\(database)"
    }
}
