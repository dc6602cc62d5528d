import Foundation
import RemoteClient
import RoomSocket
import Testing
import UQuizTestSupport
import UQuizWire

#if canImport(Glibc)
    import Glibc
#endif

/// A player of a live room on a real WebSocket to a `uquiz serve` process, as a browser behind a load balancer is: when
/// its socket ends it connects again, to whichever instance still answers, and resumes its seat. It says `loaded` for
/// every quiz that loads, as soon as it loads.
final class RoomPlayer {
    let name: String
    private(set) var connection: any RoomSocketConnection
    private(set) var messages: [RoomWire.ServerMessage] = []
    private(set) var seat: RoomWire.Welcome?
    /// A big screen's token, once it is in: it comes back with it instead of a seat's.
    private(set) var screenToken: String?
    /// The close codes of the sockets that ended, in order (`nil`: broken with no close).
    private(set) var closes: [UInt16?] = []
    /// The instances to reconnect to, in order of preference (a load balancer's view of who answers).
    var instances: [String]
    /// The other players of the room in this test: a wait on one reads everyone's socket, as their own devices would.
    var table: [RoomPlayer] = []
    private let code: String

    init(_ name: String, code: String, instance: String) {
        self.name = name
        self.code = code
        instances = [instance]
        connection = WebSocketRoomConnector().connect(url: Self.url(instance, code))
    }

    static func url(_ instance: String, _ code: String) -> String {
        instance.replacingOccurrences(of: "http://", with: "ws://") + "/v1/rooms/\(code)/ws"
    }

    func send(_ message: RoomWire.ClientMessage) { connection.send(RoomWire.text(message)) }

    /// When to connect again, after a socket ended.
    private var reconnectAt: Date?

    /// Reads what arrived; a socket that ended is replaced, a moment later, by a new one that resumes the seat.
    func pump() {
        if let at = reconnectAt, Date() >= at, seat != nil || screenToken != nil {
            reconnectAt = nil
            let instance = instances[(closes.count - 1) % instances.count]
            connection = WebSocketRoomConnector().connect(url: Self.url(instance, code))
            if let screenToken { send(.screen(.token(screenToken))) } else if let seat { send(.resume(token: seat.resumeToken)) }
        }
        for event in connection.take() {
            switch event {
            case .text(let text):
                guard let message = try? RoomWire.decodeServer(text) else { continue }
                messages.append(message)
                switch message {
                case .welcome(let welcome): seat = welcome
                case .screenWelcome(let welcome): screenToken = welcome.screenToken
                case .ping(let ping): send(.pong(serverTime: ping.serverTime))
                case .quizLoading(let loading) where screenToken == nil: send(.loaded(quiz: loading.quiz))
                case .snapshot(let snapshot):
                    if let loading = snapshot.loading, snapshot.standing == "playing" { send(.loaded(quiz: loading.quiz)) }
                default: break
                }
            case .closed(let code):
                closes.append(code)
                guard seat != nil || screenToken != nil, code != RoomWire.CloseReason.left.code else { return }
                reconnectAt = Date().addingTimeInterval(0.2)
                return
            }
        }
    }

    /// Waits (up to `seconds`, a bound and not a timing assertion) for the first message since `from` that `match`
    /// picks; the index after it, to wait on from there. It sleeps between looks rather than blocking a thread: the
    /// sockets' own tasks run on the same few threads.
    @discardableResult
    func waitFor<T>(
        _ what: String, after from: Int = 0, seconds: Double = 30, _ match: (RoomWire.ServerMessage) -> T?
    ) async throws -> (T, next: Int) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            for player in table where player !== self { player.pump() }
            pump()
            for index in messages.indices where index >= from {
                if let found = match(messages[index]) { return (found, index + 1) }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw RoomPlayerTimeout(description: "\(name): no \(what) within \(seconds) s; closes: \(closes); last: \(messages.suffix(3))")
    }

