import Foundation
import QuizCore

/// The WebSocket messages of a live room (`/v1/rooms/{code}/ws`), version 1: one JSON object per text message,
/// `{"v": 1, "type": "...", ...}` with the type's fields beside `v` and `type`. Shared by the server that speaks them and
/// any Swift client, so both ends read one definition. README.md ("Live rooms") documents them for other clients.
///
/// Times: `serverTime` is the server's monotonic clock in whole milliseconds (not a date: only differences mean
/// anything); `...InMs` fields are milliseconds from that `serverTime`. A client estimates its offset to the server's
/// clock with ping/pong round trips (median of several) only to draw countdowns smoothly; nothing it says about time is
/// ever used to judge or score it.
public enum RoomWire {
    public static let version = 1

    // MARK: - REST beside the WebSocket

    /// `POST /v1/rooms` body.
    public struct OpenRequest: Codable, Sendable {
        public var shareCode: String
        public init(shareCode: String) { self.shareCode = shareCode }
    }

    /// `POST /v1/rooms` answer.
    public struct Opened: Codable, Sendable, Equatable {
        public var code: String
        /// The WebSocket's path on this server; the opener joins it first, with their bearer token.
        public var wsURL: String
        public init(code: String, wsURL: String) {
            self.code = code
            self.wsURL = wsURL
        }
    }

    /// `GET /v1/rooms/{code}`: the lobby as anyone with the code sees it.
    public struct RoomInfo: Codable, Sendable, Equatable {
        public var code: String
        public var shareCode: String
        public var quizCount: Int
        /// `lobby`, `loading`, `playing`, `interlude`, `finished` or `expired`.
        public var phase: String
        public var players: [LobbyPlayer]
        public var host: Int?

        package init(code: String, shareCode: String, quizCount: Int, phase: String, players: [LobbyPlayer], host: Int? = nil) {
            self.code = code
            self.shareCode = shareCode
            self.quizCount = quizCount
            self.phase = phase
            self.players = players
            self.host = host
        }
    }

    // MARK: - Client to server

    public enum ClientMessage: Sendable, Equatable {
        /// The first message of a new player: the name everyone sees and, optionally, their bearer token so the
        /// room's final result counts in their stats (the room's opener must join with theirs, and first).
        case join(name: String, playerToken: String?)
        /// The first message of a returning player: the resume token their `welcome` gave.
        case resume(token: String)
        /// The first poster of `quiz` is on screen.
        case loaded(quiz: Int)
        case guess(quiz: Int, text: String)
        case hint(quiz: Int)
        /// Host only.
        case start
        /// Host only: ends the running quiz `quiz` for everyone.
        case skip(quiz: Int)
        case kick(player: Int)
        case passHost(player: Int)
        case leave
        /// The first message of a big screen: the host's `playerToken`, the 8-digit `pass` the host's page showed, or
        /// the screen's own `token` from an earlier `screenWelcome`.
        case screen(ScreenCredential)
        /// Host only: a one-time pass for a big screen (`screenPass` answers it).
        case screenPass
        /// Host only, in the lobby: teams on (`count` 2 to 6, `scoring` `mean` or `best`) or off (`count` 0).
        case setTeams(count: Int, scoring: String?)
        /// In the lobby: the player's team.
        case pickTeam(team: Int)
        /// Host only, in the lobby: puts `player` in `team`.
        case assignTeam(player: Int, team: Int)
        /// For the clock offset: the server answers `pong` with the same `clientTime` and its own time.
        case ping(clientTime: Double)
        /// The answer to the server's heartbeat `ping`, echoing its `serverTime`: how the server measures latency.
        case pong(serverTime: Int)

        var type: String {
            switch self {
            case .join: "join"
            case .resume: "resume"
            case .loaded: "loaded"
            case .guess: "guess"
            case .hint: "hint"
            case .start: "start"
            case .skip: "skip"
            case .kick: "kick"
            case .passHost: "passHost"
            case .leave: "leave"
            case .screen: "screen"
            case .screenPass: "screenPass"
            case .setTeams: "teams"
            case .pickTeam: "team"
            case .assignTeam: "assignTeam"
            case .ping: "ping"
            case .pong: "pong"
            }
        }
    }

    /// How a big screen proves the host sent it.
    public enum ScreenCredential: Sendable, Equatable {
        case playerToken(String)
        case pass(String)
        case token(String)
    }

    // MARK: - Server to client

    public struct Welcome: Codable, Sendable, Equatable {
        public var code: String
        public var player: Int
        /// Secret: keep it to resume after a lost connection (the seat is held `seatHoldMs`).
        public var resumeToken: String
        public var seatHoldMs: Int

        package init(code: String, player: Int, resumeToken: String, seatHoldMs: Int) {
            self.code = code
            self.player = player
            self.resumeToken = resumeToken
            self.seatHoldMs = seatHoldMs
        }
    }

