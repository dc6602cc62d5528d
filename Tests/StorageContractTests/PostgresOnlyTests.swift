import Foundation
@testable import PostgresStore
import QuizStore
import UQuizStorage
import Synchronization
import Testing
import UQuizTestSupport

/// What only the PostgreSQL store has: one migration and seed for instances starting at once, refusing a newer
/// schema, no password in any error, and a database that goes away and comes back.
@Suite struct PostgresOnlyTests {
    @Test func instancesOpeningOneFreshDatabaseAtOnceMigrateAndSeedOnce() throws {
        let database = try FreshPostgresDatabase()
        defer { database.drop() }
        let instances = 4
        let results = ResultLog()
        DispatchQueue.concurrentPerform(iterations: instances) { _ in
            do {
                let (store, seeded) = try PostgresQuizStore.open(url: database.url, seedContent: { try repositorySeed.content() })
                results.add(seeded: seeded, packages: try store.publicPackages(.init(), after: nil, limit: 10_000).count)
                store.close()
            } catch {
                results.fail("\(error)")
            }
        }
        #expect(results.failures.isEmpty)
        #expect(results.seeded.filter { $0 }.count == 1)
        let seedPackages = try repositorySeed.content().packages.count
        #expect(results.packages == Array(repeating: seedPackages, count: instances))
        let store = try PostgresQuizStore.openWithoutSeeding(url: database.url)
        defer { store.close() }
        #expect(try store.appliedMigrations() == PostgresQuizStore.knownMigrations)
    }

    /// A statement on a connection the server has closed fails at once with `unavailable` (a server answers 503; a
    /// transaction's BEGIN then starts again on a new connection), instead of waiting for ever: postgres-nio drops a
    /// write to a closed channel and never answers it.
    @Test func aStatementOnAConnectionTheServerClosedFailsAtOnce() throws {
        let pool = ConnectionPool(url: try PostgresURL(try postgresServerURL()), maxConnections: 1, queryTimeout: 1)
        defer { pool.close() }
        try pool.withConnection { session in
            #expect(throws: StoreError.self) { try session.execute("SELECT pg_terminate_backend(pg_backend_pid())") }
            let deadline = Date().addingTimeInterval(10)
            while !session.connection.isClosed && Date() < deadline { usleep(10_000) }
            #expect(session.connection.isClosed, "the server's close reached the client")
            // On a thread of its own, so that a wait that never ends fails this test instead of hanging the suite.
            let outcome = Outcome()
            nonisolated(unsafe) let lent = session
            Thread.detachNewThread {
                outcome.set(Result { try lent.execute("SELECT 1") })
            }
            let result = outcome.wait(seconds: 10)
            guard case .failure(StoreError.unavailable(let detail))? = result else {
                Issue.record("expected unavailable, got \(String(describing: result))")
                return
            }
            #expect(detail.hasSuffix(": the server closed the connection"), "\(detail)")
        }
    }

