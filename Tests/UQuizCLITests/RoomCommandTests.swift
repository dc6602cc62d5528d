import Foundation
import Synchronization
import Testing
import UQuizTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A `uquiz` process the test talks to while it runs: lines written to its standard input, its standard output read
/// line by line as it comes.
final class ConversingProcess: @unchecked Sendable {
    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    /// What the process wrote, filled by the reading threads.
    private final class Collected: Sendable {
        let lines = Mutex<[String]>([])
        let errorText = Mutex("")
    }

    private let process: Process
    /// The user's home, kept while the process runs: a sandbox removes its folder when it goes.
    private let sandbox: Sandbox
    private let input = Pipe()
    private let collected = Collected()
    private let readers = DispatchGroup()

    init(_ sandbox: Sandbox, _ arguments: [String]) throws {
        self.sandbox = sandbox
        process = Process()
        process.executableURL = uquizBinary
        process.arguments = arguments
        process.environment = sandbox.environment
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let collected = collected
        DispatchQueue.global().async(group: readers) {
            var pending = Data()
            while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    collected.lines.withLock { $0.append(line) }
                }
            }
        }
        DispatchQueue.global().async(group: readers) {
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            collected.errorText.withLock { $0 = text }
        }
    }

    var output: [String] { collected.lines.withLock { $0 } }
    var stderr: String { collected.errorText.withLock { $0 } }

    /// Every output line as a JSON object (lines that are not JSON are left out).
    var messages: [[String: Any]] {
        output.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The first output line `match` picks, waited for up to `timeout` (a wait, not a timing assertion).
    func waitFor<T>(_ what: String, timeout: Double = 60, _ match: ([String: Any]) -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = messages.lazy.compactMap(match).first { return found }
            if !process.isRunning, messages.lazy.compactMap(match).first == nil {
                readers.wait()
                throw Timeout(description: "the process ended before \(what): \(stderr) \(output)")
            }
            usleep(10_000)
        }
        throw Timeout(description: "no \(what) within \(timeout) s; output so far: \(output)")
    }

    func waitForLine(containing text: String, timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.contains(where: { $0.contains(text) }) { return }
            usleep(10_000)
        }
        throw Timeout(description: "no line with \(text) within \(timeout) s; output so far: \(output)")
    }

    /// Closes its standard input and waits for the exit; the status.
    func waitForExit() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        readers.wait()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            process.interrupt()
            process.waitUntilExit()
        }
    }
}

/// `uquiz room host` and `uquiz room join` against the real `uquiz serve` on loopback: a host and two players play a
/// one-quiz package to the podium, each through the real binary, and the errors a player can meet are one line.
@Suite("uquiz room, end to end")
struct RoomCommandTests {
    typealias RunningServer = ServeCommandTests.RunningServer
    let serve = ServeCommandTests()

    func type(_ message: [String: Any]) -> String? { message["type"] as? String }

    /// A logged-in host's `uquiz room host FE7NWW --json` on `server`, once welcomed; and the room's code.
    func hostedRoom(on server: RunningServer) throws -> (host: ConversingProcess, code: String) {
        let host = try ConversingProcess(try serve.loggedIn(to: server, as: "Host"), ["room", "host", "FE7NWW", "--json"])
        let code = try host.waitFor("the host's welcome") { self.type($0) == "welcome" ? $0["code"] as? String : nil }
        return (host, code)
    }

    /// A guest named Bob in room `code` with `--json`, once welcomed.
    func bob(in code: String, on server: RunningServer) throws -> ConversingProcess {
        let bob = try ConversingProcess(try Sandbox(), ["room", "join", code, "--server", server.baseURL, "--json", "--name", "Bob"])
        _ = try bob.waitFor("Bob's welcome") { self.type($0) == "welcome" ? true : nil }
        return bob
    }

