import Foundation
import PosterArt
import PosterGrid
import QuizCore
import Synchronization
import UQuizStorage
import UQuizWire

/// The bounds of live rooms on one instance.
public struct RoomLimits: Sendable {
    /// Rooms a player may host at once (a finished room no longer counts).
    public var maxHostedRooms: Int
    /// Rooms this instance holds at once.
    public var maxRooms: Int
    /// How long a new connection may take to say `join` or `resume`.
    public var helloTimeout: Duration
    /// Messages queued for one connection and not written yet: past this the client is not reading, and is cut off
    /// rather than have the server hold ever more for it.
    public var maxQueuedMessages: Int
    /// How long a holder's claim on its rooms lasts without being renewed: when an instance dies, another takes its
    /// rooms over at most this long (and one `leaseRenewal`) after its last renewal.
    public var lease: Duration
    /// How often a holder renews its leases and looks for rooms whose lease ended.
    public var leaseRenewal: Duration
    /// The seats of each room this instance opens (`RoomRules.seatLimit`, up to `RoomRules.largestRoom`).
    public var seats: Int
    /// The rules drawn from the package's level, as the room plays them; tests shorten the waits with it.
    public var adjustRules: @Sendable (RoomRules) -> RoomRules

    public init(
        seats: Int = RoomRules.maxPlayers,
        maxHostedRooms: Int = 3, maxRooms: Int = 1_000, helloTimeout: Duration = .seconds(5),
        maxQueuedMessages: Int = 256, lease: Duration = .seconds(3), leaseRenewal: Duration = .seconds(1),
        adjustRules: @escaping @Sendable (RoomRules) -> RoomRules = { $0 }
    ) {
        self.seats = seats
        self.lease = lease
        self.leaseRenewal = leaseRenewal
        self.maxHostedRooms = maxHostedRooms
        self.maxRooms = maxRooms
        self.helloTimeout = helloTimeout
        self.maxQueuedMessages = maxQueuedMessages
        self.adjustRules = adjustRules
    }
}

/// What the transport does for a connection: send a text message, or close with a reason.
public enum RoomOutbound: Sendable, Equatable {
    case text(String)
    case close(RoomWire.CloseReason)
}

/// The live rooms of this server instance: each a `Room` value behind a lock, with its players' connections
/// and one timer that wakes at the room's `nextDeadline`. A room is played in this process's memory; once the instance
/// listens (and so is in the store's room directory), each room's checkpoint is kept in the store at every join, leave
/// and quiz boundary, under a lease this instance renews (`maintainLeases`). An instance that stops hands its rooms
/// over (`handOver`: a last checkpoint, its leases ended, its players told to reconnect), and one that dies lets its
/// leases run out: either way another instance takes each room over from its checkpoint (`adopt`) when a player
/// reconnects to it or its lease sweep finds the room.
///
/// The clock is injected, as for `Plays`: every command is stamped with `now()` when the server received it, and
/// a guess is judged at that instant (less the latency the server measured, bounded by the room): nothing a client
/// says about time is read. With `runsTimers` off (tests on a hand-driven clock) time passes in `advanceRooms()` only.
public final class Rooms: Sendable {
    public let environment: SharingEnvironment
    public let levels: LevelRules
    public let limits: RoomLimits
    let now: @Sendable () -> Duration
    let runsTimers: Bool
    private let rooms = Mutex<[RoomCode: LiveRoom]>([:])
    /// This instance's base URL as other instances reach it, once it listens (`listening(at:)`): until then rooms
    /// are this instance's alone and kept out of the directory.
    private let instance = Mutex<String?>(nil)
    /// Set by `handOver`: this instance opens and takes over no room any more.
    let stoppingFlag = Mutex(false)
    /// Rooms being taken over by this instance: whoever asks for one meanwhile waits for the same takeover.
    let adoptions = Mutex<[RoomCode: Task<Bool, Never>]>([:])
    /// When (on `now`'s clock) this instance's last renewal of its leases that went through began: the directory
    /// surely gives its rooms to it until one lease after. `nil` before the first.
    let leaseRenewedAt = Mutex<Duration?>(nil)
    /// Renewals asked for by rooms that found the lease past: those at the same moment share one.
    let leaseConfirmations = LatestWins()
    let posters: StagePosterCache<String>
    private let preparedPackages = Mutex<[Int64: (task: Task<PreparedPackage, any Error>, at: Duration)]>([:])