    /// Joins, and waits for the welcome and the snapshot that follows it.
    func join(token: String? = nil) async throws {
        send(.join(name: name, playerToken: token))
        let (_, next) = try await waitFor("welcome") { if case .welcome(let welcome) = $0 { welcome } else { nil } }
        try await waitFor("snapshot", after: next) { if case .snapshot(let snapshot) = $0 { snapshot } else { nil } }
    }
}

struct RoomPlayerTimeout: Error, CustomStringConvertible {
    var description: String
}

/// Restarts that lose no live game: two `uquiz serve` processes on one PostgreSQL database, a room of three players
/// on both, stopped (SIGTERM) or killed (SIGKILL) in the middle of quiz 2.
@Suite("Live rooms across instance restarts", .serialized)
struct RoomHandOverTests {
    let serve = ServeCommandTests()
    /// Metropolis, Nosferatu, The Cabinet of Dr. Caligari: bundled posters, and answers the test knows.
    static let answers = ["Metropolis", "Nosferatu", "The Cabinet of Dr. Caligari"]

    func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    func newPlayer(_ name: String, on server: ServeCommandTests.RunningServer) throws -> String {
        let made = try serve.curl([
            "--header", "Content-Type: application/json", "--data", "{\"name\": \"\(name)\"}", server.baseURL + "/v1/players",
        ])
        return try #require(json(made.body)["token"] as? String, "\(made.body)")
    }

    /// A three-quiz package published by `token`; its share code.
    func publishThreeQuizzes(on server: ServeCommandTests.RunningServer, token: String) throws -> String {
        let spec = """
            {"format": 1, "title": "Hand-over test", "level": "beginner", "language": "en", "visibility": "unlisted",
             "quizzes": [{"movie": 19, "areas": [[35, 9], [24, 38], [53, 26]]},
                         {"movie": 653, "areas": [[27, 24], [41, 12], [64, 32]]},
                         {"movie": 234, "areas": [[30, 25], [15, 15], [50, 35]]}]}
            """
        let published = try serve.curl([
            "--header", "Authorization: Bearer \(token)", "--header", "Content-Type: application/json", "--data", spec,
            server.baseURL + "/v1/packages",
        ])
        #expect(published.status == 201, "\(published.body)")
        return try #require(json(published.body)["shareCode"] as? String)
    }

    /// A room on a new three-quiz package, opened on `holder` by Ann, who joins it there first.
    func openRoom(on holder: ServeCommandTests.RunningServer) async throws -> (code: String, host: RoomPlayer) {
        let hostToken = try newPlayer("Ann", on: holder)
        let shareCode = try publishThreeQuizzes(on: holder, token: hostToken)
        let opened = try serve.curl([
            "--header", "Authorization: Bearer \(hostToken)", "--header", "Content-Type: application/json",
            "--data", "{\"shareCode\": \"\(shareCode)\"}", holder.baseURL + "/v1/rooms",
        ])
        let code = try #require(json(opened.body)["code"] as? String, "\(opened.body)")
        let host = RoomPlayer("Ann", code: code, instance: holder.baseURL)
        try await host.join(token: hostToken)
        return (code, host)
    }

    /// Opens a room on `holder` with the host there and two guests on `other`, plays quiz 1 (Bo solves it) and the
    /// start of quiz 2 (Cy solves it): where the holder is then stopped or killed.
    func roomInQuiz2(
        holder: ServeCommandTests.RunningServer, other: ServeCommandTests.RunningServer
    ) async throws -> (code: String, players: [RoomPlayer]) {
        let (code, ann) = try await openRoom(on: holder)
        let bo = RoomPlayer("Bo", code: code, instance: other.baseURL)
        try await bo.join()
        let cy = RoomPlayer("Cy", code: code, instance: other.baseURL)
        try await cy.join()
        let players = [ann, bo, cy]
        for player in players { player.table = players }
        ann.send(.start)
        for player in players { try await player.waitFor("quiz 1") { if case .quizStarted(let c) = $0, c.quiz == 1 { c } else { nil } } }
        bo.send(.guess(quiz: 1, text: Self.answers[0]))
        try await bo.waitFor("Bo's verdict") { if case .guessJudged(let j) = $0, j.judgement == "accepted" { j } else { nil } }
        ann.send(.skip(quiz: 1))
        for player in players { try await player.waitFor("quiz 2") { if case .quizStarted(let c) = $0, c.quiz == 2 { c } else { nil } } }
        cy.send(.guess(quiz: 2, text: Self.answers[1]))
        try await cy.waitFor("Cy's verdict") { if case .guessJudged(let j) = $0, j.judgement == "accepted", j.quiz == 2 { j } else { nil } }
        return (code, players)
    }

