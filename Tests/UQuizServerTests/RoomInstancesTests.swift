import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import QuizCore
import QuizStore
import ServerUseCases
import Synchronization
import Testing
import UQuizServer
import UQuizStorage
import UQuizWire

/// Live rooms with two server instances on one store, both listening on loopback: a room lives on the instance that
/// opened it, and players who reach the other instance are forwarded there (HTTP) and relayed (WebSocket).
@Suite("Live rooms across two instances", .serialized)
struct RoomInstancesTests {
    /// Quick interludes and loading, long stages: the test skips quizzes rather than waits for them. A long lease: on a
    /// machine loaded by the whole suite a renewal may come late, and no room moves but where a test moves it.
    static let quickRooms = RoomLimits(lease: .seconds(600), adjustRules: { rules in
        var quick = slowStages(rules)
        quick.interlude = .milliseconds(300)
        quick.loadingTimeout = .seconds(5)
        return quick
    })

    /// Runs `test` with instances A and B of `server` listening on loopback, each with its own rooms.
    func twoLiveInstances(
        _ server: TestServer, rooms: RoomLimits = quickRooms,
        _ test: @Sendable (_ a: any TestClientProtocol, _ portA: Int, _ b: any TestClientProtocol, _ portB: Int) async throws -> Void
    ) async throws {
        var logger = Logger(label: "uquiz.server.tests")
        logger.logLevel = .critical
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, rooms: rooms)
        let appA = buildApplication(configuration: configuration, environment: server.environment, logger: logger)
        let appB = buildApplication(configuration: configuration, environment: server.environment, logger: logger)
        try await appA.test(.live) { a in
            try await appB.test(.live) { b in try await test(a, try #require(a.port), b, try #require(b.port)) }
        }
    }

    /// A player hosts at most `maxHostedRooms` rooms across the instances; joined rooms (none to retire) count
    /// wherever they are.
    @Test func aHostsRoomsOnEveryInstanceCountTogether() async throws {
        let server = try TestServer()
        var rooms = Self.quickRooms
        rooms.maxHostedRooms = 2
        try await twoLiveInstances(server, rooms: rooms) { a, portA, b, portB in
            let token = try await a.newPlayer("Host")
            var clients: [LiveRoomClient] = []
            for (client, port) in [(a, portA), (b, portB)] {
                let code = try await client.openRoom(token: token)
                let host = LiveRoomClient.connect(port: port, code: code)
                _ = try await host.join("Host", token: token)
                clients.append(host)
            }
            for client in [a, b] {
                let refused = try await client.send(.post, "/v1/rooms", json: ["shareCode": silentClassics], token: token)
                #expect(refused.status == .conflict && refused.errorMessage.contains("you host 2 open rooms"), "\(refused.text)")
            }
            for client in clients { client.disconnect() }
        }
    }

    @Test func playersOnBothInstancesPlayOneRoomToThePodium() async throws {
        let server = try TestServer()
        let quizCount = try server.file.package(id: try server.file.packageID(for: silentClassics)).quizzes
            .filter { !$0.areas.isEmpty }.count
        let answer = try server.quiz(silentClassics, 1).title
        try await twoLiveInstances(server) { a, portA, b, portB in
            let hostToken = try await a.newPlayer("Host")
            let made = try await b.send(.post, "/v1/players", json: ["name": "Guest"])
            let guestToken = try #require(made.json["token"] as? String)
            let guestAccount = try #require(made.json["id"] as? Int)
            let code = try await a.openRoom(token: hostToken)
            #expect(try await server.database.roomInstance(code: code) == "http://127.0.0.1:\(portA)", "A holds the room")

            let host = LiveRoomClient.connect(port: portA, code: code)
            #expect(try await host.join("Host", token: hostToken).player == 1)
            // Two guests through B: relayed to A, where the room is.
            let guest = LiveRoomClient.connect(port: portB, code: code)
            let watcher = LiveRoomClient.connect(port: portB, code: code)
            let guestId = try await guest.join("Guest", token: guestToken).player
            let watcherId = try await watcher.join("Watcher").player
            #expect(Set([guestId, watcherId]) == [2, 3])

            // The lobby asked of B is A's, forwarded.
            let lobby = try await b.send(.get, "/v1/rooms/\(code)")
            #expect(lobby.status == .ok && (lobby.json["players"] as? [[String: Any]])?.count == 3, "\(lobby.text)")
            // A request already forwarded is answered from B's own memory: B has no such room.
            let looped = try await b.execute(
                uri: "/v1/rooms/\(code)", method: .get, headers: [HTTPField.Name("UQuiz-Forwarded")!: "1"], body: nil)
            #expect(looped.status == .notFound)

            let everyone = [host, guest, watcher]
            host.send(.start)
            for quiz in 1...quizCount {
                for player in everyone {
                    _ = try await player.waitFor("quizLoading \(quiz)") {
                        if case .quizLoading(let l) = $0, l.quiz == quiz { l } else { nil }
                    }
                    player.send(.loaded(quiz: quiz))
                }
                var stages: [Int] = []
                for player in everyone {
                    stages.append(try await player.waitFor("quizStarted \(quiz)") {
                        if case .quizStarted(let c) = $0, c.quiz == quiz { c.stage } else { nil }
                    })
                }
                #expect(stages == [1, 1, 1], "quiz \(quiz) starts at stage 1 for players on both instances")
                if quiz == 1 {
                    // Posters asked of B: stage 1 is out, stage 2 is not (A's 403, passed on as it is).
                    let poster = try await b.send(.get, "/v1/rooms/\(code)/quizzes/1/poster?stage=1")
                    #expect(poster.status == .ok && poster.headers[.contentType] == "image/jpeg" && poster.body.readableBytes > 1000)
                    let early = try await b.send(.get, "/v1/rooms/\(code)/quizzes/1/poster?stage=2")
                    #expect(early.status == .forbidden && early.errorCode == "not_revealed")

                    guest.send(.guess(quiz: 1, text: answer))
                    let judged = try await guest.waitFor("guessJudged") { if case .guessJudged(let j) = $0 { j } else { nil } }
                    #expect(judged.judgement == "accepted")
                    for player in everyone {
                        let solved = try await player.waitFor("solved") { if case .solved(let s) = $0 { s.player } else { nil } }
                        #expect(solved == guestId)
                    }
                }
                host.send(.skip(quiz: quiz))
                for player in everyone {
                    _ = try await player.waitFor("quizEnded \(quiz)") {
                        if case .quizEnded(let e) = $0, e.quiz == quiz { e } else { nil }
                    }
                }
            }
            for player in everyone {
                let podium = try await player.waitFor("podium") { if case .podium(let p) = $0 { p } else { nil } }
                #expect(podium.places.first?.player == guestId, "the guest on B solved quiz 1 and won")
            }
            // The results are stored as the podium goes out, so they may land a moment after it arrives.
            var stored = try await server.database.roomResults(playerId: Int64(guestAccount), limit: 20).count
            let limit = ContinuousClock.now + .seconds(30)
            while stored == 0, ContinuousClock.now < limit {
                try await Task.sleep(for: .milliseconds(50))
                stored = try await server.database.roomResults(playerId: Int64(guestAccount), limit: 20).count
            }
            #expect(stored == 1, "stored once, by A")
            // The player's stats, asked of either instance, count the room.
            let stats = try await b.send(.get, "/v1/players/me", token: guestToken)
            #expect(stats.status == .ok && stats.json["id"] as? Int == guestAccount, "\(stats.text)")
            let rooms = stats.json["rooms"] as? [String: Any] ?? [:]
            #expect(rooms["rooms"] as? Int == 1 && rooms["wins"] as? Int == 1 && rooms["solved"] as? Int == 1)
            let recent = (stats.json["recentRooms"] as? [[String: Any]])?.first ?? [:]
            #expect(recent["roomCode"] as? String == code && recent["rank"] as? Int == 1)
            #expect((recent["finishedAt"] as? String)?.hasSuffix("Z") == true)
            #expect(try await a.send(.get, "/v1/players/me").status == .unauthorized)
            for player in everyone { player.disconnect() }
            for player in everyone { _ = try await player.waitForClose() }
        }
    }

    @Test func theHolderClosingAPlayerReachesThemThroughTheRelay() async throws {
        let server = try TestServer()
        try await twoLiveInstances(server) { a, portA, b, portB in
            let hostToken = try await a.newPlayer("Host")
            let code = try await a.openRoom(token: hostToken)
            let host = LiveRoomClient.connect(port: portA, code: code)
            _ = try await host.join("Host", token: hostToken)
            let guest = LiveRoomClient.connect(port: portB, code: code)
            let guestId = try await guest.join("Guest").player
            host.send(.kick(player: guestId))
            _ = try await guest.waitFor("kicked") { if case .kicked = $0 { true } else { nil } }
            let kickedCode = try await guest.waitForClose()
            #expect(kickedCode == RoomWire.CloseReason.kicked.code, "A's close code, through B: \(String(describing: kickedCode))")

            // A flooding client on B is cut off by A's guard, with A's code; the room goes on.
            let flooder = LiveRoomClient.connect(port: portB, code: code)
            _ = try await flooder.join("Flooder")
            for _ in 0..<200 { flooder.send(.ping(clientTime: 1)) }
            #expect(try await flooder.waitForClose() == RoomWire.CloseReason.flooding.code)
            // A relayed socket broken by what its client sent (past the 16 KiB a socket reads, in frames each within the
            // frame limit) ends with the WebSocket layer's own code, as on the holder, not a normal close.
            let pieces = LiveRoomClient.connect(port: portB, code: code, frameSize: 4 << 10)
            pieces.sendRaw(#"{"v":1,"type":"join","name":""# + String(repeating: "x", count: 16 << 10) + #""}"#)
            let piecesClose = try await pieces.waitForClose()
            #expect(piecesClose == UInt16(webSocketErrorCode: .messageTooLarge), "closed with \(String(describing: piecesClose))")
            let lobby = try await b.send(.get, "/v1/rooms/\(code)")
            #expect(lobby.status == .ok && lobby.json["phase"] as? String == "lobby")
            host.disconnect()
            _ = try await host.waitForClose()
        }
    }

    /// Rooms live in memory, so a directory row under an instance's own URL when it starts is from a run that ended
    /// without saying so: forgotten at start. Rooms opened before the instance listens stay out of the directory.
    @Test func anInstanceStartingForgetsItsEarlierRoomsAndListsItsNewOnes() async throws {
        let server = try TestServer()
        let database = server.database
        let rooms = Rooms(
            environment: server.environment.sharing, levels: .standard, runsTimers: false,
            now: { .zero })
        let host = try await Players(environment: server.environment.sharing).register(name: "Host").player
        let early = try await rooms.open(shareCode: silentClassics, host: host)
        #expect(try await database.roomInstance(code: early.value) == nil, "not listening yet: in no directory")
        #expect(try await database.claimRoomCode("K9ST", instance: "http://10.0.0.5:8080", at: Date()))
        #expect(try await database.claimRoomCode("M3XZ", instance: "http://10.0.0.6:8080", at: Date()))
        try await rooms.listening(at: "http://10.0.0.5:8080")
        #expect(try await database.roomInstance(code: "K9ST") == nil, "its own row from before is forgotten")
        #expect(try await database.roomInstance(code: "M3XZ") == "http://10.0.0.6:8080", "another instance's stays")
        let listed = try await rooms.open(shareCode: silentClassics, host: host)
        #expect(try await database.roomInstance(code: listed.value) == "http://10.0.0.5:8080")
        #expect(try await rooms.whereabouts(code: "M3XZ") == .elsewhere(instance: "http://10.0.0.6:8080"))
        #expect(try await rooms.whereabouts(code: listed.value) == .here)
    }

    /// Instance A hands its room over as it stops, with quiz 2 running: its players (one on A, one relayed through B)
    /// are told to reconnect, resume on B, which carries the room on from A's checkpoint, and the room finishes there
    /// with quiz 1's points and quiz 2's clock as they were.
    @Test func anInstanceThatStopsHandsItsRoomsToTheOther() async throws {
        let server = try TestServer()
        let answer = try server.quiz(silentClassics, 1).title
        var logger = Logger(label: "uquiz.server.tests")
        logger.logLevel = .critical
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, rooms: Self.quickRooms)
        let roomsA = makeRooms(environment: server.environment, configuration: configuration, monotonicNow: ServerClock.sinceStart)
        let appA = buildApplication(configuration: configuration, environment: server.environment, logger: logger, rooms: roomsA)
        let appB = buildApplication(configuration: configuration, environment: server.environment, logger: logger)
        try await appA.test(.live) { a in
            try await appB.test(.live) { b in
                let (portA, portB) = (try #require(a.port), try #require(b.port))
                let hostToken = try await a.newPlayer("Host")
                let code = try await a.openRoom(token: hostToken)
                let host = LiveRoomClient.connect(port: portA, code: code)
                let hostSeat = try await host.join("Host", token: hostToken)
                let guest = LiveRoomClient.connect(port: portB, code: code)
                let guestSeat = try await guest.join("Guest")
                host.send(.start)
                for quiz in 1...2 {
                    for player in [host, guest] {
                        _ = try await player.waitFor("quizLoading \(quiz)") {
                            if case .quizLoading(let l) = $0, l.quiz == quiz { l } else { nil }
                        }
                        player.send(.loaded(quiz: quiz))
                        _ = try await player.waitFor("quizStarted \(quiz)") {
                            if case .quizStarted(let c) = $0, c.quiz == quiz { c } else { nil }
                        }
                    }
                    if quiz == 1 {
                        guest.send(.guess(quiz: 1, text: answer))
                        _ = try await guest.waitFor("guessJudged") { if case .guessJudged(let j) = $0 { j } else { nil } }
                        host.send(.skip(quiz: 1))
                    }
                }
                host.send(.hint(quiz: 2))
                _ = try await host.waitFor("hint") { if case .hint(let h) = $0 { h } else { nil } }

                await roomsA.handOver()
                #expect(try await host.waitForClose() == RoomWire.CloseReason.moved.code, "told to reconnect")
                #expect(try await guest.waitForClose() == RoomWire.CloseReason.moved.code, "through the relay too")
                #expect(roomsA.count == 0)
                let refused = try await a.send(.post, "/v1/rooms", json: ["shareCode": silentClassics], token: hostToken)
                #expect(refused.status == .serviceUnavailable, "a stopping instance opens no room: \(refused.text)")

                // Both reconnect (through a proxy, they would reach B: A stops) and resume.
                var back: [LiveRoomClient] = []
                for seat in [hostSeat, guestSeat] {
                    let client = LiveRoomClient.connect(port: portB, code: code)
                    client.send(.resume(token: seat.resumeToken))
                    let snapshot = try await client.waitFor("snapshot") { if case .snapshot(let s) = $0 { s } else { nil } }
                    #expect(snapshot.phase == "playing" && snapshot.clock?.quiz == 2, "quiz 2 goes on: \(snapshot)")
                    #expect(snapshot.you == seat.player)
                    if seat.player == hostSeat.player { #expect(snapshot.hint != nil, "the host's hint is kept") }
                    #expect(snapshot.scoreboard.first { $0.player == guestSeat.player }?.score ?? 0 > 0, "quiz 1's points")
                    back.append(client)
                }
                #expect(try await server.database.roomInstance(code: code) == "http://127.0.0.1:\(portB)", "B holds it now")
                #expect(try await b.send(.get, "/v1/rooms/\(code)").status == .ok)

                let quizCount = try server.file.package(id: try server.file.packageID(for: silentClassics)).quizzes
                    .filter { !$0.areas.isEmpty }.count
                for quiz in 2...quizCount {
                    if quiz > 2 {
                        for player in back {
                            _ = try await player.waitFor("quizLoading \(quiz)") {
                                if case .quizLoading(let l) = $0, l.quiz == quiz { l } else { nil }
                            }
                            player.send(.loaded(quiz: quiz))
                        }
                        _ = try await back[0].waitFor("quizStarted \(quiz)") {
                            if case .quizStarted(let c) = $0, c.quiz == quiz { c } else { nil }
                        }
                    }
                    back[0].send(.skip(quiz: quiz))
                }
                for player in back {
                    let podium = try await player.waitFor("podium") { if case .podium(let p) = $0 { p } else { nil } }
                    #expect(podium.places.first?.player == guestSeat.player, "the guest's quiz 1 win holds")
                }
                for player in back { player.disconnect() }
            }
        }
    }

    /// A room whose holder died (its lease ran out, with no hand-over) is taken over by the instance a player asks;
    /// the old holder, if it was only slow, lets the room go when the directory refuses its next checkpoint.
    @Test func aRoomWhoseLeaseRanOutIsTakenOverWhereItsPlayerReconnects() async throws {
        let server = try TestServer()
        // Renewals far apart: nothing renews A's lease behind the test's back.
        var rooms = Self.quickRooms
        rooms.leaseRenewal = .seconds(600)
        try await twoLiveInstances(server, rooms: rooms) { a, portA, _, portB in
            let hostToken = try await a.newPlayer("Host")
            let code = try await a.openRoom(token: hostToken)
            let host = LiveRoomClient.connect(port: portA, code: code)
            let seat = try await host.join("Host", token: hostToken)
            let watcher = LiveRoomClient.connect(port: portA, code: code)
            _ = try await watcher.join("Watcher")
            // The directory as a dead holder leaves it: the lease past, the checkpoint of the room with its players.
            let holder = try #require(try await server.database.roomHolder(code: code))
            #expect(try await server.database.renewRoomLeases(instance: holder.instance, until: 0) == [code])
            let moved = LiveRoomClient.connect(port: portB, code: code)
            moved.send(.resume(token: seat.resumeToken))
            let snapshot = try await moved.waitFor("snapshot") { if case .snapshot(let s) = $0 { s } else { nil } }
            #expect(snapshot.phase == "lobby" && snapshot.you == seat.player)
            #expect(snapshot.lobby.players.map(\.name) == ["Host", "Watcher"])
            #expect(try await server.database.roomInstance(code: code) == "http://127.0.0.1:\(portB)")
            // A's copy changes (the watcher leaves): its checkpoint is refused, and A sends its players on.
            watcher.send(.leave)
            #expect(try await host.waitForClose() == RoomWire.CloseReason.moved.code)
            moved.disconnect()
        }
    }

    /// A holder that stalled past its lease (a long pause, a frozen machine) and whose room was taken over meanwhile
    /// sends nothing more of it when it wakes: before the room's next message it renews its lease, finds the room given
    /// to another instance, and sends its players there, without judging the guess that woke it (no verdict, no
    /// answer named).
    @Test func aHolderPastItsLeaseSendsNothingOnceItsRoomIsTakenOver() async throws {
        let server = try TestServer()
        let answer = try server.quiz(silentClassics, 1).title
        var rooms = Self.quickRooms
        // A lease that has always run out by the room's next message: each one asks the directory first.
        rooms.lease = .microseconds(1)
        rooms.leaseRenewal = .seconds(600)
        try await twoLiveInstances(server, rooms: rooms) { a, portA, _, _ in
            let hostToken = try await a.newPlayer("Host")
            let code = try await a.openRoom(token: hostToken)
            let host = LiveRoomClient.connect(port: portA, code: code)
            _ = try await host.join("Host", token: hostToken)
            host.send(.start)
            _ = try await host.waitFor("quizLoading 1") { if case .quizLoading(let l) = $0, l.quiz == 1 { l } else { nil } }
            host.send(.loaded(quiz: 1))
            _ = try await host.waitFor("quizStarted 1") { if case .quizStarted(let c) = $0, c.quiz == 1 { c } else { nil } }
            // The directory gives the room to another instance, as when one took it over while A stalled.
            #expect(try await server.database.takeOverRoom(code, instance: "http://127.0.0.1:1", leaseUntil: .max, now: .max) != nil)
            host.send(.guess(quiz: 1, text: answer))
            #expect(try await host.waitForClose() == RoomWire.CloseReason.moved.code)
            #expect(!host.messages.contains { if case .guessJudged = $0 { true } else { false } }, "\(host.messages)")
            #expect(!host.messages.contains { if case .quizEnded = $0 { true } else { false } })
        }
    }

    @Test func aRoomWhoseInstanceIsGoneSaysSoAndOneGivenToItselfIsA404() async throws {
        let server = try TestServer()
        try await twoLiveInstances(server) { _, _, b, portB in
            // A room the directory gives to an instance that does not answer (nothing listens on port 1).
            #expect(try await server.database.claimRoomCode("G5NE", instance: "http://127.0.0.1:1", at: Date()))
            let lobby = try await b.send(.get, "/v1/rooms/G5NE")
            #expect(lobby.status == .badGateway && lobby.errorCode == "room_unreachable", "\(lobby.text)")
            let socket = LiveRoomClient.connect(port: portB, code: "G5NE")
            #expect(try await socket.waitForClose() == RoomWire.CloseReason.moved.code, "told to reconnect: the room may move")

            // A room the directory gives to B itself, which B does not hold: never forwarded (to itself), a 404.
            #expect(try await server.database.claimRoomCode("K9ST", instance: "http://127.0.0.1:\(portB)", at: Date()))
            #expect(try await b.send(.get, "/v1/rooms/K9ST").status == .notFound)
        }
    }
}
