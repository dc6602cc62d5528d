import PosterGrid

/// Why a room could not be opened on a package.
public enum RoomSetupError: Error, Equatable, Sendable {
    case noQuizzes
    /// Quiz `quiz` (from 1) has no area to reveal.
    case quizWithoutStages(quiz: Int)
    case invalidTimings(RevealScheduleError)
    case timeLimitNotPositive
    /// A loading timeout, interlude, seat hold or lifetime below zero.
    case negativeTiming
    /// Seats not from 1 to `RoomRules.largestRoom`.
    case invalidSeats
}

/// What `join` gives the new player.
public struct RoomJoin: Sendable {
    public var player: RoomPlayerID
    /// The player keeps it to take their seat back after a lost connection.
    public var token: ResumeToken
    public var messages: [RoomMessage]
}

/// One live room: a package's quizzes played together on the server's clock.
///
/// A pure state machine. Every command carries the server's monotonic instant and returns the messages to send; time
/// passes only through `advance(to:)` (which commands also do first), so a test plays a whole room in milliseconds. No
/// clock is read and no randomness is drawn but from the generator `join` is handed.
///
/// A refused command throws a `RoomError` and leaves the room exactly as it was: it works on a copy that replaces the
/// room only when the command succeeds, so not even the time it brought is kept (the next `advance` brings it again).
///
/// Each quiz is one `QuizRound` per player, all started at the same server instant with the same schedule, beside one
/// shared `RevealSchedule` that announces the stages and the time-up to everyone (watchers included). Per-player rounds
/// rather than one shared round with per-player judge state: a player's stage reached, time, hint and score then come
/// from exactly the code solo play uses (`QuizRound`, `Scoring.score`, `QuizResult`), so a room and a solo play of the
/// same quiz score the same guess the same, and `ShareLine` takes the results as they are.
public struct Room: Sendable {
    public enum Phase: Sendable, Equatable {
        /// Waiting for the host to start.
        case lobby
        /// Quiz `quiz` waits (since `since`) for every player to load its first poster, or for the timeout.
        case loading(quiz: Int, since: Duration)
        case playing(quiz: Int)
        /// Quiz `after` has ended; its answer and the scoreboard are shown until `until`, then the next quiz loads.
        case interlude(after: Int, until: Duration)
        /// The last quiz ended at `at`; the podium is shown.
        case finished(at: Duration)
        case expired(RoomExpiry)
    }

    enum Departure: String, Sendable, Codable {
        case left
        /// Dropped and not back within `seatHold`.
        case seatExpired
        case kicked
    }

    struct Seat: Sendable {
        let id: RoomPlayerID
        let name: String
        /// `ReadableName.skeleton(name)`, made once: a join compares it with every seated player's.
        let nameSkeleton: String
        /// `ResumeToken.digest` of the seat's token.
        let tokenDigest: String
        /// Set while the connection is lost; the seat is freed `seatHold` later.
        var droppedAt: Duration?
        /// Set once the player is gone for good. The seat stays in the list while it matters: the points of a player who
        /// left after playing stay on the board, and a kicked player's token keeps being refused as theirs.
        var departure: Departure?
        /// The first quiz (from 1) this player plays: a player who joins while a quiz runs watches it.
        var firstQuiz: Int
        var loadedQuiz: Int?
        /// The running quiz, for a player who plays it.
        var round: QuizRound?
        /// Guessed at least once in the running quiz (right or wrong): what a big screen counts, never what was typed.
        var answered = false
        var results: [Int: QuizResult] = [:]
        /// Their team, when the room plays in teams.
        var team: Int?

        var isSeated: Bool { departure == nil }
        var isConnected: Bool { departure == nil && droppedAt == nil }
    }

    /// Things that happen when their instant comes, in `advance`.
    enum Timer {
        case loadingTimeout
        case nextStage
        case timeUp
        case interludeEnd
        case seatExpiry(index: Int)
        case expiry(RoomExpiry)
    }