    /// A big screen is in: it keeps `screenToken` to come back after a lost connection.
    public struct ScreenWelcome: Codable, Sendable, Equatable {
        public var code: String
        /// Secret, like a resume token.
        public var screenToken: String

        package init(code: String, screenToken: String) {
            self.code = code
            self.screenToken = screenToken
        }
    }

    /// To the host: the pass a big screen opens with, once, within `expiresInMs`.
    public struct ScreenPass: Codable, Sendable, Equatable {
        public var pass: String
        public var expiresInMs: Int

        package init(pass: String, expiresInMs: Int) {
            self.pass = pass
            self.expiresInMs = expiresInMs
        }
    }

    /// To big screens: how many players of the running quiz have answered and solved it.
    public struct Progress: Codable, Sendable, Equatable {
        public var quiz: Int
        public var players: Int
        public var answered: Int
        public var solved: Int

        package init(quiz: Int, players: Int, answered: Int, solved: Int) {
            self.quiz = quiz
            self.players = players
            self.answered = answered
            self.solved = solved
        }
    }

    public struct LobbyPlayer: Codable, Sendable, Equatable {
        public var player: Int
        public var name: String
        public var connected: Bool
        public var watching: Bool
        /// With teams: their team, once picked or given.
        public var team: Int?

        package init(player: Int, name: String, connected: Bool, watching: Bool, team: Int? = nil) {
            self.player = player
            self.name = name
            self.connected = connected
            self.watching = watching
            self.team = team
        }
    }

    public struct Teams: Codable, Sendable, Equatable {
        public var count: Int
        /// `mean` or `best`: a team's points for a quiz from its players'.
        public var scoring: String

        package init(count: Int, scoring: String) {
            self.count = count
            self.scoring = scoring
        }
    }

    public struct Lobby: Codable, Sendable, Equatable {
        /// Everyone seated; in a large room the latest to join (and the host) only.
        public var players: [LobbyPlayer]
        /// In a large room: how many are seated.
        public var playerCount: Int?
        public var host: Int?
        /// Absent when the room plays without teams.
        public var teams: Teams?

        package init(players: [LobbyPlayer], playerCount: Int? = nil, host: Int? = nil, teams: Teams? = nil) {
            self.players = players
            self.playerCount = playerCount
            self.host = host
            self.teams = teams
        }
    }

    /// One team's line of the teams' board: its players best first.
    public struct TeamScore: Codable, Sendable, Equatable {
        public var rank: Int
        public var team: Int
        public var score: Int
        public var players: [Int]

        package init(rank: Int, team: Int, score: Int, players: [Int]) {
            self.rank = rank
            self.team = team
            self.score = score
            self.players = players
        }
    }

    public struct PlayerRef: Codable, Sendable, Equatable {
        public var player: Int

        package init(player: Int) {
            self.player = player
        }
    }

    public struct QuizLoading: Codable, Sendable, Equatable {
        public var quiz: Int
        public var quizCount: Int
        public var stageCount: Int
        public var startsWithinMs: Int
        public var serverTime: Int
        /// Stage 1's poster: fetch it, then send `loaded`.
        public var posterURL: String

        package init(quiz: Int, quizCount: Int, stageCount: Int, startsWithinMs: Int, serverTime: Int, posterURL: String) {
            self.quiz = quiz
            self.quizCount = quizCount
            self.stageCount = stageCount
            self.startsWithinMs = startsWithinMs
            self.serverTime = serverTime
            self.posterURL = posterURL
        }
    }

    public struct QuizClock: Codable, Sendable, Equatable {
        public var quiz: Int
        public var stage: Int
        public var stageCount: Int
        public var nextStageInMs: Int?
        public var endsInMs: Int
        public var serverTime: Int
        /// The poster with the revealed stages' areas only.
        public var posterURL: String

        package init(quiz: Int, stage: Int, stageCount: Int, nextStageInMs: Int? = nil, endsInMs: Int, serverTime: Int, posterURL: String) {
            self.quiz = quiz
            self.stage = stage
            self.stageCount = stageCount
            self.nextStageInMs = nextStageInMs
            self.endsInMs = endsInMs
            self.serverTime = serverTime
            self.posterURL = posterURL
        }
    }

    public struct GuessJudged: Codable, Sendable, Equatable {
        public var quiz: Int
        /// `accepted`, `empty`, `wrong_number`, `another_movie` or `wrong`: never the answer.
        public var judgement: String
        public var points: Int?
        public var stage: Int?

        package init(quiz: Int, judgement: String, points: Int? = nil, stage: Int? = nil) {
            self.quiz = quiz
            self.judgement = judgement
            self.points = points
            self.stage = stage
        }
    }