    public init(
        environment: SharingEnvironment, levels: LevelRules, limits: RoomLimits = .init(), runsTimers: Bool = true,
        posterCacheBytes: Int = 32 << 20,
        now: @escaping @Sendable () -> Duration
    ) {
        self.environment = environment
        self.levels = levels
        self.limits = limits
        self.runsTimers = runsTimers
        self.now = now
        posters = StagePosterCache(byteLimit: posterCacheBytes)
    }

    // MARK: - Rooms

    /// Opens a room on the package `shareCode` (any case) hosted by `host`, who must then join it first with their token.
    public func open(shareCode: String, host: Player) async throws -> RoomCode {
        guard !isStopping else { throw ServerRoomError.stopping }
        let published = try await Packages(environment: environment).package(shareCode: shareCode)
        let prepared = try await prepared(packageId: published.id)
        guard !prepared.quizzes.isEmpty else { throw ServerRoomError.nothingToPlay }
        var levelRules = RoomRules(levels: levels, level: prepared.package.level)
        levelRules.seatLimit = limits.seats
        let rules = limits.adjustRules(levelRules)
        let instant = now()
        let claimed = try await claimCode(host: host)
        let live: LiveRoom
        let retired: [RoomCode]
        do {
            // The host's rooms on the other instances count too (none without a directory).
            var elsewhere = 0
            if let instance = instance.withLock({ $0 }) {
                elsewhere = try await environment.store().hostedRoomCount(host: host.id, notOn: instance)
            }
            (live, retired) = try place(
                claimed, package: prepared.package, packageId: published.id, quizzes: prepared.quizzes,
                roomQuizzes: prepared.roomQuizzes, rules: rules, host: host, hostedElsewhere: elsewhere, at: instant)
        } catch {
            if let claimed { await release(claimed) }
            throw error
        }
        for code in retired { await release(code) }
        await live.tick()
        await live.saveCheckpoint()
        return live.code
    }

    /// What a room on a package plays: the package, its quizzes with areas and their judges.
    struct PreparedPackage: Sendable {
        let package: QuizPackage
        let quizzes: [Quiz]
        let roomQuizzes: [RoomQuiz]
    }

    /// How long a package prepared for rooms is reused by the rooms opened on it after.
    static let preparedLifetime = Duration.seconds(60)

    /// The package `packageId` prepared for rooms, made once and shared by the rooms opened on it within
    /// `preparedLifetime`, or until it changes (`packageChanged`). The judges (every title and alias of the package's
    /// films) are most of what a room holds, and building them is most of what opening one costs: rooms opened at
    /// once on one package, by a class or by a script, wait for one preparation instead of each making its own.
    func prepared(packageId: Int64) async throws -> PreparedPackage {
        let instant = now()
        let task = preparedPackages.withLock { cache -> Task<PreparedPackage, any Error> in
            if let entry = cache[packageId], instant - entry.at < Self.preparedLifetime { return entry.task }
            cache = cache.filter { instant - $0.value.at < Self.preparedLifetime }
            let environment = environment
            let task = Task {
                let package = try await environment.store().package(id: packageId)
                let quizzes = package.quizzes.filter { !$0.areas.isEmpty }
                let judges = try await Plays.judges(of: quizzes, environment: environment)
                let roomQuizzes = zip(quizzes, judges).map { RoomQuiz(quiz: $0, judge: $1) }
                return PreparedPackage(package: package, quizzes: quizzes, roomQuizzes: roomQuizzes)
            }
            cache[packageId] = (task, instant)
            return task
        }
        do {
            return try await task.value
        } catch {
            // A failure (the store busy) is not kept: the next opening tries again.
            preparedPackages.withLock { cache in if cache[packageId]?.task == task { cache[packageId] = nil } }
            throw error
        }
    }

