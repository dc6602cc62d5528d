import Foundation
import UQuizWire

/// A player's side of a live room as pure state: it is fed the server's messages and the player's typed
/// lines, with the instant each came on the client's monotonic clock, and says what to send and which poster to fetch.
/// Nothing here touches a socket or a clock, so a test drives it message by message (`RemoteRoom` is the loop that
/// carries it over a real connection).
///
/// The server keeps the room's time and judges everything; the clock offset estimated here (the median of a few
/// ping/pong round trips) only places the countdowns on the client's own clock.
public struct RoomSession: Sendable {
    public enum Phase: Sendable, Equatable {
        /// Connected (or connecting), not yet welcomed.
        case connecting
        case lobby
        /// A quiz is announced; it starts when everyone has its first poster, or at the latest at the deadline.
        case loading(RoomWire.QuizLoading)
        case playing(RoomWire.QuizClock)
        /// Between quizzes: the last quiz's answer and the scoreboard.
        case interlude(RoomWire.QuizEnded)
        case finished(RoomWire.Podium)
    }

    /// How the session ended, for the front end's last words and exit status.
    public enum Ending: Sendable, Equatable {
        /// The podium was shown: the room's last quiz is over.
        case podium
        /// The player left (`/leave`, or Ctrl-C).
        case left
        case kicked
        /// The room expired (`idle`, `ended`, `empty`) or the server stopped it (`gone`).
        case expired(reason: String)
        /// The same seat was resumed on another connection.
        case replaced
        /// The connection dropped and could not be resumed within the seat hold (or never opened).
        case lost
        /// The server refused the join itself (`name_taken`, `room_full`, ...): its code and sentence.
        case refused(code: String, message: String)
    }

    /// What the loop carrying the session does next.
    public enum Action: Sendable, Equatable {
        case send(RoomWire.ClientMessage)
        /// Fetch this poster (a path on the server) and call `posterShown` once it is on screen.
        case fetchPoster(path: String, quiz: Int, stage: Int?)
    }

    /// What a typed line became.
    public enum Typed: Sendable, Equatable {
        case send([RoomWire.ClientMessage])
        /// Nothing to send, and why (said on the status line).
        case refused(String)
        case nothing
    }

    /// What to do after the socket closed.
    public enum AfterClose: Sendable, Equatable {
        /// Connect again and `resume`, until `deadline` (the end of the seat hold) at the latest.
        case reconnect(deadline: Duration)
        case end(Ending)
    }

    public let code: String
    public let name: String
    public let playerToken: String?
    public private(set) var me: Int?
    public private(set) var resumeToken: String?
    public private(set) var seatHold: Duration = .seconds(90)
    public private(set) var quizCount = 0
    public private(set) var lobby = RoomWire.Lobby(players: [], host: nil)
    public private(set) var phase: Phase = .connecting
    public private(set) var scoreboard: [RoomWire.Score] = []
    public private(set) var lastQuiz: RoomWire.QuizEnded?
    /// This player's standing in the running quiz: `watching`, `playing` or `done`.
    public private(set) var standing: String?
    public private(set) var hint: String?
    /// Who solved the running quiz so far.
    public private(set) var solvers: [RoomWire.Solved] = []
    /// The last thing worth a line: a judged guess, a refusal, someone's solve.
    public private(set) var notice: String?
    public private(set) var ending: Ending?
    /// When the running countdown (quiz start, quiz end, next quiz) reaches zero, on the client's clock.
    public private(set) var countdownEnds: Duration?
    /// The running quiz's whole time, for the time bar: the longest wait to its end the server announced.
    public private(set) var quizTime: Duration = .seconds(20)
    /// When the next stage is due on the client's clock, while playing.
    public private(set) var nextStageAt: Duration?
    private var offsetSamples: [Double] = []
    /// Whether the current hello is a `resume` (a refusal then ends the session: the seat is gone).
    private var resuming = false
    /// Since the socket dropped: when the seat hold ends, however many reconnections fail meanwhile.
    private var reconnectDeadline: Duration?

    /// Round trips measured for the clock offset.
    public static let offsetSamples = 5

    public init(code: String, name: String, playerToken: String?) {
        self.code = code
        self.name = name
        self.playerToken = playerToken
    }

    public var isHost: Bool { me != nil && me == lobby.host }