    public struct HintShown: Codable, Sendable, Equatable {
        public var quiz: Int
        public var hint: String

        package init(quiz: Int, hint: String) {
            self.quiz = quiz
            self.hint = hint
        }
    }

    public struct Solved: Codable, Sendable, Equatable {
        public var quiz: Int
        public var player: Int
        public var stage: Int

        package init(quiz: Int, player: Int, stage: Int) {
            self.quiz = quiz
            self.player = player
            self.stage = stage
        }
    }

    public struct Score: Codable, Sendable, Equatable {
        public var rank: Int
        public var player: Int
        public var name: String
        public var score: Int
        public var solved: Int
        public var played: Int
        public var left: Bool

        package init(rank: Int, player: Int, name: String, score: Int, solved: Int, played: Int, left: Bool) {
            self.rank = rank
            self.player = player
            self.name = name
            self.score = score
            self.solved = solved
            self.played = played
            self.left = left
        }
    }

    public struct Solver: Codable, Sendable, Equatable {
        public var player: Int
        public var name: String
        public var points: Int
        public var stage: Int
        public var seconds: Double

        package init(player: Int, name: String, points: Int, stage: Int, seconds: Double) {
            self.player = player
            self.name = name
            self.points = points
            self.stage = stage
            self.seconds = seconds
        }
    }

    public struct QuizEnded: Codable, Sendable, Equatable {
        public var quiz: Int
        public var quizCount: Int
        public var answerTitle: String
        public var answerYear: String?
        /// `everyoneSolved`, `timeUp` or `skipped`.
        public var ending: String
        public var solvers: [Solver]
        /// How many solved it in all, in a large room, whose `solvers` are the first ones and the player's own.
        public var solverCount: Int?
        public var scoreboard: [Score]
        /// With teams.
        public var teamScoreboard: [TeamScore]?
        public var nextQuizInMs: Int?
        public var serverTime: Int
        /// The whole poster, now that the quiz has ended.
        public var posterURL: String

        package init(quiz: Int, quizCount: Int, answerTitle: String, answerYear: String? = nil, ending: String, solvers: [Solver], scoreboard: [Score], teamScoreboard: [TeamScore]? = nil, nextQuizInMs: Int? = nil, serverTime: Int, posterURL: String) {
            self.quiz = quiz
            self.quizCount = quizCount
            self.answerTitle = answerTitle
            self.answerYear = answerYear
            self.ending = ending
            self.solvers = solvers
            self.scoreboard = scoreboard
            self.teamScoreboard = teamScoreboard
            self.nextQuizInMs = nextQuizInMs
            self.serverTime = serverTime
            self.posterURL = posterURL
        }
    }

    public struct Place: Codable, Sendable, Equatable {
        public var rank: Int
        public var player: Int
        public var name: String
        public var score: Int
        public var left: Bool
        public var shareLine: String?

        package init(rank: Int, player: Int, name: String, score: Int, left: Bool, shareLine: String? = nil) {
            self.rank = rank
            self.player = player
            self.name = name
            self.score = score
            self.left = left
            self.shareLine = shareLine
        }
    }

    public struct Podium: Codable, Sendable, Equatable {
        public var places: [Place]
        /// With teams: the teams in their final order.
        public var teams: [TeamScore]?

        package init(places: [Place], teams: [TeamScore]? = nil) {
            self.places = places
            self.teams = teams
        }
    }

    public struct Expired: Codable, Sendable, Equatable {
        /// `idle`, `ended` or `empty`.
        public var reason: String

        package init(reason: String) {
            self.reason = reason
        }
    }

    public struct QuizResultView: Codable, Sendable, Equatable {
        public var outcome: String
        public var points: Int
        public var stage: Int
        public var seconds: Double

        package init(outcome: String, points: Int, stage: Int, seconds: Double) {
            self.outcome = outcome
            self.points = points
            self.stage = stage
            self.seconds = seconds
        }
    }

    /// Everything the player may know now: sent after `welcome`, on joining and on resuming.
    public struct Snapshot: Codable, Sendable, Equatable {
        public var code: String
        /// The player it is for; absent for a big screen.
        public var you: Int?
        public var quizCount: Int
        public var lobby: Lobby
        /// `lobby`, `loading`, `playing`, `interlude`, `finished` or `expired`.
        public var phase: String
        /// While loading: the quiz, its stage count, when it starts at the latest, and stage 1's poster.
        public var loading: QuizLoading?
        /// While playing.
        public var clock: QuizClock?
        /// In an interlude.
        public var nextQuizInMs: Int?
        /// While a quiz loads or runs: `watching`, `playing` or `done`.
        public var standing: String?
        /// The hint, when this player asked for it in the running quiz.
        public var hint: String?
        /// This player's result of the running quiz once it is over for them.
        public var result: QuizResultView?
        /// A big screen's, while a quiz runs.
        public var progress: Progress?
        public var scoreboard: [Score]
        public var teamScoreboard: [TeamScore]?
        public var lastQuiz: QuizEnded?
        public var podium: Podium?
        public var serverTime: Int