    /// The package changed or was deleted (on any instance): rooms opened from now on prepare it anew.
    public func packageChanged(_ packageId: Int64) {
        preparedPackages.withLock { _ = $0.removeValue(forKey: packageId) }
    }

    /// Every package may have changed (the change feed lost track).
    public func forgetPreparedPackages() {
        preparedPackages.withLock { $0.removeAll() }
    }

    /// A code no instance on the store holds, recorded as this instance's; `nil` when this instance is in no directory
    /// (not listening yet): the code is then drawn under the rooms' lock.
    private func claimCode(host: Player) async throws -> RoomCode? {
        guard let instance = instance.withLock({ $0 }) else { return nil }
        let directory = try environment.store()
        var generator = SystemRandomNumberGenerator()
        // 810,000 codes: a few tries find a free one unless the directory is nearly full.
        for _ in 0..<20 {
            let code = RoomCode.random(using: &generator)
            let leaseUntil = (now() + limits.lease).wholeMicroseconds
            if try await directory.claimRoomCode(
                code.value, instance: instance, host: host.id, at: environment.now(), leaseUntil: leaseUntil)
            {
                return code
            }
        }
        throw ServerRoomError.full
    }

    /// The new room in this instance's rooms, and the codes of the unjoined rooms it retired to make way.
    private func place(
        _ claimed: RoomCode?, package: QuizPackage, packageId: Int64, quizzes: [Quiz], roomQuizzes: [RoomQuiz],
        rules: RoomRules, host: Player, hostedElsewhere: Int, at instant: Duration
    ) throws -> (LiveRoom, retired: [RoomCode]) {
        try rooms.withLock { rooms throws -> (LiveRoom, retired: [RoomCode]) in
            var retired: [RoomCode] = []
            func retire(_ room: LiveRoom) {
                rooms[room.code] = nil
                room.discard()
                retired.append(room.code)
            }
            let hosted = rooms.values.filter { $0.openedBy == host.id && !$0.isFinished }
            if hosted.count + hostedElsewhere >= limits.maxHostedRooms {
                // A room of theirs nobody has joined yet (not even they) holds nobody's game: the oldest such one makes
                // way, so an opener whose client failed before joining is never locked out for the idle lifetime.
                guard let unjoined = hosted.filter({ !$0.hasJoiners }).min(by: { $0.serial < $1.serial }) else {
                    throw ServerRoomError.tooManyRooms(limit: limits.maxHostedRooms)
                }
                retire(unjoined)
            }
            if rooms.count >= limits.maxRooms {
                // Full: the oldest room nobody has joined makes way. Rooms opened by a script from many addresses and
                // never joined then only replace each other, while a real host's room, joined moments after it opens,
                // stays; only rooms that people are in fill the instance.
                guard let unjoined = rooms.values.filter({ !$0.hasJoiners }).min(by: { $0.serial < $1.serial }) else {
                    throw ServerRoomError.full
                }
                retire(unjoined)
            }
            var generator = SystemRandomNumberGenerator()
            var code = claimed ?? RoomCode.random(using: &generator)
            while rooms[code] != nil { code = RoomCode.random(using: &generator) }
            let room: Room
            do {
                room = try Room(
                    code: code, shareCode: package.shareCode, quizzes: roomQuizzes, rules: rules, openedAt: instant)
            } catch {
                // Only a package the publishing rules would refuse gets here.
                throw ServerRoomError.nothingToPlay
            }
            // Opening order, for "the oldest": instants may tie on a coarse or hand-driven clock.
            let serial = (rooms.values.map(\.serial).max() ?? 0) + 1
            let live = LiveRoom(
                room: room, packageId: packageId, quizzes: quizzes, openedBy: host.id, serial: serial, listed: claimed != nil,
                rooms: self)
            rooms[code] = live
            return (live, retired)
        }
    }

