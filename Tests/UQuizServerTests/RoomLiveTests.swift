import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import NIOWebSocket
import QuizCore
import ServerUseCases
import Synchronization
import Testing
import UQuizServer
import UQuizWire

/// A room client on a real WebSocket over loopback: it keeps every message the server sent, sends what the test says,
/// and notes the close code the server gave.
final class LiveRoomClient: Sendable {
    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    private let received = Mutex<[RoomWire.ServerMessage]>([])
    private let closeCode = Mutex<UInt16?>(nil)
    private let ended = Mutex<Bool>(false)
    private let outgoing: AsyncStream<String>
    private let commands: AsyncStream<String>.Continuation

    private init() {
        (outgoing, commands) = AsyncStream<String>.makeStream()
    }

    /// A client of room `code`, sending its messages in frames of at most `frameSize` bytes (a longer one in pieces).
    static func connect(port: Int, code: String, frameSize: Int = 1 << 16) -> LiveRoomClient {
        let client = LiveRoomClient()
        Task { await client.run(url: "ws://127.0.0.1:\(port)/v1/rooms/\(code)/ws", frameSize: frameSize) }
        return client
    }

    private func run(url: String, frameSize: Int) async {
        var logger = Logger(label: "uquiz.room.client")
        logger.logLevel = .critical
        do {
            let frame = try await WebSocketClient.connect(
                url: url, configuration: .init(maxFrameSize: frameSize), logger: logger
            ) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            guard case .text(let text) = message,
                                  let decoded = try? RoomWire.decodeServer(Data(text.utf8)) else { continue }
                            self.received.withLock { $0.append(decoded) }
                        }
                    }
                    group.addTask {
                        for await text in self.outgoing { try await outbound.writeTextMessage(text) }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
            closeCode.withLock { $0 = frame.map { UInt16(webSocketErrorCode: $0.closeCode) } }
        } catch {}
        ended.withLock { $0 = true }
    }

    func send(_ message: RoomWire.ClientMessage) {
        commands.yield(String(decoding: RoomWire.encode(message), as: UTF8.self))
    }

    func sendRaw(_ text: String) { commands.yield(text) }

    /// Closes the connection from this side.
    func disconnect() { commands.finish() }

    var messages: [RoomWire.ServerMessage] { received.withLock { $0 } }

    /// The first message `match` picks, waiting for it up to `timeout` (generous: a wait, not a timing assertion).
    func waitFor<T: Sendable>(
        _ what: String, timeout: Duration = .seconds(20), _ match: @Sendable (RoomWire.ServerMessage) -> T?
    ) async throws -> T {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = received.withLock({ $0.lazy.compactMap(match).first }) { return found }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw Timeout(description: "no \(what) within \(timeout)")
    }

    /// The close code the server ended the connection with, once it has.
    func waitForClose(timeout: Duration = .seconds(20)) async throws -> UInt16? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if ended.withLock({ $0 }) { return closeCode.withLock { $0 } }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw Timeout(description: "the connection did not close within \(timeout)")
    }

    func join(_ name: String, token: String? = nil) async throws -> RoomWire.Welcome {
        send(.join(name: name, playerToken: token))
        return try await waitFor("welcome") { if case .welcome(let welcome) = $0 { welcome } else { nil } }
    }
}

/// Long stages so that which stage is revealed never depends on how fast the machine runs the test.
let slowStages: @Sendable (RoomRules) -> RoomRules = { rules in
    var slow = rules
    slow.stageDuration = .seconds(30)
    slow.timeLimit = .seconds(300)
    return slow
}