        package init(code: String, you: Int? = nil, quizCount: Int, lobby: Lobby, phase: String, loading: QuizLoading? = nil, clock: QuizClock? = nil, nextQuizInMs: Int? = nil, standing: String? = nil, hint: String? = nil, result: QuizResultView? = nil, progress: Progress? = nil, scoreboard: [Score], teamScoreboard: [TeamScore]? = nil, lastQuiz: QuizEnded? = nil, podium: Podium? = nil, serverTime: Int) {
            self.code = code
            self.you = you
            self.quizCount = quizCount
            self.lobby = lobby
            self.phase = phase
            self.loading = loading
            self.clock = clock
            self.nextQuizInMs = nextQuizInMs
            self.standing = standing
            self.hint = hint
            self.result = result
            self.progress = progress
            self.scoreboard = scoreboard
            self.teamScoreboard = teamScoreboard
            self.lastQuiz = lastQuiz
            self.podium = podium
            self.serverTime = serverTime
        }
    }

    /// A command refused; the connection stays open.
    public struct Failure: Codable, Sendable, Equatable {
        public var code: String
        public var message: String

        package init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public struct Ping: Codable, Sendable, Equatable {
        public var serverTime: Int

        package init(serverTime: Int) {
            self.serverTime = serverTime
        }
    }

    public struct Pong: Codable, Sendable, Equatable {
        public var clientTime: Double
        public var serverTime: Int

        package init(clientTime: Double, serverTime: Int) {
            self.clientTime = clientTime
            self.serverTime = serverTime
        }
    }

    public struct Empty: Codable, Sendable, Equatable {}

    public enum ServerMessage: Sendable, Equatable {
        case welcome(Welcome)
        case screenWelcome(ScreenWelcome)
        case screenPass(ScreenPass)
        case progress(Progress)
        case lobby(Lobby)
        case hostChanged(PlayerRef)
        case quizLoading(QuizLoading)
        case quizStarted(QuizClock)
        case stageRevealed(QuizClock)
        case guessJudged(GuessJudged)
        case hint(HintShown)
        case solved(Solved)
        case quizEnded(QuizEnded)
        case podium(Podium)
        case kicked
        case roomExpired(Expired)
        case snapshot(Snapshot)
        case error(Failure)
        case ping(Ping)
        case pong(Pong)

        public var type: String {
            switch self {
            case .welcome: "welcome"
            case .screenWelcome: "screenWelcome"
            case .screenPass: "screenPass"
            case .progress: "progress"
            case .lobby: "lobby"
            case .hostChanged: "hostChanged"
            case .quizLoading: "quizLoading"
            case .quizStarted: "quizStarted"
            case .stageRevealed: "stageRevealed"
            case .guessJudged: "guessJudged"
            case .hint: "hint"
            case .solved: "solved"
            case .quizEnded: "quizEnded"
            case .podium: "podium"
            case .kicked: "kicked"
            case .roomExpired: "roomExpired"
            case .snapshot: "snapshot"
            case .error: "error"
            case .ping: "ping"
            case .pong: "pong"
            }
        }
    }

    /// Why the server closed a connection; WebSocket close codes (4000–4999 are the application's own).
    public enum CloseReason: Sendable, Equatable {
        /// The player left.
        case left
        /// The room expired or the server is stopping.
        case roomGone
        /// More than `RoomConnectionGuard.maxMessageBytes` in one message.
        case messageTooLarge
        /// More messages than `RoomConnectionGuard` allows: the room goes on, the seat is kept for a resume.
        case flooding
        /// The first message was not a `join` or `resume`, or did not come within `RoomLimits.helloTimeout`.
        case noHello
        /// Nothing heard (message or pong) for `RoomConnectionGuard.deadAfter`.
        case dead
        case kicked
        /// The player resumed on another connection.
        case replaced
        /// The client left `RoomLimits.maxQueuedMessages` messages unread: it does not read, so it is cut off before
        /// the server holds more for it.
        case tooSlow
        /// The room is moving to another server instance (this one stops, or the one holding it does not answer):
        /// connect again and `resume`; the seat is held.
        case moved

        public var code: UInt16 {
            switch self {
            case .left: 1000
            case .roomGone: 1001
            case .messageTooLarge: 1009
            case .flooding: 4008
            case .noHello: 4001
            case .dead: 4002
            case .kicked: 4003
            case .replaced: 4004
            case .tooSlow: 4005
            case .moved: 4006
            }
        }

