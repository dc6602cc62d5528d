import Foundation
import Testing
import UQuizCLI
@testable import UQuizServer
import UQuizTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The real `uquiz serve` on loopback under faults (issue 16): clients that send half a request and stall, bodies too
/// large or not what they claim, a burst of wrong tokens; and no secret of a client or of the server in its output.
/// Requests go over raw sockets, so a test controls every byte and how long a connection stays open.
@Suite("uquiz serve under faults", .serialized)
struct ServeFaultTests {
    /// A running `uquiz serve --port 0` whose standard output and error land in files of its sandbox.
    final class Server {
        let sandbox: Sandbox
        let process = Process()
        let port: Int
        let stdoutPath: String
        let stderrPath: String

        init(_ extraArguments: [String] = [], environment: [String: String] = [:]) throws {
            sandbox = try Sandbox()
            stdoutPath = sandbox.path("serve.stdout")
            stderrPath = sandbox.path("serve.stderr")
            FileManager.default.createFile(atPath: stdoutPath, contents: nil)
            FileManager.default.createFile(atPath: stderrPath, contents: nil)
            process.executableURL = uquizBinary
            process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", sandbox.path("server.sqlite")] + extraArguments
            process.environment = sandbox.environment.merging(environment) { $1 }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
            process.standardError = FileHandle(forWritingAtPath: stderrPath)
            try process.run()
            // The first line says where it listens; waiting for it is the wait for the server (60 s at most, as a
            // first run seeds the database first).
            let deadline = Date().addingTimeInterval(60)
            var found: Int?
            while found == nil, Date() < deadline, process.isRunning {
                let text = (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").first, line.hasPrefix("listening on http://127.0.0.1:"), text.contains("\n") {
                    found = Int(line.split(separator: ":").last ?? "")
                } else {
                    usleep(20_000)
                }
            }
            guard let found else {
                let errors = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
                throw Failure("uquiz serve did not say it listens: \(errors)")
            }
            port = found
        }

        /// Everything the server wrote so far, standard output then standard error.
        var output: String {
            ((try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "") + ((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
        }

        func connect(from source: String? = nil) throws -> Connection { try Connection(port: port, from: source) }

        /// One request on a connection of its own.
        func request(
            _ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data(), from source: String? = nil
        ) throws -> Reply {
            try connect(from: source).exchange(method, path, headers: headers, body: body)
        }

        func stop() -> Int32 {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// One HTTP response.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var isJSON: Bool { headers["content-type"] == "application/json; charset=utf-8" && !json.isEmpty }
    }

    /// A TCP connection to the server on 127.0.0.1, from `source` (another loopback address, which the server sees as
    /// another client) when given. Non-blocking, so a test can write a large body while it reads an early answer.
    final class Connection {
        let fd: Int32
        private var received = Data()

        init(port: Int, from source: String?) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure("socket: errno \(errno)") }
            if let source {
                var local = sockaddr_in()
                local.sin_family = sa_family_t(AF_INET)
                local.sin_addr.s_addr = inet_addr(source)
                let bound = withUnsafePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard bound == 0 else { throw Failure("bind \(source): errno \(errno)") }
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw Failure("connect: errno \(errno)") }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }

        deinit { close(fd) }

        /// Writes `bytes` (all of them, unless the server answers or closes first), reading meanwhile.
        func send(_ bytes: Data, until deadline: Date = Date().addingTimeInterval(30)) throws {
            var offset = 0
            while offset < bytes.count, Date() < deadline {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT | POLLIN), revents: 0)
                _ = poll(&poller, 1, 100)
                if poller.revents & Int16(POLLIN) != 0, readAvailable() == false { return }
                if poller.revents & Int16(POLLERR | POLLHUP) != 0 { return }
                if poller.revents & Int16(POLLOUT) != 0 {
                    let written = bytes.withUnsafeBytes { raw in
                        Glibc.send(fd, raw.baseAddress! + offset, min(65536, bytes.count - offset), Int32(MSG_NOSIGNAL))
                    }
                    if written < 0 {
                        if errno == EAGAIN || errno == EWOULDBLOCK { continue }
                        return  // the server closed: what it answered is read by the caller
                    }
                    offset += written
                }
            }
        }

        /// Reads what is there; false once the peer has closed (or reset) the connection.
        @discardableResult
        private func readAvailable() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 {
                    received.append(contentsOf: buffer[0..<count])
                    continue
                }
                if count == 0 { return false }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
        }

