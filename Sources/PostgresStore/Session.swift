import Foundation
import Logging
internal import NIOCore
internal import NIOPosix
internal import PostgresNIO
import Synchronization
import UQuizStorage

/// A value bound to a statement's `$n`.
enum Bind {
    case int(Int64?)
    case text(String?)
    case double(Double?)
    case bool(Bool?)
    case bytes(Data?)

    static func int(_ value: Int) -> Bind { .int(Int64(value)) }
    static func int(_ value: Int?) -> Bind { .int(value.map(Int64.init)) }
}

extension PostgresBindings {
    init(_ values: [Bind]) {
        self.init(capacity: values.count)
        for value in values {
            switch value {
            case .int(let v): append(v)
            case .text(let v): append(v)
            case .double(let v): append(v)
            case .bool(let v): append(v)
            case .bytes(let v): append(v.map { ByteBuffer(bytes: $0) })
            }
        }
    }
}

/// A statement run on most requests (a play read, a play start, a guess stored): prepared by the server once per
/// connection and then only bound and run, where a statement sent as text is parsed and planned each time, which on
/// a short statement costs PostgreSQL more than running it (measured with pgbench on a lookup by primary key: twice
/// the statements a second prepared). Each is a type of its own, since postgres-nio names a prepared statement by its
/// type.
protocol PreparedSQL: PostgresPreparedStatement where Row == PostgresRow {
    var values: [Bind] { get }
}

extension PreparedSQL {
    func makeBindings() throws -> PostgresBindings { PostgresBindings(values) }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// One row of a result, read by column name.
struct Row {
    fileprivate let row: PostgresRandomAccessRow

    private func decode<T: PostgresDecodable>(_ column: String, as type: T.Type) throws -> T {
        do {
            return try row[column].decode(T.self)
        } catch {
            throw StoreError.corrupt(path: "postgres", detail: "column \(column) is not \(T.self)")
        }
    }

    func int64(_ column: String) throws -> Int64 { try decode(column, as: Int64.self) }
    func int64OrNil(_ column: String) throws -> Int64? { try decode(column, as: Int64?.self) }
    func int(_ column: String) throws -> Int { Int(try int64(column)) }
    func intOrNil(_ column: String) throws -> Int? { try int64OrNil(column).map(Int.init) }
    func string(_ column: String) throws -> String { try decode(column, as: String.self) }
    func stringOrNil(_ column: String) throws -> String? { try decode(column, as: String?.self) }
    func double(_ column: String) throws -> Double { try decode(column, as: Double.self) }
    func doubleOrNil(_ column: String) throws -> Double? { try decode(column, as: Double?.self) }
    func bool(_ column: String) throws -> Bool { try decode(column, as: Bool.self) }
    func data(_ column: String) throws -> Data {
        var buffer = try decode(column, as: ByteBuffer.self)
        return buffer.readData(length: buffer.readableBytes) ?? Data()
    }
}

/// One connection, for the length of one call: statements with `$1`, `$2`… placeholders and their values. Used by
/// one task at a time (a transaction's statements run one after the other).
///
/// Every statement ends, whatever the server does: with its answer, with `StoreError.unavailable` once `queryTimeout`
/// has passed (the connection is then closed: a server that stopped answering, frozen or cut off by the network,
/// cannot end the statement by its own `statement_timeout`), or at once when the calling task is cancelled (the store's
/// deadline passed; the connection is closed too, so that nothing of the abandoned call is committed later).
final class Session {
    let connection: PostgresConnection
    let url: PostgresURL
    private let queryTimeout: TimeInterval
    private let logger: Logger
    /// The connection is in an unknown state (a statement unanswered or cut short, a failed ROLLBACK): it is closed
    /// when the call ends rather than lent again.
    private(set) var broken = false
    private var savepoints = 0

    init(connection: PostgresConnection, url: PostgresURL, queryTimeout: TimeInterval, logger: Logger) {
        self.connection = connection
        self.url = url
        self.queryTimeout = queryTimeout
        self.logger = logger
    }

    @discardableResult
    func query(_ sql: String, _ values: [Bind] = []) async throws -> [Row] {
        let statement = PostgresQuery(unsafeSQL: sql, binds: PostgresBindings(values))
        return try await answer { connection, logger, settle in
            connection.query(statement, logger: logger).whenComplete { result in settle(result.map { $0.rows }) }
        }
    }