        public var text: String {
            switch self {
            case .left: "left the room"
            case .roomGone: "the room is gone"
            case .messageTooLarge: "message larger than \(RoomConnectionGuard.maxMessageBytes) bytes"
            case .flooding: "too many messages: at most \(RoomConnectionGuard.sustainedPerSecond) a second"
            case .noHello: "the first message must be join or resume"
            case .dead: "no sign of life"
            case .kicked: "kicked by the host"
            case .replaced: "resumed on another connection"
            case .tooSlow: "too many messages left unread"
            case .moved: "the room is moving to another server: connect again and resume"
            }
        }
    }

    /// Reads one client message; the error says what was wrong, for the `error` message sent back.
    public static func decodeClient(_ data: Data) throws(WireError) -> ClientMessage {
        let envelope: ClientEnvelope
        do {
            envelope = try JSONDecoder().decode(ClientEnvelope.self, from: data)
        } catch {
            throw WireError("not a message: a JSON object with \"v\": \(version) and a \"type\"")
        }
        guard envelope.v == version else { throw WireError("v: only version \(version) is spoken here") }
        func need<T>(_ value: T?, _ name: String) throws(WireError) -> T {
            guard let value else { throw WireError("\(envelope.type): \(name) is missing") }
            return value
        }
        switch envelope.type {
        case "join": return .join(name: try need(envelope.name, "name"), playerToken: envelope.playerToken)
        case "resume": return .resume(token: try need(envelope.token, "token"))
        case "loaded": return .loaded(quiz: try need(envelope.quiz, "quiz"))
        case "guess": return .guess(quiz: try need(envelope.quiz, "quiz"), text: try need(envelope.text, "text"))
        case "hint": return .hint(quiz: try need(envelope.quiz, "quiz"))
        case "start": return .start
        case "skip": return .skip(quiz: try need(envelope.quiz, "quiz"))
        case "kick": return .kick(player: try need(envelope.player, "player"))
        case "passHost": return .passHost(player: try need(envelope.player, "player"))
        case "leave": return .leave
        case "screen":
            if let token = envelope.playerToken { return .screen(.playerToken(token)) }
            if let pass = envelope.pass { return .screen(.pass(pass)) }
            if let token = envelope.token { return .screen(.token(token)) }
            throw WireError("screen: one of playerToken, pass or token is missing")
        case "screenPass": return .screenPass
        case "teams": return .setTeams(count: try need(envelope.count, "count"), scoring: envelope.scoring)
        case "team": return .pickTeam(team: try need(envelope.team, "team"))
        case "assignTeam": return .assignTeam(player: try need(envelope.player, "player"), team: try need(envelope.team, "team"))
        case "ping": return .ping(clientTime: try need(envelope.clientTime, "clientTime"))
        case "pong": return .pong(serverTime: try need(envelope.serverTime, "serverTime"))
        default: throw WireError("type: \"\(envelope.type)\" is not a message type")
        }
    }

    public static func encode(_ message: ClientMessage) -> Data {
        var envelope = ClientEnvelope(v: version, type: message.type)
        switch message {
        case let .join(name, playerToken):
            envelope.name = name
            envelope.playerToken = playerToken
        case .resume(let token): envelope.token = token
        case .loaded(let quiz), .hint(let quiz), .skip(let quiz): envelope.quiz = quiz
        case let .guess(quiz, text):
            envelope.quiz = quiz
            envelope.text = text
        case .kick(let player), .passHost(let player): envelope.player = player
        case .screen(.playerToken(let token)): envelope.playerToken = token
        case .screen(.pass(let pass)): envelope.pass = pass
        case .screen(.token(let token)): envelope.token = token
        case let .setTeams(count, scoring):
            envelope.count = count
            envelope.scoring = scoring
        case .pickTeam(let team): envelope.team = team
        case let .assignTeam(player, team):
            envelope.player = player
            envelope.team = team
        case .start, .leave, .screenPass: break
        case .ping(let clientTime): envelope.clientTime = clientTime
        case .pong(let serverTime): envelope.serverTime = serverTime
        }
        return try! encoder.encode(envelope)
    }

    public static func encode(_ message: ServerMessage) -> String {
        switch message {
        // A large room sends these to each player with their own line, thousands at a quiz's end.
        case .quizEnded(let ended): written(ended, type: message.type)
        case .podium(let podium): written(podium, type: message.type)
        default: encodedByCoder(message)
        }
    }

    /// `message` through its `Codable` form: what `encode` writes by hand reads as this does.
    package static func encodedByCoder(_ message: ServerMessage) -> String {
        String(decoding: try! encoder.encode(ServerEnvelope(message: message)), as: UTF8.self)
    }

    public static func decodeServer(_ data: Data) throws -> ServerMessage {
        try JSONDecoder().decode(ServerEnvelope.self, from: data).message
    }

