import Foundation
import QuizCore
import QuizStore
import ServerUseCases
import Synchronization
import Testing
import UQuizStorage
import UQuizWire

/// What a transport would send and close, for connections driven in process.
final class RecordingOutbox: Sendable {
    private let items = Mutex<[RoomOutbound]>([])

    var send: @Sendable (RoomOutbound) -> Void { { item in self.items.withLock { $0.append(item) } } }

    var messages: [RoomWire.ServerMessage] {
        items.withLock { $0 }.compactMap { item in
            guard case .text(let text) = item else { return nil }
            return try? RoomWire.decodeServer(Data(text.utf8))
        }
    }

    var closeReason: RoomWire.CloseReason? {
        items.withLock { $0 }.lazy.compactMap { item -> RoomWire.CloseReason? in
            guard case .close(let reason) = item else { return nil }
            return reason
        }.first
    }

    func clear() { items.withLock { $0.removeAll() } }

    /// The messages as the wire carries them, parsed as plain JSON objects.
    var rawObjects: [[String: Any]] {
        items.withLock { $0 }.compactMap { item in
            guard case .text(let text) = item else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        }
    }

    func errors() -> [String] {
        messages.compactMap { if case .error(let failure) = $0 { failure.code } else { nil } }
    }

    func judgements() -> [RoomWire.GuessJudged] {
        messages.compactMap { if case .guessJudged(let judged) = $0 { judged } else { nil } }
    }
}

extension RoomConnection {
    func say(_ message: RoomWire.ClientMessage) async {
        let text = String(decoding: RoomWire.encode(message), as: UTF8.self)
        await receive(text, bytes: text.utf8.count)
    }

    func sayRaw(_ text: String) async { await receive(text, bytes: text.utf8.count) }
}

/// A room on the seed's Silent Classics driven in process on a hand-driven clock, timers off: time passes in
/// `advance` only, so every instant is exact.
struct RoomBench {
    let server: TestServer
    let clock = ManualClock()
    let rooms: Rooms
    let host: (player: Player, token: PlayerToken)
    let code: RoomCode

    /// In process nothing reports a message written, so the bench's connections may queue many.
    init(limits: RoomLimits = RoomLimits(maxQueuedMessages: 100_000)) async throws {
        server = try TestServer()
        let database = server.database
        rooms = Rooms(
            environment: server.environment.sharing, levels: .standard, limits: limits, runsTimers: false, now: clock.now)
        host = try await Players(environment: server.environment.sharing).register(name: "Host")
        code = try await rooms.open(shareCode: silentClassics, host: host.player)
    }

    func connect() throws -> (RoomConnection, RecordingOutbox) {
        let outbox = RecordingOutbox()
        return (try rooms.connect(code: code.value, outbox: outbox.send), outbox)
    }

    func join(_ name: String, token: String? = nil) async throws -> (RoomConnection, RecordingOutbox) {
        let (connection, outbox) = try connect()
        await connection.say(.join(name: name, playerToken: token))
        return (connection, outbox)
    }

    func advance(_ duration: Duration) async {
        clock.advance(duration)
        await rooms.advanceRooms()
    }
}

func welcome(_ outbox: RecordingOutbox) -> RoomWire.Welcome? {
    outbox.messages.lazy.compactMap { if case .welcome(let welcome) = $0 { welcome } else { nil } }.first
}

func lastLobby(_ outbox: RecordingOutbox) -> RoomWire.Lobby? {
    outbox.messages.compactMap { if case .lobby(let lobby) = $0 { lobby } else { nil } }.last
}