    @Test func aHostAndTwoPlayersPlayAPackageToThePodium() throws {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"))
        let (maker, shareCode) = try serve.publishOneQuiz(on: server)

        let host = try ConversingProcess(maker, ["room", "host", shareCode, "--json", "--name", "Host"])
        let code = try host.waitFor("the host's welcome") { self.type($0) == "welcome" ? $0["code"] as? String : nil }
        #expect(try host.waitFor("the host's lobby") { self.type($0) == "snapshot" ? $0["you"] as? Int : nil } == 1)

        let bob = try ConversingProcess(try Sandbox(), ["room", "join", code.lowercased(), "--server", server.baseURL, "--json", "--name", "Bob"])
        _ = try bob.waitFor("Bob's welcome") { self.type($0) == "welcome" ? true : nil }
        let cy = try ConversingProcess(try Sandbox(), ["room", "join", code, "--server", server.baseURL, "--plain", "--name", "Cy"])
        try cy.waitForLine(containing: "You are player 3 in room \(code).")
        _ = try host.waitFor("three in the lobby") { message -> Bool? in
            guard self.type(message) == "lobby", let players = message["players"] as? [[String: Any]] else { return nil }
            return players.count == 3 ? true : nil
        }

        bob.type("/start")
        #expect(try bob.waitFor("a refusal") { self.type($0) == "error" ? $0["code"] as? String : nil } == "not_host")
        host.type("/start")
        for player in [host, bob] {
            _ = try player.waitFor("quiz 1 started") { self.type($0) == "quizStarted" && $0["quiz"] as? Int == 1 ? true : nil }
        }
        host.type("Potato Salad")
        #expect(try host.waitFor("the host's judgement") { self.type($0) == "guessJudged" ? $0["judgement"] as? String : nil } == "wrong")
        bob.type("metropolis")
        let judged = try bob.waitFor("Bob's judgement") { self.type($0) == "guessJudged" ? $0 : nil }
        #expect(judged["judgement"] as? String == "accepted" && (judged["points"] as? Int ?? 0) > 0)
        _ = try host.waitFor("Bob's solve") { self.type($0) == "solved" ? true : nil }
        host.type("/skip")

        for player in [host, bob] {
            let ended = try player.waitFor("the quiz's end") { self.type($0) == "quizEnded" ? $0 : nil }
            #expect(ended["answerTitle"] as? String == "Metropolis" && ended["ending"] as? String == "skipped")
            let places = try player.waitFor("the podium") { self.type($0) == "podium" ? $0["places"] as? [[String: Any]] : nil }
            #expect(places.first?["name"] as? String == "Bob" && places.first?["rank"] as? Int == 1)
            #expect(places.count == 3)
        }
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(bob.waitForExit() == 0, "\(bob.stderr)")
        #expect(bob.stderr.contains("refused") == false, "the server's refusal is a message, not a local one")

        #expect(cy.waitForExit() == 0, "\(cy.stderr)")
        let plain = cy.output
        #expect(plain.contains { $0.hasPrefix("Lobby: 1 Host (host), 2 Bob") })
        #expect(plain.contains("quiz 1/1 · 3 stages · 20 s: type the title"))
        #expect(plain.contains { $0.hasPrefix("  Bob solved it at stage ") })
        #expect(plain.contains("Skipped by the host: it was Metropolis (1927)"))
        #expect(plain.contains { $0.hasPrefix("  1. Bob ") })
        #expect(plain.contains("Podium:"))
        #expect(plain.contains { $0.contains(". Cy 0 pts") && $0.hasSuffix("(you)") })
        // Each thing is said once: no line twice in a row, and no lobby line after the podium (players leaving).
        #expect(zip(plain, plain.dropFirst()).allSatisfy { $0 != $1 }, "\(plain)")
        let podiumLine = try #require(plain.firstIndex(of: "Podium:"))
        #expect(!plain[podiumLine...].contains { $0.hasPrefix("Lobby: ") }, "\(plain)")
        #expect(server.terminate() == 0)
    }

    @Test func theFullScreenShowsTheLobbyThePosterAndThePodium() throws {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"))
        let (maker, shareCode) = try serve.publishOneQuiz(on: server)
        let host = try ConversingProcess(maker, ["room", "host", shareCode, "--json", "--name", "Host"])
        let code = try host.waitFor("the host's welcome") { self.type($0) == "welcome" ? $0["code"] as? String : nil }

        let player = try Sandbox()
        var environment = player.environment
        environment["TERM"] = "xterm-256color"
        let screen = try PseudoTerminalSession(
            binary: uquizBinary, arguments: ["room", "join", code, "--server", server.baseURL, "--name", "Dee", "--sound"],
            environment: environment)
        screen.resize(rows: 45, columns: 100)
        #expect(screen.waitFor("\u{1B}[?1049h"), "the alternate screen")
        #expect(screen.waitFor("Room \(code) · lobby · 2 in"))
        #expect(screen.waitFor("2. Dee ← you"))
        #expect(screen.waitFor("Waiting for the host to start…"))
        host.type("/start")
        #expect(screen.waitFor("quiz 1/1 · stage 1/3"))
        #expect(screen.waitFor("▀"), "the server's stage poster in half blocks")
        #expect(!screen.transcript.contains("\u{07}"), "no bell before a guess")
        screen.type("sunrise\n")
        #expect(screen.waitFor("\u{07}"), "--sound: a wrong guess rings the bell")
        screen.type("metropolis\n")
        #expect(screen.waitFor("✓ Right! +"))
        #expect(screen.waitFor("\u{07}", occurrence: 2), "and a right one")
        _ = try host.waitFor("Dee's solve") { self.type($0) == "solved" ? true : nil }
        host.type("/skip")
        #expect(screen.waitFor("Podium"))
        #expect(screen.waitForExit().status == 0)
        #expect(screen.transcript.contains("\u{1B}[?1049l"), "the terminal is given back")
        #expect(screen.transcript.contains("  1. Dee "), "the podium stays in the terminal's history")
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(server.terminate() == 0)
    }

