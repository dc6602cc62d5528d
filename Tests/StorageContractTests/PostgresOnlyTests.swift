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
    @Test func instancesOpeningOneFreshDatabaseAtOnceMigrateAndSeedOnce() async throws {
        try await FreshPostgresDatabase.with { database in
            let instances = 4
            // Each instance a store of its own, prepared at the same moment as the others.
            let results = await withTaskGroup(of: Result<(seeded: Bool, packages: Int), any Error>.self) { group in
                for _ in 0..<instances {
                    group.addTask {
                        await result {
                            try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline, migrating: false) { store in
                                let seeded = try await store.prepare(seedContent: { try repositorySeed.content() })
                                let packages = try await store.publicPackages(.init(), after: nil, limit: 10_000).count
                                return (seeded: seeded, packages: packages)
                            }
                        }
                    }
                }
                var results: [Result<(seeded: Bool, packages: Int), any Error>] = []
                for await result in group { results.append(result) }
                return results
            }
            let failures = results.compactMap { result -> String? in
                guard case .failure(let error) = result else { return nil }
                return "\(error)"
            }
            let answers = results.compactMap { try? $0.get() }
            #expect(failures.isEmpty, "\(failures)")
            #expect(answers.filter(\.seeded).count == 1)
            let seedPackages = try repositorySeed.content().packages.count
            #expect(answers.map(\.packages) == Array(repeating: seedPackages, count: instances))
            // Looked at as it is: the migrations are those the instances applied.
            let applied = try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline, migrating: false) { store in
                try await store.appliedMigrations()
            }
            #expect(applied == PostgresQuizStore.knownMigrations)
        }
    }

    /// A statement on a connection the server has closed fails at once with `unavailable` (a server answers 503; a
    /// transaction's BEGIN then starts again on a new connection), instead of waiting for ever: postgres-nio drops a
    /// write to a closed channel and never answers it.
    @Test func aStatementOnAConnectionTheServerClosedFailsAtOnce() async throws {
        try await PostgresQuizStore.withRunningForTesting(
            url: try postgresServerURL(), maxConnections: 1, queryTimeout: 1, deadline: testDeadline, migrating: false
        ) { store in
            try await store.withSessionForTesting { session in
                await #expect(throws: StoreError.self) {
                    try await session.execute("SELECT pg_terminate_backend(pg_backend_pid())")
                }
                let closing = Date().addingTimeInterval(10)
                while !session.connection.isClosed && Date() < closing { try await Task.sleep(for: .milliseconds(10)) }
                #expect(session.connection.isClosed, "the server's close reached the client")
                nonisolated(unsafe) let lent = session
                let detail = await unavailableDetail(within: 10) { try await lent.execute("SELECT 1") }
                // Not the query timeout's "no answer to a statement within 1 s": said at once.
                #expect(detail?.hasSuffix(": the server closed the connection") == true, "\(String(describing: detail))")
            }
            #expect(await store.answers(), "the next call is served on a new connection")
        }
    }

    /// A statement unanswered past the store's query timeout fails with `unavailable` (the timeout closes its
    /// connection, or fails the wait itself if the driver would never answer), and the connection is not lent again.
    @Test func aStatementPastTheQueryTimeoutFailsAndItsConnectionIsDropped() async throws {
        try await PostgresQuizStore.withRunningForTesting(
            url: try postgresServerURL(), maxConnections: 1, queryTimeout: 1, deadline: testDeadline, migrating: false
        ) { store in
            let first = try await store.backendProcessForTesting()
            try await store.withSessionForTesting { session in
                // pg_sleep(5) ends well within the server's statement_timeout: only the client's timeout fails it.
                await #expect {
                    try await session.execute("SELECT pg_sleep(5)")
                } throws: { error in
                    guard case StoreError.unavailable = error else { return false }
                    return true
                }
                #expect(session.broken)
            }
            let next = try await store.backendProcessForTesting()
            #expect(next != first, "a new connection serves")
        }
    }

    @Test func aDatabaseFromANewerBuildIsRefusedBeforeAnythingIsWritten() async throws {
        try await FreshPostgresDatabase.with { database in
            try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline) { store in
                try await store.recordMigrationForTesting("pg99-from-the-future")
            }
            let redacted = try PostgresURL(database.url).redacted
            await #expect(throws: StoreError.newerSchema(path: redacted, unknownMigrations: ["pg99-from-the-future"])) {
                try await PostgresQuizStore.withRunning(
                    url: database.url, seedContent: { try repositorySeed.content() }
                ) { _ in }
            }
            try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline, migrating: false) { reopened in
                // Refused before seeding: still no package.
                let packages = try await reopened.publicPackages(.init(), after: nil, limit: 10)
                #expect(packages.isEmpty)
            }
        }
    }

    @Test func urlsAreParsedAndRedacted() async throws {
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

    /// Preparing (migrating) fails fast; a storage call of a running store fails within about its deadline; neither
    /// says the password.
    @Test func anUnreachableServerFailsFastWithoutThePassword() async throws {
        let unreachable = "postgres://ann:hunter2-secret@127.0.0.1:1/quiz"
        func check(_ error: any Error) {
            guard case StoreError.unavailable(let detail) = error else {
                Issue.record("expected unavailable, got \(error)")
                return
            }
            #expect(detail.contains("postgres://ann@127.0.0.1:1/quiz"), "\(detail)")
            #expect(!"\(error)".contains("hunter2-secret"))
            #expect(!String(reflecting: error).contains("hunter2-secret"))
        }

        // Preparing needs no running pool: it connects on its own, and a refused connection is said as a refusal, not
        // after waiting for connect timeouts and retries. (Said by what it says rather than by a clock: every suite
        // starts at this moment too, and a loaded machine took 16 s for what takes milliseconds alone.)
        let unprepared = try PostgresQuizStore(url: unreachable)
        do {
            try await unprepared.prepare(seedContent: nil)
            Issue.record("connected to port 1")
        } catch {
            check(error)
            #expect(!"\(error)".contains("timed out") && "\(error)".lowercased().contains("refused"), "\(error)")
        }

        try await PostgresQuizStore.withRunning(url: unreachable, deadline: StoreDeadline(.seconds(1)), migrating: false) { store in
            let called = ContinuousClock.now
            do {
                _ = try await store.player(tokenHash: tokenHash(1))
                Issue.record("connected to port 1")
            } catch {
                check(error)
            }
            // As above: alone this is about the 1 s deadline; the bound tells it from a hang, on a machine every
            // suite loads at once (10.8 s was seen there).
            #expect(ContinuousClock.now - called < .seconds(30), "within the deadline and the machine's load, never a hang")
        }
    }

    /// A role that must give its password (the cluster of `.ci/postgres` asks it of `uquiz_password_test` alone).
    @Test func aWrongPasswordIsReportedWithoutIt() async throws {
        let server = try postgresServerURL()
        // The test's own set-up, on a cluster busy with every other test: more than the standard deadline.
        try await PostgresQuizStore.withRunning(url: server, deadline: StoreDeadline(.seconds(30)), migrating: false) { admin in
            try await admin.ensurePasswordRoleForTesting(name: "uquiz_password_test", password: "right-password")
        }
        let wrong = try PostgresURL(server).with(user: "uquiz_password_test", password: "wrong-PASSWORD-42").connectionString
        do {
            try await PostgresQuizStore.withRunning(url: wrong) { _ in }
            Issue.record("the server accepted a wrong password: is its pg_hba.conf the one `.ci/postgres` writes?")
        } catch {
            #expect(!"\(error)".contains("wrong-PASSWORD-42"))
            #expect(!String(reflecting: error).contains("wrong-PASSWORD-42"))
            #expect("\(error)".contains("uquiz_password_test@"))
        }
    }

    /// The server ends every connection of the store (as a restart does): the next calls reconnect by themselves.
    @Test func deadConnectionsAreReplaced() async throws {
        try await FreshPostgresDatabase.with { database in
            try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline) { store in
                let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
                let ended = try await PostgresQuizStore.withRunning(url: database.serverURL, deadline: testDeadline, migrating: false) { admin in
                    try await admin.terminateConnectionsForTesting(database: database.name)
                }
                #expect(ended >= 1)
                // A call may meet a connection the server just closed: it fails as unavailable, never hangs (the
                // store's deadline), and the one after it is served on a new connection.
                var answers: [Bool] = []
                for _ in 0..<3 { answers.append((try? await store.player(tokenHash: tokenHash(1))) == ann) }
                #expect(answers.last == true)
                #expect(answers.filter { !$0 }.count <= 1)
            }
        }
    }
}