    /// The quiz on screen (loading or running), if any.
    public var currentQuiz: Int? {
        switch phase {
        case .loading(let loading): loading.quiz
        case .playing(let clock): clock.quiz
        default: nil
        }
    }

    /// The estimated offset of the server's clock to the client's (server = client + offset), in milliseconds: the
    /// median of the round trips so far, `nil` before the first.
    public var clockOffsetMs: Double? {
        guard !offsetSamples.isEmpty else { return nil }
        return offsetSamples.sorted()[offsetSamples.count / 2]
    }

    /// Seconds left on the running countdown at `now`.
    public func secondsLeft(at now: Duration) -> Double? {
        countdownEnds.map { max(0, ($0 - now) / .seconds(1)) }
    }

    // MARK: - The connection

    /// The first messages on a new connection: `join` (or `resume` once a seat is held), then the first clock ping.
    public mutating func hello(at now: Duration) -> [RoomWire.ClientMessage] {
        let first: RoomWire.ClientMessage
        if let resumeToken {
            first = .resume(token: resumeToken)
            resuming = true
        } else {
            first = .join(name: name, playerToken: playerToken)
        }
        offsetSamples = []
        return [first, .ping(clientTime: Self.milliseconds(now))]
    }

    /// The socket closed with `code` (`nil`: it broke) at `now`.
    public mutating func socketClosed(code: UInt16?, at now: Duration) -> AfterClose {
        if let ending { return .end(ending) }
        let ending: Ending? = switch code {
        case RoomWire.CloseReason.left.code?: .left
        case RoomWire.CloseReason.kicked.code?: .kicked
        case RoomWire.CloseReason.replaced.code?: .replaced
        case RoomWire.CloseReason.roomGone.code?: .expired(reason: "gone")
        default: nil
        }
        if let ending {
            self.ending = ending
            return .end(ending)
        }
        // A seat held by the server: a broken socket, a dead heartbeat, a cut for flooding or not reading.
        guard resumeToken != nil else {
            self.ending = .lost
            return .end(.lost)
        }
        let deadline = reconnectDeadline ?? now + seatHold
        reconnectDeadline = deadline
        guard now < deadline else {
            self.ending = .lost
            return .end(.lost)
        }
        return .reconnect(deadline: deadline)
    }

    /// The reconnection gave up (the seat hold passed).
    public mutating func gaveUp() { ending = ending ?? .lost }

    // MARK: - From the server

    public mutating func receive(_ message: RoomWire.ServerMessage, at now: Duration) -> [Action] {
        switch message {
        case .welcome(let welcome):
            me = welcome.player
            resumeToken = welcome.resumeToken
            seatHold = .milliseconds(welcome.seatHoldMs)
            resuming = false
            reconnectDeadline = nil
            notice = nil
        case .snapshot(let snapshot):
            return take(snapshot, at: now)
        case .lobby(let lobby):
            self.lobby = lobby
        case .hostChanged(let host):
            lobby.host = host.player
            notice = host.player == me ? "You are the host now." : "\(playerName(host.player)) is the host now."
        case .quizLoading(let loading):
            enterLoading(loading, at: now)
            return [.fetchPoster(path: loading.posterURL, quiz: loading.quiz, stage: 1)]
        case .quizStarted(let clock), .stageRevealed(let clock):
            enterPlaying(clock, at: now)
            return [.fetchPoster(path: clock.posterURL, quiz: clock.quiz, stage: clock.stage)]
        case .guessJudged(let judged):
            if judged.judgement == "accepted" {
                standing = "done"
                notice = "✓ Right! +\(judged.points ?? 0) points at stage \(judged.stage ?? 0)"
            } else {
                notice = "✗ \(Self.reason(judged.judgement))"
            }
        case .hint(let shown):
            hint = shown.hint
            notice = "Hint: \(shown.hint)"
        case .solved(let solved):
            solvers.append(solved)
            if solved.player != me { notice = "\(playerName(solved.player)) solved it at stage \(solved.stage)." }
        case .quizEnded(let ended):
            enterInterlude(ended, at: now)
            return [.fetchPoster(path: ended.posterURL, quiz: ended.quiz, stage: nil)]
        case .podium(let podium):
            phase = .finished(podium)
            countdownEnds = nil
            nextStageAt = nil
            ending = .podium
            return [.send(.leave)]
        case .kicked:
            ending = .kicked
        case .roomExpired(let expired):
            ending = .expired(reason: expired.reason)
        case .error(let failure):
            return refused(failure)
        case .ping(let ping):
            return [.send(.pong(serverTime: ping.serverTime))]
        case .screenWelcome, .screenPass, .progress:
            // A big screen's messages: this client is a player and never asks for them.
            break
        case .pong(let pong):
            let sentAt = pong.clientTime
            let roundTrip = Self.milliseconds(now) - sentAt
            offsetSamples.append(Double(pong.serverTime) - (sentAt + roundTrip / 2))
            if offsetSamples.count < Self.offsetSamples { return [.send(.ping(clientTime: Self.milliseconds(now)))] }
        }
        return []
    }