    /// Where a room is: here, on another instance of the store (at its base URL), moving between instances, or
    /// nowhere.
    public enum Whereabouts: Equatable, Sendable {
        case here
        case elsewhere(instance: String)
        /// Its holder's lease has ended and no instance has it yet (this one stops, so it cannot take the room):
        /// asking again in a moment finds it.
        case moving
        case nowhere
    }

    /// Where the room `code` is. A room whose lease has ended is taken over here, from its checkpoint. A code the
    /// directory gives to this very instance but that is not in its memory is nowhere: a room being opened this
    /// instant (claimed, not yet placed), or one that could not be carried on.
    public func whereabouts(code: String) async throws -> Whereabouts {
        guard let code = RoomCode(code) else { return .nowhere }
        if rooms.withLock({ $0[code] }) != nil { return .here }
        let store = try environment.store()
        guard var holder = try await store.roomHolder(code: code.value) else { return .nowhere }
        if holder.leaseEnded(at: now().wholeMicroseconds) {
            if await adopt(code) { return .here }
            guard let after = try await store.roomHolder(code: code.value) else { return .nowhere }
            if after.leaseEnded(at: now().wholeMicroseconds) { return .moving }
            holder = after
        }
        guard holder.instance != instance.withLock({ $0 }) else { return .nowhere }
        return .elsewhere(instance: holder.instance)
    }

    /// This instance listens at `url` (its base URL as the other instances reach it): its rooms go into the store's
    /// directory from now on. Rooms left there under this URL by an earlier run that died are ended, for this or
    /// another instance to take over from their checkpoints.
    public func listening(at url: String) async throws {
        instance.withLock { $0 = url }
        try await environment.store().endRoomLeases(instance: url)
    }

    /// Whether `handOver` has run: this instance stops.
    public var isStopping: Bool { stoppingFlag.withLock { $0 } }

    /// This instance's base URL in the room directory, once it listens.
    var listeningURL: String? { instance.withLock { $0 } }

    /// Who is in the room and what it is doing.
    public func info(code: String) async throws -> RoomWire.RoomInfo {
        let live = try room(code)
        await live.tick()
        return live.info()
    }

    /// The player who took `name` in room `code` (names in a room are compared as `ReadableName` compares them), with
    /// their account when they joined with a token; `nil` when nobody in the room has that name.
    public func taker(of name: String, inRoom code: String) throws -> (name: String, playerId: Int64?)? {
        let live = try room(code)
        return live.state.withLock { state in
            let wanted = ReadableName.skeleton(name)
            guard let player = RoomWire.lobby(state.room.lobby).players.first(where: { ReadableName.skeleton($0.name) == wanted })
            else { return nil }
            return (player.name, state.accounts[RoomPlayerID(player.player)])
        }
    }

    /// How many rooms this instance holds, and how many players are connected to them.
    public var census: (rooms: Int, players: Int) {
        let live = rooms.withLock { Array($0.values) }
        return (live.count, live.reduce(0) { $0 + $1.state.withLock { $0.connections.count } })
    }

    /// Whether a room has this code now: the WebSocket route answers 404 before upgrading otherwise.
    public func exists(code: String) -> Bool { (try? room(code)) != nil }

    /// A new connection to the room `code`; `outbox` is how the transport sends and closes.
    public func connect(code: String, outbox: @escaping @Sendable (RoomOutbound) -> Void) throws -> RoomConnection {
        RoomConnection(live: try room(code), rooms: self, outbox: outbox, openedAt: now())
    }

    /// Brings every room to now: what the timers do, for tests on a hand-driven clock.
    public func advanceRooms() async {
        for live in rooms.withLock({ Array($0.values) }) { await live.tick() }
    }

    /// Rooms on this instance now.
    public var count: Int { rooms.withLock { $0.count } }