/// Failures of the server itself, on a cluster of the test's own (`.ci/postgres`), since they would disturb the
/// tests sharing UQUIZ_TEST_POSTGRES_URL's server.
@Suite struct PostgresAvailabilityTests {
    @Test func aRestartedDatabaseFailsFastThenServesAgainByItself() async throws {
        _ = try postgresServerURL()  // Same requirement as every PostgreSQL test: the machine has a server to run.
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        // Migrated and filled under the tests' deadline: on a machine running every suite at once, that alone may
        // take longer than the one second the test is about.
        let ann = try await PostgresQuizStore.withRunning(url: cluster.url, deadline: testDeadline) { setup in
            try await setup.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
        }
        let deadline = StoreDeadline(.seconds(1))
        try await PostgresQuizStore.withRunning(url: cluster.url, deadline: deadline, migrating: false) { store in
            try await answersAgain(store, within: .seconds(30), "before the pause")

            try cluster.run("pause")
            for _ in 0..<3 {
                let started = ContinuousClock.now
                let detail = await unavailableDetail(within: 10) { try await store.player(tokenHash: tokenHash(1)) }
                #expect(detail?.hasPrefix("postgres://") == true, "\(String(describing: detail))")
                // Within about the deadline, however many dead connections the pool held.
                #expect(ContinuousClock.now - started < deadline.duration + .seconds(1))
            }
            #expect(await store.answers() == false)

            try cluster.run("resume")
            // Nothing is restarted: the pool connects again by itself (after its backoff, so a bounded wait; the
            // bound is the machine's load, the backoff itself is seconds).
            try await answersAgain(store, within: .seconds(30), "after the resume")
            var found: Player?
            let limit = ContinuousClock.now + .seconds(30)
            while found == nil, ContinuousClock.now < limit {
                found = try? await store.player(tokenHash: tokenHash(1))
                if found == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(found == ann)
        }
    }

    /// Every connection busy: a call waits a bounded time for one (the store's deadline), fails as unavailable, and
    /// the pool serves again once the connection is given back.
    @Test func aPoolWithNoFreeConnectionFailsFast() async throws {
        try await FreshPostgresDatabase.with { database in
            // Migrated and filled under the tests' deadline: on a machine running every suite, that alone may take
            // longer than the one second the test is about.
            let ann = try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline) { setup in
                try await setup.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            }
            let deadline = StoreDeadline(.seconds(1))
            try await PostgresQuizStore.withRunning(url: database.url, maxConnections: 1, deadline: deadline, migrating: false) { store in
                let (holding, held) = AsyncStream.makeStream(of: Void.self)
                let (releasing, release) = AsyncStream.makeStream(of: Void.self)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // Whatever happens below, the holder lets go before the group waits for it.
                    defer { release.finish() }
                    group.addTask {
                        // Also said if the holder fails to get the connection: then the call below is served, and
                        // this test fails instead of waiting.
                        defer { held.finish() }
                        try await store.withSessionForTesting { _ in
                            held.finish()
                            for await _ in releasing {}
                        }
                    }
                    for await _ in holding {}
                    let started = ContinuousClock.now
                    let detail = await unavailableDetail(within: 10) { try await store.player(tokenHash: tokenHash(1)) }
                    #expect(detail?.hasPrefix(store.redactedURL) == true, "\(String(describing: detail))")
                    let waited = ContinuousClock.now - started
                    #expect(waited >= deadline.duration * 0.9 && waited < deadline.duration + .seconds(1), "\(waited)")
                    release.finish()
                    try await group.waitForAll()
                }
                #expect(try await store.player(tokenHash: tokenHash(1)) == ann)
            }
        }
    }
}