extension TestServer {
    /// The whole server (HTTP and the rooms' WebSocket) on a loopback port, with rooms on the real clock.
    func live<Value: Sendable>(
        rooms: RoomLimits = RoomLimits(lease: .seconds(600), adjustRules: slowStages),
        _ test: @Sendable (any TestClientProtocol, Int) async throws -> Value
    ) async throws -> Value {
        var logger = Logger(label: "uquiz.server.tests")
        logger.logLevel = .critical
        let app = buildApplication(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, rooms: rooms), environment: environment,
            logger: logger)
        return try await app.test(.live) { client in try await test(client, try #require(client.port)) }
    }
}

extension TestClientProtocol {
    func openRoom(token: String, shareCode: String = silentClassics) async throws -> String {
        let response = try await send(.post, "/v1/rooms", json: ["shareCode": shareCode], token: token)
        guard response.status == .created, let code = response.json["code"] as? String else {
            throw UnexpectedResponse(status: response.status.code, body: response.text)
        }
        return code
    }
}

@Suite("Live rooms over real WebSockets", .serialized)
struct RoomLiveTests {
    @Test func thirtyPlayersPlayAQuizTogether() async throws {
        let server = try TestServer()
        let answer = try server.quiz(silentClassics, 1).title
        try await server.live { client, port in
            let hostToken = try await client.newPlayer("Host")
            let opened = try await client.send(.post, "/v1/rooms", json: ["shareCode": silentClassics], token: hostToken)
            #expect(opened.status == .created)
            let code = try #require(opened.json["code"] as? String)
            #expect(opened.json["wsURL"] as? String == "/v1/rooms/\(code)/ws")
            #expect(try await client.send(.post, "/v1/rooms", json: ["shareCode": silentClassics]).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/rooms/ZZZZ").status == .notFound)
            #expect(try await client.send(.get, "/v1/rooms/ZZZZ/ws").status == .notFound)
            let plain = try await client.send(.get, "/v1/rooms/\(code)/ws")
            #expect(plain.status == .upgradeRequired && plain.errorCode == "upgrade_required")

            let host = LiveRoomClient.connect(port: port, code: code)
            #expect(try await host.join("Host", token: hostToken).player == 1)
            let guests = (2...30).map { _ in LiveRoomClient.connect(port: port, code: code) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, guest) in guests.enumerated() {
                    group.addTask { _ = try await guest.join("Player \(index + 2)") }
                }
                try await group.waitForAll()
            }
            let everyone = [host] + guests
            let lobby = try await client.send(.get, "/v1/rooms/\(code.lowercased())")
            #expect(lobby.status == .ok)
            #expect((lobby.json["players"] as? [[String: Any]])?.count == 30)
            #expect(lobby.json["host"] as? Int == 1 && lobby.json["phase"] as? String == "lobby")

            host.send(.start)
            for player in everyone {
                let loading = try await player.waitFor("quizLoading") { if case .quizLoading(let l) = $0 { l } else { nil } }
                #expect(loading.quiz == 1 && loading.posterURL == "/v1/rooms/\(code)/quizzes/1/poster?stage=1")
                player.send(.loaded(quiz: 1))
            }
            var started = 0
            for player in everyone {
                let clock = try await player.waitFor("quizStarted") { if case .quizStarted(let c) = $0 { c } else { nil } }
                if clock.quiz == 1 && clock.stage == 1 && clock.nextStageInMs != nil { started += 1 }
            }
            #expect(started == 30, "every player got stage 1 of quiz 1")

            let stage1 = try await client.send(.get, "/v1/rooms/\(code)/quizzes/1/poster?stage=1")
            #expect(stage1.status == .ok && stage1.headers[.contentType] == "image/jpeg")
            let early = try await client.send(.get, "/v1/rooms/\(code)/quizzes/1/poster?stage=2")
            #expect(early.status == .forbidden && early.errorCode == "not_revealed")
            #expect(try await client.send(.get, "/v1/rooms/\(code)/quizzes/1/poster").status == .forbidden)

            // Guests joined at once, so their numbers follow the order the server took them in.
            let solver = try await guests[0].waitFor("welcome") { if case .welcome(let w) = $0 { w.player } else { nil } }
            guests[0].send(.guess(quiz: 1, text: answer))
            let judged = try await guests[0].waitFor("guessJudged") { if case .guessJudged(let j) = $0 { j } else { nil } }
            #expect(judged.judgement == "accepted" && judged.stage == 1)
            for player in everyone {
                let solved = try await player.waitFor("solved") { if case .solved(let s) = $0 { s } else { nil } }
                #expect(solved.player == solver)
            }

            host.send(.skip(quiz: 1))
            for player in everyone {
                let ended = try await player.waitFor("quizEnded") { if case .quizEnded(let e) = $0 { e } else { nil } }
                #expect(ended.answerTitle == answer && ended.scoreboard.count == 30)
                #expect(ended.scoreboard.first?.player == solver && ended.scoreboard.first?.score == judged.points)
            }
            #expect(try await client.send(.get, "/v1/rooms/\(code)/quizzes/1/poster").status == .ok)
            for player in everyone { player.disconnect() }
            for player in everyone { _ = try await player.waitForClose() }
        }
    }