    /// Runs a statement prepared once per connection (see `PreparedSQL`).
    @discardableResult
    func query<Statement: PreparedSQL>(_ statement: Statement) async throws -> [Row] {
        try await answer { connection, logger, settle in
            // postgres-nio runs prepared statements only through its async API.
            Task {
                do {
                    var rows: [PostgresRow] = []
                    for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                    settle(.success(rows))
                } catch {
                    settle(.failure(error))
                }
            }
        }
    }

    func one<Statement: PreparedSQL>(_ statement: Statement) async throws -> Row? {
        try await query(statement).first
    }

    /// Sends a statement with `send` and waits for whichever comes first: the driver's answer (handed to `send`'s
    /// last argument), the timeout or the task's cancellation. Closing the connection alone is not enough: a statement
    /// written to a connection the server had just closed (a restart) is never answered by the driver, and closing a
    /// closed connection does nothing.
    private func answer(
        _ send: (PostgresConnection, Logger, @escaping @Sendable (Result<[PostgresRow], any Error>) -> Void) -> Void
    ) async throws -> [Row] {
        let connection = self.connection
        // Said at once when the server's close is already known; the timeout below covers a close that comes after.
        guard !connection.isClosed else {
            broken = true
            throw StoreError.unavailable(detail: "\(url.redacted): the server closed the connection")
        }
        let (url, seconds, logger) = (self.url, queryTimeout, self.logger)
        let answer = connection.eventLoop.makePromise(of: [PostgresRow].self)
        let settled = FirstOutcome()
        do {
            let rows = try await withTaskCancellationHandler {
                var timer: Scheduled<Void>?
                if !Task.isCancelled {
                    timer = connection.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1_000_000_000))) {
                        // Claimed before closing, which fails the statement with a vaguer error.
                        if settled.claim() {
                            answer.fail(StoreError.unavailable(
                                detail: "\(url.redacted): no answer to a statement within \(Self.seconds(seconds))"))
                        }
                        Self.close(connection)
                    }
                    send(connection, logger) { result in
                        if settled.claim() { answer.completeWith(result) }
                    }
                }
                defer { timer?.cancel() }
                return try await answer.futureResult.get()
            } onCancel: {
                if settled.claim() { answer.fail(CancellationError()) }
                Self.close(connection)
            }
            return rows.map { Row(row: $0.makeRandomAccess()) }
        } catch {
            let mapped = PostgresFailure.map(error, url: url, connecting: false)
            if case StoreError.unavailable = mapped { broken = true }
            throw mapped
        }
    }

    func execute(_ sql: String, _ values: [Bind] = []) async throws {
        try await query(sql, values)
    }

    func one(_ sql: String, _ values: [Bind] = []) async throws -> Row? {
        try await query(sql, values).first
    }

    /// Runs `body` inside a savepoint: what it wrote is undone when it throws, and the transaction goes on.
    func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        savepoints += 1
        let name = "s\(savepoints)"
        try await execute("SAVEPOINT \(name)")
        do {
            let value = try await body()
            try await execute("RELEASE SAVEPOINT \(name)")
            return value
        } catch {
            do { try await execute("ROLLBACK TO SAVEPOINT \(name)") } catch { broken = true }
            throw error
        }
    }

    /// Ends the transaction without writing anything; a connection that cannot is marked broken.
    func rollback() async {
        guard !broken, !connection.isClosed else { return }
        do { try await execute("ROLLBACK") } catch { broken = true }
    }

    /// Closes the connection and waits until it is closed, so that a pool it goes back to knows it is gone.
    func closeConnection() async {
        broken = true
        let closing: EventLoopFuture<Void> = connection.close()
        try? await closing.get()
    }

    /// Closes a connection without waiting (the caller may be on its event loop).
    static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Lets only the first of several racing outcomes through (a statement's answer, its timeout, a cancellation).
private final class FirstOutcome: Sendable {
    private let done = Mutex(false)

    func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

extension PostgresURL {
    /// How long opening a connection may take: a server that does not accept one by then is unavailable.
    static let connectTimeout: Duration = .seconds(1)

    /// A statement or a row lock that waits this long is a database in trouble: the server ends it rather than hold
    /// the caller. A transaction whose client sends nothing for 5 s (its process frozen or stalled mid-transaction) is
    /// ended by the server, so the rows it locked (a room holder's leases) do not hold everyone else for ever. TLS is
    /// off: the database is reached on a private network.
    static let startupParameters = [
        ("statement_timeout", "15000"), ("lock_timeout", "10000"), ("idle_in_transaction_session_timeout", "5000"),
        ("application_name", "uquiz"),
    ]

    /// The settings of a single connection (migrations, administration).
    var connectionConfiguration: PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: .disable)
        let (seconds, attoseconds) = Self.connectTimeout.components
        configuration.options.connectTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        configuration.options.additionalStartupParameters = Self.startupParameters
        return configuration
    }

    /// The settings of the store's pool of at most `maxConnections` connections.
    func clientConfiguration(maxConnections: Int) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: .disable)
        configuration.options.connectTimeout = Self.connectTimeout
        configuration.options.additionalStartupParameters = Self.startupParameters
        configuration.options.maximumConnections = max(1, maxConnections)
        return configuration
    }
}

