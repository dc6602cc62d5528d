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
        var seconds: Double
        var phase: Phase
    }

    enum Phase: Sendable { case up, down, back }

    /// One POST /v1/players with curl: status, Retry-After, and how long it took.
    static func register(at baseURL: String, phase: Phase) -> Answer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = [
            "--silent", "--include", "--max-time", "20", "--header", "Content-Type: application/json", "--data",
            "{\"name\": \"Load\"}", baseURL + "/v1/players",
        ]
        let output = Pipe()
        process.standardOutput = output
        let started = Date()
        guard (try? process.run()) != nil else { return Answer(status: 0, seconds: 0, phase: phase) }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let retryAfter = lines.first { $0.lowercased().hasPrefix("retry-after:") }
            .map { $0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces) }
        return Answer(status: status, retryAfter: retryAfter, seconds: Date().timeIntervalSince(started), phase: phase)
    }

    @Test func aRestartIsAnswered503FastAndTheServerRecoversByItselfLosingNothing() throws {
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        let home = try Sandbox()
        // Limits off: four clients from one address make players as fast as they can.
        let server = try ServeCommandTests.RunningServer(
            sandbox: home, database: cluster.url, options: ["--rate-limits", "off"])
        let baseURL = server.baseURL
        let phase = Mutex(Phase.up)
        let answers = Mutex<[Answer]>([])
        let stop = Atomic(false)
        let group = DispatchGroup()
        for _ in 0..<4 {
            DispatchQueue.global().async(group: group) {
                while !stop.load(ordering: .relaxed) {
                    let answer = Self.register(at: baseURL, phase: phase.withLock { $0 })
                    answers.withLock { $0.append(answer) }
                }
            }
        }
        func answered(_ count: Int, in wanted: Phase, within seconds: Double) {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, answers.withLock({ $0.filter { $0.phase == wanted }.count }) < count {
                usleep(20_000)
            }
        }
        answered(20, in: .up, within: 30)
        phase.withLock { $0 = .down }
        try cluster.run("pause")
        answered(20, in: .down, within: 60)
        try cluster.run("resume")
        phase.withLock { $0 = .back }
        // Back: it recovers by itself; wait for the first success, then for a run of answers after it.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !answers.withLock({ $0.contains { $0.phase == .back && $0.status == 201 } }) {
            usleep(20_000)
        }
        let seenBack = answers.withLock { $0.count }
        let settle = Date().addingTimeInterval(30)
        while Date() < settle, answers.withLock({ $0.count }) < seenBack + 20 { usleep(20_000) }
        stop.store(true, ordering: .relaxed)
        group.wait()

        let all = answers.withLock { $0 }
        let up = all.filter { $0.phase == .up }
        #expect(!up.isEmpty && up.allSatisfy { $0.status == 201 }, "\(up.map(\.status))")
        // Requests sent while it went down may still have made it; those after the stop are refused, quickly.
        let refused = all.filter { $0.phase == .down && $0.status != 201 }
        #expect(refused.count >= 10, "the database was down for \(refused.count) requests")
        #expect(refused.allSatisfy { $0.status == 503 && $0.retryAfter != nil }, "\(refused.map { ($0.status, $0.retryAfter) })")
        let slowest = refused.map(\.seconds).max() ?? 0
        #expect(slowest < 5, "a refusal takes at most the pool's wait and a connect timeout, not a hang: \(slowest) s")
        let tail = all.suffix(from: seenBack)
        #expect(!tail.isEmpty && tail.allSatisfy { $0.status == 201 }, "recovered without a restart: \(tail.map(\.status))")

        let made = all.filter { $0.status == 201 }.count
        #expect(try cluster.value("SELECT COUNT(*) FROM player") == "\(made)", "every 201 is one player, every 503 none")
        #expect(server.terminate() == 0)
    }
}
