import Foundation
import QuizCore
import Synchronization
import UQuizStorage
import UQuizWire

/// One WebSocket connection to a live room, whatever carries it: the transport hands it every text message
/// (`receive`), calls `heartbeat` about every second, and `closed` when the socket ends; it sends and closes through
/// the outbox it gave. The connection keeps its `RoomConnectionGuard` (size, rate, liveness) and its latency samples.
///
/// Locks: a room's lock may take a connection's (to send), never the other way round, so nothing here calls the room
/// while holding its own lock.
public final class RoomConnection: Sendable {
    struct State {
        var guardian: RoomConnectionGuard
        var player: RoomPlayerID?
        /// A big screen's connection, once its `screen` hello succeeded: it watches and never acts.
        var isScreen = false
        var closed = false
        /// Texts handed to the outbox and not yet reported written by the transport.
        var queued = 0
        var tooSlow = false
        /// Heartbeat pings sent and not answered yet, by the `serverTime` they carried: a pong counts only if it echoes
        /// one of these, so a client cannot claim a latency the server did not measure.
        var pendingPings: [Int: Duration] = [:]
        var lastPingAt: Duration?
        /// One-way latencies measured (half a round trip), the latest few.
        var latencies: [Duration] = []
    }

    static let latencySamples = 5

    let live: LiveRoom
    let rooms: Rooms
    let openedAt: Duration
    private let outbox: @Sendable (RoomOutbound) -> Void
    private let state: Mutex<State>

    init(live: LiveRoom, rooms: Rooms, outbox: @escaping @Sendable (RoomOutbound) -> Void, openedAt: Duration) {
        self.live = live
        self.rooms = rooms
        self.outbox = outbox
        self.openedAt = openedAt
        state = Mutex(State(guardian: RoomConnectionGuard(openedAt: openedAt)))
    }

    /// The seat this connection speaks for, once `join` or `resume` succeeded.
    public var player: Int? { state.withLock { $0.player?.value } }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// The median one-way latency measured on this connection: what a guess's time may be moved back by (the room
    /// bounds it by `RoomRules.maxLatencyAllowance`).
    var latencyAllowance: Duration {
        state.withLock { state in
            let sorted = state.latencies.sorted()
            return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
        }
    }

    // MARK: - From the transport

    /// A text message of `bytes` bytes arrived (a binary one is passed as its byte count with `text` nil).
    public func receive(_ text: String?, bytes: Int) async {
        let instant = rooms.now()
        let verdict: RoomConnectionGuard.Verdict? = state.withLock { state in
            state.closed ? nil : state.guardian.receive(bytes: bytes, at: instant)
        }
        switch verdict {
        case nil:
            return
        case .cutOff(.messageTooLarge):
            await cutOff(.messageTooLarge)
            return
        case .cutOff(.flooding):
            await cutOff(.flooding)
            return
        case .accept:
            break
        }
        guard let text else {
            reply(.error(.init(code: "bad_message", message: "messages are JSON text, not binary")))
            return
        }
        let message: RoomWire.ClientMessage
        do {
            message = try RoomWire.decodeClient(Data(text.utf8))
        } catch {
            reply(.error(.init(code: "bad_message", message: error.message)))
            return
        }
        await handle(message, at: instant)
    }

    /// Called about every second: the hello deadline, heartbeat pings, and dead connections.
    public func heartbeat() async {
        let instant = rooms.now()
        enum Step { case nothing, ping(Int), noHello, dead }
        let step: Step = state.withLock { state in
            if state.closed { return .nothing }
            if state.player == nil && !state.isScreen {
                return instant - openedAt >= rooms.limits.helloTimeout ? .noHello : .nothing
            }
            if state.guardian.isDead(at: instant) { return .dead }
            guard state.guardian.needsPing(at: instant),
                  state.lastPingAt.map({ instant - $0 >= RoomConnectionGuard.heartbeatInterval }) ?? true
            else { return .nothing }
            let serverTime = RoomWire.milliseconds(instant)
            state.lastPingAt = instant
            state.pendingPings[serverTime] = instant
            return .ping(serverTime)
        }
        switch step {
        case .nothing: break
        case .ping(let serverTime): reply(.ping(.init(serverTime: serverTime)))
        case .noHello: close(.noHello)
        case .dead: await cutOff(.dead)
        }
    }

    /// Has the room beat this connection's heartbeat every `RoomHeartbeats.interval` until it is closed.
    public func beginHeartbeats() { live.heartbeats.add(self) }

    /// The socket ended (either side closed it, or it broke): the seat is held for a resume.
    public func closed() async {
        state.withLock { $0.closed = true }
        live.heartbeats.remove(self)
        await dropFromRoom()
    }

    // MARK: - Sending (under the room's lock)

    /// Whether the connection was cut off for not reading: the transport then skips the texts still queued and goes
    /// straight to the close.
    public var isTooSlow: Bool { state.withLock { $0.tooSlow } }

    /// The transport wrote one text to the socket.
    public func written() {
        state.withLock { $0.queued = max(0, $0.queued - 1) }
    }