        /// Waits for the server to close the connection: true when it did within `seconds`.
        func waitForClose(within seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, 200)
                if poller.revents != 0, readAvailable() == false { return true }
            }
            return false
        }

        /// Reads one response (with a Content-Length body, as the server always sends), within `seconds`.
        func reply(within seconds: Double = 30) throws -> Reply {
            let deadline = Date().addingTimeInterval(seconds)
            var open = true
            while true {
                if let end = received.range(of: Data("\r\n\r\n".utf8)) {
                    let head = String(decoding: received[received.startIndex..<end.lowerBound], as: UTF8.self)
                    let lines = head.components(separatedBy: "\r\n")
                    let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
                    var headers: [String: String] = [:]
                    for line in lines.dropFirst() {
                        guard let colon = line.firstIndex(of: ":") else { continue }
                        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                    let length = Int(headers["content-length"] ?? "0") ?? 0
                    let bodyStart = end.upperBound
                    if received.count - (bodyStart - received.startIndex) >= length {
                        let body = Data(received[bodyStart..<(bodyStart + length)])
                        received = Data(received[(bodyStart + length)...])
                        return Reply(status: status, headers: headers, body: body)
                    }
                }
                guard open, Date() < deadline else { throw Failure("no whole response within \(seconds) s: \(received.count) bytes") }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, 100)
                if poller.revents != 0 { open = readAvailable() }
            }
        }

        func exchange(_ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data()) throws -> Reply {
            var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            try send(Data((head + "\r\n").utf8) + body)
            return try reply()
        }
    }

    static func json(_ value: Any) -> Data { try! JSONSerialization.data(withJSONObject: value) }

    /// A new player's token, from `source`.
    static func newPlayer(on server: Server, from source: String? = nil) throws -> String {
        let made = try server.request("POST", "/v1/players", headers: ["Content-Type": "application/json"], body: json(["name": "Ada"]), from: source)
        guard made.status == 201, let token = made.json["token"] as? String else { throw Failure("no player: \(made.status) \(made.text)") }
        return token
    }

    /// A random token of the server's shape: 43 characters of base64url.
    static func randomToken() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<43).map { _ in alphabet.randomElement()! })
    }

    // MARK: Slow clients

    /// One address holds at most `--max-connections-per-address` connections: one past it is answered a 503 naming
    /// the limit and closed as it opens (which one of a burst depends on the order the server's threads set them up),
    /// while other addresses are served, and a connection closed makes room for a new one.
    @Test func oneAddressHoldsAtMostItsConnections() throws {
        let server = try Server(["--max-connections-per-address", "3"])
        var held = try (0..<4).map { _ in try server.connect() }
        var closed: Int?
        let deadline = Date().addingTimeInterval(10)
        while closed == nil, Date() < deadline {
            closed = held.indices.first { held[$0].waitForClose(within: 0.05) }
        }
        let gone = try #require(closed, "one of four connections from 127.0.0.1 is closed")
        let refusal = try held[gone].reply(within: 1)
        #expect(refusal.status == 503 && refusal.headers["retry-after"] == "5")
        let body = try #require(try JSONSerialization.jsonObject(with: refusal.body) as? [String: Any])
        let problem = try #require(body["error"] as? [String: Any])
        #expect(problem["code"] as? String == "too_many_connections")
        #expect((problem["message"] as? String)?.contains("3 connections open") == true)
        #expect((problem["message"] as? String)?.contains("--max-connections-per-address") == true)
        held.remove(at: gone)
        #expect(held.allSatisfy { !$0.waitForClose(within: 0.2) }, "the other three stay open")
        #expect(try server.request("GET", "/healthz", from: "127.0.0.2").status == 200, "another address is served")
        held.removeFirst()
        // The server notices the closed connection as it reads its end: a new one is let in once it has.
        var served = false
        for _ in 0..<50 where !served {
            served = (try? server.request("GET", "/healthz"))?.status == 200
            if !served { usleep(100_000) }
        }
        #expect(served, "a connection closed makes room")
        #expect(!server.output.contains("error"), "a refused connection is routine, not an error: \(server.output.suffix(2000))")
        #expect(server.stop() == 0)
    }

    /// Another instance relays its clients' room requests and sockets on connections of its own. Signed with the
    /// instances' shared secret, those stop counting against its address once their first request is read (they are
    /// its clients', limited there), so its relayed players never fill the cap and its own requests still get through;
    /// a `UQuiz-Forwarded` header without the secret's signature (anyone can write one) counts as any connection does.
    @Test func connectionsAnotherInstanceSignsDoNotCountAgainstItsAddress() throws {
        let server = try Server(["--max-connections-per-address", "2"], environment: ["UQUIZ_INSTANCE_SECRET": "shared secret"])
        let signature = try #require(RelaySignature(secret: "shared secret"))
        func forwarded(_ header: (String) -> String) throws -> Connection {
            let connection = try server.connect()
            let reply = try connection.exchange("GET", "/healthz", headers: ["UQuiz-Forwarded": header("/healthz")])
            #expect(reply.status == 200, "\(reply.status) \(reply.text)")
            return connection
        }
        let signed = try (0..<3).map { _ in
            try forwarded { signature.header(method: "GET", path: $0, client: "203.0.113.9", seconds: Int64(Date().timeIntervalSince1970)) }
        }
        #expect(try server.request("GET", "/healthz").status == 200, "three signed connections open, none counted")
        let unsigned = try (0..<2).map { _ in try forwarded { _ in "1" } }
        let refused = try server.request("GET", "/healthz")
        #expect(refused.status == 503 && refused.errorCode == "too_many_connections", "two unsigned ones fill the cap of 2")
        #expect(signed.count + unsigned.count == 5)
        #expect(server.stop() == 0)
    }

    /// Clients that send half a request head, or a whole head and part of its body, and then nothing: the server
    /// answers others meanwhile and closes each of them once its idle timeout (1 s here) has passed.
    @Test func slowClientsAreClosedAfterTheIdleTimeoutWhileOthersAreServed() throws {
        let server = try Server(["--idle-timeout", "1"])
        var slow: [Connection] = []
        for index in 0..<20 {
            let connection = try server.connect()
            if index.isMultiple(of: 2) {
                try connection.send(Data("POST /v1/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le".utf8))
            } else {
                try connection.send(Data("POST /v1/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\": \"Sl".utf8))
            }
            slow.append(connection)
        }
        // Served meanwhile, on connections of their own.
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(try server.request("GET", "/v1/packages/FE7NWW").status == 200)
        #expect(try Self.newPlayer(on: server).count == 43)
        // A generous bound: the close is due after 1 s; a loaded machine may take longer, never 30 s.
        for (index, connection) in slow.enumerated() {
            #expect(connection.waitForClose(within: 30), "slow connection \(index) was closed")
        }
        #expect(try server.request("GET", "/healthz").status == 200, "and the server still answers")
        #expect(!server.output.contains("unexpected error"), "\(server.output)")
        #expect(server.stop() == 0)
    }

    /// A client that sends a body a few bytes at a time, each within the idle timeout, is refused with a JSON 408
    /// once the body timeout (2 s here) has passed, however long it would go on.
    @Test func aTricklingBodyIsRefusedAfterTheBodyTimeout() throws {
        let server = try Server(["--idle-timeout", "1", "--body-timeout", "2"])
        let connection = try server.connect()
        try connection.send(Data("POST /v1/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n".utf8))
        // A byte every 200 ms keeps the connection from idling; the pacing is the client's, nothing is timed here.
        var reply: Reply?
        for _ in 0..<300 where reply == nil {
            try connection.send(Data(" ".utf8))
            reply = try? connection.reply(within: 0.2)
        }
        let refused = try #require(reply, "no answer after 60 s of trickling")
        #expect(refused.status == 408 && refused.isJSON && refused.errorCode == "request_timeout", "\(refused.status) \(refused.text)")
        #expect(connection.waitForClose(within: 30), "and the connection is let go")
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(!server.output.contains("unexpected error"), "\(server.output.suffix(2000))")
        #expect(server.stop() == 0)
    }

    /// Clients that send a request head a header at a time, each within the idle timeout, get a JSON 408 once the
    /// head timeout (1 s here) has passed since its first byte, and are let go; others are served meanwhile.
    @Test func aTricklingHeadIsRefusedAfterTheHeadTimeout() throws {
        let server = try Server(["--idle-timeout", "30", "--head-timeout", "1"])
        let slow = try (0..<10).map { _ in try server.connect() }
        for connection in slow { try connection.send(Data("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)) }
        #expect(try server.request("GET", "/healthz", from: "127.0.0.2").status == 200, "served meanwhile")
        // A header line every 200 ms keeps each connection from idling; the pacing is the client's, nothing is timed.
        var replies: [Int: Reply] = [:]
        for round in 0..<300 where replies.count < slow.count {
            for (index, connection) in slow.enumerated() where replies[index] == nil {
                try connection.send(Data("X-Trickle-\(round): 1\r\n".utf8))
                replies[index] = try? connection.reply(within: 0.02)
            }
        }
        #expect(replies.count == slow.count, "every trickling head was answered")
        for (index, reply) in replies.sorted(by: { $0.key < $1.key }) {
            #expect(reply.status == 408 && reply.isJSON && reply.errorCode == "request_timeout", "\(index): \(reply.status) \(reply.text)")
            #expect(reply.headers["connection"] == "close")
            #expect(slow[index].waitForClose(within: 30), "\(index) is let go")
        }
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(!server.output.contains("error"), "\(server.output.suffix(2000))")
        #expect(server.stop() == 0)
    }

    /// A head that is not HTTP is answered 400 at once, the idle and head timeouts being far off, and let go; so is
    /// one on a connection's second request.
    @Test func aMalformedHeadIsA400AtOnce() throws {
        let server = try Server(["--idle-timeout", "600", "--head-timeout", "600"])
        for garbage in ["GET\u{1}BAD / HTTP/1.1\r\n\r\n", "GET / HTTP/9.x\r\n\r\n", "GET /healthz HTTP/1.1\r\nNo colon here\r\n\r\n"] {
            let connection = try server.connect()
            try connection.send(Data(garbage.utf8))
            let reply = try connection.reply(within: 30)
            #expect(reply.status == 400 && reply.isJSON && reply.errorCode == "bad_request", "\(reply.status) \(reply.text)")
            #expect((reply.json["error"] as? [String: Any])?["message"] as? String ?? "" != "", "it says what was wrong")
            #expect(connection.waitForClose(within: 30), "and closes, long before any timeout")
        }
        let second = try server.connect()
        #expect(try second.exchange("GET", "/healthz").status == 200)
        try second.send(Data("GET\u{1}BAD / HTTP/1.1\r\n\r\n".utf8))
        #expect(try second.reply(within: 30).status == 400)
        #expect(second.waitForClose(within: 30))
        #expect(!server.output.contains("error"), "\(server.output.suffix(2000))")
        #expect(server.stop() == 0)
    }

    /// HTTP/1.0 keeps a connection only when asked to (`Connection: keep-alive`): otherwise the response says
    /// `Connection: close` and the server closes it, the idle timeout being far off. HTTP/1.1 with `Connection: close`
    /// likewise.
    @Test func aConnectionNotKeptAliveIsClosedAfterItsResponse() throws {
        let server = try Server(["--idle-timeout", "600"])
        for head in ["GET /healthz HTTP/1.0\r\n\r\n", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"] {
            let connection = try server.connect()
            try connection.send(Data(head.utf8))
            let reply = try connection.reply()
            #expect(reply.status == 200 && reply.headers["connection"]?.lowercased() == "close", "\(head): \(reply.headers)")
            #expect(connection.waitForClose(within: 30), "\(head): closed after the response")
        }
        let kept = try server.connect()
        try kept.send(Data("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8))
        #expect(try kept.reply().status == 200)
        try kept.send(Data("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8))
        #expect(try kept.reply().status == 200, "asked to, it keeps the connection for a second request")
        #expect(server.stop() == 0)
    }

    /// Every rate limit is a setting: `--limit NAME=BURST/SECONDS` replaces its default, and a name or shape the
    /// server does not know is refused in one line before anything starts.
    @Test func aRateLimitIsASetting() throws {
        #expect(Set(ServeCommand.rateLimitNames) == Set(ServerConfiguration.rateLimitsByName.keys))
        let server = try Server(["--limit", "reports-per-player=1/3600"])
        let token = try Self.newPlayer(on: server)
        func report(_ code: String) throws -> Reply {
            try server.request(
                "POST", "/v1/packages/\(code)/reports",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"], body: Self.json(["reason": "spam"]))
        }
        #expect(try report("FE7NWW").status == 201)
        let limited = try report("SYGAJY")
        #expect(limited.status == 429 && limited.headers["retry-after"] == "3600", "\(limited.status) \(limited.headers)")
        #expect(server.stop() == 0)

        let sandbox = try Sandbox()
        for (bad, said) in [
            ("publishes=10/60", "no limit named publishes; one of players-per-address,"),
            ("guesses=10", "give NAME=BURST/SECONDS"), ("guesses=0/1", "BURST is 1 to 1000000"),
        ] {
            let result = try sandbox.run(["serve", "--port", "0", "--db", sandbox.path("s.sqlite"), "--limit", bad])
            #expect(result.status == 64 && result.stdout.isEmpty, "\(bad)")
            #expect(result.stderr.contains(said), "\(bad): \(result.stderr)")
        }
    }

    /// A log nobody reads (standard error a pipe that filled up) never stops the server: it is written off the
    /// cooperative threads, so 2,000 logged requests, about ten times what the pipe holds, are all answered; the lines
    /// are there once the pipe is read.
    @Test func aLogNobodyReadsDoesNotStopTheServer() throws {
        let sandbox = try Sandbox()
        let process = Process()
        process.executableURL = uquizBinary
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--verbose", "--db", sandbox.path("server.sqlite")]
        process.environment = sandbox.environment
        process.standardInput = FileHandle.nullDevice
        let outputPath = sandbox.path("serve.stdout")
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        let unread = Pipe()
        process.standardError = unread
        try process.run()
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                unread.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
            }
        }
        var port: Int?
        for _ in 0..<3000 where port == nil {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            if text.hasSuffix("\n"), let line = text.split(separator: "\n").first, line.hasPrefix("listening on http://127.0.0.1:") {
                port = Int(line.split(separator: ":").last ?? "")
            } else {
                usleep(20_000)
            }
        }
        let bound = try #require(port, "uquiz serve said where it listens")
        var answered = 0
        for _ in 0..<2000 {
            let reply = try Connection(port: bound, from: nil).exchange("GET", "/healthz")
            if reply.status == 200 { answered += 1 }
        }
        #expect(answered == 2000)
        kill(process.processIdentifier, SIGTERM)
        let log = String(decoding: unread.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(log.components(separatedBy: "http.path=/healthz").count - 1 == 2000, "every request's line was written in the end")
    }

    @Test func theIdleTimeoutIsCheckedWhenGiven() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["serve", "--port", "0", "--db", sandbox.path("s.sqlite"), "--idle-timeout", "0"])
        #expect(result.status != 0 && result.stdout.isEmpty)
        #expect(result.stderr.contains("--idle-timeout must be from 1 to 3600 seconds"), "\(result.stderr)")
    }

    @Test func theRoomAndUploadLifetimesAreCheckedWhenGiven() throws {
        let sandbox = try Sandbox()
        for (flag, value, said) in [
            ("--unjoined-room-minutes", "0", "--unjoined-room-minutes must be from 1 to 120"),
            ("--unused-upload-hours", "9000", "--unused-upload-hours must be from 1 to 8760"),
            ("--db-connections", "0", "--db-connections must be from 1 to 200"),
        ] {
            let result = try sandbox.run(["serve", "--port", "0", "--db", sandbox.path("s.sqlite"), flag, value])
            #expect(result.status != 0 && result.stdout.isEmpty)
            #expect(result.stderr.contains(said), "\(result.stderr)")
        }
        let help = try sandbox.run(["serve", "--help"])
        #expect(help.stdout.contains("--unjoined-room-minutes") && help.stdout.contains("--unused-upload-hours"))
    }

    @Test func theInstanceURLMustBeAPlainHTTPBase() throws {
        let sandbox = try Sandbox()
        for bad in ["https://10.0.0.5:8080", "http://10.0.0.5:8080/api", "10.0.0.5:8080", "http://user:pw@10.0.0.5"] {
            let result = try sandbox.run(["serve", "--port", "0", "--db", sandbox.path("s.sqlite"), "--instance-url", bad])
            #expect(result.status != 0 && result.stdout.isEmpty, "\(bad)")
            #expect(result.stderr.contains("--instance-url must be http://HOST[:PORT] with no path"), "\(bad): \(result.stderr)")
            #expect(!result.stderr.contains("pw@"), "a password in it is not echoed")
        }
    }

    /// `uquiz` does not link the server or the room client: `serve` and `room` become `uquiz-net`, found beside it. A
    /// `uquiz` without it says so in one line, having checked the command line first.
    @Test func serveAndRoomSayWhereUQuizNetIsWhenItIsMissing() throws {
        let sandbox = try Sandbox()
        let alone = sandbox.path("bin/uquiz")
        try FileManager.default.createDirectory(atPath: sandbox.path("bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: uquizBinary.path, toPath: alone)
        for arguments in [["serve", "--port", "0"], ["room", "join", "K7QF", "--server", "http://127.0.0.1:9"]] {
            let result = try sandbox.runThrough(alone, arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderrLines == [
                "Error: cannot start \(sandbox.path("bin/uquiz-net")) (No such file or directory): `uquiz serve`, "
                    + "`uquiz room` and `uquiz admin` run in it; build it with `swift build` or install it beside uquiz"
            ], "\(result.stderr)")
        }
        let badPort = try sandbox.runThrough(alone, ["serve", "--port", "70000"])
        #expect(badPort.status == 64 && badPort.stderr.contains("--port must be from 0 to 65535"), "checked before")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("data/uquiz/uquiz.sqlite")), "nothing was opened")
    }

    // MARK: Bodies

    /// Every operation that takes a body: too large is a 413, and a body that is not JSON, not UTF-8, or of the wrong
    /// types is a 400, each as a JSON error; the server keeps answering and logs no unexpected error.
    @Test func oversizedAndMalformedBodiesAre413And400JSONEverywhere() throws {
        let server = try Server()
        let token = try Self.newPlayer(on: server)
        let auth = ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
        let published = try server.request(
            "POST", "/v1/packages", headers: auth,
            body: Self.json([
                "format": 1, "title": "Mine", "level": "expert", "language": "en",
                "quizzes": [["movie": 862, "areas": [[38, 12], [20, 41], [57, 41]]]],
            ]))
        let code = try #require(published.json["shareCode"] as? String, "\(published.text)")
        let started = try server.request("POST", "/v1/packages/FE7NWW/plays", headers: auth)
        let play = try #require(started.json["id"] as? String, "\(started.text)")

        // Each JSON-taking operation, with a body whose fields are of the wrong type.
        let operations: [(String, String, Data)] = [
            ("POST", "/v1/players", Self.json(["name": 7])),
            ("POST", "/v1/packages", Self.json(["format": 1, "title": ["no"], "level": "expert", "language": "en", "quizzes": []])),
            ("PUT", "/v1/packages/\(code)", Self.json(["format": "1", "title": "x", "level": "expert", "language": "en", "quizzes": []])),
            ("POST", "/v1/plays/\(play)/guesses", Self.json(["quiz": "one", "text": 5])),
            ("POST", "/v1/plays/\(play)/hints", Self.json(["quiz": "1"])),
            ("POST", "/v1/plays/\(play)/skips", Self.json(["quiz": true])),
        ]
        let invalidUTF8 = Data("{\"name\": \"".utf8) + Data([0xFF, 0xFE, 0xC3]) + Data("\"}".utf8)
        var checked = 0
        for (method, path, wrongTypes) in operations {
            for (what, body) in [
                ("not JSON", Data("{\"name\": ".utf8)), ("invalid UTF-8", invalidUTF8), ("wrong types", wrongTypes),
                ("empty", Data()), ("a JSON array", Data("[1, 2]".utf8)),
            ] {
                let reply = try server.request(method, path, headers: auth, body: body)
                #expect(reply.status == 400 && reply.isJSON && reply.errorCode == "bad_request", "\(method) \(path), \(what): \(reply.status) \(reply.text)")
                checked += 1
            }
            // One byte over the limit, announced by Content-Length: refused without reading it all.
            let huge = Data(repeating: UInt8(ascii: " "), count: (1 << 20) + 1)
            let tooLarge = try server.request(method, path, headers: auth, body: huge)
            #expect(tooLarge.status == 413 && tooLarge.isJSON && tooLarge.errorCode == "too_large", "\(method) \(path): \(tooLarge.status)")
            // The same without a length: chunks that add up past the limit.
            let connection = try server.connect()
            var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
            for (name, value) in auth { head += "\(name): \(value)\r\n" }
            var chunked = Data((head + "\r\n").utf8)
            let chunk = Data(repeating: UInt8(ascii: " "), count: 65536)
            for _ in 0..<17 { chunked += Data("10000\r\n".utf8) + chunk + Data("\r\n".utf8) }
            chunked += Data("0\r\n\r\n".utf8)
            try connection.send(chunked)
            let chunkedReply = try connection.reply()
            #expect(chunkedReply.status == 413 && chunkedReply.isJSON, "\(method) \(path) chunked: \(chunkedReply.status)")
            checked += 2
        }
        // A poster is a JPEG: over 2 MiB is a 413, bytes that are no JPEG a 415.
        let posterAuth = ["Authorization": "Bearer \(token)", "Content-Type": "image/jpeg"]
        let bigPoster = try server.request("POST", "/v1/posters", headers: posterAuth, body: Data(repeating: 0xFF, count: (2 << 20) + 1))
        #expect(bigPoster.status == 413 && bigPoster.isJSON)
        let notJPEG = try server.request("POST", "/v1/posters", headers: posterAuth, body: invalidUTF8)
        #expect(notJPEG.status == 415 && notJPEG.isJSON)
        #expect(checked == 6 * 7)

        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(try server.request("GET", "/v1/packages/\(code)").json["title"] as? String == "Mine", "nothing was changed")
        #expect(!server.output.contains("unexpected error"), "\(server.output.suffix(2000))")
        #expect(server.stop() == 0)
    }

    // MARK: Wrong tokens

    /// 500 random tokens from one address, one after another on one connection: each is answered at once with a JSON
    /// 401 until the address has used its 20 failed attempts, then with a JSON 429 and `Retry-After`; another address
    /// is served meanwhile, the locked-out one again once it has waited as told, and no token is in the log.
    @Test func aBurstOfWrongTokensIsRefusedThenLimitedAndLeavesNoTrace() throws {
        let server = try Server()
        let right = try Self.newPlayer(on: server)
        let connection = try server.connect()
        var tokens: [String] = []
        var statuses: [Int: Int] = [:]
        var slowest = 0.0
        let start = Date()
        for _ in 0..<500 {
            let token = Self.randomToken()
            tokens.append(token)
            let sent = Date()
            let reply = try connection.exchange("POST", "/v1/daily/plays", headers: ["Authorization": "Bearer \(token)"])
            slowest = max(slowest, Date().timeIntervalSince(sent))
            statuses[reply.status, default: 0] += 1
            #expect(reply.isJSON, "\(reply.status) \(reply.text)")
            #expect(!reply.text.contains(token))
            if reply.status == 429 { #expect(Int(reply.headers["retry-after"] ?? "") ?? 0 >= 1) }
        }
        let elapsed = Date().timeIntervalSince(start)
        let refused = statuses[401, default: 0]
        #expect(Set(statuses.keys).isSubset(of: [401, 429]), "\(statuses)")
        // 20 at once, then one more a second of the run.
        #expect(refused >= 20 && Double(refused) <= 21 + elapsed.rounded(.up), "\(statuses) in \(elapsed) s")
        #expect(statuses[429, default: 0] >= 500 - refused, "\(statuses)")
        // Generous: each answer is one hash and one lookup, or none; on loopback that is milliseconds.
        #expect(slowest < 5, "the slowest answer took \(slowest) s")

        // Another address is another client: served at once with a right token.
        let other = try server.request("GET", "/v1/daily", headers: ["Authorization": "Bearer \(right)"], from: "127.0.0.2")
        #expect(other.status == 200, "\(other.text)")
        // The locked-out address, once it has waited as told.
        var again = try connection.exchange("GET", "/v1/daily", headers: ["Authorization": "Bearer \(right)"])
        var waits = 0
        while again.status == 429, waits < 5 {
            sleep(UInt32(Int(again.headers["retry-after"] ?? "1") ?? 1))
            waits += 1
            again = try connection.exchange("GET", "/v1/daily", headers: ["Authorization": "Bearer \(right)"])
        }
        #expect(again.status == 200, "after \(waits) waits: \(again.status) \(again.text)")

        #expect(server.stop() == 0)
        let output = server.output
        #expect(output.contains("\"POST\"") || output.contains("POST"), "the requests were logged")
        let leaked = (tokens + [right]).filter { output.contains($0) }
        #expect(leaked.isEmpty, "\(leaked.count) tokens in the log")
    }

    // MARK: Secrets

    /// TMDB (or a gateway before it) may answer an error whose message repeats the request's URL, `api_key` and all:
    /// the search still answers from the catalog, and what the server logs of that message has the key redacted.
    @Test func anUpstreamErrorThatRepeatsTheKeyIsLoggedWithoutIt() throws {
        let apiKey = "PLANTED-TMDB-KEY-\(UUID().uuidString)"
        let tmdb = try FakeServerProcess(["--api-key", apiKey, "--fault", "/3/search/movie;status=404;echo-url"])
        let server = try Server(
            ["--verbose"],
            environment: ["TMDB_API_KEY": apiKey, "UQUIZ_TMDB_API_URL": tmdb.apiURL, "UQUIZ_TMDB_IMAGE_URL": tmdb.imageURL])
        let token = try Self.newPlayer(on: server)
        let reply = try server.request("GET", "/v1/movies?q=toy", headers: ["Authorization": "Bearer \(token)"])
        #expect(reply.status == 200 && reply.json["source"] as? String == "catalog", "\(reply.status) \(reply.text)")
        #expect(tmdb.requests.contains { $0.hasPrefix("GET /3/search/movie") }, "the search reached fake-tmdb")
        #expect(server.stop() == 0)
        let output = server.output
        #expect(output.contains("could not be found"), "TMDB's message was logged: \(output.suffix(1500))")
        #expect(!output.contains(apiKey) && !reply.text.contains(apiKey), "the key TMDB's message repeated is redacted")
    }


    /// A player's token, a password in a Basic header and the server's TMDB API key (used for a movie search against
    /// fake-tmdb) never appear in anything the server writes, verbose logging on, nor in a response other than the one
    /// that hands the token out.
    /// In both log formats; in JSON, every line of standard error is one object, and a request's line says its route
    /// template, status, duration, request id, the instance and a hash standing for the player.
    @Test(arguments: ["text", "json"])
    func noTokenPasswordOrAPIKeyReachesTheOutputOrAResponse(_ logFormat: String) throws {
        let apiKey = "PLANTED-TMDB-KEY-\(UUID().uuidString)"
        let metricsToken = "PLANTED-METRICS-TOKEN-\(UUID().uuidString)"
        let tmdb = try FakeServerProcess(["--api-key", apiKey, "--seed", repositoryRoot.appendingPathComponent("Seed/seed.json").path])
        let server = try Server(
            ["--verbose", "--log-format", logFormat],
            environment: [
                "TMDB_API_KEY": apiKey, "UQUIZ_TMDB_API_URL": tmdb.apiURL, "UQUIZ_TMDB_IMAGE_URL": tmdb.imageURL,
                "UQUIZ_TMDB_RETRY_BASE_DELAY_SECONDS": "0.01", "UQUIZ_METRICS_TOKEN": metricsToken,
            ])
        let token = try Self.newPlayer(on: server)
        let password = "hunter2-\(UUID().uuidString)"
        let basic = Data("ada:\(password)".utf8).base64EncodedString()
        let auth = ["Authorization": "Bearer \(token)"]
        var replies: [Reply] = []
        replies.append(try server.request("GET", "/v1/movies?q=toy", headers: auth))
        #expect(replies.last?.status == 200 && replies.last?.json["source"] as? String == "tmdb", "\(replies.last?.text ?? "")")
        replies.append(try server.request("GET", "/v1/movies?q=inter&language=ko&page=2", headers: auth))
        replies.append(try server.request("GET", "/v1/daily", headers: auth))
        replies.append(try server.request("POST", "/v1/packages/FE7NWW/plays", headers: auth))
        replies.append(try server.request("GET", "/v1/packages/FE7NWW/leaderboard?around=me", headers: auth))
        replies.append(try server.request("POST", "/v1/packages", headers: ["Authorization": "Basic \(basic)"], body: Data("{}".utf8)))
        replies.append(try server.request("POST", "/v1/packages", headers: ["Authorization": "Bearer \(token)x"], body: Data("{}".utf8)))
        replies.append(try server.request("GET", "/v1/movies?q=toy&api_key=\(apiKey)", headers: auth))
        #expect(tmdb.requests.count >= 1, "the search reached fake-tmdb with the key")

        replies.append(try server.request("GET", "/metrics", headers: ["Authorization": "Bearer \(metricsToken)"]))
        #expect(replies.last?.status == 200)
        #expect(server.stop() == 0)

        let output = server.output
        #expect(output.contains("/v1/movies"), "verbose request logs were written")
        if logFormat == "json" {
            let errors = (try? String(contentsOfFile: server.stderrPath, encoding: .utf8)) ?? ""
            let lines = errors.split(separator: "\n")
            let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
            #expect(!lines.isEmpty && objects.count == lines.count, "every line is a JSON object: \(errors.prefix(2000))")
            let started = objects.first { $0["http.route"] == "/v1/packages/{code}/plays" }
            #expect(started?["http.status"] == "201" && started?["http.path"] == "/v1/packages/FE7NWW/plays", "\(objects)")
            #expect(started?["duration.ms"] != nil && started?["hb.request.id"] != nil && started?["instance"] != nil)
            #expect(started?["player.hash"]?.count == 12 && started?["level"] == "info" && started?["time"] != nil)
            #expect(!token.contains(started?["player.hash"] ?? "-"), "the hash is not a piece of the token")
        }
        for (name, secret) in [
            ("token", token), ("password", password), ("Basic credentials", basic), ("API key", apiKey),
            ("metrics token", metricsToken),
        ] {
            #expect(!output.contains(secret), "the \(name) is not in the server's output")
            for reply in replies {
                let all = reply.text + reply.headers.values.joined(separator: "\n")
                #expect(!all.contains(secret), "the \(name) is not in a response: \(reply.status)")
            }
        }
    }
}