    /// A name taken in a room is reported by the room's code and the name as the room shows it (matched as names in a
    /// room are compared), once per reporter; the store keeps the name and the account behind it.
    @Test func aNameInARoomIsReportedOnce() async throws {
        let server = try TestServer()
        try await server.live { client, port in
            let hostToken = try await client.newPlayer("Host")
            let rudeToken = try await client.newPlayer("Rude")
            let code = try await client.openRoom(token: hostToken)
            let host = LiveRoomClient.connect(port: port, code: code)
            _ = try await host.join("Host", token: hostToken)
            let rude = LiveRoomClient.connect(port: port, code: code)
            _ = try await rude.join("Rudé", token: rudeToken)

            let path = "/v1/rooms/\(code.lowercased())/reports"
            let filed = try await client.send(.post, path, json: ["name": "rudé", "reason": "offensive"], token: hostToken)
            #expect(filed.status == .created && filed.json["hidden"] as? Bool == false, "\(filed.text)")
            let again = try await client.send(.post, path, json: ["name": "Rudé", "reason": "spam"], token: hostToken)
            #expect(again.status == .conflict)
            let nobody = try await client.send(.post, path, json: ["name": "Ghost", "reason": "spam"], token: hostToken)
            #expect(nobody.status == .notFound && nobody.text.contains("nobody in this room is named"), "\(nobody.text)")
            let noName = try await client.send(.post, path, json: ["reason": "spam"], token: hostToken)
            #expect(noName.status == .badRequest)
            #expect(try await client.send(.post, path, json: ["name": "Rudé", "reason": "spam"]).status == .unauthorized)
            let noRoom = try await client.send(.post, "/v1/rooms/ZZZZ/reports", json: ["name": "Rudé", "reason": "spam"], token: hostToken)
            #expect(noRoom.status == .notFound)

            let reported = try await server.environment.sharing.store().reportedTargets(limit: 10)
            #expect(reported.count == 1 && reported.first?.kind == "room" && reported.first?.code == code)
            #expect(reported.first?.title == "Rudé" && reported.first?.ownerName == "Rude", "\(reported)")
            #expect(reported.first?.reports.map(\.reason) == [.offensive])
        }
    }

