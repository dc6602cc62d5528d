import Foundation
import Synchronization
import Testing
import UQuizTestSupport

/// `uquiz serve` on a PostgreSQL of the test's own that is stopped and started again under load: while it is down,
/// requests fail fast with 503 and Retry-After; once it is back they succeed again without restarting the server, and
/// every write the server said it made is there, and no other.
@Suite("uquiz serve through a PostgreSQL restart")
struct PostgresFaultTests {
    struct Answer: Sendable {
        var status: Int
        var retryAfter: String?
        var started: Date
        var ended: Date
        /// curl's exit status: 0, or why no answer came (28: its time limit; 7: no connection; 52, 56: closed).
        var curlExit: Int32 = 0
        var seconds: Double { ended.timeIntervalSince(started) }
    }

    /// Four clients making players as fast as they can (rate limits off), on threads of their own, until stopped.
    final class Load: Sendable {
        let answers = Mutex<[Answer]>([])
        private let stopped = Atomic(false)
        private let group = DispatchGroup()

        init(registeringAt baseURL: String) {
            for _ in 0..<4 {
                DispatchQueue.global().async(group: group) { [self] in
                    while !stopped.load(ordering: .relaxed) {
                        let answer = PostgresFaultTests.register(at: baseURL)
                        answers.withLock { $0.append(answer) }
                    }
                }
            }
        }

        /// Stops the clients and waits for their last requests.
        func stop() {
            stopped.store(true, ordering: .relaxed)
            group.wait()
        }
    }

