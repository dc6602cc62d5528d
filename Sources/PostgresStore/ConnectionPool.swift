import Foundation
import Logging
internal import NIOCore
internal import NIOPosix
internal import PostgresNIO
import UQuizStorage
import Synchronization

/// A few `PostgresConnection`s on NIO's event loops, lent one at a time to synchronous callers.
///
/// Why synchronous with `.wait()`: the storage protocols are synchronous (the SQLite store is), and their callers run on
/// Swift concurrency's cooperative threads (2 on this machine) or on plain threads, never on an event loop. A call
/// blocks its thread while an event-loop thread does the I/O, and event-loop threads never wait for anything here, so
/// they cannot deadlock with the callers. What bounds a caller's wait: at most `slotWait` for a free connection, the
/// connect timeout for a new one, and the server-side `statement_timeout`/`lock_timeout` for a statement; past any of
/// them the call fails with `StoreError.unavailable` and nothing is written.
final class ConnectionPool: @unchecked Sendable {
    let url: PostgresURL
    let maxConnections: Int
    let slotWait: TimeInterval
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    // Guards `idle`, `open` and `nextID`; callers waiting for a connection sleep on it.
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var nextID = 0
    private var closed = false

    /// How long a statement may go unanswered before its connection is closed: a server that stopped answering
    /// altogether (frozen, cut off by the network) cannot end it by `statement_timeout`, so the client does.
    let queryTimeout: TimeInterval

    init(
        url: PostgresURL, maxConnections: Int, slotWait: TimeInterval = 2, connectTimeout: TimeInterval = 1,
        queryTimeout: TimeInterval = 20
    ) {
        self.url = url
        self.maxConnections = max(1, maxConnections)
        self.slotWait = slotWait
        self.queryTimeout = queryTimeout
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: .disable)
        configuration.options.connectTimeout = .milliseconds(Int64(connectTimeout * 1000))
        // A statement or a row lock that waits this long is a database in trouble: fail rather than hold the caller.
        configuration.options.additionalStartupParameters = [
            ("statement_timeout", "15000"), ("lock_timeout", "10000"), ("application_name", "uquiz"),
        ]
        self.configuration = configuration
        var logger = Logger(label: "uquiz.postgres")
        logger.logLevel = .critical
        self.logger = logger
    }

    deinit {
        for connection in idle { Self.closeWithoutWaiting(connection) }
    }

    /// Closes a connection without blocking (the caller may be anywhere), keeping it alive until it is closed:
    /// postgres-nio asserts that a connection is closed when it goes away.
    static func closeWithoutWaiting(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Lends a connection to `body`; a connection that broke meanwhile is closed and replaced by the next caller.
    func withConnection<T>(_ body: (Session) throws -> T) throws -> T {
        try withConnection(retryingStale: false, body)
    }

    /// One transaction: BEGIN, `body`, COMMIT; anything thrown rolls it back (nothing is written) and is rethrown.
    /// An idle connection the server closed meanwhile (a restart, an idle timeout) is found out by BEGIN, before
    /// anything is sent: the transaction then starts once more on a new connection instead of failing.
    func transaction<T>(_ body: (Session) throws -> T) throws -> T {
        try withConnection(retryingStale: true) { session in
            do {
                let value = try body(session)
                try session.execute("COMMIT")
                return value
            } catch {
                session.rollback()
                throw error
            }
        }
    }

    private struct StaleConnection: Error {}

    private func withConnection<T>(retryingStale: Bool, _ body: (Session) throws -> T) throws -> T {
        var retried = false
        while true {
            let (connection, reused) = try acquire()
            let session = Session(connection: connection, pool: self)
            do {
                defer { release(connection, healthy: !session.broken && !connection.isClosed) }
                if retryingStale {
                    do {
                        try session.execute("BEGIN")
                    } catch StoreError.unavailable where reused && !retried {
                        // The server dropped it (a restart): the other idle ones went the same way.
                        session.markBroken()
                        closeIdle()
                        throw StaleConnection()
                    }
                }
                return try body(session)
            } catch is StaleConnection {
                retried = true
                continue
            }
        }
    }

    func close() {
        condition.lock()
        closed = true
        condition.unlock()
        closeIdle()
    }

    /// Closes the connections nobody is using; new ones are opened as needed.
    private func closeIdle() {
        condition.lock()
        let connections = idle
        idle = []
        open -= connections.count
        condition.broadcast()
        condition.unlock()
        for connection in connections {
            let closing: EventLoopFuture<Void> = connection.close()
            try? closing.wait()
        }
    }

    /// A connection and whether it was lent before (and so may have been closed by the server since).
    private func acquire() throws -> (PostgresConnection, reused: Bool) {
        let deadline = Date().addingTimeInterval(slotWait)
        condition.lock()
        while true {
            while let connection = idle.popLast() {
                if !connection.isClosed {
                    condition.unlock()
                    return (connection, true)
                }
                open -= 1
            }
            if open < maxConnections {
                open += 1
                nextID += 1
                let id = nextID
                condition.unlock()
                do {
                    return (try connect(id: id), false)
                } catch {
                    condition.lock()
                    open -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw StoreError.unavailable(
                    detail: "\(url.redacted): all \(maxConnections) connections busy for \(Int(slotWait)) s")
            }
        }
    }

    private func connect(id: Int) throws -> PostgresConnection {
        do {
            return try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: id, logger: logger
            ).wait()
        } catch {
            throw PostgresFailure.map(error, url: url, connecting: true)
        }
    }

    private func release(_ connection: PostgresConnection, healthy: Bool) {
        condition.lock()
        if healthy && !closed {
            idle.append(connection)
        } else {
            open -= 1
        }
        condition.signal()
        condition.unlock()
        if !healthy || closed { Self.closeWithoutWaiting(connection) }
    }
}