    @Test func aCheatingClientGainsNothingOverTheWire() async throws {
        let server = try TestServer()
        let answer = try server.quiz(silentClassics, 1).title
        try await server.live { client, port in
            let hostToken = try await client.newPlayer("Host")
            let code = try await client.openRoom(token: hostToken)
            let otherCode = try await client.openRoom(token: hostToken)
            let outsider = LiveRoomClient.connect(port: port, code: otherCode)
            let foreignToken = try await outsider.join("Host", token: hostToken).resumeToken

            let host = LiveRoomClient.connect(port: port, code: code)
            _ = try await host.join("Host", token: hostToken)
            let cheat = LiveRoomClient.connect(port: port, code: code)
            _ = try await cheat.join("Cheat")

            let thief = LiveRoomClient.connect(port: port, code: code)
            thief.send(.resume(token: foreignToken))
            let refused = try await thief.waitFor("error") { if case .error(let f) = $0 { f.code } else { nil } }
            #expect(refused == "wrong_resume_token", "another room's seat is not this room's")

            cheat.send(.guess(quiz: 1, text: answer))
            let early = try await cheat.waitFor("error") { if case .error(let f) = $0 { f.code } else { nil } }
            #expect(early == "quiz_not_running")

            host.send(.start)
            for player in [host, cheat] {
                _ = try await player.waitFor("quizLoading") { if case .quizLoading(let l) = $0 { l } else { nil } }
                player.send(.loaded(quiz: 1))
            }
            for player in [host, cheat] {
                _ = try await player.waitFor("quizStarted") { if case .quizStarted(let c) = $0 { c } else { nil } }
            }
            // A forged time and stage: the server judges at its own receipt, at the stage it has revealed.
            cheat.sendRaw(
                #"{"v":1,"type":"guess","quiz":1,"text":"\#(answer)","serverTime":0,"clientTime":0,"time":0,"stage":5}"#)
            let judged = try await cheat.waitFor("guessJudged") { if case .guessJudged(let j) = $0 { j } else { nil } }
            #expect(judged.judgement == "accepted" && judged.stage == 1)
            // Stage 1 of 5 with 300 s to answer: 100 + 4 × 20 for the hidden stages + a time bonus that only a guess at
            // the quiz's start makes 100: a forged time cannot lift it past the most an honest guess at stage 1 gets.
            #expect((180...280).contains(judged.points ?? 0))
            for player in [host, cheat, thief, outsider] { player.disconnect() }
            for player in [host, cheat, thief, outsider] { _ = try await player.waitForClose() }
        }
    }

    @Test func aFloodingClientIsCutOffAndTheRoomGoesOn() async throws {
        let server = try TestServer()
        try await server.live { client, port in
            let hostToken = try await client.newPlayer("Host")
            let code = try await client.openRoom(token: hostToken)
            let host = LiveRoomClient.connect(port: port, code: code)
            _ = try await host.join("Host", token: hostToken)
            let flood = LiveRoomClient.connect(port: port, code: code)
            _ = try await flood.join("Flood")
            for number in 0..<60 { flood.send(.ping(clientTime: Double(number))) }
            #expect(try await flood.waitForClose() == RoomWire.CloseReason.flooding.code)

            let lobby = try await host.waitFor("the flooder shown disconnected") { message -> Bool? in
                guard case .lobby(let lobby) = message,
                      lobby.players.contains(where: { $0.name == "Flood" && !$0.connected }) else { return nil }
                return true
            }
            #expect(lobby)
            host.send(.start)
            let loading = try await host.waitFor("quizLoading") { if case .quizLoading(let l) = $0 { l } else { nil } }
            #expect(loading.quiz == 1, "the room goes on")

            let big = LiveRoomClient.connect(port: port, code: code)
            big.sendRaw(#"{"v":1,"type":"join","name":""# + String(repeating: "x", count: 5_000) + #""}"#)
            #expect(try await big.waitForClose() == RoomWire.CloseReason.messageTooLarge.code)
            // Past what the socket reads at all (16 KiB, in frames each within the frame limit): the WebSocket layer's own
            // close says why, not a normal close.
            let pieces = LiveRoomClient.connect(port: port, code: code, frameSize: 4 << 10)
            pieces.sendRaw(#"{"v":1,"type":"join","name":""# + String(repeating: "x", count: 16 << 10) + #""}"#)
            let piecesClose = try await pieces.waitForClose()
            #expect(piecesClose == UInt16(webSocketErrorCode: .messageTooLarge), "closed with \(String(describing: piecesClose))")
            host.disconnect()
            _ = try await host.waitForClose()
        }
    }

    @Test func aDroppedPlayerResumesAndGetsASnapshot() async throws {
        let server = try TestServer()
        try await server.live { client, port in
            let hostToken = try await client.newPlayer("Host")
            let code = try await client.openRoom(token: hostToken)
            let host = LiveRoomClient.connect(port: port, code: code)
            _ = try await host.join("Host", token: hostToken)
            let ann = LiveRoomClient.connect(port: port, code: code)
            let token = try await ann.join("Ann").resumeToken
            host.send(.start)
            _ = try await ann.waitFor("quizLoading") { if case .quizLoading(let l) = $0 { l } else { nil } }
            ann.disconnect()
            _ = try await ann.waitForClose()
            _ = try await host.waitFor("Ann shown disconnected") { message -> Bool? in
                guard case .lobby(let lobby) = message,
                      lobby.players.contains(where: { $0.name == "Ann" && !$0.connected }) else { return nil }
                return true
            }

            let back = LiveRoomClient.connect(port: port, code: code)
            back.send(.resume(token: token))
            let welcome = try await back.waitFor("welcome") { if case .welcome(let w) = $0 { w } else { nil } }
            #expect(welcome.player == 2)
            let snapshot = try await back.waitFor("snapshot") { if case .snapshot(let s) = $0 { s } else { nil } }
            #expect(snapshot.you == 2 && snapshot.phase == "loading" && snapshot.loading?.quiz == 1)
            #expect(snapshot.lobby.players.map(\.name) == ["Host", "Ann"])
            _ = try await host.waitFor("Ann back") { message -> Bool? in
                guard case .lobby(let lobby) = message,
                      lobby.players.contains(where: { $0.name == "Ann" && $0.connected }) else { return nil }
                return true
            }
            for player in [host, back] { player.disconnect() }
            for player in [host, back] { _ = try await player.waitForClose() }
        }
    }
}