    /// A statement unanswered past the pool's query timeout fails with `unavailable` (the timeout closes its
    /// connection, or fails the wait itself if the driver would never answer), and the connection is not lent again.
    @Test func aStatementPastTheQueryTimeoutFailsAndItsConnectionIsDropped() throws {
        let pool = ConnectionPool(url: try PostgresURL(try postgresServerURL()), maxConnections: 1, queryTimeout: 1)
        defer { pool.close() }
        try pool.withConnection { session in
            #expect {
                try session.execute("SELECT pg_sleep(5)")
            } throws: { error in
                guard case StoreError.unavailable = error else { return false }
                return true
            }
            #expect(session.broken)
        }
        #expect(try pool.withConnection { try $0.one("SELECT 1 AS one")?.int("one") } == 1, "a new connection serves")
    }

    @Test func aDatabaseFromANewerBuildIsRefusedBeforeAnythingIsWritten() throws {
        let database = try FreshPostgresDatabase()
        defer { database.drop() }
        let store = try PostgresQuizStore.openWithoutSeeding(url: database.url)
        try store.recordMigrationForTesting("pg99-from-the-future")
        store.close()
        let redacted = try PostgresURL(database.url).redacted
        #expect(throws: StoreError.newerSchema(path: redacted, unknownMigrations: ["pg99-from-the-future"])) {
            _ = try PostgresQuizStore.open(url: database.url, seedContent: { try repositorySeed.content() })
        }
        let reopened = try PostgresQuizStore.openWithoutSeeding(url: database.url, migrating: false)
        defer { reopened.close() }
        // Refused before seeding: still no package.
        #expect(try reopened.publicPackages(.init(), after: nil, limit: 10).isEmpty)
    }

    @Test func urlsAreParsedAndRedacted() throws {
        #expect(try PostgresURL("postgres://ann:pa%3Ass@db.example:6543/quiz").redacted == "postgres://ann@db.example:6543/quiz")
        #expect(try PostgresURL("postgresql://ann@localhost/quiz").redacted == "postgres://ann@localhost:5432/quiz")
        for bad in ["mysql://ann@host/db", "postgres://host/db", "postgres://ann:secret-pw@host/", "not a url"] {
            do {
                _ = try PostgresURL(bad)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(!"\(error)".contains("secret-pw"))
            }
        }
    }

    @Test func anUnreachableServerFailsFastWithoutThePassword() throws {
        let started = Date()
        do {
            _ = try PostgresQuizStore.openWithoutSeeding(url: "postgres://ann:hunter2-secret@127.0.0.1:1/quiz")
            Issue.record("connected to port 1")
        } catch let error as StoreError {
            guard case .unavailable(let detail) = error else {
                Issue.record("expected unavailable, got \(error)")
                return
            }
            #expect(detail.contains("postgres://ann@127.0.0.1:1/quiz"))
            #expect(!"\(error)".contains("hunter2-secret"))
            #expect(!String(reflecting: error).contains("hunter2-secret"))
        }
        #expect(Date().timeIntervalSince(started) < 2)
    }

    /// A role that must give its password (the cluster of `.ci/postgres` asks it of `uquiz_password_test` alone).
    @Test func aWrongPasswordIsReportedWithoutIt() throws {
        let server = try postgresServerURL()
        let admin = try FreshPostgresDatabase()
        defer { admin.drop() }
        let store = try PostgresQuizStore.openWithoutSeeding(url: admin.url)
        try store.ensurePasswordRoleForTesting(name: "uquiz_password_test", password: "right-password")
        store.close()
        let wrong = try PostgresURL(server).with(user: "uquiz_password_test", password: "wrong-PASSWORD-42").connectionString
        do {
            _ = try PostgresQuizStore.openWithoutSeeding(url: wrong)
            Issue.record("the server accepted a wrong password: is its pg_hba.conf the one `.ci/postgres` writes?")
        } catch {
            #expect(!"\(error)".contains("wrong-PASSWORD-42"))
            #expect(!String(reflecting: error).contains("wrong-PASSWORD-42"))
            #expect("\(error)".contains("uquiz_password_test@"))
        }
    }

    /// The server ends every connection of the store (as a restart does): the next calls reconnect by themselves.
    @Test func deadConnectionsAreReplaced() throws {
        let database = try FreshPostgresDatabase()
        defer { database.drop() }
        let store = try PostgresQuizStore.openWithoutSeeding(url: database.url)
        defer { store.close() }
        let ann = try store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
        let admin = try PostgresQuizStore.openWithoutSeeding(url: database.serverURL, migrating: false)
        defer { admin.close() }
        let ended = try admin.terminateConnectionsForTesting(database: database.name)
        #expect(ended >= 1)
        // A call may meet a connection the server just closed: it fails as unavailable, never hangs, and the one
        // after it is served on a new connection.
        var answers: [Bool] = []
        for _ in 0..<3 { answers.append((try? store.player(tokenHash: tokenHash(1))) == ann) }
        #expect(answers.last == true)
        #expect(answers.filter { !$0 }.count <= 1)
    }
}

final class ResultLog: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var seeded: [Bool] = []
    private(set) var packages: [Int] = []
    private(set) var failures: [String] = []
    func add(seeded: Bool, packages: Int) { lock.withLock { self.seeded.append(seeded); self.packages.append(packages) } }
    func fail(_ failure: String) { lock.withLock { failures.append(failure) } }
}

/// Failures of the server itself, on a cluster of the test's own (`.ci/postgres`), since they would disturb the
/// tests sharing UQUIZ_TEST_POSTGRES_URL's server.
@Suite struct PostgresAvailabilityTests {
    @Test func aRestartedDatabaseFailsFastThenServesAgainByItself() throws {
        _ = try postgresServerURL()  // Same requirement as every PostgreSQL test: the machine has a server to run.
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        let store = try PostgresQuizStore.openWithoutSeeding(url: cluster.url)
        defer { store.close() }
        let ann = try store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())