    func send(_ text: String) {
        enum Outcome { case send, drop, overflow }
        let outcome: Outcome = state.withLock { state in
            if state.closed { return .drop }
            state.queued += 1
            guard state.queued <= rooms.limits.maxQueuedMessages else {
                state.tooSlow = true
                return .overflow
            }
            return .send
        }
        switch outcome {
        case .send: outbox(.text(text))
        case .drop: break
        // Called under the room's lock, so the room is told of the drop when the transport reports the socket closed.
        case .overflow: close(.tooSlow)
        }
    }

    func close(_ reason: RoomWire.CloseReason) {
        let wasOpen = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        if wasOpen { outbox(.close(reason)) }
    }

    // MARK: - Inside

    private func reply(_ message: RoomWire.ServerMessage) { send(RoomWire.encode(message)) }

    /// Closes for a broken limit and tells the room the player dropped: the room goes on and keeps the seat.
    private func cutOff(_ reason: RoomWire.CloseReason) async {
        close(reason)
        await dropFromRoom()
    }

    /// Drops the player if this connection is still their seat's (not one replaced by a resume elsewhere).
    private func dropFromRoom() async {
        if state.withLock({ $0.isScreen }) {
            live.state.withLock { state in state.screens.removeAll { $0 === self } }
            return
        }
        guard let player = state.withLock({ $0.player }) else { return }
        try? await live.command { state, instant throws(RoomError) in
            guard state.connections[player] === self else { return [] }
            state.connections[player] = nil
            return try state.room.drop(player, at: instant)
        }
    }

    private func handle(_ message: RoomWire.ClientMessage, at instant: Duration) async {
        let (player, isScreen) = state.withLock { ($0.player, $0.isScreen) }
        switch message {
        case .ping(let clientTime):
            reply(.pong(.init(clientTime: clientTime, serverTime: RoomWire.milliseconds(instant))))
            return
        case .pong(let serverTime):
            state.withLock { state in
                guard let sentAt = state.pendingPings.removeValue(forKey: serverTime) else { return }
                state.latencies.append((instant - sentAt) / 2)
                if state.latencies.count > Self.latencySamples { state.latencies.removeFirst() }
            }
            return
        default:
            break
        }
        if isScreen {
            reply(.error(.init(code: "screen_watches", message: "a big screen watches the room: it sends nothing but pongs")))
            return
        }
        guard let player else {
            switch message {
            case let .join(name, playerToken): await join(name: name, playerToken: playerToken)
            case .resume(let token): await resume(token)
            case .screen(let credential): await openScreen(credential)
            default: close(.noHello)
            }
            return
        }
        do throws(RoomError) {
            switch message {
            case .join, .resume, .screen:
                reply(.error(.init(code: "already_joined", message: "this connection is player \(player.value)'s")))
            case .screenPass:
                try await live.command { state, instant throws(RoomError) in
                    var generator = SystemRandomNumberGenerator()
                    let (pass, expiresInMs) = try state.room.issueScreenPass(by: player, at: instant, using: &generator)
                    reply(.screenPass(.init(pass: pass, expiresInMs: expiresInMs)))
                    return []
                }
            case .loaded(let quiz):
                try await live.command { state, instant throws(RoomError) in try state.room.loaded(player, quiz: quiz, at: instant) }
            case let .guess(quiz, text):
                let allowance = latencyAllowance
                try await live.command { state, instant throws(RoomError) in
                    try state.room.guess(by: player, quiz: quiz, text: text, latencyAllowance: allowance, at: instant)
                }
                ServerCounters.guessJudged(in: "room")
            case .hint(let quiz):
                try await live.command { state, instant throws(RoomError) in try state.room.hint(by: player, quiz: quiz, at: instant) }
            case .start:
                try await live.command { state, instant throws(RoomError) in try state.room.start(by: player, at: instant) }
            case .skip(let quiz):
                try await live.command { state, instant throws(RoomError) in try state.room.skip(by: player, quiz: quiz, at: instant) }
            case .kick(let target):
                try await live.command { state, instant throws(RoomError) in
                    try state.room.kick(by: player, RoomPlayerID(target), at: instant)
                }
            case .passHost(let target):
                try await live.command { state, instant throws(RoomError) in
                    try state.room.passHost(by: player, to: RoomPlayerID(target), at: instant)
                }
            case let .setTeams(count, scoringName):
                guard let scoring = RoomTeams.Scoring(rawValue: scoringName ?? "mean") else {
                    reply(.error(.init(code: "bad_message", message: "teams: scoring is mean or best")))
                    return
                }
                try await live.command { state, instant throws(RoomError) in
                    try state.room.setTeams(by: player, count: count, scoring: scoring, at: instant)
                }
            case .pickTeam(let team):
                try await live.command { state, instant throws(RoomError) in try state.room.pickTeam(player, team: team, at: instant) }
            case let .assignTeam(target, team):
                try await live.command { state, instant throws(RoomError) in
                    try state.room.assignTeam(by: player, RoomPlayerID(target), team: team, at: instant)
                }
            case .leave:
                try await live.command { state, instant throws(RoomError) in
                    state.connections[player] = nil
                    return try state.room.leave(player, at: instant)
                }
                close(.left)
            case .ping, .pong:
                break
            }
        } catch {
            reply(.error(RoomWire.failure(error)))
        }
    }