/// A server process that stops answering (frozen, or cut off) cannot end a statement itself: the client does.
@Suite struct PostgresUnansweredTests {
    @Test func aFrozenConnectionIsReplacedAndAStatementNobodyAnswersWritesNothing() async throws {
        try await FreshPostgresDatabase.with { database in
            try await PostgresQuizStore.withRunningForTesting(url: database.url, maxConnections: 1, queryTimeout: 1) { store in
                let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
                let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
                try await store.insertOpenPlay(
                    openRecord(id: "p1", player: ann, packageId: id, quizIds: try await store.quizIDs(packageId: id)), maxOpen: 5)

                // The one server process behind the pool's connection freezes between calls (the test runs as root):
                // the next call's BEGIN goes unanswered, the connection is closed after the query timeout, and the
                // call is served on a new one within the store's deadline, nothing having been sent but BEGIN.
                let first = try await store.backendProcessForTesting()
                #expect(kill(first, SIGSTOP) == 0)
                defer { kill(first, SIGCONT) }
                let started = ContinuousClock.now
                let served = await outcome(within: 10) { try await store.player(tokenHash: tokenHash(1)) }
                #expect(try served?.get() == ann, "\(String(describing: served))")
                let waited = ContinuousClock.now - started
                #expect(waited >= .milliseconds(900) && waited < .seconds(3), "\(waited)")
                #expect(try await store.backendProcessForTesting() != first)

                // It freezes inside a transaction: the statement after it fails as unavailable, and nothing of it is
                // kept.
                let second = try await store.backendProcessForTesting()
                defer { kill(second, SIGCONT) }
                let refused = await unavailableDetail(within: 10) {
                    try await store.updateOpenPlay(id: "p1") { record in
                        var record = record
                        record.events.append(.init(kind: .skip, quiz: 1, atMicros: 42))
                        kill(second, SIGSTOP)
                        return ((), .keep(record))
                    }
                }
                #expect(refused != nil)
                kill(second, SIGCONT)
                #expect(try await store.openPlay(id: "p1")?.events.isEmpty == true)
            }
        }
    }
}