    /// The poster of quiz `quiz` of the room as a JPEG: stage `stage`'s areas only, once the server has announced that
    /// stage (stage 1 from the quiz's loading on); the whole poster, with no stage, once the quiz has ended.
    public func poster(code: String, quiz: Int, stage: Int?) async throws -> Data {
        let live = try room(code)
        guard (1...live.quizzes.count).contains(quiz) else {
            throw ServerRoomError.noSuchQuiz(quiz, quizCount: live.quizzes.count)
        }
        let spec = live.quizzes[quiz - 1]
        if let stage, !(1...spec.areas.count).contains(stage) {
            throw ServerRoomError.noSuchStage(stage, stageCount: spec.areas.count)
        }
        await live.tick()
        let announced = live.announcedStage(of: quiz)
        let revealed: [Cell]?
        if announced == LiveRoom.wholePoster && stage == nil {
            revealed = nil
        } else {
            guard let stage, let announced, stage <= announced else { throw ServerRoomError.notRevealed(quiz: quiz, stage: stage) }
            revealed = Array(spec.areas.prefix(stage))
        }
        do {
            return try await QuizPosters(environment: environment).poster(of: spec, revealed: revealed, cache: posters)
        } catch {
            throw ServerRoomError.posterUnavailable
        }
    }

    // MARK: - Inside

    func room(_ code: String) throws -> LiveRoom {
        guard let code = RoomCode(code), let live = rooms.withLock({ $0[code] }) else { throw ServerRoomError.unknownRoom }
        return live
    }

    func remove(_ code: RoomCode) async {
        _ = rooms.withLock { $0.removeValue(forKey: code) }
        await release(code)
    }

    var liveRooms: [LiveRoom] { rooms.withLock { Array($0.values) } }

    func liveRoom(_ code: RoomCode) -> LiveRoom? { rooms.withLock { $0[code] } }

    /// Puts a room taken over from its checkpoint among this instance's rooms (whatever their number: its players are
    /// in it already).
    func place(restored room: Room, record: RoomCheckpointRecord, quizzes: [Quiz]) -> LiveRoom {
        rooms.withLock { rooms in
            let serial = (rooms.values.map(\.serial).max() ?? 0) + 1
            let live = LiveRoom(
                room: room, packageId: record.packageId, quizzes: quizzes, openedBy: record.openedBy, serial: serial,
                listed: true, rooms: self)
            live.state.withLock { state in
                state.accounts = Dictionary(uniqueKeysWithValues: record.accounts.compactMap { key, account in
                    Int(key).map { (RoomPlayerID($0), account) }
                })
                state.anyoneJoined = record.anyoneJoined
                state.resultsStored = record.resultsStored
                state.announced = LiveRoom.announced(in: room)
            }
            rooms[room.code] = live
            return live
        }
    }

    /// Lets a room go that another instance carries on (or will): out of this instance's memory, its timer stopped,
    /// its players told to reconnect. Its directory row is the new holder's, so it is left alone.
    func letGo(_ live: LiveRoom) {
        rooms.withLock { rooms in if rooms[live.code] === live { rooms[live.code] = nil } }
        live.state.withLock { state in
            state.gone = true
            state.timer?.cancel()
            state.timer = nil
            state.closeAll(.moved)
        }
    }

    /// Takes this instance's room `code` out of the directory; a failure is logged (the code stays taken until this
    /// instance restarts).
    func release(_ code: RoomCode) async {
        guard let instance = instance.withLock({ $0 }) else { return }
        do {
            try await environment.store().releaseRoomCode(code.value, instance: instance)
        } catch {
            environment.log("room \(code): could not be taken out of the room directory: \(error)")
        }
    }

    /// Notes in the directory that room `code` has finished: it no longer counts among its host's rooms anywhere.
    func markFinished(_ code: RoomCode) async {
        do {
            try await environment.store().markRoomFinished(code.value)
        } catch {
            environment.log("room \(code): its end could not be noted in the room directory: \(error)")
        }
    }