    // MARK: - For clients

    /// A client message as the text a WebSocket carries.
    public static func text(_ message: ClientMessage) -> String {
        String(decoding: encode(message), as: UTF8.self)
    }

    /// A server message from the text a WebSocket carried.
    public static func decodeServer(_ text: String) throws -> ServerMessage {
        try decodeServer(Data(text.utf8))
    }

    /// A room's WebSocket address on the server at `baseURL` (`http://` becomes `ws://`, `https://` `wss://`).
    public static func socketURL(baseURL: String, code: String) -> String {
        let scheme = baseURL.hasPrefix("https://") ? "wss://" : "ws://"
        let rest = baseURL.drop(while: { $0 != ":" }).dropFirst(3)
        return scheme + rest + "/v1/rooms/\(code)/ws"
    }

    public struct WireError: Error, Equatable, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }

    /// A new encoder per message: messages are encoded under many rooms' locks at once, and an encoder is cheap.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Every field any client message has: unknown fields (a forged `time`, say) are ignored, never read.
    struct ClientEnvelope: Codable {
        var v: Int
        var type: String
        var name: String?
        var playerToken: String?
        var token: String?
        var quiz: Int?
        var text: String?
        var player: Int?
        var pass: String?
        var count: Int?
        var scoring: String?
        var team: Int?
        var clientTime: Double?
        var serverTime: Int?

        init(v: Int, type: String) {
            self.v = v
            self.type = type
        }
    }

    /// `v` and `type`, then the payload's own fields in the same object.
    struct ServerEnvelope: Codable {
        var message: ServerMessage

        init(message: ServerMessage) { self.message = message }

        enum Keys: String, CodingKey { case v, type }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(RoomWire.version, forKey: .v)
            try container.encode(message.type, forKey: .type)
            switch message {
            case .welcome(let payload): try payload.encode(to: encoder)
            case .screenWelcome(let payload): try payload.encode(to: encoder)
            case .screenPass(let payload): try payload.encode(to: encoder)
            case .progress(let payload): try payload.encode(to: encoder)
            case .lobby(let payload): try payload.encode(to: encoder)
            case .hostChanged(let payload): try payload.encode(to: encoder)
            case .quizLoading(let payload): try payload.encode(to: encoder)
            case .quizStarted(let payload), .stageRevealed(let payload): try payload.encode(to: encoder)
            case .guessJudged(let payload): try payload.encode(to: encoder)
            case .hint(let payload): try payload.encode(to: encoder)
            case .solved(let payload): try payload.encode(to: encoder)
            case .quizEnded(let payload): try payload.encode(to: encoder)
            case .podium(let payload): try payload.encode(to: encoder)
            case .kicked: break
            case .roomExpired(let payload): try payload.encode(to: encoder)
            case .snapshot(let payload): try payload.encode(to: encoder)
            case .error(let payload): try payload.encode(to: encoder)
            case .ping(let payload): try payload.encode(to: encoder)
            case .pong(let payload): try payload.encode(to: encoder)
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let type = try container.decode(String.self, forKey: .type)
            switch type {
            case "welcome": message = .welcome(try Welcome(from: decoder))
            case "screenWelcome": message = .screenWelcome(try ScreenWelcome(from: decoder))
            case "screenPass": message = .screenPass(try ScreenPass(from: decoder))
            case "progress": message = .progress(try Progress(from: decoder))
            case "lobby": message = .lobby(try Lobby(from: decoder))
            case "hostChanged": message = .hostChanged(try PlayerRef(from: decoder))
            case "quizLoading": message = .quizLoading(try QuizLoading(from: decoder))
            case "quizStarted": message = .quizStarted(try QuizClock(from: decoder))
            case "stageRevealed": message = .stageRevealed(try QuizClock(from: decoder))
            case "guessJudged": message = .guessJudged(try GuessJudged(from: decoder))
            case "hint": message = .hint(try HintShown(from: decoder))
            case "solved": message = .solved(try Solved(from: decoder))
            case "quizEnded": message = .quizEnded(try QuizEnded(from: decoder))
            case "podium": message = .podium(try Podium(from: decoder))
            case "kicked": message = .kicked
            case "roomExpired": message = .roomExpired(try Expired(from: decoder))
            case "snapshot": message = .snapshot(try Snapshot(from: decoder))
            case "error": message = .error(try Failure(from: decoder))
            case "ping": message = .ping(try Ping(from: decoder))
            case "pong": message = .pong(try Pong(from: decoder))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container, debugDescription: "unknown message type \(type)")
            }
        }
    }
}

// MARK: - From the room's events

extension RoomWire {
    /// Milliseconds of the server's monotonic clock, as every message states it.
    package static func milliseconds(_ instant: Duration) -> Int { Int((instant / .milliseconds(1)).rounded(.down)) }