    public let code: RoomCode
    /// The package's code, for the share lines.
    public let shareCode: ShareCode
    public let quizzes: [RoomQuiz]
    public let rules: RoomRules
    public internal(set) var phase: Phase = .lobby
    public internal(set) var host: RoomPlayerID?
    var seats: [Seat] = []
    /// Players ever seated: the next id. Ids are never reused, so a message about a player who went stays unambiguous.
    var joinCount = 0
    /// When the room was opened, for the expiry of a room nobody joins.
    let openedAt: Duration
    /// The running quiz's shared schedule and the stages announced so far.
    var schedule: RevealSchedule?
    /// Stages of the running quiz announced so far.
    public internal(set) var revealedStages = 0
    var lastSummary: RoomQuizSummary?
    /// How the last ended quiz ended, and when: what rebuilds `lastSummary` from a checkpoint.
    var lastEnding: (quiz: Int, ending: RoomQuizSummary.Ending, at: Duration)?
    /// The last accepted player command, for the idle expiry.
    var lastActivity: Duration
    /// The latest instant the room has been brought to; instants from the past are taken as this one.
    public internal(set) var now: Duration
    /// `ResumeToken.digest` of each big screen's token, oldest first (at most `RoomRules.maxScreens`).
    var screenDigests: [String] = []
    /// The one-time pass the host's page shows for a screen to open with, while it lasts.
    var screenPass: ScreenPass?
    /// Set by the host in the lobby: the room is played in teams.
    public internal(set) var teams: RoomTeams?

    public init(
        code: RoomCode, shareCode: ShareCode, quizzes: [RoomQuiz], rules: RoomRules, openedAt: Duration
    ) throws(RoomSetupError) {
        guard !quizzes.isEmpty else { throw .noQuizzes }
        if let bare = quizzes.firstIndex(where: { $0.stageCount < 1 }) { throw .quizWithoutStages(quiz: bare + 1) }
        guard rules.timeLimit > .zero else { throw .timeLimitNotPositive }
        let waits = [
            rules.loadingTimeout, rules.interlude, rules.seatHold, rules.idleLifetime, rules.endedLifetime, rules.unjoinedLifetime,
        ]
        guard waits.allSatisfy({ $0 >= .zero }) else { throw .negativeTiming }
        guard (1...RoomRules.largestRoom).contains(rules.seats) else { throw .invalidSeats }
        do {
            _ = try RevealSchedule(
                start: openedAt, stageCount: 1, stageDuration: rules.stageDuration, timeLimit: rules.timeLimit)
        } catch {
            throw .invalidTimings(error)
        }
        self.code = code
        self.shareCode = shareCode
        self.quizzes = quizzes
        self.rules = rules
        lastActivity = openedAt
        now = openedAt
        self.openedAt = openedAt
    }

    // MARK: - Reading

    /// Seated players in join order, connected or not, and the host.
    /// The players in their seats now (not those who left).
    public var seatedPlayers: [RoomPlayerID] { seats.filter(\.isSeated).map(\.id) }

    public var lobby: RoomLobby {
        RoomLobby(
            players: seats.filter(\.isSeated).map { seat in
                RoomLobby.Entry(
                    player: seat.id, name: seat.name, connected: seat.isConnected, watching: isWatching(seat), team: seat.team)
            },
            host: host, teams: teams)
    }

    /// The scoreboard of the quizzes that have ended.
    public var scoreboard: [RoomScore] {
        ranked().map { index, rank in
            let seat = seats[index]
            return RoomScore(
                rank: rank, player: seat.id, name: seat.name, score: Self.total(seat.results),
                solved: seat.results.values.filter(\.solved).count, played: seat.results.count, left: !seat.isSeated)
        }
    }

    /// The final results, once the last quiz has ended: what the server stores, per player, for this room.
    public var podium: RoomPodium? {
        switch phase {
        case .finished: makePodium()
        default: nil
        }
    }

    /// The next instant at which `advance` has something to do, for the server's timer; `nil` once expired.
    public var nextDeadline: Duration? { nextTimer()?.at }

    /// Everything `player` may know at `instant`: for a reconnect or a late joiner.
    public func snapshot(for player: RoomPlayerID, at instant: Duration) throws(RoomError) -> RoomSnapshot {
        var advanced = self
        _ = advanced.advance(to: instant)
        guard let index = advanced.seats.firstIndex(where: { $0.id == player && $0.isSeated }) else { throw .notInRoom }
        return advanced.makeSnapshot(for: index)
    }

    // MARK: - Commands