    /// Notes that the room named a quiz's answer to these players: no play of theirs of the package is ranked after.
    func recordAnswersShown(to playerIds: [Int64], packageId: Int64, code: RoomCode) async {
        do {
            try await environment.store().recordAnswersShown(playerIds: playerIds, packageId: packageId)
        } catch {
            environment.log("room \(code): the players its answers were shown to could not be stored: \(error)")
        }
    }

    /// Stores a finished room's results, if this instance still holds the room (`listed`: in the directory); a failure
    /// is logged, and the room goes on showing its podium.
    func store(_ rows: [RoomResultRow], code: RoomCode, listed: Bool) async {
        do {
            if try await environment.store().insertRoomResults(rows, heldBy: listed ? listeningURL : nil) == false {
                environment.log("room \(code): another server instance holds it now; its results are that one's to keep")
            }
        } catch {
            environment.log("room \(code): its results could not be stored: \(error)")
        }
    }
}

/// One room with its connections. Every change happens under its lock, and the messages it makes are handed to the
/// connections' outboxes under it too, so every player receives the room's messages in the room's order.
final class LiveRoom: Sendable {
    /// The announced stage of an ended quiz: every stage, and the whole poster.
    static let wholePoster = Int.max

    struct State {
        var room: Room
        /// The connection each connected player is on.
        var connections: [RoomPlayerID: RoomConnection] = [:]
        /// The big screens' connections, oldest first.
        var screens: [RoomConnection] = []
        /// Players who joined with their bearer token: their result counts in their stats.
        var accounts: [RoomPlayerID: Int64] = [:]
        var anyoneJoined = false
        /// The highest stage announced per quiz: what the poster route may cut.
        var announced: [Int: Int] = [:]
        var timer: Task<Void, Never>?
        var timerDeadline: Duration?
        var resultsStored = false
        /// Set when this instance hands the room over or loses it to another: nothing changes it here any more.
        var gone = false
        /// Set by `Rooms.handOver`: the last checkpoint is the room as it is.
        var handedOver = false
        /// A large room's lobby changed and everyone has not been told yet (`lobbyInterval`).
        var lobbyPending = false
        var lobbySentAt: Duration?
    }

    /// How often a large room tells its lobby: a thousand joins in a minute are then a few dozen lobby messages, each
    /// to everyone, instead of a thousand.
    static let lobbyInterval = Duration.seconds(1)

    let code: RoomCode
    let packageId: Int64
    let quizzes: [Quiz]
    let openedBy: Int64
    /// Rooms opened earlier on this instance have smaller ones.
    let serial: Int
    /// In the store's room directory, so checkpointed there (rooms opened before the instance listened are not).
    let listed: Bool
    let rooms: Rooms
    let state: Mutex<State>
    let heartbeats = RoomHeartbeats()
    /// Writes the room's checkpoints one at a time, the latest state last.
    let checkpoints = LatestWins()

    init(
        room: Room, packageId: Int64, quizzes: [Quiz], openedBy: Int64, serial: Int, listed: Bool, rooms: Rooms
    ) {
        code = room.code
        self.packageId = packageId
        self.quizzes = quizzes
        self.openedBy = openedBy
        self.serial = serial
        self.listed = listed
        self.rooms = rooms
        state = Mutex(State(room: room))
    }

    var hasJoiners: Bool { state.withLock { $0.anyoneJoined } }

    /// A big screen's connection joins the room's screens; past `RoomRules.maxScreens` the oldest is closed.
    func addScreen(_ connection: RoomConnection, in state: inout State) {
        state.screens.removeAll { $0 === connection || $0.isClosed }
        state.screens.append(connection)
        while state.screens.count > RoomRules.maxScreens { state.screens.removeFirst().close(.replaced) }
    }

