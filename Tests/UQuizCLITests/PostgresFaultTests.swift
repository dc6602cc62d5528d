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
        let answers = Mutex<[Answer]>([])
        let stop = Atomic(false)
        let group = DispatchGroup()
        for _ in 0..<4 {
            DispatchQueue.global().async(group: group) {
                while !stop.load(ordering: .relaxed) {
                    let answer = Self.register(at: baseURL)
                    answers.withLock { $0.append(answer) }
                }
            }
        }
        /// Waits until `count` answers were sent after `since` (generous limits: this machine is shared).
        func waitForAnswers(_ count: Int, sentAfter since: Date, within seconds: Double) {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, answers.withLock({ $0.filter { $0.started > since }.count }) < count {
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
            recovered = answers.withLock { $0.filter { $0.started > resuming && $0.status == 201 }.map(\.ended).min() }
            usleep(20_000)
        }
        waitForAnswers(20, sentAfter: recovered ?? Date(), within: 30)
        stop.store(true, ordering: .relaxed)
        group.wait()

        // Answers that overlap a pause or a resume may go either way; the others may not.
        let all = answers.withLock { $0 }
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
}