        try cluster.run("pause")
        for _ in 0..<3 {
            let started = Date()
            #expect {
                _ = try store.player(tokenHash: tokenHash(1))
            } throws: { error in
                guard case StoreError.unavailable(let detail) = error else { return false }
                return detail.hasPrefix("postgres://")
            }
            #expect(Date().timeIntervalSince(started) < 2)
        }
        #expect(!store.answers())

        try cluster.run("resume")
        #expect(try store.player(tokenHash: tokenHash(1)) == ann)
        #expect(store.answers())
    }

    /// Every connection busy: a call waits a bounded time for one, fails as unavailable, and the pool serves again once
    /// the connection is given back.
    @Test func aPoolWithNoFreeConnectionFailsFast() throws {
        let database = try FreshPostgresDatabase()
        defer { database.drop() }
        let store = try PostgresQuizStore.openWithoutSeeding(url: database.url, maxConnections: 1)
        defer { store.close() }
        let ann = try store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
        let (id, _) = try publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
        try store.insertOpenPlay(openRecord(id: "p1", player: ann, packageId: id, quizIds: try store.quizIDs(packageId: id)), maxOpen: 5)

        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? store.updateOpenPlay(id: "p1") { record in
                holding.signal()
                release.wait()
                return ((), .keep(record))
            }
            done.signal()
        }
        holding.wait()
        let started = Date()
        #expect {
            _ = try store.player(tokenHash: tokenHash(1))
        } throws: { error in
            guard case StoreError.unavailable(let detail) = error else { return false }
            return detail.contains("busy")
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 1.5 && waited < 3)
        release.signal()
        done.wait()
        #expect(try store.player(tokenHash: tokenHash(1)) == ann)
    }
}

/// A server process that stops answering (frozen, or cut off) cannot end a statement itself: the client does.
@Suite struct PostgresUnansweredTests {
    @Test func aFrozenConnectionIsReplacedAndAStatementNobodyAnswersWritesNothing() throws {
        let database = try FreshPostgresDatabase()
        defer { database.drop() }
        let store = try PostgresQuizStore.openForTesting(url: database.url, maxConnections: 1, queryTimeout: 1)
        defer { store.close() }
        let ann = try store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
        let (id, _) = try publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
        try store.insertOpenPlay(openRecord(id: "p1", player: ann, packageId: id, quizIds: try store.quizIDs(packageId: id)), maxOpen: 5)

        // The one server process behind the pool's connection freezes between calls (the test runs as root): the
        // next call's BEGIN goes unanswered, the connection is closed after the timeout, and the call is served on a
        // new one, nothing having been sent but BEGIN.
        let first = try store.backendProcessForTesting()
        #expect(kill(first, SIGSTOP) == 0)
        defer { kill(first, SIGCONT) }
        let started = Date()
        #expect(try store.player(tokenHash: tokenHash(1)) == ann)
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.9 && waited < 3)
        #expect(try store.backendProcessForTesting() != first)

        // It freezes inside a transaction: the statement after it fails as unavailable, and nothing of it is kept.
        let second = try store.backendProcessForTesting()
        defer { kill(second, SIGCONT) }
        #expect {
            try store.updateOpenPlay(id: "p1") { record in
                var record = record
                record.events.append(.init(kind: .skip, quiz: 1, atMicros: 42))
                kill(second, SIGSTOP)
                return ((), .keep(record))
            }
        } throws: { error in
            guard case StoreError.unavailable = error else { return false }
            return true
        }
        kill(second, SIGCONT)
        #expect(try store.openPlay(id: "p1")?.events.isEmpty == true)
    }
}

/// The result of work on another thread, waited for with a limit.
private final class Outcome: Sendable {
    private let result = Mutex<Result<Void, any Error>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    func set(_ value: Result<Void, any Error>) {
        result.withLock { $0 = value }
        finished.signal()
    }

    /// `nil` when nothing came within `seconds`.
    func wait(seconds: Double) -> Result<Void, any Error>? {
        _ = finished.wait(timeout: .now() + seconds)
        return result.withLock { $0 }
    }
}