    /// Forgets a room nobody joined: its timer stops and any connection still waiting to say hello is closed.
    func discard() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            state.closeAll(.roomGone)
        }
    }

    var isFinished: Bool {
        state.withLock { state in
            switch state.room.phase {
            case .finished, .expired: true
            default: false
            }
        }
    }

    func announcedStage(of quiz: Int) -> Int? { state.withLock { $0.announced[quiz] } }

    func info() -> RoomWire.RoomInfo {
        state.withLock { state in
            let room = state.room
            let phase: String = switch room.phase {
            case .lobby: "lobby"
            case .loading: "loading"
            case .playing: "playing"
            case .interlude: "interlude"
            case .finished: "finished"
            case .expired: "expired"
            }
            let lobby = RoomWire.lobby(room.lobby)
            return RoomWire.RoomInfo(
                code: code.value, shareCode: room.shareCode.value, quizCount: room.quizzes.count, phase: phase,
                players: lobby.players, host: lobby.host)
        }
    }

    /// Brings the room to now, sends what that made and sets the timer for the next deadline.
    func tick() async { await timerFired() }

    struct Aftermath {
        var results: [RoomResultRow]?
        /// The players (accounts) who saw a quiz's answer named.
        var answersShownTo: [Int64] = []
        var expired = false
        /// Something another instance would need to carry the room on happened: who sits in it, or a quiz boundary.
        var changed = false
    }
}