    /// The player `token` names, or `nil` once the client has been told why not.
    private func authenticated(_ token: String) async -> Player? {
        do {
            return try await Players(environment: rooms.environment).authenticate(PlayerToken(text: token))
        } catch PlayerError.unknownToken {
            reply(.error(.init(code: "unknown_player_token", message: "playerToken: not a token this server gave out")))
        } catch {
            // The store did not answer in time: the token may be good, so nothing says it is not.
            reply(.error(.init(code: "not_ready", message: "the server cannot check your token now; try again in a moment")))
        }
        return nil
    }

    private func join(name: String, playerToken: String?) async {
        var account: Player?
        if let playerToken {
            guard let player = await authenticated(playerToken) else { return }
            account = player
            if account?.banned == true {
                reply(.error(.init(code: "banned", message: "this player is banned from this server by its moderators")))
                return
            }
        }
        do throws(RoomError) {
            try await live.command { state, instant throws(RoomError) in
                // The room is the opener's until they are in: nobody takes the host's seat before them.
                guard state.anyoneJoined || account?.id == live.openedBy else { throw .notHost }
                var generator = SystemRandomNumberGenerator()
                let joined = try state.room.join(name: name, at: instant, using: &generator)
                state.anyoneJoined = true
                state.connections[joined.player] = self
                state.accounts[joined.player] = account?.id
                self.state.withLock { $0.player = joined.player }
                welcome(joined.player, token: joined.token, rules: state.room.rules)
                return joined.messages
            }
            firstPing()
        } catch .notHost {
            reply(.error(.init(code: "host_not_here", message: "the room's opener joins first, with their playerToken")))
        } catch {
            reply(.error(RoomWire.failure(error)))
        }
    }

    private func resume(_ text: String) async {
        guard let token = ResumeToken(text) else {
            reply(.error(RoomWire.failure(.wrongResumeToken)))
            return
        }
        do throws(RoomError) {
            try await live.command { state, instant throws(RoomError) in
                let (player, messages) = try state.room.resume(token: token, at: instant)
                if let previous = state.connections[player], previous !== self { previous.close(.replaced) }
                state.connections[player] = self
                self.state.withLock { $0.player = player }
                welcome(player, token: token, rules: state.room.rules)
                return messages
            }
            firstPing()
        } catch {
            reply(.error(RoomWire.failure(error)))
        }
    }

    /// A big screen says hello: with the host's player token, the host's one-time pass, or its own token from before.
    private func openScreen(_ credential: RoomWire.ScreenCredential) async {
        var account: Int64?
        if case .playerToken(let text) = credential {
            guard let player = await authenticated(text) else { return }
            account = player.id
        }
        do throws(RoomError) {
            try await live.command { state, instant throws(RoomError) in
                var generator = SystemRandomNumberGenerator()
                let token: ResumeToken
                switch credential {
                case .playerToken:
                    guard let host = state.room.host, let account, state.accounts[host] == account else { throw .notHost }
                    token = state.room.addScreen(at: instant, using: &generator)
                case .pass(let pass):
                    token = try state.room.openScreen(pass: pass, at: instant, using: &generator)
                case .token(let text):
                    guard let known = ResumeToken(text), state.room.isScreen(known) else { throw .wrongScreenToken }
                    token = known
                }
                let snapshot = try state.room.screenSnapshot(at: instant)
                live.addScreen(self, in: &state)
                self.state.withLock { $0.isScreen = true }
                reply(.screenWelcome(.init(code: live.code.value, screenToken: token.value)))
                let wire = RoomWire.ServerMessage.snapshot(RoomWire.snapshot(snapshot))
                reply(state.room.rules.isLarge ? RoomWire.forLargeRoom(wire, player: nil) : wire)
                return []
            }
            // The screen's token in the checkpoint at once: the screen follows the room to another instance even if
            // this one dies before the room's next change.
            await live.saveCheckpoint()
            firstPing()
        } catch .notHost {
            reply(.error(.init(code: "not_host", message: "playerToken: a big screen opens with the host's token, or the pass the host's page shows")))
        } catch {
            reply(.error(RoomWire.failure(error)))
        }
    }

    private func welcome(_ player: RoomPlayerID, token: ResumeToken, rules: RoomRules) {
        reply(.welcome(.init(
            code: live.code.value, player: player.value, resumeToken: token.value,
            seatHoldMs: RoomWire.milliseconds(rules.seatHold))))
    }

    /// A first latency sample right after the hello, so a guess soon after joining already has one.
    private func firstPing() {
        let instant = rooms.now()
        let serverTime = RoomWire.milliseconds(instant)
        state.withLock { state in
            state.lastPingAt = instant
            state.pendingPings[serverTime] = instant
        }
        reply(.ping(.init(serverTime: serverTime)))
    }
}