    /// One POST /v1/players with curl: status, Retry-After, and how long it took. curl waits 40 s, twice the server's own
    /// bound on a statement (the pool's query timeout, 20 s), so no answer from curl means the server hung or cut the
    /// connection, never that the two timed out together.
    static func register(at baseURL: String) -> Answer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = [
            "--silent", "--include", "--max-time", "40", "--header", "Content-Type: application/json", "--data",
            "{\"name\": \"Load\"}", baseURL + "/v1/players",
        ]
        let output = Pipe()
        process.standardOutput = output
        let started = Date()
        guard (try? process.run()) != nil else { return Answer(status: 0, started: started, ended: Date(), curlExit: -1) }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let retryAfter = lines.first { $0.lowercased().hasPrefix("retry-after:") }
            .map { $0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces) }
        return Answer(
            status: status, retryAfter: retryAfter, started: started, ended: Date(), curlExit: process.terminationStatus)
    }

    @Test func aRestartIsAnswered503FastAndTheServerRecoversByItselfLosingNothing() throws {
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        let home = try Sandbox()
        // Limits off: four clients from one address make players as fast as they can.
        let server = try ServeCommandTests.RunningServer(
            sandbox: home, database: cluster.url, options: ["--rate-limits", "off"])
        let baseURL = server.baseURL
        let load = Load(registeringAt: baseURL)
        /// Waits until `count` answers were sent after `since` (generous limits: this machine is shared).
        func waitForAnswers(_ count: Int, sentAfter since: Date, within seconds: Double) {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, load.answers.withLock({ $0.filter { $0.started > since }.count }) < count {
                usleep(20_000)
            }
        }
        waitForAnswers(20, sentAfter: .distantPast, within: 30)
        let pausing = Date()
        try cluster.run("pause")
        let paused = Date()
        waitForAnswers(20, sentAfter: paused, within: 60)
        let resuming = Date()
        try cluster.run("resume")
        // Back: it recovers by itself; wait for the first success, then for a run of answers sent after it.
        let deadline = Date().addingTimeInterval(30)
        var recovered: Date?
        while Date() < deadline, recovered == nil {
            recovered = load.answers.withLock { $0.filter { $0.started > resuming && $0.status == 201 }.map(\.ended).min() }
            usleep(20_000)
        }
        waitForAnswers(20, sentAfter: recovered ?? Date(), within: 30)
        load.stop()

        // Answers that overlap a pause or a resume may go either way; the others may not.
        let all = load.answers.withLock { $0 }
        let up = all.filter { $0.ended < pausing }
        #expect(!up.isEmpty && up.allSatisfy { $0.status == 201 }, "\(up.map(\.status))")
        let down = all.filter { $0.started > paused && $0.ended < resuming }
        #expect(down.count >= 10, "the database was down for \(down.count) requests")
        #expect(down.allSatisfy { $0.status == 503 && $0.retryAfter != nil }, "\(down.map { ($0.status, $0.retryAfter) })")
        let slowest = down.map(\.seconds).max() ?? 0
        #expect(slowest < 5, "a refusal takes at most the pool's wait and a connect timeout, not a hang: \(slowest) s")
        let recoveredAt = try #require(recovered, "it recovered without a restart")
        let back = all.filter { $0.started > recoveredAt }
        #expect(!back.isEmpty && back.allSatisfy { $0.status == 201 }, "\(back.map(\.status))")
        let unanswered = all.filter { ![201, 503].contains($0.status) }
        #expect(unanswered.isEmpty, "\(unanswered.map { "status \($0.status), curl exit \($0.curlExit) after \($0.seconds) s" })")

        let made = all.filter { $0.status == 201 }.count
        #expect(try cluster.value("SELECT COUNT(*) FROM player") == "\(made)", "every 201 is one player, every 503 none")
        #expect(server.terminate() == 0)
    }

    /// Times of `count` GET requests to `url` sent one after another on one connection, as curl measures each
    /// (`time_total`, in seconds): what a client waits, without the cost of starting curl.
    static func probeTimes(_ url: String, count: Int) -> [Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--max-time", "30", "--write-out", "%{http_code} %{time_total}\\n"]
            + Array(repeating: ["--output", "/dev/null", url], count: count).flatMap { $0 }
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return [] }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[0] == "200" else { return nil }
            return Double(parts[1])
        }
    }

    /// A database that stops answering altogether (every process of it SIGSTOPped: it accepts nothing and says
    /// nothing) holds no thread of the server: liveness answers at once while requests that need the database wait,
    /// those get 503 with Retry-After by the database deadline, and once the database answers again the server serves
    /// without a restart.
    @Test func aFrozenDatabaseStallsNeitherHealthNorTheDeadlineAndTheServerRecovers() throws {
        let cluster = try PrivateCluster()
        defer {
            try? cluster.run("thaw")
            cluster.stop()
        }
        let home = try Sandbox()
        let deadline = 1.0
        let server = try ServeCommandTests.RunningServer(
            sandbox: home, database: cluster.url,
            options: ["--rate-limits", "off", "--db-deadline", "\(Int(deadline * 1000))"])
        let baseURL = server.baseURL
        #expect(Self.register(at: baseURL).status == 201)
        try cluster.run("freeze")
        // Four requests stuck on the database, more than the server has cooperative threads.
        let stuck = Mutex<[Answer]>([])
        let group = DispatchGroup()
        for _ in 0..<4 {
            DispatchQueue.global().async(group: group) {
                let answer = Self.register(at: baseURL)
                stuck.withLock { $0.append(answer) }
            }
        }
        let probes = Self.probeTimes(baseURL + "/healthz", count: 100)
        group.wait()
        try cluster.run("thaw")

        #expect(probes.count == 100, "every probe answered 200")
        let slowest = probes.max() ?? .infinity
        #expect(slowest < 0.05, "the slowest of 100 probes took \(slowest) s")
        let refused = stuck.withLock { $0 }
        #expect(refused.count == 4 && refused.allSatisfy { $0.status == 503 && $0.retryAfter != nil }, "\(refused.map(\.status))")
        let longest = refused.map(\.seconds).max() ?? .infinity
        #expect(longest < deadline + 1.5, "a stuck request was answered after \(longest) s, the deadline being \(deadline) s")
        // Thawed: served again by itself, well within a few deadlines.
        let recoveryDeadline = Date().addingTimeInterval(30)
        var status = 0
        while Date() < recoveryDeadline, status != 201 { status = Self.register(at: server.baseURL).status }
        #expect(status == 201, "the server serves again after the database came back")
        #expect(server.terminate() == 0)
    }

    /// `--db-connections` bounds the connections an instance's calls use: under four clients at once with a bound of
    /// one, the server's sessions on the database never pass that one and the session that listens for package changes,
    /// and every request is answered (the others wait their turn for the connection).
    @Test func anInstanceKeepsAtMostItsDatabaseConnections() throws {
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        let home = try Sandbox()
        let server = try ServeCommandTests.RunningServer(
            sandbox: home, database: cluster.url, options: ["--rate-limits", "off", "--db-connections", "1"])
        let load = Load(registeringAt: server.baseURL)
        var most = 0
        while load.answers.withLock({ $0.count }) < 200 {
            let sessions = try cluster.value(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'uquiz' AND pid <> pg_backend_pid()")
            most = max(most, Int(sessions) ?? .max)
        }
        load.stop()
        let answers = load.answers.withLock { $0 }
        #expect(answers.allSatisfy { $0.status == 201 }, "\(Set(answers.map(\.status)))")
        #expect(most >= 1 && most <= 2, "the server held \(most) sessions at once")
        #expect(server.terminate() == 0)
    }

    /// SIGTERM while four clients make players as fast as they can: every request the server had taken gets its
    /// answer, what it answered 201 is stored, and the process exits within 10 s.
    ///
    /// A request the server never took ends without a status: refused a connection once the listener is closed
    /// (curl's 7), reset by the kernel because it still waited in the listener's backlog when that closed (56), or
    /// closed by the server before it had read the request (52). Those the client may send
    /// again; that none of them was taken is checked by the store, which holds exactly one player per 201.
    @Test func sigtermUnderLoadLosesNoRequestInFlight() throws {
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        let home = try Sandbox()
        let server = try ServeCommandTests.RunningServer(sandbox: home, database: cluster.url, options: ["--rate-limits", "off"])
        let baseURL = server.baseURL
        let load = Load(registeringAt: baseURL)
        let warmUp = Date().addingTimeInterval(30)
        while Date() < warmUp, load.answers.withLock({ $0.count }) < 20 { usleep(20_000) }
        let signalled = Date()
        kill(server.process.processIdentifier, SIGTERM)
        let bound = Date().addingTimeInterval(20)
        while Date() < bound, server.process.isRunning { usleep(20_000) }
        let exited = Date()
        load.stop()

        #expect(!server.process.isRunning && server.process.terminationStatus == 0)
        #expect(exited.timeIntervalSince(signalled) < 10, "exited \(exited.timeIntervalSince(signalled)) s after SIGTERM")
        let all = load.answers.withLock { $0 }
        let neverTaken: Set<Int32> = [7, 52, 56]
        let lost = all.filter { $0.status != 201 && !($0.status == 0 && neverTaken.contains($0.curlExit)) }
        #expect(lost.isEmpty, "\(lost.map { "status \($0.status), curl exit \($0.curlExit)" })")
        #expect(all.contains { $0.started > signalled || $0.ended > signalled }, "requests were in flight at SIGTERM")
        let made = all.filter { $0.status == 201 }.count
        #expect(try cluster.value("SELECT COUNT(*) FROM player") == "\(made)", "every 201 is one stored player")
    }
}