    /// The poster of `quiz` at `stage` is on screen (or, without a screen, the message announcing it was read): the
    /// first one of a loading quiz tells the server this player is ready.
    public func posterShown(quiz: Int, stage: Int?) -> [Action] {
        guard case .loading(let loading) = phase, loading.quiz == quiz, stage == 1, standing != "watching" else { return [] }
        return [.send(.loaded(quiz: quiz))]
    }

    private mutating func take(_ snapshot: RoomWire.Snapshot, at now: Duration) -> [Action] {
        me = snapshot.you
        quizCount = snapshot.quizCount
        lobby = snapshot.lobby
        scoreboard = snapshot.scoreboard
        lastQuiz = snapshot.lastQuiz
        solvers = []
        notice = nil
        var actions: [Action] = []
        switch snapshot.phase {
        case "loading":
            if let loading = snapshot.loading {
                enterLoading(loading, at: now)
                actions = [.fetchPoster(path: loading.posterURL, quiz: loading.quiz, stage: 1)]
            }
        case "playing":
            if let clock = snapshot.clock {
                enterPlaying(clock, at: now)
                actions = [.fetchPoster(path: clock.posterURL, quiz: clock.quiz, stage: clock.stage)]
            }
        case "interlude":
            if let last = snapshot.lastQuiz {
                var ended = last
                ended.nextQuizInMs = snapshot.nextQuizInMs
                ended.serverTime = snapshot.serverTime
                enterInterlude(ended, at: now)
                actions = [.fetchPoster(path: last.posterURL, quiz: last.quiz, stage: nil)]
            }
        case "finished":
            if let podium = snapshot.podium {
                phase = .finished(podium)
                ending = .podium
                actions = [.send(.leave)]
            }
        case "expired":
            ending = .expired(reason: "ended")
        default:
            phase = .lobby
            countdownEnds = nil
        }
        // After the phase: entering one resets the standing of the quiz before.
        standing = snapshot.standing
        hint = snapshot.hint
        if standing == "watching" { notice = "You joined during this quiz: you watch it and play from the next." }
        return actions
    }

    private mutating func enterLoading(_ loading: RoomWire.QuizLoading, at now: Duration) {
        phase = .loading(loading)
        quizCount = loading.quizCount
        standing = "playing"
        hint = nil
        solvers = []
        notice = nil
        quizTime = .zero
        countdownEnds = local(serverTime: loading.serverTime, inMs: loading.startsWithinMs, receivedAt: now)
        nextStageAt = nil
    }

    private mutating func enterPlaying(_ clock: RoomWire.QuizClock, at now: Duration) {
        if currentQuiz != clock.quiz {
            // A quiz seen first running (joined or resumed during it).
            solvers = []
            hint = nil
            quizTime = .milliseconds(clock.endsInMs)
        }
        quizTime = max(quizTime, .milliseconds(clock.endsInMs))
        phase = .playing(clock)
        countdownEnds = local(serverTime: clock.serverTime, inMs: clock.endsInMs, receivedAt: now)
        nextStageAt = clock.nextStageInMs.map { local(serverTime: clock.serverTime, inMs: $0, receivedAt: now) }
    }

    private mutating func enterInterlude(_ ended: RoomWire.QuizEnded, at now: Duration) {
        phase = .interlude(ended)
        lastQuiz = ended
        scoreboard = ended.scoreboard
        standing = nil
        hint = nil
        nextStageAt = nil
        countdownEnds = ended.nextQuizInMs.map { local(serverTime: ended.serverTime, inMs: $0, receivedAt: now) }
        let answer = ended.answerTitle + (ended.answerYear.map { " (\($0))" } ?? "")
        if let mine = ended.solvers.first(where: { $0.player == me }) {
            notice = "✓ \(answer): +\(mine.points) points"
            return
        }
        notice = switch ended.ending {
        case "skipped": "Skipped by the host: it was \(answer)"
        case "everyoneSolved": "Everyone solved it: \(answer)"
        default: "⏰ Time is up: it was \(answer)"
        }
    }