    @Test func ctrlCLeavesTheRoomAndGivesTheTerminalBack() throws {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"))
        let (host, code) = try hostedRoom(on: server)
        var environment = try Sandbox().environment
        environment["TERM"] = "xterm-256color"
        let screen = try PseudoTerminalSession(
            binary: uquizBinary, arguments: ["room", "join", code, "--server", server.baseURL, "--name", "Dee"],
            environment: environment)
        #expect(screen.waitFor("2. Dee ← you"))
        screen.interrupt()
        let exit = screen.waitForExit()
        #expect(exit.status == 130 && exit.reason == .exit)
        #expect(screen.transcript.contains("\u{1B}[?1049l"), "the terminal is given back")
        // In the lobby, then out of it: she left rather than dropped.
        _ = try host.waitFor("Dee gone from the lobby") { _ -> Bool? in
            let sizes = host.messages.filter { self.type($0) == "lobby" }.compactMap { ($0["players"] as? [[String: Any]])?.count }
            guard let joined = sizes.firstIndex(of: 2) else { return nil }
            return sizes[joined...].contains(1) ? true : nil
        }
        host.type("/leave")
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(server.terminate() == 0)
    }

    @Test func anUnknownRoomAServerThatIsDownAndABadCodeAreOneLine() throws {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"))
        let user = try Sandbox()

        let unknown = try user.run(["room", "join", "ZZZZ", "--server", server.baseURL, "--plain"])
        #expect(unknown.status == 1)
        #expect(unknown.stderrLines == ["Error: no such room on \(server.baseURL): check the code (a room lives until it expires)"])

        let down = try user.run(["room", "join", "ZZZZ", "--server", "http://127.0.0.1:\(closedLocalPort())", "--json"])
        #expect(down.status == 1 && down.stderrLines.count == 1)
        #expect(down.stderr.hasPrefix("Error: the server http://127.0.0.1:") && down.stderr.contains("did not answer"))

        let badCode = try user.run(["room", "join", "K0QF", "--server", server.baseURL])
        #expect(badCode.status == 64 && badCode.stderr.contains("K0QF is not a room code"))

        let notLoggedIn = try user.run(["room", "host", "FE7NWW", "--server", server.baseURL, "--plain"])
        #expect(notLoggedIn.status == 1)
        #expect(notLoggedIn.stderrLines.last == "Error: not logged in to \(server.baseURL): run uquiz login --server \(server.baseURL) first")
        #expect(server.terminate() == 0)
    }

    /// The server cuts off a connection that floods it (close 4008) and keeps the seat: the client connects again and
    /// resumes it with its token, as after any dropped socket.
    @Test func aPlayerCutOffForFloodingResumesTheSeat() throws {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"))
        let (host, code) = try hostedRoom(on: server)
        let bob = try bob(in: code, on: server)
        // More than the 20 messages a connection may send at once, in one burst.
        bob.type(Array(repeating: #"{"v": 1, "type": "ping", "clientTime": 1}"#, count: 40).joined(separator: "\n"))
        let welcomes = try bob.waitFor("the welcome of the resumed seat") { _ -> [Int]? in
            let players = bob.messages.filter { self.type($0) == "welcome" }.compactMap { $0["player"] as? Int }
            return players.count == 2 ? players : nil
        }
        #expect(welcomes == [2, 2], "the same seat")
        // The host saw Bob's connection lost, then back.
        func bobConnected(_ message: [String: Any]) -> Bool? {
            guard self.type(message) == "lobby", let players = message["players"] as? [[String: Any]] else { return nil }
            return players.first { $0["name"] as? String == "Bob" }?["connected"] as? Bool
        }
        _ = try host.waitFor("Bob back in the lobby") { _ -> Bool? in
            let seen = host.messages.compactMap(bobConnected)
            guard let lost = seen.firstIndex(of: false) else { return nil }
            return seen[lost...].contains(true) ? true : nil
        }
        bob.type("/leave")
        #expect(bob.waitForExit() == 0)
        #expect(bob.stderr.contains("connection lost: resuming the seat…"))
        host.type("/leave")
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(server.terminate() == 0)
    }

    @Test func kickedPlayersExitWithThree() throws {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"))
        let (host, code) = try hostedRoom(on: server)
        let bob = try bob(in: code, on: server)
        // The host names Bob from its own lobby, so it waits to see him there (under load, Bob's welcome can come first).
        _ = try host.waitFor("Bob in the host's lobby") { message -> Bool? in
            guard self.type(message) == "lobby", let players = message["players"] as? [[String: Any]] else { return nil }
            return players.contains { $0["name"] as? String == "Bob" } ? true : nil
        }
        host.type("/kick bob")
        _ = try bob.waitFor("the kick") { self.type($0) == "kicked" ? true : nil }
        #expect(bob.waitForExit() == 3)
        #expect(bob.stderr == "Error: the host removed you from room \(code)\n")
        host.type("/leave")
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(server.terminate() == 0)
    }
}