/// A statement the server refused, with its SQLSTATE: kept apart from `StoreError` so that callers can act on a
/// constraint (a share code taken), and worded for the user by `PostgresFailure.word` at the boundary.
struct ServerRefusal: Error {
    var sqlState: String
    var constraint: String?
    var message: String
    var url: String

    var isUniqueViolation: Bool { sqlState == "23505" }
}

enum PostgresFailure {
    /// What a postgres-nio error means for the caller. The connection's configuration (and so the password) is never
    /// put in a message: only the redacted URL, the server's SQLSTATE and message, or the kind of network failure.
    static func map(_ error: any Error, url: PostgresURL, connecting: Bool) -> any Error {
        if error is StoreError || error is ServerRefusal { return error }
        // The call was given up (the store's deadline passed) while it waited for a connection or an answer.
        if error is CancellationError { return StoreError.unavailable(detail: "\(url.redacted): cancelled") }
        if let error = error as? PSQLError {
            switch error.code {
            case .server:
                let state = error.serverInfo?[.sqlState] ?? "?????"
                let message = error.serverInfo?[.message] ?? "refused"
                // Connection exceptions, the server shutting down or starting, too many connections, a statement or
                // lock timeout: the database is unavailable now, later it may not be.
                if state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" || state == "55P03"
                    || state == "57014" || state == "53000"
                {
                    return StoreError.unavailable(detail: "\(url.redacted): \(message) (\(state))")
                }
                if connecting {
                    // Bad credentials, a missing database: nothing will change by itself.
                    return StoreError.io(path: url.redacted, detail: "\(message) (\(state))")
                }
                return ServerRefusal(
                    sqlState: state, constraint: error.serverInfo?[.constraintName], message: message, url: url.redacted)
            case .serverClosedConnection:
                return StoreError.unavailable(detail: "\(url.redacted): the server closed the connection")
            case .clientClosedConnection:
                return StoreError.unavailable(detail: "\(url.redacted): the connection was closed")
            case .poolClosed:
                return StoreError.unavailable(detail: "\(url.redacted): the store is not running")
            case .queryCancelled:
                return StoreError.unavailable(detail: "\(url.redacted): cancelled")
            case .connectionError, .uncleanShutdown, .sslUnsupported, .messageDecodingFailure, .unexpectedBackendMessage:
                let cause = error.underlying.map { describe($0) } ?? "\(error.code)"
                return StoreError.unavailable(detail: "\(url.redacted): \(cause)")
            case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
                return StoreError.io(path: url.redacted, detail: "authentication failed (\(error.code))")
            default:
                return StoreError.io(path: url.redacted, detail: "\(error.code)")
            }
        }
        // NIO's own errors (refused, unreachable, timed out) and the pool's.
        return StoreError.unavailable(detail: "\(url.redacted): \(describe(error))")
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return "connect timed out"
            default: return "connection failed (\(error))"
            }
        }
        if let error = error as? IOError { return "connection failed (\(error.description))" }
        // Every address tried failed: what the first one said (refused, unreachable), not the wrapper's name.
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first { return describe(first.error) }
        // Only error types that carry no configuration are described in full; anything else by its type.
        return "connection failed (\(type(of: error)))"
    }

    /// A refusal that reached the store's boundary unhandled, as a `StoreError`.
    static func word(_ error: any Error) -> any Error {
        guard let refusal = error as? ServerRefusal else { return error }
        return StoreError.io(path: refusal.url, detail: "\(refusal.message) (\(refusal.sqlState))")
    }
}