    /// Seats a new player; the first one hosts. Players joining while a quiz runs watch it and play from the next.
    public mutating func join(
        name: String, at instant: Duration, using generator: inout some RandomNumberGenerator
    ) throws(RoomError) -> RoomJoin {
        let (joined, messages) = try performInPlace(at: instant) {
            (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            if case .finished = room.phase { throw .roomFinished }
            let trimmed = ReadableName.normalized(
                String(name.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()))
            guard !trimmed.isEmpty, trimmed.count <= RoomRules.maxNameLength, ReadableName.firstHidden(in: trimmed) == nil
            else { throw .invalidName }
            guard room.seats.count(where: \.isSeated) < room.rules.seats else { throw .roomFull(limit: room.rules.seats) }
            // Names that look alike are one name: "Ada" and "Аda" (a Cyrillic А) cannot both sit in a room.
            let skeleton = ReadableName.skeleton(trimmed)
            guard !room.seats.contains(where: { $0.isSeated && $0.nameSkeleton == skeleton }) else { throw .nameTaken }
            var token = ResumeToken.random(using: &generator)
            var digest = token.digest
            while room.seats.contains(where: { $0.tokenDigest == digest }) {
                token = ResumeToken.random(using: &generator)
                digest = token.digest
            }
            room.joinCount += 1
            let id = RoomPlayerID(room.joinCount)
            room.seats.append(Seat(
                id: id, name: trimmed, nameSkeleton: skeleton, tokenDigest: digest, firstQuiz: room.firstQuizForNewcomer))
            // Once the game is on, a newcomer joins the smallest team (in the lobby they pick one).
            if room.teams != nil, room.phase != .lobby { room.placeInSmallestTeam(room.seats.count - 1) }
            if room.host == nil { room.host = id }
            out.append(RoomMessage(to: .everyone, .lobbyChanged(room.lobby)))
            out.append(RoomMessage(to: .player(id), .snapshot(room.makeSnapshot(for: room.seats.count - 1))))
            return (id, token)
        }
        return RoomJoin(player: joined.0, token: joined.1, messages: messages)
    }

    /// A dropped (or reconnecting) player takes their seat back with their token and gets a full snapshot.
    public mutating func resume(
        token: ResumeToken, at instant: Duration
    ) throws(RoomError) -> (player: RoomPlayerID, messages: [RoomMessage]) {
        try perform(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            let digest = token.digest
            guard let index = room.seats.firstIndex(where: { $0.tokenDigest == digest }) else { throw .wrongResumeToken }
            guard room.seats[index].isSeated else { throw .notInRoom }
            let wasDropped = room.seats[index].droppedAt != nil
            room.seats[index].droppedAt = nil
            if wasDropped { out.append(RoomMessage(to: .everyone, .lobbyChanged(room.lobby))) }
            out.append(RoomMessage(to: .player(room.seats[index].id), .snapshot(room.makeSnapshot(for: index))))
            return room.seats[index].id
        }
    }

    /// The player's connection is lost (closed, or its heartbeats stopped): the seat is kept `seatHold` for a resume.
    /// Not an activity of the player's, so it does not keep the room alive.
    public mutating func drop(_ player: RoomPlayerID, at instant: Duration) throws(RoomError) -> [RoomMessage] {
        try perform(at: instant, isActivity: false) {
            (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            let index = try room.seatedIndex(of: player)
            guard room.seats[index].droppedAt == nil else { return }
            room.seats[index].droppedAt = room.now
            out.append(RoomMessage(to: .everyone, .lobbyChanged(room.lobby)))
            room.startIfEveryoneLoaded(at: room.now, into: &out)
        }.1
    }

    /// The player leaves for good; their points stay on the board. A leaving host passes the role on.
    public mutating func leave(_ player: RoomPlayerID, at instant: Duration) throws(RoomError) -> [RoomMessage] {
        try perform(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            let index = try room.seatedIndex(of: player)
            room.depart(index, .left, at: room.now, into: &out)
        }.1
    }

    /// The player has the first poster of `quiz`; the quiz starts as soon as every connected player of it has.
    public mutating func loaded(_ player: RoomPlayerID, quiz: Int, at instant: Duration) throws(RoomError) -> [RoomMessage] {
        try performInPlace(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            let index = try room.connectedIndex(of: player)
            guard case .loading(let loading, _) = room.phase, loading == quiz else { throw .quizNotRunning(quiz: quiz) }
            room.seats[index].loadedQuiz = quiz
            room.startIfEveryoneLoaded(at: room.now, into: &out)
        }.1
    }

    public mutating func start(by player: RoomPlayerID, at instant: Duration) throws(RoomError) -> [RoomMessage] {
        try perform(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            try room.requireHost(player)
            guard case .lobby = room.phase else { throw .alreadyStarted }
            if room.teams != nil {
                for index in room.seats.indices where room.seats[index].isSeated && room.seats[index].team == nil {
                    room.placeInSmallestTeam(index)
                }
                out.append(RoomMessage(to: .everyone, .lobbyChanged(room.lobby)))
            }
            room.beginLoading(1, at: room.now, into: &out)
        }.1
    }

    /// Ends the running quiz `quiz` for everyone, unsolved guesses scoring 0. The quiz number guards against a double
    /// click skipping the next quiz too.
    public mutating func skip(by player: RoomPlayerID, quiz: Int, at instant: Duration) throws(RoomError) -> [RoomMessage] {
        try perform(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            try room.requireHost(player)
            guard case .playing(let running) = room.phase else { throw .nothingToSkip }
            guard running == quiz else { throw .quizNotRunning(quiz: quiz) }
            room.endQuiz(.skipped, at: room.now, into: &out)
        }.1
    }

    public mutating func kick(
        by player: RoomPlayerID, _ target: RoomPlayerID, at instant: Duration
    ) throws(RoomError) -> [RoomMessage] {
        try perform(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            try room.requireHost(player)
            guard target != player, let index = room.seats.firstIndex(where: { $0.id == target && $0.isSeated })
            else { throw .invalidTarget }
            room.depart(index, .kicked, at: room.now, into: &out)
        }.1
    }

    public mutating func passHost(
        by player: RoomPlayerID, to target: RoomPlayerID, at instant: Duration
    ) throws(RoomError) -> [RoomMessage] {
        try perform(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            try room.requireHost(player)
            guard target != player, let index = room.seats.firstIndex(where: { $0.id == target && $0.isSeated })
            else { throw .invalidTarget }
            guard room.seats[index].isConnected else { throw .notConnected }
            room.host = target
            out.append(RoomMessage(to: .everyone, .hostChanged(target)))
            out.append(RoomMessage(to: .everyone, .lobbyChanged(room.lobby)))
        }.1
    }

    /// Judges `text` against the running quiz `quiz` at the server's receipt `instant`.
    ///
    /// `latencyAllowance` is the one-way latency the server measured on the player's connection (never a time the client
    /// reports). It moves the guess back in time by at most `RoomRules.maxLatencyAllowance`, and never before the start
    /// of the stage revealed when the guess arrived: so it can only add a little time bonus, never an earlier stage's
    /// points, and a guess that arrives after the time-up does not count at all.
    public mutating func guess(
        by player: RoomPlayerID, quiz: Int, text: String, latencyAllowance: Duration = .zero, at instant: Duration
    ) throws(RoomError) -> [RoomMessage] {
        try performInPlace(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            let index = try room.playingIndex(of: player, quiz: quiz)
            guard text.count <= RoomRules.maxGuessLength else { throw .guessTooLong(limit: RoomRules.maxGuessLength) }
            let allowance = min(max(latencyAllowance, .zero), RoomRules.maxLatencyAllowance)
            let seenStageStart = room.schedule!.window(ofStage: room.revealedStages - 1).start ?? room.now
            let judgedAt = max(room.now - allowance, seenStageStart)
            var round = room.seats[index].round!
            var verdict = Verdict.rejected(.tooFar)
            for case let .guessed(_, _, judged, _) in round.guess(text, at: judgedAt) { verdict = judged }
            room.seats[index].round = round
            let wasCounted = room.seats[index].answered
            room.seats[index].answered = true
            let id = room.seats[index].id
            let judgement = RoomGuessJudgement(verdict, result: round.result)
            out.append(RoomMessage(to: .player(id), .guessJudged(quiz: quiz, judgement: judgement)))
            let solved = round.result?.solved == true
            if room.hasScreens && (solved || !wasCounted) {
                out.append(RoomMessage(to: .screens, .progress(room.progress(of: quiz))))
            }
            if let result = round.result, result.solved {
                out.append(RoomMessage(to: .everyone, .solved(quiz: quiz, player: id, stage: result.stageReached)))
                room.endIfEveryoneDone(at: room.now, into: &out)
            }
        }.1
    }

    /// Shows the running quiz's hint to the player; it halves their points for this quiz, as in solo play.
    public mutating func hint(by player: RoomPlayerID, quiz: Int, at instant: Duration) throws(RoomError) -> [RoomMessage] {
        try perform(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            let index = try room.playingIndex(of: player, quiz: quiz)
            _ = room.seats[index].round!.hint(at: room.now)
            let hint = room.quizzes[quiz - 1].hint
            out.append(RoomMessage(to: .player(room.seats[index].id), .hintShown(quiz: quiz, hint: hint)))
        }.1
    }

    /// Brings the room to `instant`: loading timeouts, stages, time-ups, interludes, freed seats and expiry, each at its
    /// own scheduled instant and in order, however late the call.
    public mutating func advance(to instant: Duration) -> [RoomMessage] {
        now = max(now, instant)
        var out: [RoomMessage] = []
        while let (at, timer) = nextTimer(), at <= now { fire(timer, at: at, into: &out) }
        return out
    }

    // MARK: - Inside

    /// `perform` for a command whose body throws only before it changes the room: it runs on the room itself, without
    /// the copy of every seat `perform` makes (a large room's joins, `loaded`s and guesses come by the thousand, and
    /// that copy was most of their cost). When a timer of the room is due by `instant`, it is `perform`, so that
    /// nothing the advance tells is lost to a throw.
    mutating func performInPlace<Value>(
        at instant: Duration, _ body: (inout Room, inout [RoomMessage]) throws(RoomError) -> Value
    ) throws(RoomError) -> (Value, [RoomMessage]) {
        if let due = nextDeadline, due <= max(now, instant) { return try perform(at: instant, body) }
        if case .expired = phase { throw .roomExpired }
        now = max(now, instant)
        var messages: [RoomMessage] = []
        let value = try body(&self, &messages)
        lastActivity = now
        return (value, messages)
    }

    /// Runs a command on a copy brought to `instant`, which replaces the room only if the command succeeds.
    mutating func perform<Value>(
        at instant: Duration, isActivity: Bool = true,
        _ body: (inout Room, inout [RoomMessage]) throws(RoomError) -> Value
    ) throws(RoomError) -> (Value, [RoomMessage]) {
        var next = self
        var messages = next.advance(to: instant)
        if case .expired = next.phase { throw .roomExpired }
        let value = try body(&next, &messages)
        if isActivity { next.lastActivity = next.now }
        self = next
        return (value, messages)
    }

    private func seatedIndex(of player: RoomPlayerID) throws(RoomError) -> Int {
        guard let index = seats.firstIndex(where: { $0.id == player }), seats[index].isSeated else { throw .notInRoom }
        return index
    }

    func connectedIndex(of player: RoomPlayerID) throws(RoomError) -> Int {
        let index = try seatedIndex(of: player)
        guard seats[index].isConnected else { throw .notConnected }
        return index
    }

    /// The seat of a player who may act on the running quiz `quiz` now.
    private func playingIndex(of player: RoomPlayerID, quiz: Int) throws(RoomError) -> Int {
        let index = try connectedIndex(of: player)
        guard case .playing(let running) = phase, running == quiz else { throw .quizNotRunning(quiz: quiz) }
        guard let round = seats[index].round else { throw .watching(quiz: quiz) }
        guard !round.isOver else { throw .alreadyDone(quiz: quiz) }
        return index
    }

    func requireHost(_ player: RoomPlayerID) throws(RoomError) {
        _ = try connectedIndex(of: player)
        guard host == player else { throw .notHost }
    }

    /// The quiz a player joining now plays first.
    private var firstQuizForNewcomer: Int {
        switch phase {
        case .lobby: 1
        case .loading(let quiz, _): quiz
        case .playing(let quiz): quiz + 1
        case .interlude(let after, _): after + 1
        case .finished, .expired: quizzes.count + 1
        }
    }

    private func isWatching(_ seat: Seat) -> Bool {
        if case .playing(let quiz) = phase { return seat.firstQuiz > quiz }
        return false
    }

    private func nextTimer() -> (at: Duration, timer: Timer)? {
        var next: (at: Duration, timer: Timer)?
        func consider(_ at: Duration, _ timer: Timer) {
            if next == nil || at < next!.at { next = (at, timer) }
        }
        switch phase {
        case .expired:
            return nil
        case .lobby:
            break
        case .loading(_, let since):
            consider(since + rules.loadingTimeout, .loadingTimeout)
        case .playing:
            // A stage due at the time limit is announced before the time-up (ties keep the first considered).
            if let schedule, revealedStages < schedule.stageDurations.count,
               let start = schedule.window(ofStage: revealedStages).start {
                consider(start, .nextStage)
            }
            if let deadline = schedule?.deadline { consider(deadline, .timeUp) }
        case .interlude(_, let until):
            consider(until, .interludeEnd)
        case .finished(let end):
            consider(end + rules.endedLifetime, .expiry(.ended))
        }
        for (index, seat) in seats.enumerated() where seat.isSeated {
            if let dropped = seat.droppedAt { consider(dropped + rules.seatHold, .seatExpiry(index: index)) }
        }
        consider(lastActivity + rules.idleLifetime, .expiry(.idle))
        if joinCount == 0 { consider(openedAt + rules.unjoinedLifetime, .expiry(.idle)) }
        return next
    }

    private mutating func fire(_ timer: Timer, at instant: Duration, into out: inout [RoomMessage]) {
        switch timer {
        case .loadingTimeout:
            guard case .loading(let quiz, _) = phase else { return }
            startQuiz(quiz, at: instant, into: &out)
        case .nextStage:
            guard let start = schedule?.window(ofStage: revealedStages).start else { return }
            revealedStages += 1
            for index in seats.indices where seats[index].round != nil { _ = seats[index].round!.advance(to: start) }
            out.append(RoomMessage(to: .everyone, .stageRevealed(quizClock())))
        case .timeUp:
            let deadline = schedule?.deadline ?? instant
            for index in seats.indices where seats[index].round != nil { _ = seats[index].round!.advance(to: deadline) }
            endQuiz(.timeUp, at: deadline, into: &out)
        case .interludeEnd:
            guard case .interlude(let after, _) = phase else { return }
            beginLoading(after + 1, at: instant, into: &out)
        case .seatExpiry(let index):
            depart(index, .seatExpired, at: instant, into: &out)
        case .expiry(let reason):
            expire(reason, into: &out)
        }
    }

    private mutating func beginLoading(_ quiz: Int, at instant: Duration, into out: inout [RoomMessage]) {
        phase = .loading(quiz: quiz, since: instant)
        out.append(RoomMessage(to: .everyone, .quizLoading(
            quiz: quiz, quizCount: quizzes.count, stageCount: quizzes[quiz - 1].stageCount,
            startsWithinMs: Self.milliseconds(instant + rules.loadingTimeout - now), serverTime: now)))
    }

    /// Starts the loading quiz when every connected player of it has loaded its poster. With nobody connected it waits
    /// for the timeout instead, giving dropped players the time to come back.
    private mutating func startIfEveryoneLoaded(at instant: Duration, into out: inout [RoomMessage]) {
        guard case .loading(let quiz, _) = phase else { return }
        // Called on every player's `loaded`: the seats are read in place, not copied.
        var anyWaitedFor = false
        for index in seats.indices where seats[index].isConnected && seats[index].firstQuiz <= quiz {
            guard seats[index].loadedQuiz == quiz else { return }
            anyWaitedFor = true
        }
        guard anyWaitedFor else { return }
        startQuiz(quiz, at: instant, into: &out)
    }

    private mutating func startQuiz(_ quiz: Int, at instant: Duration, into out: inout [RoomMessage]) {
        let spec = quizzes[quiz - 1]
        // The timings and the stage count were checked in `init`, so neither can throw here.
        schedule = try! RevealSchedule(
            start: instant, stageCount: spec.stageCount, stageDuration: rules.stageDuration, timeLimit: rules.timeLimit)
        revealedStages = 1
        for index in seats.indices {
            seats[index].answered = false
            guard seats[index].isSeated && seats[index].firstQuiz <= quiz else { continue }
            var round = makeRound(quiz, start: instant)
            _ = round.advance(to: instant)
            seats[index].round = round
        }
        phase = .playing(quiz: quiz)
        out.append(RoomMessage(to: .everyone, .quizStarted(quizClock())))
        if hasScreens { out.append(RoomMessage(to: .screens, .progress(progress(of: quiz)))) }
    }

    /// A player's round of quiz `quiz` started at `start`, on the room's rules (checked in `init`, so it cannot throw).
    func makeRound(_ quiz: Int, start: Duration) -> QuizRound {
        let spec = quizzes[quiz - 1]
        return try! QuizRound(
            index: quiz, judge: spec.judge, hint: spec.hint, stageCount: spec.stageCount,
            stageDuration: rules.stageDuration, timeLimit: rules.timeLimit, start: start)
    }

    /// Ends the quiz early once every remaining player of it has solved it. A dropped player still holding a seat counts:
    /// they may come back and answer, so the quiz then runs to its time limit.
    private mutating func endIfEveryoneDone(at instant: Duration, into out: inout [RoomMessage]) {
        guard case .playing = phase else { return }
        // Called on every guess: the seats are read in place, not copied (a large room has thousands).
        var anyRound = false
        for index in seats.indices where seats[index].isSeated {
            guard let over = seats[index].round?.isOver else { continue }
            guard over else { return }
            anyRound = true
        }
        guard anyRound else { return }
        endQuiz(.everyoneSolved, at: instant, into: &out)
    }

    private mutating func endQuiz(_ ending: RoomQuizSummary.Ending, at instant: Duration, into out: inout [RoomMessage]) {
        guard case .playing(let quiz) = phase else { return }
        for index in seats.indices {
            guard var round = seats[index].round else { continue }
            if !round.isOver { _ = round.skip(at: instant) }
            seats[index].results[quiz] = round.result
            seats[index].round = nil
        }
        schedule = nil
        revealedStages = 0
        let isLast = quiz == quizzes.count
        if isLast {
            phase = .finished(at: instant)
        } else {
            phase = .interlude(after: quiz, until: instant + rules.interlude)
        }
        lastEnding = (quiz, ending, instant)
        let summary = summary(of: quiz, ending: ending, at: instant)
        lastSummary = summary
        out.append(RoomMessage(to: .everyone, .quizEnded(summary)))
        if isLast { out.append(RoomMessage(to: .everyone, .podium(makePodium()))) }
    }

    /// What everyone is shown when quiz `quiz` has ended (at `instant`): its answer, who solved it, the scoreboard.
    func summary(of quiz: Int, ending: RoomQuizSummary.Ending, at instant: Duration) -> RoomQuizSummary {
        let solvers = seats.filter { $0.departure != .kicked }.compactMap { seat -> RoomQuizSummary.Solver? in
            guard let result = seat.results[quiz], result.solved else { return nil }
            return RoomQuizSummary.Solver(
                player: seat.id, name: seat.name, points: result.score, stage: result.stageReached, seconds: result.seconds)
        }.sorted { ($0.points, -$0.seconds, -$0.player.value) > ($1.points, -$1.seconds, -$1.player.value) }
        let spec = quizzes[quiz - 1]
        return RoomQuizSummary(
            quiz: quiz, quizCount: quizzes.count, answerTitle: spec.answerTitle, answerYear: spec.answerYear,
            ending: ending, solvers: solvers, scoreboard: scoreboard, teamScoreboard: teamScoreboard,
            nextQuizInMs: quiz == quizzes.count ? nil : Self.milliseconds(instant + rules.interlude - now), serverTime: now)
    }

    /// A player goes for good. Their running quiz ends for them as skipped; a host passes the role on to the
    /// longest-present connected player (else the longest-present seated one); the last seat going expires the room.
    private mutating func depart(_ index: Int, _ reason: Departure, at instant: Duration, into out: inout [RoomMessage]) {
        if case .playing(let quiz) = phase, var round = seats[index].round {
            if !round.isOver { _ = round.skip(at: instant) }
            seats[index].results[quiz] = round.result
            seats[index].round = nil
        }
        seats[index].departure = reason
        seats[index].droppedAt = nil
        let id = seats[index].id
        if reason == .kicked { out.append(RoomMessage(to: .player(id), .kicked)) }
        // A player who goes without having played leaves nothing to keep: forgetting the seat bounds the room's memory
        // however many joins and leaves it sees (its token is then simply not the room's any more).
        if reason != .kicked, seats[index].results.isEmpty { seats.remove(at: index) }
        guard seats.contains(where: \.isSeated) else {
            host = nil
            expire(.empty, into: &out)
            return
        }
        if host == id {
            let successor = seats.first(where: \.isConnected) ?? seats.first(where: \.isSeated)
            host = successor?.id
            if let successor { out.append(RoomMessage(to: .everyone, .hostChanged(successor.id))) }
        }
        out.append(RoomMessage(to: .everyone, .lobbyChanged(lobby)))
        startIfEveryoneLoaded(at: instant, into: &out)
        endIfEveryoneDone(at: instant, into: &out)
    }

    private mutating func expire(_ reason: RoomExpiry, into out: inout [RoomMessage]) {
        phase = .expired(reason)
        schedule = nil
        for index in seats.indices { seats[index].round = nil }
        out.append(RoomMessage(to: .everyone, .roomExpired(reason)))
    }

    func quizClock() -> RoomQuizClock {
        guard case .playing(let quiz) = phase, let schedule else { preconditionFailure("no quiz is running") }
        let stageCount = schedule.stageDurations.count
        let nextStart = revealedStages < stageCount ? schedule.window(ofStage: revealedStages).start : nil
        return RoomQuizClock(
            quiz: quiz, stage: revealedStages, stageCount: stageCount,
            nextStageInMs: nextStart.map { Self.milliseconds($0 - now) },
            endsInMs: Self.milliseconds((schedule.deadline ?? now) - now), serverTime: now)
    }

    /// Seats on the board (all but the kicked, and but those who left before playing anything), ranked: equal scores
    /// share a rank (1, 1, 3) and are listed in join order. No tie-break by time: the points already reward speed.
    private func ranked() -> [(index: Int, rank: Int)] {
        let board = seats.indices.filter { index in
            seats[index].departure != .kicked && (seats[index].isSeated || !seats[index].results.isEmpty)
        }
        let ordered = board.sorted { Self.total(seats[$0].results) > Self.total(seats[$1].results) }
        var ranks: [(index: Int, rank: Int)] = []
        for (position, index) in ordered.enumerated() {
            let rank = position > 0 && Self.total(seats[ordered[position - 1]].results) == Self.total(seats[index].results)
                ? ranks[position - 1].rank : position + 1
            ranks.append((index, rank))
        }
        return ranks
    }

    static func total(_ results: [Int: QuizResult]) -> Int { results.values.reduce(0) { $0 + $1.score } }

    private func makePodium() -> RoomPodium {
        RoomPodium(places: ranked().map { index, rank in
            let seat = seats[index]
            let played = seat.results.sorted { $0.key < $1.key }.map(\.value)
            return RoomPodium.Place(
                rank: rank, player: seat.id, name: seat.name, score: Self.total(seat.results), left: !seat.isSeated,
                results: seat.results, shareLine: played.isEmpty ? nil : ShareLine.text(code: shareCode, results: played))
        }, teams: teamScoreboard)
    }

    /// The snapshot of the seat at `index`, or with `index` nil a big screen's: no seat, no standing, and while a quiz
    /// runs how many have answered it.
    func makeSnapshot(for index: Int?) -> RoomSnapshot {
        let seat = index.map { seats[$0] }
        let snapshotPhase: RoomSnapshot.Phase
        var standing: RoomSnapshot.Standing?
        var progress: RoomProgress?
        switch phase {
        case .lobby:
            snapshotPhase = .lobby
        case let .loading(quiz, since):
            snapshotPhase = .loading(
                quiz: quiz, stageCount: quizzes[quiz - 1].stageCount,
                startsWithinMs: Self.milliseconds(since + rules.loadingTimeout - now))
            if let seat { standing = seat.firstQuiz <= quiz ? .playing(hint: nil) : .watching }
        case .playing(let quiz):
            snapshotPhase = .playing(quizClock())
            if let seat {
                if let round = seat.round {
                    standing = round.result.map(RoomSnapshot.Standing.done)
                        ?? .playing(hint: round.hintsUsed > 0 ? round.hintText : nil)
                } else {
                    standing = .watching
                }
            } else {
                progress = self.progress(of: quiz)
            }
        case let .interlude(after, until):
            snapshotPhase = .interlude(after: after, nextQuizInMs: Self.milliseconds(until - now))
        case .finished:
            snapshotPhase = .finished
        case .expired:
            snapshotPhase = .expired
        }
        return RoomSnapshot(
            code: code, you: seat?.id, quizCount: quizzes.count, lobby: lobby, phase: snapshotPhase, standing: standing,
            progress: progress, scoreboard: scoreboard, teamScoreboard: teamScoreboard, lastQuiz: lastSummary, podium: podium, serverTime: now)
    }

    /// Whole milliseconds until `remaining` has passed, rounded up (0 means now), never negative.
    static func milliseconds(_ remaining: Duration) -> Int {
        remaining <= .zero ? 0 : Int((remaining / .milliseconds(1)).rounded(.up))
    }
}