    /// Plays the room on from where it is to its podium (the host skips what is left) and returns the podium's scores
    /// by name, as every player sees them.
    func finish(_ players: [RoomPlayer], from: [Int]) async throws -> [String: Int] {
        let ann = players[0]
        var next = from
        for quiz in 2...3 {
            // Quiz 2 may be running on (handed over) or loading again (taken over): whichever, it ends by a skip.
            let (_, after) = try await ann.waitFor("quiz \(quiz) running", after: next[0]) { message -> Bool? in
                switch message {
                case .quizStarted(let clock) where clock.quiz == quiz: true
                case .snapshot(let snapshot) where snapshot.phase == "playing" && snapshot.clock?.quiz == quiz: true
                default: nil
                }
            }
            next[0] = after
            ann.send(.skip(quiz: quiz))
            try await ann.waitFor("quiz \(quiz) ended", after: next[0]) { if case .quizEnded(let e) = $0, e.quiz == quiz { e } else { nil } }
        }
        var boards: [[String: Int]] = []
        for (index, player) in players.enumerated() {
            let (podium, _) = try await player.waitFor("podium", after: next[index]) { if case .podium(let p) = $0 { p } else { nil } }
            boards.append(Dictionary(uniqueKeysWithValues: podium.places.map { ($0.name, $0.score) }))
        }
        #expect(boards.allSatisfy { $0 == boards[0] }, "everyone sees the same podium: \(boards)")
        for player in players { player.table = [] }
        return boards[0]
    }

    /// Sends `signal` to `server` and waits for it to end, sleeping rather than blocking a thread the sockets need.
    func stop(_ server: ServeCommandTests.RunningServer, with signal: Int32) async throws -> Int32 {
        kill(server.process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(60)
        while server.process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if server.process.isRunning { kill(server.process.processIdentifier, SIGKILL) }
        server.process.waitUntilExit()
        return server.process.terminationStatus
    }

    @Test func aRoomGoesOnWhenItsInstanceStopsOrDies() async throws {
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        let home = try Sandbox()
        var a: ServeCommandTests.RunningServer? = try ServeCommandTests.RunningServer(sandbox: home, database: cluster.url)
        let b = try ServeCommandTests.RunningServer(sandbox: home, database: cluster.url)

        // SIGTERM: A hands the room over with quiz 2 running; its players and its big screen come back through B, quiz 2
        // goes on.
        do {
            let (code, players) = try await roomInQuiz2(holder: a!, other: b)
            let screen = RoomPlayer("Screen", code: code, instance: a!.baseURL)
            let passAsked = players[0].messages.count
            players[0].send(.screenPass)
            let (pass, _) = try await players[0].waitFor("a screen pass", after: passAsked) {
                if case .screenPass(let pass) = $0 { pass.pass } else { nil }
            }
            screen.send(.screen(.pass(pass)))
            try await screen.waitFor("the screen's snapshot") { if case .snapshot(let s) = $0, s.you == nil { s } else { nil } }
            screen.table = players
            for player in players { player.table = players + [screen] }
            let screenMark = screen.messages.count
            let marks = players.map(\.messages.count)
            for player in players + [screen] { player.instances = [b.baseURL] }
            let stopped = Date()
            #expect(try await stop(a!, with: SIGTERM) == 0, "A stops cleanly")
            a = nil
            try await players[0].waitFor("quiz 2 on B", after: marks[0]) { message -> Bool? in
                if case .snapshot(let snapshot) = message, snapshot.phase == "playing" { true } else { nil }
            }
            print("room \(code): the host back in quiz 2 on B \(String(format: "%.1f", Date().timeIntervalSince(stopped))) s after SIGTERM to its holder")
            let (_, screenBack) = try await screen.waitFor("the screen back in quiz 2 on B", after: screenMark) { message -> Bool? in
                if case .snapshot(let snapshot) = message, snapshot.you == nil, snapshot.phase == "playing" { true } else { nil }
            }
            let scores = try await finish(players, from: marks)
            let (screenPodium, _) = try await screen.waitFor("the podium on the screen", after: screenBack) {
                if case .podium(let podium) = $0 { podium } else { nil }
            }
            #expect(Dictionary(uniqueKeysWithValues: screenPodium.places.map { ($0.name, $0.score) }) == scores)
            #expect(screen.closes.first == RoomWire.CloseReason.moved.code, "the screen was told the room moves")
            #expect(screen.seat == nil, "a screen holds no seat")
            #expect(try cluster.value("SELECT instance FROM room_directory WHERE code = '\(code)'") == b.baseURL,
                    "B carries the room on")
            #expect(scores["Bo"] ?? 0 > 0 && scores["Cy"] ?? 0 > 0 && scores["Ann"] == 0,
                    "quiz 1's and quiz 2's points as they were: \(scores)")
            for player in players {
                #expect(player.closes.first == RoomWire.CloseReason.moved.code, "\(player.name) was told the room moves")
            }
        }