extension LiveRoom {
    /// Runs a room command under the lock: its messages are delivered, the timer re-armed, and any end handled.
    func command(_ body: (inout State, Duration) throws(RoomError) -> [RoomMessage]) async throws(RoomError) {
        guard await rooms.mayActFor(self) else { return }
        let instant = rooms.now()
        var aftermath = Aftermath()
        let result: Result<Void, RoomError> = state.withLock { state in
            // A room handed over: its players are being told to reconnect to its new holder, where they ask again.
            if state.gone { return .success(()) }
            do throws(RoomError) {
                let messages = try body(&state, instant)
                deliver(messages, in: &state, aftermath: &aftermath)
                rearm(&state)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        await finish(aftermath)
        try result.get()
    }

    /// Hands each message to its recipients' connections, in order; notes what the poster route may show, closes a
    /// kicked player's connection, and collects a finished room's results.
    func deliver(_ messages: [RoomMessage], in state: inout State, aftermath: inout Aftermath) {
        let large = state.room.rules.isLarge
        for message in messages {
            switch message.event {
            case .quizLoading(let quiz, _, _, _, _): state.announced[quiz] = max(state.announced[quiz] ?? 0, 1)
            case .quizStarted(let clock), .stageRevealed(let clock):
                state.announced[clock.quiz] = max(state.announced[clock.quiz] ?? 0, clock.stage)
            case .quizEnded(let summary):
                state.announced[summary.quiz] = Self.wholePoster
                aftermath.answersShownTo += state.room.seatedPlayers.compactMap { state.accounts[$0] }
            case .podium(let podium) where !state.resultsStored:
                state.resultsStored = true
                aftermath.results = rows(of: podium, accounts: state.accounts)
            case .roomExpired: aftermath.expired = true
            default: break
            }
            switch message.event {
            case .lobbyChanged, .hostChanged, .quizLoading, .quizStarted, .quizEnded, .podium, .kicked:
                aftermath.changed = true
            default: break
            }
            // The wire form is made only for a message that is sent now (a large room's lobby waits, and so do
            // counts for big screens when none is connected).
            let wire = { RoomWire.message(message.event, code: self.code) }
            if large, deliverToLargeRoom(message, wire, in: &state) { continue }
            if message.to == .screens, state.screens.isEmpty { continue }
            let text = RoomWire.encode(wire())
            switch message.to {
            case .everyone:
                for connection in state.connections.values { connection.send(text) }
                for screen in state.screens { screen.send(text) }
            case .screens:
                for screen in state.screens { screen.send(text) }
            case .player(let id):
                state.connections[id]?.send(text)
                if case .kicked = message.event, let connection = state.connections.removeValue(forKey: id) {
                    connection.close(.kicked)
                }
            }
        }
        if aftermath.expired { state.closeAll(.roomGone) }
        if large, !aftermath.expired { tellLobbyIfDue(in: &state) }
    }

    /// Sets the room's one timer for its next deadline (when timers run): a task that sleeps until then and ticks.
    func rearm(_ state: inout State) {
        guard rooms.runsTimers else { return }
        let lobbyDue = state.lobbyPending ? state.lobbySentAt.map { $0 + Self.lobbyInterval } : nil
        let deadline = [state.room.nextDeadline, lobbyDue].compactMap { $0 }.min()
        guard deadline != state.timerDeadline else { return }
        state.timer?.cancel()
        state.timerDeadline = deadline
        guard let deadline else {
            state.timer = nil
            return
        }
        let wait = deadline - rooms.now()
        state.timer = Task { [weak self] in
            if wait > .zero {
                do { try await Task.sleep(for: wait) } catch { return }
            }
            await self?.timerFired()
        }
    }

    func timerFired() async {
        guard await rooms.mayActFor(self) else { return }
        var aftermath = Aftermath()
        let instant = rooms.now()
        state.withLock { state in
            if state.gone { return }
            // Forgotten so that `rearm` sets a timer again even for the same deadline (a sleep that woke a little early).
            state.timerDeadline = nil
            deliver(state.room.advance(to: instant), in: &state, aftermath: &aftermath)
            rearm(&state)
        }
        await finish(aftermath)
    }

    func finish(_ aftermath: Aftermath) async {
        if aftermath.results != nil, listed { await rooms.markFinished(code) }
        if !aftermath.answersShownTo.isEmpty {
            await rooms.recordAnswersShown(to: Array(Set(aftermath.answersShownTo)), packageId: packageId, code: code)
        }
        if let rows = aftermath.results { await rooms.store(rows, code: code, listed: listed) }
        if aftermath.changed && !aftermath.expired {
            if state.withLock({ $0.room.rules.isLarge }) {
                // A large room changes by the thousand (joins, guesses) and its checkpoint is the whole room: it is
                // written at most once a `lobbyInterval`, and no player's next message waits for it.
                Task { await saveCheckpoint(spacing: Self.lobbyInterval) }
            } else {
                await saveCheckpoint()
            }
        }
        if aftermath.expired {
            await rooms.remove(code)
            state.withLock { state in
                state.timer?.cancel()
                state.timer = nil
            }
        }
    }

    func rows(of podium: RoomPodium, accounts: [RoomPlayerID: Int64]) -> [RoomResultRow] {
        let finishedAt = rooms.environment.now()
        return podium.places.map { place in
            RoomResultRow(
                roomCode: code.value, packageId: packageId, playerId: accounts[place.player], name: place.name,
                rank: place.rank, score: place.score, solved: place.results.values.filter(\.solved).count,
                played: place.results.count, shareLine: place.shareLine, finishedAt: finishedAt)
        }
    }
}

extension LiveRoom.State {
    /// Closes every player's and screen's connection with `reason`.
    mutating func closeAll(_ reason: RoomWire.CloseReason) {
        for connection in connections.values { connection.close(reason) }
        for screen in screens { screen.close(reason) }
        connections.removeAll()
        screens.removeAll()
    }
}

/// Why a live room refuses a request.
public enum ServerRoomError: Error, Equatable {
    /// No room has this code (or it expired).
    case unknownRoom
    /// The player hosts as many rooms as they may.
    case tooManyRooms(limit: Int)
    /// This instance holds as many rooms as it may.
    case full
    /// The package has no quiz with areas.
    case nothingToPlay
    case noSuchQuiz(Int, quizCount: Int)
    case noSuchStage(Int, stageCount: Int)
    /// The server has not announced that stage (or, with `stage` nil, the quiz has not ended).
    case notRevealed(quiz: Int, stage: Int?)
    case posterUnavailable
    /// This instance is stopping: another one opens the room.
    case stopping
}