    package static func posterURL(code: RoomCode, quiz: Int, stage: Int?) -> String {
        "/v1/rooms/\(code.value)/quizzes/\(quiz)/poster" + (stage.map { "?stage=\($0)" } ?? "")
    }

    package static func lobby(_ lobby: RoomLobby) -> Lobby {
        Lobby(
            players: lobby.players.map {
                LobbyPlayer(player: $0.player.value, name: $0.name, connected: $0.connected, watching: $0.watching, team: $0.team)
            },
            host: lobby.host?.value, teams: lobby.teams.map { Teams(count: $0.count, scoring: $0.scoring.rawValue) })
    }

    package static func teamBoard(_ board: [RoomTeamScore]?) -> [TeamScore]? {
        board?.map { TeamScore(rank: $0.rank, team: $0.team, score: $0.score, players: $0.players.map(\.value)) }
    }

    package static func clock(_ clock: RoomQuizClock, code: RoomCode) -> QuizClock {
        QuizClock(
            quiz: clock.quiz, stage: clock.stage, stageCount: clock.stageCount, nextStageInMs: clock.nextStageInMs,
            endsInMs: clock.endsInMs, serverTime: milliseconds(clock.serverTime),
            posterURL: posterURL(code: code, quiz: clock.quiz, stage: clock.stage))
    }

    package static func scoreboard(_ scores: [RoomScore]) -> [Score] {
        scores.map {
            Score(
                rank: $0.rank, player: $0.player.value, name: $0.name, score: $0.score, solved: $0.solved,
                played: $0.played, left: $0.left)
        }
    }

    package static func quizEnded(_ summary: RoomQuizSummary, code: RoomCode) -> QuizEnded {
        QuizEnded(
            quiz: summary.quiz, quizCount: summary.quizCount, answerTitle: summary.answerTitle,
            answerYear: summary.answerYear, ending: summary.ending.rawValue,
            solvers: summary.solvers.map {
                Solver(player: $0.player.value, name: $0.name, points: $0.points, stage: $0.stage, seconds: $0.seconds)
            },
            scoreboard: scoreboard(summary.scoreboard), teamScoreboard: teamBoard(summary.teamScoreboard),
            nextQuizInMs: summary.nextQuizInMs,
            serverTime: milliseconds(summary.serverTime), posterURL: posterURL(code: code, quiz: summary.quiz, stage: nil))
    }

    package static func progress(_ progress: RoomProgress) -> Progress {
        Progress(quiz: progress.quiz, players: progress.players, answered: progress.answered, solved: progress.solved)
    }

    package static func podium(_ podium: RoomPodium) -> Podium {
        Podium(
            places: podium.places.map {
                Place(rank: $0.rank, player: $0.player.value, name: $0.name, score: $0.score, left: $0.left, shareLine: $0.shareLine)
            },
            teams: teamBoard(podium.teams))
    }

    package static func judgement(_ judgement: RoomGuessJudgement, quiz: Int) -> GuessJudged {
        switch judgement {
        case let .accepted(points, stage): GuessJudged(quiz: quiz, judgement: "accepted", points: points, stage: stage)
        case .empty: GuessJudged(quiz: quiz, judgement: "empty")
        case .wrongNumber: GuessJudged(quiz: quiz, judgement: "wrong_number")
        case .anotherMovie: GuessJudged(quiz: quiz, judgement: "another_movie")
        case .wrong: GuessJudged(quiz: quiz, judgement: "wrong")
        }
    }

    package static func snapshot(_ snapshot: RoomSnapshot) -> Snapshot {
        let code = snapshot.code
        var wire = Snapshot(
            code: code.value, you: snapshot.you?.value, quizCount: snapshot.quizCount, lobby: lobby(snapshot.lobby),
            phase: "lobby", scoreboard: scoreboard(snapshot.scoreboard), teamScoreboard: teamBoard(snapshot.teamScoreboard),
            lastQuiz: snapshot.lastQuiz.map { quizEnded($0, code: code) }, podium: snapshot.podium.map(podium),
            serverTime: milliseconds(snapshot.serverTime))
        switch snapshot.phase {
        case .lobby:
            wire.phase = "lobby"
        case let .loading(quiz, stageCount, startsWithinMs):
            wire.phase = "loading"
            wire.loading = QuizLoading(
                quiz: quiz, quizCount: snapshot.quizCount, stageCount: stageCount, startsWithinMs: startsWithinMs,
                serverTime: wire.serverTime, posterURL: posterURL(code: code, quiz: quiz, stage: 1))
        case .playing(let clock):
            wire.phase = "playing"
            wire.clock = Self.clock(clock, code: code)
        case let .interlude(_, nextQuizInMs):
            wire.phase = "interlude"
            wire.nextQuizInMs = nextQuizInMs
        case .finished:
            wire.phase = "finished"
        case .expired:
            wire.phase = "expired"
        }
        wire.progress = snapshot.progress.map(progress)
        switch snapshot.standing {
        case nil: break
        case .watching: wire.standing = "watching"
        case .playing(let hint):
            wire.standing = "playing"
            wire.hint = hint
        case .done(let result):
            wire.standing = "done"
            wire.result = QuizResultView(
                outcome: result.outcome.rawValue, points: result.score, stage: result.stageReached, seconds: result.seconds)
        }
        return wire
    }