        // SIGKILL: C dies with quiz 2 running; B takes the room over when C's lease runs out, quiz 2 is played again.
        let c = try ServeCommandTests.RunningServer(sandbox: home, database: cluster.url)
        let (code, players) = try await roomInQuiz2(holder: c, other: b)
        let marks = players.map(\.messages.count)
        for player in players { player.instances = [b.baseURL] }
        let killed = Date()
        _ = try await stop(c, with: SIGKILL)
        // Quiz 2 loads again on B: everyone's back (they say `loaded` as it loads).
        for (index, player) in players.enumerated() {
            try await player.waitFor("quiz 2 again", after: marks[index], seconds: 20) { message -> Bool? in
                if case .quizStarted(let clock) = message, clock.quiz == 2 { return true }
                if case .snapshot(let snapshot) = message, snapshot.phase == "playing", snapshot.clock?.quiz == 2 { return true }
                return nil
            }
        }
        let takenOver = Date().timeIntervalSince(killed)
        print("room \(code): quiz 2 running again on B \(String(format: "%.1f", takenOver)) s after its holder was killed")
        #expect(try cluster.value("SELECT instance FROM room_directory WHERE code = '\(code)'") == b.baseURL)
        let cy = players[2]
        let replayed = cy.messages.count
        cy.send(.guess(quiz: 2, text: Self.answers[1]))
        try await cy.waitFor("Cy's verdict again", after: replayed) {
            if case .guessJudged(let j) = $0, j.judgement == "accepted", j.quiz == 2 { j } else { nil }
        }
        let scores = try await finish(players, from: marks)
        #expect(scores["Bo"] ?? 0 > 0, "quiz 1's points are kept: \(scores)")
        #expect(scores["Cy"] ?? 0 > 0, "Cy solved the replayed quiz 2: \(scores)")
        #expect(try await stop(b, with: SIGTERM) == 0)
    }

    /// A holder frozen past its lease (SIGSTOP: a long pause, a frozen machine): B takes the room over, and when the
    /// holder wakes, with a stage of quiz 2 due meanwhile, it sends its players nothing of the room (no stage, no
    /// answer, no result) before sending them to B, where the room plays on to one podium, kept once.
    @Test func aHolderFrozenPastItsLeaseSendsNothingWhenItWakes() async throws {
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        let home = try Sandbox()
        let d = try ServeCommandTests.RunningServer(sandbox: home, database: cluster.url)
        let b = try ServeCommandTests.RunningServer(sandbox: home, database: cluster.url)
        let (code, players) = try await roomInQuiz2(holder: d, other: b)
        let ann = players[0]
        let clock = try #require(ann.messages.reversed().lazy.compactMap { message -> RoomWire.QuizClock? in
            switch message {
            case .quizStarted(let clock) where clock.quiz == 2: clock
            case .stageRevealed(let clock) where clock.quiz == 2: clock
            default: nil
            }
        }.first)
        // The stage was due at most this long from now: the clock was read before now.
        let stageDue = Date().addingTimeInterval(Double(try #require(clock.nextStageInMs)) / 1000)
        let marks = players.map(\.messages.count)
        for player in players { player.instances = [b.baseURL] }
        kill(d.process.processIdentifier, SIGSTOP)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline,
            try cluster.value("SELECT instance FROM room_directory WHERE code = '\(code)'") != b.baseURL || Date() < stageDue
        {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try cluster.value("SELECT instance FROM room_directory WHERE code = '\(code)'") == b.baseURL,
                "B took the room over while D was frozen")
        kill(d.process.processIdentifier, SIGCONT)
        for (index, player) in players.enumerated() {
            let (_, back) = try await player.waitFor("\(player.name) back on B", after: marks[index]) { message -> Bool? in
                if case .snapshot = message { true } else { nil }
            }
            let meanwhile = player.messages[marks[index]..<(back - 1)].filter { message in
                switch message {
                case .stageRevealed, .quizEnded, .podium, .guessJudged, .quizLoading, .quizStarted: true
                default: false
                }
            }
            #expect(meanwhile.isEmpty, "\(player.name) got nothing of the room from the woken holder: \(meanwhile)")
            #expect(player.closes.first == RoomWire.CloseReason.moved.code, "\(player.name) was sent on")
        }
        let scores = try await finish(players, from: marks)
        #expect(scores["Bo"] ?? 0 > 0, "quiz 1's points are kept: \(scores)")
        #expect(try cluster.value("SELECT COUNT(*) FROM room_result WHERE room_code = '\(code)'") == "3", "results kept once")
        #expect(try await stop(b, with: SIGTERM) == 0)
        #expect(try await stop(d, with: SIGTERM) == 0)
    }

    /// One instance on SQLite: the room is checkpointed as on PostgreSQL, so a server restarted on the same file carries
    /// it on, and its players take their seats back.
    @Test func onSQLiteARoomOutlivesARestartOfItsServer() async throws {
        let home = try Sandbox()
        let database = home.path("server/uquiz.sqlite")
        try FileManager.default.createDirectory(atPath: home.path("server"), withIntermediateDirectories: true)
        let first = try ServeCommandTests.RunningServer(sandbox: home, database: database)
        let (code, ann) = try await openRoom(on: first)
        let bo = RoomPlayer("Bo", code: code, instance: first.baseURL)
        try await bo.join()
        let players = [ann, bo]
        for player in players { player.table = players }
        let marks = players.map(\.messages.count)
        #expect(try await stop(first, with: SIGTERM) == 0)

        let second = try ServeCommandTests.RunningServer(sandbox: home, database: database)
        for player in players { player.instances = [second.baseURL] }
        for (index, player) in players.enumerated() {
            let (snapshot, _) = try await player.waitFor("the lobby again", after: marks[index]) { message -> RoomWire.Snapshot? in
                if case .snapshot(let snapshot) = message { snapshot } else { nil }
            }
            #expect(snapshot.phase == "lobby" && snapshot.lobby.players.map(\.name) == ["Ann", "Bo"])
        }
        ann.send(.start)
        for player in players {
            try await player.waitFor("quiz 1") { if case .quizStarted(let c) = $0, c.quiz == 1 { c } else { nil } }
        }
        for player in players { player.table = [] }
        #expect(try await stop(second, with: SIGTERM) == 0)
    }
}
