import Foundation
import LocalUseCases
import MovieSearch
import RemoteClient
import Synchronization
import Testing
import UQuizWire

/// A server message as the server's JSON text, so a test reads like the wire.
func serverMessage(_ json: String) throws -> RoomWire.ServerMessage {
    try RoomWire.decodeServer(json)
}

let welcomeJSON = #"{"v":1,"type":"welcome","code":"K7QF","player":2,"resumeToken":"seat-secret","seatHoldMs":90000}"#
let lobbyJSON = #"{"v":1,"type":"lobby","players":[{"player":1,"name":"Host","connected":true,"watching":false},{"player":2,"name":"Ada","connected":true,"watching":false}],"host":1}"#

func snapshotJSON(phase: String = "lobby", extra: String = "") -> String {
    #"{"v":1,"type":"snapshot","code":"K7QF","you":2,"quizCount":2,"lobby":{"players":[{"player":1,"name":"Host","connected":true,"watching":false},{"player":2,"name":"Ada","connected":true,"watching":false}],"host":1},"phase":""#
        + phase + #"","scoreboard":[],"serverTime":1000"# + extra + "}"
}

let loadingJSON = #"{"v":1,"type":"quizLoading","quiz":1,"quizCount":2,"stageCount":3,"startsWithinMs":10000,"serverTime":5000,"posterURL":"/v1/rooms/K7QF/quizzes/1/poster?stage=1"}"#
let startedJSON = #"{"v":1,"type":"quizStarted","quiz":1,"stage":1,"stageCount":3,"nextStageInMs":3000,"endsInMs":20000,"serverTime":6000,"posterURL":"/v1/rooms/K7QF/quizzes/1/poster?stage=1"}"#
let endedJSON = #"{"v":1,"type":"quizEnded","quiz":1,"quizCount":2,"answerTitle":"Metropolis","answerYear":"1927","ending":"everyoneSolved","solvers":[{"player":2,"name":"Ada","points":250,"stage":1,"seconds":3.5}],"scoreboard":[{"rank":1,"player":2,"name":"Ada","score":250,"solved":1,"played":1,"left":false},{"rank":2,"player":1,"name":"Host","score":0,"solved":0,"played":1,"left":false}],"nextQuizInMs":8000,"serverTime":9500,"posterURL":"/v1/rooms/K7QF/quizzes/1/poster"}"#
let podiumJSON = #"{"v":1,"type":"podium","places":[{"rank":1,"player":2,"name":"Ada","score":250,"left":false,"shareLine":"UQuiz room 🟩"},{"rank":2,"player":1,"name":"Host","score":0,"left":false}]}"#

@Suite("A live room's client session, fed the server's messages")
struct RoomSessionTests {
    func welcomed() throws -> RoomSession {
        var session = RoomSession(code: "K7QF", name: "Ada", playerToken: nil)
        _ = session.hello(at: .zero)
        _ = session.receive(try serverMessage(welcomeJSON), at: .milliseconds(10))
        _ = session.receive(try serverMessage(snapshotJSON()), at: .milliseconds(10))
        return session
    }

    @Test func helloJoinsByNameWithTheTokenAndAsksTheClock() {
        var session = RoomSession(code: "K7QF", name: "Ada", playerToken: "tok")
        #expect(session.hello(at: .milliseconds(40)) == [.join(name: "Ada", playerToken: "tok"), .ping(clientTime: 40)])
        #expect(session.phase == .connecting)
    }