    private mutating func refused(_ failure: RoomWire.Failure) -> [Action] {
        if me == nil || resuming {
            // The hello itself was refused: there is no seat to play from.
            ending = resuming ? .lost : .refused(code: failure.code, message: failure.message)
            resuming = false
            return []
        }
        notice = "The server refused: \(failure.message)"
        return []
    }

    /// When something due `inMs` after the server's `serverTime` comes on the client's clock: through the estimated
    /// offset once there is one, else counted from the message's arrival.
    private func local(serverTime: Int, inMs: Int, receivedAt now: Duration) -> Duration {
        guard let offset = clockOffsetMs else { return now + .milliseconds(inMs) }
        let due = Double(serverTime + inMs) - offset
        // An offset measured before a jump in latency must not put a countdown in the past or far beyond the server's.
        let fromArrival = Self.milliseconds(now) + Double(inMs)
        return .milliseconds(min(max(due, Self.milliseconds(now)), fromArrival + 1_000))
    }

    // MARK: - From the player

    /// A line the player typed: a guess while a quiz runs, `?` for the hint, or a command (`/start`, `/skip`,
    /// `/kick N`, `/host N`, `/leave`; N is a player's number or name). With `json`, a line that is a JSON client
    /// message (`{"v": 1, "type": ...}`) is sent as it is.
    public mutating func typed(_ line: String, json: Bool = false) -> Typed {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return .nothing }
        if json && text.hasPrefix("{") {
            do {
                return .send([try RoomWire.decodeClient(Data(text.utf8))])
            } catch {
                return .refused("not a client message: \(error.message)")
            }
        }
        if text.hasPrefix("/") { return command(text) }
        guard case .playing(let clock) = phase else {
            if case .loading = phase { return .refused("the quiz has not started yet") }
            return .refused(isHost && phase == .lobby ? "no quiz is running: /start starts the room" : "no quiz is running")
        }
        if standing == "watching" { return .refused("you joined during this quiz: you play from the next") }
        if standing == "done" { return .refused("this quiz is over for you: wait for the next") }
        if text == "?" { return .send([.hint(quiz: clock.quiz)]) }
        return .send([.guess(quiz: clock.quiz, text: text)])
    }

    public static let commands = "/start, /skip, /kick N, /host N (N: a player's number or name), /leave"

    private mutating func command(_ text: String) -> Typed {
        let words = text.split(separator: " ", maxSplits: 1).map(String.init)
        let argument = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : nil
        switch words[0].lowercased() {
        case "/start":
            return .send([.start])
        case "/skip":
            guard let quiz = currentQuiz else { return .refused("no quiz is running") }
            return .send([.skip(quiz: quiz)])
        case "/kick", "/host":
            guard let argument, let player = player(named: argument) else {
                return .refused("\(words[0]) needs a player in the room: their number or name")
            }
            return .send([words[0].lowercased() == "/kick" ? .kick(player: player) : .passHost(player: player)])
        case "/leave":
            ending = .left
            return .send([.leave])
        default:
            return .refused("unknown command \(words[0]): \(Self.commands)")
        }
    }

    /// A player by number (`3`, `#3`) or name (any case).
    private func player(named text: String) -> Int? {
        let number = text.hasPrefix("#") ? String(text.dropFirst()) : text
        if let player = Int(number), lobby.players.contains(where: { $0.player == player }) { return player }
        return lobby.players.first { $0.name.caseInsensitiveCompare(text) == .orderedSame }?.player
    }

    public func playerName(_ player: Int) -> String {
        lobby.players.first { $0.player == player }?.name ?? "player \(player)"
    }

    /// The server's judgement codes in the words the solo game uses.
    public static func reason(_ judgement: String) -> String {
        switch judgement {
        case "empty": "nothing typed"
        case "wrong_number": "wrong: the number differs"
        case "another_movie": "wrong: that is another movie's title"
        default: "wrong: not the title"
        }
    }

    static func milliseconds(_ instant: Duration) -> Double { instant / .milliseconds(1) }
}