@Suite("Live rooms in process")
struct RoomUseCaseTests {
    @Test func theOpenerJoinsFirstAndTheLobbyShowsWhoIsIn() async throws {
        let bench = try await RoomBench()
        let (early, earlyBox) = try await bench.join("Early")
        #expect(earlyBox.errors() == ["host_not_here"])
        #expect(early.player == nil)
        let (_, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        #expect(welcome(hostBox)?.player == 1)
        #expect(hostBox.messages.contains { if case .snapshot(let s) = $0 { s.you == 1 && s.phase == "lobby" } else { false } })
        await early.say(.join(name: "Early", playerToken: nil))
        #expect(welcome(earlyBox)?.player == 2)
        #expect(lastLobby(hostBox)?.players.map(\.name) == ["Host", "Early"])
        let info = try await bench.rooms.info(code: bench.code.value.lowercased())
        #expect(info.players.count == 2 && info.host == 1 && info.phase == "lobby" && info.quizCount == 25)
        await #expect(throws: ServerRoomError.unknownRoom) { try await bench.rooms.info(code: "ZZZZ") }
    }

    /// Every message is one flat, versioned object: `v`, `type`, then the type's own fields.
    @Test func messagesAreFlatVersionedJSON() async throws {
        let bench = try await RoomBench()
        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let welcome = try #require(hostBox.rawObjects.first)
        #expect(welcome["v"] as? Int == 1 && welcome["type"] as? String == "welcome")
        #expect(welcome["player"] as? Int == 1 && (welcome["resumeToken"] as? String)?.count == 32)
        #expect(welcome["seatHoldMs"] as? Int == 90_000)
        await host.sayRaw(#"{"v":2,"type":"start"}"#)
        await host.sayRaw(#"{"v":1,"type":"teleport"}"#)
        await host.sayRaw("not json")
        await host.sayRaw(#"{"v":1,"type":"guess","quiz":1}"#)
        #expect(hostBox.errors() == ["bad_message", "bad_message", "bad_message", "bad_message"])
        #expect(hostBox.closeReason == nil, "a malformed message is answered, not punished")
    }

    /// Three rooms that someone joined are the most one player hosts; a room of theirs nobody joined makes way instead.
    @Test func aPlayerHostsAtMostThreeOpenRooms() async throws {
        let bench = try await RoomBench()
        _ = try await bench.join("Host", token: bench.host.token.text)
        let second = try await bench.rooms.open(shareCode: silentClassics, host: bench.host.player)
        let third = try await bench.rooms.open(shareCode: silentClassics, host: bench.host.player)
        let fourth = try await bench.rooms.open(shareCode: silentClassics, host: bench.host.player)
        #expect(!bench.rooms.exists(code: second.value), "the oldest unjoined room made way")
        #expect(bench.rooms.exists(code: third.value) && bench.rooms.exists(code: fourth.value))
        for code in [third, fourth] {
            let outbox = RecordingOutbox()
            try await bench.rooms.connect(code: code.value, outbox: outbox.send).say(.join(name: "Host", playerToken: bench.host.token.text))
            #expect(welcome(outbox) != nil)
        }
        await #expect(throws: ServerRoomError.tooManyRooms(limit: 3)) {
            try await bench.rooms.open(shareCode: silentClassics, host: bench.host.player)
        }
        let other = try await Players(environment: bench.server.environment.sharing).register(name: "Other")
        _ = try await bench.rooms.open(shareCode: silentClassics, host: other.player)
    }

    /// An instance full of rooms makes way for a new one by retiring the oldest room nobody joined: a flood of rooms
    /// opened and never joined cannot keep a real host out. Only rooms people are in make it full.
    @Test func aFullInstanceRetiresTheOldestUnjoinedRoomForANewOne() async throws {
        let bench = try await RoomBench(limits: RoomLimits(maxRooms: 3, maxQueuedMessages: 100_000))
        _ = try await bench.join("Host", token: bench.host.token.text)
        let players = Players(environment: bench.server.environment.sharing)
        let flooder = try await players.register(name: "Flood")
        let first = try await bench.rooms.open(shareCode: silentClassics, host: flooder.player)
        let second = try await bench.rooms.open(shareCode: silentClassics, host: flooder.player)
        let real = try await players.register(name: "Real host")
        let theirs = try await bench.rooms.open(shareCode: silentClassics, host: real.player)
        #expect(!bench.rooms.exists(code: first.value), "the oldest unjoined room made way")
        #expect(bench.rooms.exists(code: second.value) && bench.rooms.exists(code: theirs.value))
        #expect(bench.rooms.exists(code: bench.code.value), "a room someone is in stays")
        let outbox = RecordingOutbox()
        try await bench.rooms.connect(code: theirs.value, outbox: outbox.send)
            .say(.join(name: "Real host", playerToken: real.token.text))
        #expect(welcome(outbox) != nil)
        let again = try await bench.rooms.open(shareCode: silentClassics, host: flooder.player)
        #expect(!bench.rooms.exists(code: second.value) && bench.rooms.exists(code: theirs.value))
        // Every room joined: full.
        let last = RecordingOutbox()
        try await bench.rooms.connect(code: again.value, outbox: last.send).say(.join(name: "Flood", playerToken: flooder.token.text))
        let other = try await players.register(name: "Other")
        await #expect(throws: ServerRoomError.full) { try await bench.rooms.open(shareCode: silentClassics, host: other.player) }
    }

    /// Guesses before the quiz or before a stage are refused, and a time a client writes into its message is never read:
    /// two correct guesses at the same server instant score the same, forged fields or not.
    @Test func aCheatingClientGainsNothing() async throws {
        let bench = try await RoomBench()
        let answer = try bench.server.quiz(silentClassics, 1).title
        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let (honest, honestBox) = try await bench.join("Honest")
        let (cheat, cheatBox) = try await bench.join("Cheat")

        await cheat.say(.guess(quiz: 1, text: answer))
        #expect(cheatBox.errors() == ["quiz_not_running"], "no guess before the quiz starts")
        await cheat.say(.start)
        #expect(cheatBox.errors().last == "not_host")

        await host.say(.start)
        #expect(hostBox.messages.contains { if case .quizLoading(let l) = $0 { l.quiz == 1 } else { false } })
        await #expect(throws: ServerRoomError.notRevealed(quiz: 1, stage: 2)) {
            try await bench.rooms.poster(code: bench.code.value, quiz: 1, stage: 2)
        }
        await #expect(throws: ServerRoomError.notRevealed(quiz: 1, stage: nil)) {
            try await bench.rooms.poster(code: bench.code.value, quiz: 1, stage: nil)
        }
        _ = try await bench.rooms.poster(code: bench.code.value, quiz: 1, stage: 1)
        await cheat.say(.guess(quiz: 1, text: answer))
        #expect(cheatBox.errors().last == "quiz_not_running", "no guess while the quiz loads")

        for connection in [host, honest, cheat] { await connection.say(.loaded(quiz: 1)) }
        #expect(honestBox.messages.contains { if case .quizStarted(let c) = $0 { c.quiz == 1 && c.stage == 1 } else { false } })
        await cheat.say(.guess(quiz: 2, text: "anything"))
        #expect(cheatBox.errors().last == "quiz_not_running", "no guess on a quiz ahead")
        await #expect(throws: ServerRoomError.notRevealed(quiz: 1, stage: 2)) {
            try await bench.rooms.poster(code: bench.code.value, quiz: 1, stage: 2)
        }

        await bench.advance(.milliseconds(2_500))
        #expect(cheatBox.messages.contains { if case .stageRevealed(let c) = $0 { c.stage == 2 } else { false } })
        _ = try await bench.rooms.poster(code: bench.code.value, quiz: 1, stage: 2)

        bench.clock.advance(.milliseconds(700))
        await cheat.sayRaw(
            #"{"v":1,"type":"guess","quiz":1,"text":"\#(answer)","time":0,"serverTime":0,"clientTime":0,"stage":1,"points":999}"#)
        await honest.say(.guess(quiz: 1, text: answer))
        let cheatPoints = try #require(cheatBox.judgements().last?.points)
        let honestPoints = try #require(honestBox.judgements().last?.points)
        #expect(cheatPoints == honestPoints)
        #expect(cheatBox.judgements().last?.stage == 2)
        // The answer is never in a message before the quiz ends.
        #expect(!hostBox.messages.contains { if case .quizEnded = $0 { true } else { false } })

        await host.say(.skip(quiz: 1))
        let ended = try #require(hostBox.messages.compactMap { if case .quizEnded(let e) = $0 { e } else { nil } }.first)
        #expect(ended.answerTitle == answer && ended.ending == "skipped")
        #expect(ended.scoreboard.map(\.name).prefix(2).sorted() == ["Cheat", "Honest"])
        #expect(ended.scoreboard.first?.score == honestPoints)
        _ = try await bench.rooms.poster(code: bench.code.value, quiz: 1, stage: nil)
    }

    @Test func aDroppedPlayerResumesWithTheirTokenOnlyAndGetsASnapshot() async throws {
        let bench = try await RoomBench()
        let other = try await RoomBench()
        let (_, otherBox) = try await other.join("Host", token: other.host.token.text)
        let foreignToken = try #require(welcome(otherBox)?.resumeToken)

        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let (ann, annBox) = try await bench.join("Ann")
        let annToken = try #require(welcome(annBox)?.resumeToken)
        await host.say(.start)
        await ann.closed()
        #expect(lastLobby(hostBox)?.players.first { $0.name == "Ann" }?.connected == false)

        let (thief, thiefBox) = try bench.connect()
        await thief.say(.resume(token: foreignToken))
        await thief.say(.resume(token: "0123456789abcdef0123456789abcdef"))
        await thief.say(.resume(token: "not a token"))
        #expect(thiefBox.errors() == ["wrong_resume_token", "wrong_resume_token", "wrong_resume_token"])
        #expect(thief.player == nil)

        let (back, backBox) = try bench.connect()
        await back.say(.resume(token: annToken))
        #expect(back.player == 2)
        let snapshot = try #require(backBox.messages.compactMap { if case .snapshot(let s) = $0 { s } else { nil } }.first)
        #expect(snapshot.you == 2 && snapshot.phase == "loading" && snapshot.loading?.quiz == 1)
        #expect(lastLobby(hostBox)?.players.first { $0.name == "Ann" }?.connected == true)
    }

    @Test func aFloodingOrOversizedClientIsCutOffAndTheRoomGoesOn() async throws {
        let bench = try await RoomBench()
        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let (flood, floodBox) = try await bench.join("Flood")
        let (big, bigBox) = try await bench.join("Big")
        for _ in 0..<(RoomConnectionGuard.burst + 5) { await flood.say(.ping(clientTime: 1)) }
        #expect(floodBox.closeReason == .flooding)
        await big.sayRaw(#"{"v":1,"type":"guess","quiz":1,"text":""# + String(repeating: "x", count: 5_000) + #""}"#)
        #expect(bigBox.closeReason == .messageTooLarge)
        let lobby = try #require(lastLobby(hostBox))
        #expect(lobby.players.filter(\.connected).map(\.name) == ["Host"], "both keep their seats, disconnected")
        await host.say(.start)
        #expect(hostBox.messages.contains { if case .quizLoading = $0 { true } else { false } }, "the room goes on")
        hostBox.clear()
        await host.say(.loaded(quiz: 1))
        #expect(hostBox.messages.contains { if case .quizStarted = $0 { true } else { false } })
    }

    /// A client that reads nothing is cut off once its unread messages pass the limit; one that reads is not.
    @Test func aClientThatDoesNotReadIsCutOff() async throws {
        let bench = try await RoomBench(limits: RoomLimits(maxQueuedMessages: 6))
        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let (reader, readerBox) = try await bench.join("Reader")
        for _ in 0..<hostBox.messages.count { host.written() }
        for _ in 0..<readerBox.messages.count { reader.written() }
        let (_, deafBox) = try await bench.join("Deaf")
        for number in 1...6 {
            _ = try await bench.join("Guest \(number)")
            for _ in 0..<hostBox.messages.count { host.written() }
            hostBox.clear()
        }
        #expect(deafBox.closeReason == .tooSlow)
        #expect(hostBox.closeReason == nil)
        #expect(readerBox.closeReason == .tooSlow, "the reader never reported what it read after joining either")
        #expect(try await bench.rooms.info(code: bench.code.value).players.count == 9, "a cut-off player keeps the seat")
    }

    @Test func heartbeatsPingQuietConnectionsAndFindDeadOnes() async throws {
        let bench = try await RoomBench()
        let (silent, silentBox) = try bench.connect()
        bench.clock.advance(.seconds(6))
        await silent.heartbeat()
        #expect(silentBox.closeReason == .noHello)

        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let (quiet, quietBox) = try await bench.join("Quiet")
        bench.clock.advance(RoomConnectionGuard.heartbeatInterval)
        await host.heartbeat()
        await quiet.heartbeat()
        let ping = try #require(hostBox.messages.compactMap { if case .ping(let p) = $0 { p } else { nil } }.last)
        await host.say(.pong(serverTime: ping.serverTime))
        bench.clock.advance(RoomConnectionGuard.deadAfter - RoomConnectionGuard.heartbeatInterval)
        await host.heartbeat()
        await quiet.heartbeat()
        #expect(quietBox.closeReason == .dead)
        #expect(hostBox.closeReason == nil)
        #expect(lastLobby(hostBox)?.players.first { $0.name == "Quiet" }?.connected == false)
    }

    @Test func aClientPingGetsAPongWithTheServerTime() async throws {
        let bench = try await RoomBench()
        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        await host.say(.ping(clientTime: 1234.5))
        let pong = try #require(hostBox.messages.compactMap { if case .pong(let p) = $0 { p } else { nil } }.last)
        #expect(pong.clientTime == 1234.5)
        #expect(pong.serverTime == Int((bench.clock.now() / .milliseconds(1)).rounded(.down)))
    }

    @Test func aLateJoinerWatchesTheRunningQuizAndPlaysTheNext() async throws {
        let bench = try await RoomBench()
        let answer = try bench.server.quiz(silentClassics, 1).title
        let (host, _) = try await bench.join("Host", token: bench.host.token.text)
        await host.say(.start)
        await host.say(.loaded(quiz: 1))
        let (late, lateBox) = try await bench.join("Late")
        let snapshot = try #require(lateBox.messages.compactMap { if case .snapshot(let s) = $0 { s } else { nil } }.first)
        #expect(snapshot.phase == "playing" && snapshot.standing == "watching" && snapshot.clock?.stage == 1)
        await late.say(.guess(quiz: 1, text: answer))
        #expect(lateBox.errors() == ["watching"])
        await host.say(.skip(quiz: 1))
        await bench.advance(.seconds(8))
        await host.say(.loaded(quiz: 2))
        await late.say(.loaded(quiz: 2))
        #expect(lateBox.messages.contains { if case .quizStarted(let c) = $0 { c.quiz == 2 } else { false } })
        await late.say(.guess(quiz: 2, text: "not the title"))
        #expect(lateBox.judgements().last?.judgement == "wrong")
    }

    @Test func theHostKicksAndPassesTheRoleAndALeavingHostHandsItOn() async throws {
        let bench = try await RoomBench()
        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let (ann, annBox) = try await bench.join("Ann")
        let (_, bobBox) = try await bench.join("Bob")
        await host.say(.kick(player: 3))
        #expect(bobBox.messages.contains(.kicked))
        #expect(bobBox.closeReason == .kicked)
        await host.say(.passHost(player: 2))
        #expect(lastLobby(annBox)?.host == 2)
        await ann.say(.leave)
        #expect(annBox.closeReason == .left)
        #expect(lastLobby(hostBox)?.host == 1)
    }

    /// A whole room played to its end (every quiz skipped): the podium is sent, each player's final result is stored
    /// once, a player who joined with their token finds it in their stats, and the room expires 30 minutes later.
    @Test func finalResultsAreStoredOnceAndTheRoomExpiresAfterItsEnd() async throws {
        let bench = try await RoomBench()
        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let (guest, _) = try await bench.join("Guest")
        await host.say(.start)
        let answer = try bench.server.quiz(silentClassics, 1).title
        for quiz in 1...25 {
            await host.say(.loaded(quiz: quiz))
            await guest.say(.loaded(quiz: quiz))
            if quiz == 1 { await host.say(.guess(quiz: 1, text: answer)) }
            await host.say(.skip(quiz: quiz))
            await bench.advance(.seconds(8))
        }
        let podium = try #require(hostBox.messages.compactMap { if case .podium(let p) = $0 { p } else { nil } }.first)
        #expect(podium.places.first?.name == "Host" && podium.places.first?.rank == 1)
        #expect(podium.places.first?.shareLine?.isEmpty == false)
        let rows = try await bench.server.database.roomResults(playerId: bench.host.player.id, limit: 20)
        #expect(rows.count == 1)
        #expect(rows.first?.roomCode == bench.code.value && rows.first?.played == 25 && rows.first?.solved == 1)
        let stats = try await bench.server.database.roomStats(playerId: bench.host.player.id)
        #expect(stats.rooms == 1 && stats.wins == 1 && stats.points == rows.first?.score)

        await bench.advance(.seconds(30 * 60))
        #expect(hostBox.messages.contains { if case .roomExpired(let e) = $0 { e.reason == "ended" } else { false } })
        #expect(hostBox.closeReason == .roomGone)
        #expect(bench.rooms.count == 0)
        #expect(try await bench.server.database.roomResults(playerId: bench.host.player.id, limit: 20).count == 1, "stored once")
    }

    @Test func aQuizsEndNamesItsAnswerToTheSeatedAccountsBeforeAnyPodium() async throws {
        let bench = try await RoomBench()
        let players = Players(environment: bench.server.environment.sharing)
        let (host, _) = try await bench.join("Host", token: bench.host.token.text)
        let seen = try await players.register(name: "Seen")
        let (seenConnection, _) = try await bench.join("Seen", token: seen.token.text)
        let away = try await players.register(name: "Away")
        let (awayConnection, _) = try await bench.join("Away", token: away.token.text)
        await awayConnection.say(.leave)
        let packageId = try bench.server.file.packageID(for: silentClassics)
        let quizIds = try await bench.server.database.quizIDs(packageId: packageId)
        func shown(_ player: Player) async throws -> Bool {
            try await bench.server.database.answersShown(playerId: player.id, packageId: packageId, quizIds: quizIds, alsoShown: []).inRoom
        }
        await host.say(.start)
        await host.say(.loaded(quiz: 1))
        await seenConnection.say(.loaded(quiz: 1))
        #expect(try await !shown(seen.player), "quiz 1 runs: no answer named yet")
        // The host skips quiz 1: it ends for everyone, and its answer is named.
        await host.say(.skip(quiz: 1))
        #expect(try await shown(seen.player), "quiz 1 ended: its answer was named to Seen")
        #expect(try await shown(bench.host.player), "and to the host")
        #expect(try await !shown(away.player), "Away left before any answer was named")
        #expect(try await bench.server.database.roomResults(playerId: bench.host.player.id, limit: 20).isEmpty, "no podium yet")
    }
}