    @Test func theLobbyComesFromWelcomeAndSnapshot() throws {
        var session = try welcomed()
        #expect(session.me == 2 && session.resumeToken == "seat-secret" && session.seatHold == .seconds(90))
        #expect(session.phase == .lobby && session.quizCount == 2 && !session.isHost)
        #expect(session.lobby.players.map(\.name) == ["Host", "Ada"])
        #expect(session.typed("Metropolis") == .refused("no quiz is running"))
        _ = session.receive(try serverMessage(#"{"v":1,"type":"hostChanged","player":2}"#), at: .zero)
        #expect(session.isHost && session.notice == "You are the host now.")
        #expect(session.typed("/start") == .send([.start]))
        #expect(session.typed("/kick host") == .send([.kick(player: 1)]), "a player by name, in any case")
        #expect(session.typed("/host #1") == .send([.passHost(player: 1)]))
        #expect(session.typed("/kick Nobody") == .refused("/kick needs a player in the room: their number or name"))
        #expect(session.typed("/dance") == .refused("unknown command /dance: \(RoomSession.commands)"))
        #expect(session.typed("   ") == .nothing)
    }

    @Test func serverPingsAreAnsweredAndTheOffsetIsTheMedianOfFiveRoundTrips() throws {
        var session = try welcomed()
        #expect(session.receive(try serverMessage(#"{"v":1,"type":"ping","serverTime":777}"#), at: .zero) == [.send(.pong(serverTime: 777))])
        // Round trips of 20 ms each; the server's clock 1000 ms ahead, except one sample skewed by a slow reply.
        var sent = 0.0
        var actions: [RoomSession.Action] = []
        for (index, skew) in [0.0, 0, 400, 0, 0].enumerated() {
            let arrival = sent + 20
            let pong = #"{"v":1,"type":"pong","clientTime":\#(sent),"serverTime":\#(Int(sent + 10 + 1000 + skew))}"#
            actions = session.receive(try serverMessage(pong), at: .milliseconds(arrival))
            if index < 4 { #expect(actions == [.send(.ping(clientTime: arrival))]) }
            sent = arrival
        }
        #expect(actions.isEmpty, "five samples are enough")
        #expect(session.clockOffsetMs == 1000)
        // A quiz announced at server time 5000 to start within 10 s starts at 14000 on this clock.
        _ = session.receive(try serverMessage(loadingJSON), at: .milliseconds(4100))
        #expect(session.countdownEnds == .milliseconds(14000))
        #expect(session.secondsLeft(at: .milliseconds(13000)) == 1)
    }

    @Test func aQuizFromLoadingToThePodium() throws {
        var session = try welcomed()
        let loading = session.receive(try serverMessage(loadingJSON), at: .seconds(1))
        #expect(loading == [.fetchPoster(path: "/v1/rooms/K7QF/quizzes/1/poster?stage=1", quiz: 1, stage: 1)])
        #expect(session.typed("Metropolis") == .refused("the quiz has not started yet"))
        #expect(session.posterShown(quiz: 1, stage: 1) == [.send(.loaded(quiz: 1))])
        #expect(session.countdownEnds == .seconds(11), "without an offset, counted from the message's arrival")

        let started = session.receive(try serverMessage(startedJSON), at: .seconds(2))
        #expect(started == [.fetchPoster(path: "/v1/rooms/K7QF/quizzes/1/poster?stage=1", quiz: 1, stage: 1)])
        #expect(session.posterShown(quiz: 1, stage: 1).isEmpty, "loaded only while loading")
        #expect(session.currentQuiz == 1 && session.quizTime == .seconds(20) && session.nextStageAt == .seconds(5))
        #expect(session.typed("?") == .send([.hint(quiz: 1)]))
        #expect(session.typed("/skip") == .send([.skip(quiz: 1)]), "the server says whether this player may")
        #expect(session.typed(" Metropolis ") == .send([.guess(quiz: 1, text: "Metropolis")]))
        _ = session.receive(try serverMessage(#"{"v":1,"type":"guessJudged","quiz":1,"judgement":"another_movie"}"#), at: .seconds(3))
        #expect(session.notice == "✗ wrong: that is another movie's title")
        _ = session.receive(try serverMessage(#"{"v":1,"type":"guessJudged","quiz":1,"judgement":"accepted","points":250,"stage":1}"#), at: .seconds(3))
        #expect(session.standing == "done" && session.notice == "✓ Right! +250 points at stage 1")
        #expect(session.typed("again") == .refused("this quiz is over for you: wait for the next"))
        _ = session.receive(try serverMessage(#"{"v":1,"type":"solved","quiz":1,"player":1,"stage":2}"#), at: .seconds(4))
        #expect(session.notice == "Host solved it at stage 2.")

        let ended = session.receive(try serverMessage(endedJSON), at: .seconds(5))
        #expect(ended == [.fetchPoster(path: "/v1/rooms/K7QF/quizzes/1/poster", quiz: 1, stage: nil)])
        #expect(session.scoreboard.map(\.score) == [250, 0] && session.notice == "✓ Metropolis (1927): +250 points")
        #expect(session.countdownEnds == .seconds(13))

        #expect(session.receive(try serverMessage(podiumJSON), at: .seconds(6)) == [.send(.leave)])
        #expect(session.ending == .podium)
        guard case .finished(let podium) = session.phase else { Issue.record("no podium"); return }
        #expect(podium.places.first?.shareLine == "UQuiz room 🟩")
    }

    @Test func aDroppedSocketIsResumedWithinTheSeatHoldOnly() throws {
        var session = try welcomed()
        #expect(session.socketClosed(code: nil, at: .seconds(10)) == .reconnect(deadline: .seconds(100)))
        #expect(session.hello(at: .seconds(11)) == [.resume(token: "seat-secret"), .ping(clientTime: 11000)])
        // Another failed attempt keeps the first drop's deadline.
        #expect(session.socketClosed(code: nil, at: .seconds(20)) == .reconnect(deadline: .seconds(100)))
        _ = session.receive(try serverMessage(welcomeJSON), at: .seconds(21))
        _ = session.receive(try serverMessage(snapshotJSON(phase: "interlude", extra: #","nextQuizInMs":4000,"lastQuiz":"# + endedJSON)), at: .seconds(21))
        guard case .interlude(let ended) = session.phase else { Issue.record("not in the interlude: \(session.phase)"); return }
        #expect(ended.answerTitle == "Metropolis" && session.countdownEnds == .seconds(25))
        // A new drop counts from its own instant; past the hold it is lost.
        #expect(session.socketClosed(code: 4002, at: .seconds(200)) == .reconnect(deadline: .seconds(290)))
        #expect(session.socketClosed(code: nil, at: .seconds(291)) == .end(.lost))
    }

    @Test func closesThatEndTheSession() throws {
        var kicked = try welcomed()
        #expect(kicked.socketClosed(code: 4003, at: .zero) == .end(.kicked))
        var gone = try welcomed()
        #expect(gone.socketClosed(code: 1001, at: .zero) == .end(.expired(reason: "gone")))
        var expired = try welcomed()
        _ = expired.receive(try serverMessage(#"{"v":1,"type":"roomExpired","reason":"idle"}"#), at: .zero)
        #expect(expired.socketClosed(code: 1001, at: .zero) == .end(.expired(reason: "idle")))
        var never = RoomSession(code: "K7QF", name: "Ada", playerToken: nil)
        _ = never.hello(at: .zero)
        #expect(never.socketClosed(code: nil, at: .zero) == .end(.lost), "no seat to resume")
        var refused = RoomSession(code: "K7QF", name: "Ada", playerToken: nil)
        _ = refused.hello(at: .zero)
        _ = refused.receive(try serverMessage(#"{"v":1,"type":"error","code":"name_taken","message":"another player in the room has this name"}"#), at: .zero)
        #expect(refused.ending == .refused(code: "name_taken", message: "another player in the room has this name"))
        var leaving = try welcomed()
        #expect(leaving.typed("/leave") == .send([.leave]) && leaving.ending == .left)
    }

    @Test func botsMaySendJSONMessagesAsTheyAre() throws {
        var session = try welcomed()
        #expect(session.typed(#"{"v":1,"type":"start"}"#, json: true) == .send([.start]))
        #expect(session.typed(#"{"v":1,"type":"kick"}"#, json: true) == .refused("not a client message: kick: player is missing"))
    }
}

/// A connection that replays a script and keeps what was sent.
final class ScriptedRoomConnection: RoomSocketConnection {
    private let state: Mutex<(events: [RoomSocketEvent], sent: [String])>
    // Never polled: the scripted input looks at the script instead.
    let wakeDescriptor: Int32 = 1000

    init(_ events: [RoomSocketEvent]) { state = Mutex((events, [])) }

    var sent: [String] { state.withLock { $0.sent } }
    var hasEvents: Bool { state.withLock { !$0.events.isEmpty } }
    func send(_ text: String) { state.withLock { $0.sent.append(text) } }
    func close() {}
    func close(waitingUpTo timeout: Duration) {}

    func take() -> [RoomSocketEvent] {
        state.withLock { state in
            // One at a time, so the loop sees each as it would over a network.
            state.events.isEmpty ? [] : [state.events.removeFirst()]
        }
    }
}

final class ScriptedRoomConnector: RoomSocketConnector, @unchecked Sendable {
    var scripts: [[RoomSocketEvent]]
    var opened: [ScriptedRoomConnection] = []
    var urls: [String] = []

    init(_ scripts: [[RoomSocketEvent]]) { self.scripts = scripts }

    func connect(url: String) -> any RoomSocketConnection {
        urls.append(url)
        let connection = ScriptedRoomConnection(scripts.isEmpty ? [.closed(code: nil)] : scripts.removeFirst())
        opened.append(connection)
        return connection
    }
}

/// Time moves 100 ms a call; the socket is readable whenever the current connection has something left.
final class ScriptedRoomInput: RoomInput {
    var time: Duration = .zero
    let connector: ScriptedRoomConnector
    var lines: [String]

    init(connector: ScriptedRoomConnector, lines: [String] = []) {
        self.connector = connector
        self.lines = lines
    }

    func now() -> Duration { time }

    func next(until deadline: Duration?, socket: Int32, keyboard: Bool) -> RoomInputEvent {
        time += .milliseconds(100)
        if socket == -1 { return .deadline }
        if connector.opened.last?.hasEvents == true { return .socket }
        if keyboard, !lines.isEmpty { return .line(lines.removeFirst()) }
        return .deadline
    }
}

final class RecordingRoomObserver: RoomObserver {
    var types: [String] = []
    var reconnections = 0
    var refusals: [String] = []
    var redrawEvery: Duration? { nil }
    var showsPosters: Bool { false }
    func opened(_ room: RoomWire.Opened) {}
    func received(_ message: RoomWire.ServerMessage, session: RoomSession) { types.append(message.type) }
    func poster(_ jpeg: Result<Data, ServerClientError>, quiz: Int, stage: Int?, session: RoomSession) {}
    func refused(_ reason: String, session: RoomSession) { refusals.append(reason) }
    func reconnecting(session: RoomSession) { reconnections += 1 }
    func tick(session: RoomSession) {}
}

@Suite("A live room carried over fake sockets")
struct RemoteRoomTests {
    @Test func aDroppedSocketIsResumedAndThePlayEndsAtThePodium() throws {
        let connector = ScriptedRoomConnector([
            [.text(welcomeJSON), .text(snapshotJSON()), .text(#"{"v":1,"type":"ping","serverTime":42}"#), .closed(code: nil)],
            [.closed(code: nil)],
            [.text(welcomeJSON), .text(snapshotJSON()), .text(loadingJSON), .text(startedJSON), .text(endedJSON),
             .text(podiumJSON)],
        ])
        let input = ScriptedRoomInput(connector: connector)
        let observer = RecordingRoomObserver()
        let client = try ServerClient(baseURL: "https://quiz.example", token: nil, transport: ScriptedTransport([]))
        let room = RemoteRoom(client: client, connector: connector, input: input, observer: observer)
        let session = room.play(code: "K7QF", name: "Ada", token: nil)

        #expect(session.ending == .podium)
        #expect(connector.urls == Array(repeating: "wss://quiz.example/v1/rooms/K7QF/ws", count: 3))
        #expect(observer.reconnections == 2)
        let first = connector.opened[0].sent.compactMap { try? RoomWire.decodeClient(Data($0.utf8)) }
        #expect(first == [.join(name: "Ada", playerToken: nil), .ping(clientTime: 0), .pong(serverTime: 42)])
        let last = connector.opened[2].sent.compactMap { try? RoomWire.decodeClient(Data($0.utf8)) }
        #expect(last.first == .resume(token: "seat-secret"))
        #expect(last.contains(.loaded(quiz: 1)), "ready without a screen as soon as the quiz is announced")
        #expect(last.last == .leave)
        #expect(observer.types.filter { $0 != "ping" } == [
            "welcome", "snapshot", "welcome", "snapshot", "quizLoading", "quizStarted", "quizEnded", "podium",
        ])
    }

    @Test func aServerSilentForTooLongIsLeftForANewConnection() throws {
        let connector = ScriptedRoomConnector([
            [.text(welcomeJSON), .text(snapshotJSON())],
            [.text(welcomeJSON), .text(snapshotJSON()), .text(podiumJSON)],
        ])
        let input = ScriptedRoomInput(connector: connector)
        let observer = RecordingRoomObserver()
        let client = try ServerClient(baseURL: "http://127.0.0.1:8080", token: nil, transport: ScriptedTransport([]))
        let session = RemoteRoom(client: client, connector: connector, input: input, observer: observer)
            .play(code: "K7QF", name: "Ada", token: nil)
        #expect(session.ending == .podium && observer.reconnections == 1)
        #expect(input.time >= RemoteRoom.silenceLimit, "not before the silence limit")
        #expect(connector.opened[1].sent.first == RoomWire.text(.resume(token: "seat-secret")))
        #expect(connector.urls.first == "ws://127.0.0.1:8080/v1/rooms/K7QF/ws")
    }
}