    /// The wire form of one room event. `nil` for none: every event has one.
    package static func message(_ event: RoomEvent, code: RoomCode) -> ServerMessage {
        switch event {
        case .lobbyChanged(let lobby): .lobby(Self.lobby(lobby))
        case .hostChanged(let player): .hostChanged(PlayerRef(player: player.value))
        case let .quizLoading(quiz, quizCount, stageCount, startsWithinMs, serverTime):
            .quizLoading(QuizLoading(
                quiz: quiz, quizCount: quizCount, stageCount: stageCount, startsWithinMs: startsWithinMs,
                serverTime: milliseconds(serverTime), posterURL: posterURL(code: code, quiz: quiz, stage: 1)))
        case .quizStarted(let clock): .quizStarted(Self.clock(clock, code: code))
        case .stageRevealed(let clock): .stageRevealed(Self.clock(clock, code: code))
        case let .guessJudged(quiz, judgement): .guessJudged(Self.judgement(judgement, quiz: quiz))
        case let .hintShown(quiz, hint): .hint(HintShown(quiz: quiz, hint: hint))
        case let .solved(quiz, player, stage): .solved(Solved(quiz: quiz, player: player.value, stage: stage))
        case .progress(let progress): .progress(Self.progress(progress))
        case .quizEnded(let summary): .quizEnded(quizEnded(summary, code: code))
        case .podium(let podium): .podium(Self.podium(podium))
        case .kicked: .kicked
        case .roomExpired(let reason): .roomExpired(Expired(reason: reason.rawValue))
        case .snapshot(let snapshot): .snapshot(Self.snapshot(snapshot))
        }
    }

    /// A refused command as the client reads it: a stable code and a sentence.
    package static func failure(_ error: RoomError) -> Failure {
        switch error {
        case .roomExpired: Failure(code: "room_expired", message: "the room has expired")
        case .roomFinished: Failure(code: "room_finished", message: "the room's last quiz has ended")
        case .roomFull(let limit): Failure(code: "room_full", message: "the room is full: at most \(limit) players")
        case .invalidName:
            Failure(
                code: "invalid_name",
                message: "name: 1 to \(RoomRules.maxNameLength) characters on one line, none hidden or reordering the text")
        case .nameTaken: Failure(code: "name_taken", message: "another player in the room has this name, or one that looks the same")
        case .notInRoom: Failure(code: "not_in_room", message: "that player is not in the room")
        case .wrongResumeToken: Failure(code: "wrong_resume_token", message: "this resume token is not a seat of this room")
        case .notConnected: Failure(code: "not_connected", message: "that player's connection is lost")
        case .notHost: Failure(code: "not_host", message: "only the host may do that")
        case .invalidTarget: Failure(code: "invalid_target", message: "player: not another seated player")
        case .alreadyStarted: Failure(code: "already_started", message: "the room has started")
        case .quizNotRunning(let quiz): Failure(code: "quiz_not_running", message: "quiz \(quiz) is not running")
        case .nothingToSkip: Failure(code: "nothing_to_skip", message: "no quiz is running")
        case .watching(let quiz):
            Failure(code: "watching", message: "you joined during quiz \(quiz): you watch it and play from the next")
        case .alreadyDone(let quiz): Failure(code: "already_done", message: "quiz \(quiz) is over for you")
        case .guessTooLong(let limit): Failure(code: "guess_too_long", message: "text: at most \(limit) characters")
        case .wrongScreenPass:
            Failure(
                code: "wrong_screen_pass",
                message: "pass: not this room's screen pass, or used or out of date: the host's page shows a new one")
        case .wrongScreenToken:
            Failure(code: "wrong_screen_token", message: "token: not a screen of this room (a newer screen took its place)")
        case .noSuchTeam: Failure(code: "no_such_team", message: "team: not one of this room's teams (the host turns teams on)")
        case .invalidTeamCount:
            Failure(code: "invalid_team_count", message: "count: 0 (no teams) or 2 to \(RoomTeams.maxCount) teams")
        case .teamsOnlyInTheLobby: Failure(code: "teams_only_in_the_lobby", message: "teams are set and picked in the lobby")
        }
    }
}