/// The detail of the `StoreError.unavailable` that `call` fails with within `seconds`: `nil`, with an issue recorded,
/// for anything else (an answer, another error, or nothing by then, so that a wait that never ends fails the test
/// instead of hanging the suite).
/// Waits, a bounded time, until the store's pool answers again.
private func answersAgain(_ store: PostgresQuizStore, within bound: Duration, _ when: String) async throws {
    let limit = ContinuousClock.now + bound
    while !(await store.answers()), ContinuousClock.now < limit { try await Task.sleep(for: .milliseconds(100)) }
    #expect(await store.answers(), "the pool answers \(when)")
}

private func unavailableDetail<T: Sendable>(
    within seconds: Double, sourceLocation: SourceLocation = #_sourceLocation,
    _ call: @escaping @Sendable () async throws -> T
) async -> String? {
    let answer = await outcome(within: seconds, call)
    guard case .failure(StoreError.unavailable(let detail))? = answer else {
        Issue.record("expected unavailable within \(seconds) s, got \(String(describing: answer))", sourceLocation: sourceLocation)
        return nil
    }
    return detail
}

/// What `body` gives, or `nil` when it has given nothing within `seconds` (it is then cancelled and left to end on
/// its own): a wait that never ends fails the test instead of hanging the suite.
private func outcome<T: Sendable>(
    within seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error>? {
    let once = Once()
    return await withCheckedContinuation { (caller: CheckedContinuation<Result<T, any Error>?, Never>) in
        let work = Task {
            let answer = await result(of: body)
            if once.claim() { caller.resume(returning: answer) }
        }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            if once.claim() {
                work.cancel()
                caller.resume(returning: nil)
            }
        }
    }
}

/// True for the first caller of `claim()` only.
private final class Once: Sendable {
    private let claimed = Mutex(false)

    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}

/// The outcome of an async throwing call.
private func result<T>(of body: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