/// Lets only the first of several racing outcomes through (a statement's answer or its timeout).
private final class FirstOutcome: Sendable {
    private let done = Mutex(false)

    func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

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

/// A connection lent by the pool: statements with `$1`, `$2`… placeholders and their values.
final class Session {
    let connection: PostgresConnection
    private let pool: ConnectionPool
    /// The connection is in an unknown state (a failed ROLLBACK, a lost reply): the pool closes it rather than lend it.
    fileprivate(set) var broken = false
    private var savepoints = 0

    fileprivate init(connection: PostgresConnection, pool: ConnectionPool) {
        self.connection = connection
        self.pool = pool
    }

    @discardableResult
    func query(_ sql: String, _ values: [Bind] = []) throws -> [Row] {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .int(let v): bindings.append(v)
            case .text(let v): bindings.append(v)
            case .double(let v): bindings.append(v)
            case .bool(let v): bindings.append(v)
            case .bytes(let v): bindings.append(v.map { ByteBuffer(bytes: $0) })
            }
        }
        let connection = self.connection
        // Said at once when the server's close is already known; the timeout below covers a close that comes after.
        guard !connection.isClosed else {
            broken = true
            throw StoreError.unavailable(detail: "\(pool.url.redacted): the server closed the connection")
        }
        let running = connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: connection.logger)
        // The caller waits for whichever comes first: the driver's answer, or the timeout, which closes the connection
        // and fails the wait itself. Closing alone is not enough: a statement written to a connection the server had
        // just closed (a restart) is never answered by the driver, and closing a closed connection does nothing.
        let answer = connection.eventLoop.makePromise(of: PostgresQueryResult.self)
        let settled = FirstOutcome()
        running.whenComplete { result in
            if settled.claim() { answer.completeWith(result) }
        }
        let seconds = pool.queryTimeout
        let url = pool.url
        let deadline = connection.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
            ConnectionPool.closeWithoutWaiting(connection)
            if settled.claim() {
                answer.fail(StoreError.unavailable(detail: "\(url.redacted): no answer to a statement within \(Int(seconds)) s"))
            }
        }
        defer { deadline.cancel() }
        do {
            let result = try answer.futureResult.wait()
            return result.rows.map { Row(row: $0.makeRandomAccess()) }
        } catch {
            let mapped = PostgresFailure.map(error, url: pool.url, connecting: false)
            if case StoreError.unavailable = mapped { broken = true }
            throw mapped
        }
    }

    func execute(_ sql: String, _ values: [Bind] = []) throws {
        try query(sql, values)
    }

    func one(_ sql: String, _ values: [Bind] = []) throws -> Row? {
        try query(sql, values).first
    }

    /// Runs `body` inside a savepoint: what it wrote is undone when it throws, and the transaction goes on.
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepoints += 1
        let name = "s\(savepoints)"
        try execute("SAVEPOINT \(name)")
        do {
            let value = try body()
            try execute("RELEASE SAVEPOINT \(name)")
            return value
        } catch {
            do { try execute("ROLLBACK TO SAVEPOINT \(name)") } catch { broken = true }
            throw error
        }
    }

    func markBroken() { broken = true }

    fileprivate func rollback() {
        guard !broken, !connection.isClosed else { return }
        do { try execute("ROLLBACK") } catch { broken = true }
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
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
                .sslUnsupported, .messageDecodingFailure, .unexpectedBackendMessage:
                let cause = error.underlying.map { describe($0) } ?? "\(error.code)"
                return StoreError.unavailable(detail: "\(url.redacted): \(cause)")
            case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
                return StoreError.io(path: url.redacted, detail: "authentication failed (\(error.code))")
            default:
                return StoreError.io(path: url.redacted, detail: "\(error.code)")
            }
        }
        // NIO's own errors: refused, unreachable, timed out.
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
        // Only error types that carry no configuration are described in full; anything else by its type.
        return "connection failed (\(type(of: error)))"
    }

    /// A refusal that reached the store's boundary unhandled, as a `StoreError`.
    static func word(_ error: any Error) -> any Error {
        guard let refusal = error as? ServerRefusal else { return error }
        return StoreError.io(path: refusal.url, detail: "\(refusal.message) (\(refusal.sqlState))")
    }
}
