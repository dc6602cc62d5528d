import PosterGrid
import QuizCore
import Testing

/// Seeded randomness, so codes and resume tokens are the same on every run.
typealias SeededGenerator = AreaLayout.SeededGenerator

/// Titles long enough never to appear by chance inside another event's text, so "the answer was not sent" is a search.
let titles = [
    "Inception", "Parasite", "Casablanca", "Vertigo", "Gladiator", "Interstellar", "Whiplash", "Memento", "Zodiac",
    "Arrival", "Titanic", "Amadeus", "Chinatown", "Goodfellas", "Braveheart", "Unforgiven", "Rashomon", "Metropolis",
    "Nosferatu", "Spotlight", "Moonlight", "Birdman", "Sicario", "Prisoners", "Oppenheimer",
]

func quizzes(_ count: Int = 25) -> [RoomQuiz] {
    (0..<count).map { index in
        RoomQuiz(
            answerTitle: titles[index], answerYear: "\(1990 + index)",
            judge: AnswerJudge(acceptedTitles: [titles[index]], otherMovieTitles: titles.filter { $0 != titles[index] }),
            stageCount: 3 + index % 3)
    }
}

/// 2-second stages and a 20-second limit, as the beginner level; the other timings are the defaults.
let rules = RoomRules(stageDuration: .seconds(2), timeLimit: .seconds(20))

/// A room with the server around it reduced to what tests need: a hand-moved clock and one inbox per player that gets
/// what the server would send to that player's connection.
struct RoomScript {
    var room: Room
    var now: Duration = .seconds(1000)
    var inboxes: [RoomPlayerID: [RoomEvent]] = [:]
    var tokens: [RoomPlayerID: ResumeToken] = [:]
    /// What a big screen would get: every `everyone` message and those for `screens`.
    var screen: [RoomEvent] = []
    var generator = SeededGenerator(seed: 17)

    init(quizCount: Int = 25) throws {
        var codes = SeededGenerator(seed: 1)
        room = try Room(
            code: .random(using: &codes), shareCode: ShareCode("FE7NWW")!, quizzes: quizzes(quizCount), rules: rules,
            openedAt: .seconds(1000))
    }

    /// `everyone` reaches the players seated and connected once the command is done; `player` reaches that player.
    mutating func deliver(_ messages: [RoomMessage]) {
        let connected = room.lobby.players.filter(\.connected).map(\.player)
        for message in messages {
            switch message.to {
            case .everyone:
                for player in connected { inboxes[player, default: []].append(message.event) }
                screen.append(message.event)
            case .player(let player): inboxes[player, default: []].append(message.event)
            case .screens: screen.append(message.event)
            }
        }
    }

    mutating func at(_ instant: Duration) {
        now = instant
        deliver(room.advance(to: instant))
    }

    mutating func wait(_ duration: Duration) { at(now + duration) }

    /// Moves the clock from deadline to deadline until `condition` holds.
    mutating func runUntil(_ condition: (Room.Phase) -> Bool) {
        while !condition(room.phase), let next = room.nextDeadline { at(next) }
    }

    mutating func join(_ name: String) throws -> RoomPlayerID {
        let joined = try room.join(name: name, at: now, using: &generator)
        tokens[joined.player] = joined.token
        deliver(joined.messages)
        return joined.player
    }

    mutating func act(_ command: (inout Room, Duration) throws -> [RoomMessage]) throws {
        deliver(try command(&room, now))
    }

    /// The player's inbox since the last `take`.
    mutating func take(_ player: RoomPlayerID) -> [RoomEvent] {
        defer { inboxes[player] = [] }
        return inboxes[player] ?? []
    }
}

func judgements(_ events: [RoomEvent]) -> [RoomGuessJudgement] {
    events.compactMap { if case let .guessJudged(_, judgement) = $0 { judgement } else { nil } }
}

func summaries(_ events: [RoomEvent]) -> [RoomQuizSummary] {
    events.compactMap { if case let .quizEnded(summary) = $0 { summary } else { nil } }
}

func snapshots(_ events: [RoomEvent]) -> [RoomSnapshot] {
    events.compactMap { if case let .snapshot(snapshot) = $0 { snapshot } else { nil } }
}

func started(_ events: [RoomEvent]) -> [RoomQuizClock] {
    events.compactMap { if case let .quizStarted(clock) = $0 { clock } else { nil } }
}

func isLoading(_ quiz: Int) -> (Room.Phase) -> Bool {
    { if case .loading(quiz, _) = $0 { true } else { false } }
}

func isPlaying(_ phase: Room.Phase) -> Bool {
    if case .playing = phase { true } else { false }
}

@Suite("Room codes")
struct RoomCodeTests {
    @Test func theAlphabetHasNoLookAlikes() {
        #expect(RoomCode.alphabet.count == 30)
        for lookAlike in "0O1IL" { #expect(!RoomCode.alphabet.contains(lookAlike)) }
    }

    @Test(arguments: ["AB2C", "ab2c", "  zz99 ", "X7k3"])
    func codesParseInAnyCase(text: String) {
        #expect(RoomCode(text)?.value == text.filter { !$0.isWhitespace }.uppercased())
    }

    @Test(arguments: ["", "AB2", "AB2CD", "AB0C", "ABOC", "AB1C", "ABIC", "ABLC", "A B2"])
    func wrongLengthsAndLookAlikesAreRefused(text: String) {
        #expect(RoomCode(text) == nil)
    }

    @Test func codesComeFromTheInjectedGenerator() {
        var first = SeededGenerator(seed: 7)
        var second = SeededGenerator(seed: 7)
        let codes = (0..<500).map { _ in RoomCode.random(using: &first) }
        #expect(codes == (0..<500).map { _ in RoomCode.random(using: &second) })
        #expect(codes.allSatisfy { RoomCode($0.value) == $0 })
        #expect(Set(codes).count > 490, "810,000 codes: collisions in 500 draws are rare")
    }
}

@Suite("Live rooms")
struct RoomTests {
    // MARK: - A whole room

    /// 25 quizzes, five players and a sixth who joins late: every rule of the room in one run on the injected clock.
    @Test func aWholeRoomOfTwentyFiveQuizzes() throws {
        let wallClock = ContinuousClock()
        let began = wallClock.now
        var script = try RoomScript()
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        let cleo = try script.join("Cleo")
        let dan = try script.join("Dan")
        let eve = try script.join("Eve")
        #expect(script.room.host == ana, "the first to join hosts")
        #expect(script.room.lobby.players.map(\.name) == ["Ana", "Ben", "Cleo", "Dan", "Eve"])
        guard case .lobbyChanged(let lobbyAsAnaSawIt)? = script.take(ana).last else { Issue.record("no lobby"); return }
        #expect(lobbyAsAnaSawIt.players.count == 5 && lobbyAsAnaSawIt.host == ana)

        try script.act { try $0.start(by: ana, at: $1) }
        var fay: RoomPlayerID?
        var seenByBen: [RoomEvent] = []

        for quiz in 1...25 {
            script.runUntil(isLoading(quiz))
            guard case .loading(_, let loadingSince) = script.room.phase else {
                Issue.record("quiz \(quiz) is not loading: \(script.room.phase)")
                return
            }
            // Everyone who plays it loads the poster; in quiz 2 Dan's poster never arrives and the timeout starts it.
            let loaders = script.room.lobby.players.filter { $0.connected && !(quiz == 2 && $0.player == dan) }
            for player in loaders { try script.act { try $0.loaded(player.player, quiz: quiz, at: $1) } }
            if quiz == 2 {
                #expect(!isPlaying(script.room.phase), "waits for Dan")
                script.at(loadingSince + rules.loadingTimeout)
            }
            #expect(isPlaying(script.room.phase))
            let start = script.now
            #expect(started(script.inboxes[ben] ?? []).last?.serverTime == start)

            // What happens when, from the quiz's start: guesses (dropped once the quiz has ended) and the special events.
            // Ben and Dan are twins (the same guesses at the same instants), so they tie at the end.
            var plan: [(offset: Duration, action: (inout RoomScript) throws -> Void)] = []
            func at(_ offset: Duration, _ action: @escaping (inout RoomScript) throws -> Void) { plan.append((offset, action)) }
            func guess(_ offset: Duration, _ player: RoomPlayerID, _ text: String) {
                at(offset) { script in
                    guard isPlaying(script.room.phase) else { return }
                    try script.act {
                        try $0.guess(by: player, quiz: quiz, text: text, latencyAllowance: .milliseconds(40), at: $1)
                    }
                }
            }
            if quiz <= 5, quiz % 2 == 1 { guess(.seconds(1), ana, titles[quiz - 1]) }
            for twin in [ben, dan] where quiz % 5 != 0 {
                if quiz % 4 == 0 {
                    guess(.seconds(4), twin, titles[quiz])  // another movie of the package
                    guess(.milliseconds(4500), twin, titles[quiz - 1].lowercased())
                } else {
                    guess(.milliseconds(2500), twin, titles[quiz - 1])
                }
            }
            if quiz <= 12, quiz % 2 == 0 { guess(.seconds(6), cleo, titles[quiz - 1]) }
            if let fay, quiz >= 4, quiz % 5 != 0 {
                guess(.milliseconds(1500), fay, String(titles[quiz - 1].reversed()))
                guess(.milliseconds(1600), fay, titles[quiz - 1])
            }

            switch quiz {
            case 1:
                // Cleo asks for the hint: to her alone; it halves her points.
                at(.seconds(5)) { script in
                    try script.act { try $0.hint(by: cleo, quiz: 1, at: $1) }
                    #expect(script.take(cleo).last == .hintShown(quiz: 1, hint: "I________"))
                    try script.act { try $0.guess(by: cleo, quiz: 1, text: "Inceptoin", at: $1) }
                    // Stage 3 of 3 (nothing hidden) at 5 s of 20: (100 + 75) / 2.
                    let halved: RoomGuessJudgement = .accepted(points: 87, stage: 3)
                    #expect(judgements(script.take(cleo)).last == halved)
                }
            case 3:
                // Cleo's connection drops; she is back 4 s later with her token and a full snapshot.
                at(.seconds(1)) { script in
                    try script.act { try $0.drop(cleo, at: $1) }
                    #expect(script.room.lobby.players.first { $0.player == cleo }?.connected == false)
                }
                // Fay joins while quiz 3 runs: she watches it.
                at(.seconds(2)) { script in
                    let joined = try script.join("Fay")
                    fay = joined
                    let welcome = snapshots(script.take(joined)).last
                    #expect(welcome?.standing == .watching)
                    #expect(welcome?.lobby.players.last == RoomLobby.Entry(player: joined, name: "Fay", connected: true, watching: true))
                    let now = script.now
                    #expect(throws: RoomError.watching(quiz: 3)) {
                        try script.room.guess(by: joined, quiz: 3, text: "Casablanca", at: now)
                    }
                }
                at(.seconds(5)) { script in
                    _ = script.take(cleo)
                    let resumed = try script.room.resume(token: script.tokens[cleo]!, at: script.now)
                    #expect(resumed.player == cleo)
                    script.deliver(resumed.messages)
                    let snapshot = snapshots(script.take(cleo)).last
                    #expect(snapshot?.phase == .playing(RoomQuizClock(
                        quiz: 3, stage: 3, stageCount: 5, nextStageInMs: 1000, endsInMs: 15000, serverTime: script.now)))
                    #expect(snapshot?.standing == .playing(hint: nil))
                    #expect(snapshot?.scoreboard.map(\.played) == [2, 2, 2, 2, 2, 0])
                    #expect(snapshot?.lastQuiz?.answerTitle == "Parasite", "the previous answer is known, not this one")
                    #expect(!String(describing: snapshot).contains("Casablanca"))
                }
            case 7:
                // Ben hosts now (Ana left after quiz 5): he skips the quiz after the twins and Fay solved it.
                at(.seconds(3)) { script in
                    try script.act { try $0.skip(by: ben, quiz: 7, at: $1) }
                    #expect(summaries(script.inboxes[eve] ?? []).last?.ending == .skipped)
                }
            case 8:
                at(.seconds(1)) { script in
                    try script.act { try $0.kick(by: ben, eve, at: $1) }
                    #expect(script.take(eve).last == .kicked)
                    let now = script.now
                    #expect(throws: RoomError.notInRoom) { try script.room.guess(by: eve, quiz: 8, text: "Zodiac", at: now) }
                }
            case 12:
                // Cleo drops for good (after solving it): her seat is freed 90 s later, her points stay on the board.
                at(.seconds(7)) { script in try script.act { try $0.drop(cleo, at: $1) } }
            default:
                break
            }

            for (offset, action) in plan.sorted(by: { $0.offset < $1.offset }) {
                script.at(start + offset)
                try action(&script)
            }

            script.runUntil { !isPlaying($0) }
            let events = script.take(ben)
            seenByBen += events
            let summary = summaries(events).last
            #expect(summary?.quiz == quiz)
            #expect(summary?.answerTitle == titles[quiz - 1])
            let beforeTheEnd = events.prefix { if case .quizEnded = $0 { false } else { true } }
            #expect(!String(describing: Array(beforeTheEnd)).contains(titles[quiz - 1]), "quiz \(quiz): answer sent early")

            switch quiz {
            case 1:
                // Ana at stage 1, the twins at stage 2 (2.5 s minus 40 ms allowance), Cleo with a hint; Eve missed.
                #expect(summary?.ending == .timeUp)
                #expect(summary?.solvers.map(\.name) == ["Ana", "Ben", "Dan", "Cleo"])
                #expect(summary?.solvers.map(\.points) == [
                    Scoring.score(stageReached: 1, stageCount: 3, elapsed: .milliseconds(960), timeLimit: .seconds(20), hints: 0),
                    Scoring.score(stageReached: 2, stageCount: 3, elapsed: .milliseconds(2460), timeLimit: .seconds(20), hints: 0),
                    Scoring.score(stageReached: 2, stageCount: 3, elapsed: .milliseconds(2460), timeLimit: .seconds(20), hints: 0),
                    87,
                ])
                #expect(judgements(events) == [.accepted(points: summary!.solvers[1].points, stage: 2)])
            case 3:
                // Fay watched: the stages after she came and the answer reached her, but she had nothing to guess.
                let watched = script.take(fay!)
                #expect(watched.contains { if case .stageRevealed(let clock) = $0 { clock.quiz == 3 && clock.stage == 5 } else { false } })
                #expect(summaries(watched).last?.solvers.contains { $0.name == "Fay" } == false)
                #expect(summaries(watched).last?.answerTitle == "Casablanca")
            case 4:
                #expect(judgements(events) == [.anotherMovie, .accepted(points: summary!.solvers.first { $0.name == "Ben" }!.points, stage: 3)])
            case 5:
                // After quiz 5 the host leaves: the role goes to the longest-present connected player.
                script.at(script.now + .seconds(1))
                try script.act { try $0.leave(ana, at: $1) }
                #expect(script.take(ben).contains(.hostChanged(ben)))
                #expect(script.room.host == ben)
                #expect(throws: RoomError.notInRoom) { try script.room.start(by: ana, at: script.now) }
            case 16:
                #expect(summary?.ending == .everyoneSolved, "Ben, Dan and Fay all solved it (Cleo's seat is free)")
                #expect(summary?.solvers.map(\.name) == ["Fay", "Ben", "Dan"])
            case 15:
                #expect(summary?.ending == .timeUp)
                #expect(summary?.solvers.isEmpty == true)
            default:
                break
            }
        }

        #expect(seenByBen.contains(.lobbyChanged(RoomLobby(players: [
            .init(player: ben, name: "Ben", connected: true, watching: false),
            .init(player: dan, name: "Dan", connected: true, watching: false),
            .init(player: fay!, name: "Fay", connected: true, watching: false),
        ], host: ben))), "Cleo's seat was freed after 90 s")

        guard case .finished = script.room.phase, let podium = script.room.podium else {
            Issue.record("not finished: \(script.room.phase)")
            return
        }
        #expect(seenByBen.last == .podium(podium))
        let places = Dictionary(uniqueKeysWithValues: podium.places.map { ($0.name, $0) })
        #expect(places["Eve"] == nil, "a kicked player is off the board")
        #expect(places["Ben"]!.score == places["Dan"]!.score)
        #expect(places["Ben"]!.rank == places["Dan"]!.rank, "a tie shares the rank")
        #expect(podium.places.map(\.name).firstIndex(of: "Ben")! < podium.places.map(\.name).firstIndex(of: "Dan")!)
        #expect(podium.places.map(\.rank) == podium.places.indices.map { position in
            podium.places.firstIndex { $0.score == podium.places[position].score }! + 1
        })
        #expect(places["Ana"]!.left && places["Cleo"]!.left && !places["Ben"]!.left)
        #expect(places["Fay"]!.results.keys.sorted() == Array(4...25), "Fay played from the quiz after the one she joined")
        #expect(places["Ben"]!.results.count == 25 && places["Ana"]!.results.count == 5)
        #expect(places["Ben"]!.shareLine == ShareLine.text(
            code: ShareCode("FE7NWW")!, results: places["Ben"]!.results.sorted { $0.key < $1.key }.map(\.value)))
        #expect(places["Ben"]!.shareLine?.hasPrefix("UQuiz FE7NWW 20/25 ") == true)
        #expect(places["Fay"]!.shareLine?.hasPrefix("UQuiz FE7NWW 17/22 ") == true)

        // Late-joiner and resumed players see the same podium; the room expires 30 minutes after the end.
        guard case .finished(let end) = script.room.phase else { return }  // checked above
        script.at(end + .seconds(30 * 60) - .milliseconds(1))
        #expect(script.take(dan).last == .podium(podium))
        script.at(end + .seconds(30 * 60))
        #expect(script.take(dan) == [.roomExpired(.ended)])
        #expect(script.room.nextDeadline == nil)
        let took = wallClock.now - began
        print("A room of 25 quizzes played in \(took)")
        #expect(took < .seconds(5))
    }

    // MARK: - Refusals

    /// A refused command throws and leaves the room as it was: same phase, lobby and host, and the same future.
    private func expectRefusal(
        _ error: RoomError, _ script: inout RoomScript, _ command: (inout Room, Duration) throws -> [RoomMessage],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = script.room
        let now = script.now
        #expect(throws: error, sourceLocation: sourceLocation) { _ = try command(&script.room, now) }
        #expect(script.room.phase == before.phase, sourceLocation: sourceLocation)
        #expect(script.room.lobby == before.lobby, sourceLocation: sourceLocation)
        #expect(script.room.scoreboard == before.scoreboard, sourceLocation: sourceLocation)
        #expect(script.room.nextDeadline == before.nextDeadline, sourceLocation: sourceLocation)
        var after = script.room
        var untouched = before
        let later = script.now + .seconds(30)
        #expect(after.advance(to: later) == untouched.advance(to: later), sourceLocation: sourceLocation)
    }

    /// Three players, quiz 1 running since `now`.
    private func runningRoom() throws -> (RoomScript, [RoomPlayerID]) {
        var script = try RoomScript(quizCount: 3)
        let players = try ["Ana", "Ben", "Cleo"].map { try script.join($0) }
        try script.act { try $0.start(by: players[0], at: $1) }
        for player in players { try script.act { try $0.loaded(player, quiz: 1, at: $1) } }
        #expect(script.room.phase == .playing(quiz: 1))
        return (script, players)
    }

    /// A room its opener never joins goes after `unjoinedLifetime` (5 minutes), not the 2 hours of an idle one; a room
    /// someone joined keeps the idle rule.
    @Test func aRoomNobodyJoinsExpiresWithinMinutes() throws {
        var unjoined = try RoomScript(quizCount: 3)
        unjoined.at(.seconds(1000) + .seconds(299))
        #expect(unjoined.room.phase == .lobby)
        unjoined.at(.seconds(1000) + .seconds(300))
        #expect(unjoined.room.phase == .expired(.idle))
        var joined = try RoomScript(quizCount: 3)
        _ = try joined.join("Ana")
        joined.at(.seconds(1000) + .seconds(3600))
        #expect(joined.room.phase == .lobby)
    }

    @Test func commandsOutOfTurnAreRefusedAndChangeNothing() throws {
        var script = try RoomScript(quizCount: 3)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        expectRefusal(.notHost, &script) { try $0.start(by: ben, at: $1) }
        expectRefusal(.quizNotRunning(quiz: 1), &script) { try $0.guess(by: ben, quiz: 1, text: "Inception", at: $1) }
        expectRefusal(.nothingToSkip, &script) { try $0.skip(by: ana, quiz: 1, at: $1) }
        expectRefusal(.invalidTarget, &script) { try $0.kick(by: ana, ana, at: $1) }
        expectRefusal(.invalidTarget, &script) { try $0.passHost(by: ana, to: RoomPlayerID(9), at: $1) }
        expectRefusal(.notHost, &script) { try $0.kick(by: ben, ana, at: $1) }
        expectRefusal(.wrongResumeToken, &script) { try $0.resume(token: ResumeToken(String(repeating: "ab", count: 16))!, at: $1).messages }
        // Any case, and letters of other scripts drawn alike (a Cyrillic "А", a Greek "Α", an Armenian "ո"), make the
        // same name.
        for name in [" ana ", "\u{0410}na", "\u{0391}n\u{03B1}", "Be\u{0578}"] {
            expectRefusal(.nameTaken, &script) { room, now in
                var generator = SeededGenerator(seed: 3)
                return try room.join(name: name, at: now, using: &generator).messages
            }
        }
        // Characters a reader does not see, or that reorder the name around them.
        for name in ["", "   ", String(repeating: "x", count: 25), "Ana\nBen", "Ana\u{202E}neB", "A\u{200B}na", "Bo\u{00AD}b"] {
            expectRefusal(.invalidName, &script) { room, now in
                var generator = SeededGenerator(seed: 3)
                return try room.join(name: name, at: now, using: &generator).messages
            }
        }

        try script.act { try $0.start(by: ana, at: $1) }
        expectRefusal(.alreadyStarted, &script) { try $0.start(by: ana, at: $1) }
        expectRefusal(.quizNotRunning(quiz: 1), &script) { try $0.guess(by: ben, quiz: 1, text: "Inception", at: $1) }
        expectRefusal(.quizNotRunning(quiz: 2), &script) { try $0.loaded(ben, quiz: 2, at: $1) }

        try script.act { try $0.drop(ben, at: $1) }
        expectRefusal(.notConnected, &script) { try $0.loaded(ben, quiz: 1, at: $1) }
        expectRefusal(.notConnected, &script) { try $0.passHost(by: ana, to: ben, at: $1) }
    }

    @Test func guessesOutOfTurnAreRefusedAndChangeNothing() throws {
        var (script, players) = try runningRoom()
        let (ana, ben, cleo) = (players[0], players[1], players[2])
        expectRefusal(.quizNotRunning(quiz: 2), &script) { try $0.guess(by: ben, quiz: 2, text: "Parasite", at: $1) }
        expectRefusal(.guessTooLong(limit: 200), &script) {
            try $0.guess(by: ben, quiz: 1, text: String(repeating: "a", count: 201), at: $1)
        }
        try script.act { try $0.guess(by: ben, quiz: 1, text: "Inception", at: $1) }
        expectRefusal(.alreadyDone(quiz: 1), &script) { try $0.guess(by: ben, quiz: 1, text: "Inception", at: $1) }
        expectRefusal(.alreadyDone(quiz: 1), &script) { try $0.hint(by: ben, quiz: 1, at: $1) }
        expectRefusal(.notHost, &script) { try $0.skip(by: ben, quiz: 1, at: $1) }
        expectRefusal(.quizNotRunning(quiz: 2), &script) { try $0.skip(by: ana, quiz: 2, at: $1) }

        try script.act { try $0.kick(by: ana, cleo, at: $1) }
        #expect(script.take(cleo).last == .kicked)
        expectRefusal(.notInRoom, &script) { try $0.guess(by: cleo, quiz: 1, text: "Inception", at: $1) }
        expectRefusal(.notInRoom, &script) { try $0.leave(cleo, at: $1) }
        let cleoToken = script.tokens[cleo]!
        expectRefusal(.notInRoom, &script) { try $0.resume(token: cleoToken, at: $1).messages }
        #expect(throws: RoomError.notInRoom) { try script.room.snapshot(for: cleo, at: script.now) }
    }

    @Test func aFullRoomAndAFinishedRoomTakeNoOneMore() throws {
        var script = try RoomScript(quizCount: 1)
        let host = try script.join("Player 1")
        for number in 2...RoomRules.maxPlayers { _ = try script.join("Player \(number)") }
        expectRefusal(.roomFull(limit: 50), &script) { room, now in
            var generator = SeededGenerator(seed: 3)
            return try room.join(name: "One too many", at: now, using: &generator).messages
        }
        try script.act { try $0.start(by: host, at: $1) }
        script.runUntil { if case .finished = $0 { true } else { false } }
        expectRefusal(.roomFinished, &script) { room, now in
            var generator = SeededGenerator(seed: 3)
            return try room.join(name: "Latecomer", at: now, using: &generator).messages
        }
    }

    // MARK: - Loading

    @Test func aQuizStartsWhenEveryoneHasLoadedItsPoster() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        script.wait(.seconds(1))
        script.inboxes = [:]
        try script.act { try $0.start(by: ana, at: $1) }
        #expect(script.take(ben) == [.quizLoading(quiz: 1, quizCount: 2, stageCount: 3, startsWithinMs: 10_000, serverTime: script.now)])
        script.wait(.milliseconds(800))
        try script.act { try $0.loaded(ana, quiz: 1, at: $1) }
        #expect(script.take(ben).isEmpty, "Ben has not loaded yet")
        script.wait(.milliseconds(400))
        try script.act { try $0.loaded(ben, quiz: 1, at: $1) }
        #expect(script.take(ben) == [.quizStarted(RoomQuizClock(
            quiz: 1, stage: 1, stageCount: 3, nextStageInMs: 2000, endsInMs: 20_000, serverTime: script.now))])
    }

    @Test func aQuizStartsAtTheLoadingTimeoutWithoutTheSlowPlayer() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        try script.act { try $0.start(by: ana, at: $1) }
        let since = script.now
        try script.act { try $0.loaded(ana, quiz: 1, at: $1) }
        script.at(since + .milliseconds(9999))
        #expect(script.room.phase == .loading(quiz: 1, since: since))
        // The server's timer fires late: the quiz still started at the timeout, and the clock says so.
        script.at(since + .seconds(13))
        #expect(script.take(ben).suffix(3) == [
            .quizLoading(quiz: 1, quizCount: 2, stageCount: 3, startsWithinMs: 10_000, serverTime: since),
            .quizStarted(RoomQuizClock(quiz: 1, stage: 1, stageCount: 3, nextStageInMs: 0, endsInMs: 17_000, serverTime: since + .seconds(13))),
            .stageRevealed(RoomQuizClock(quiz: 1, stage: 2, stageCount: 3, nextStageInMs: 1000, endsInMs: 17_000, serverTime: since + .seconds(13))),
        ])
        try script.act { try $0.guess(by: ben, quiz: 1, text: "Inception", at: $1) }
        #expect(judgements(script.take(ben)) == [.accepted(
            points: Scoring.score(stageReached: 2, stageCount: 3, elapsed: .seconds(3), timeLimit: .seconds(20), hints: 0),
            stage: 2)])
    }

    @Test func aDroppedPlayerIsNotWaitedFor() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        try script.act { try $0.start(by: ana, at: $1) }
        try script.act { try $0.loaded(ana, quiz: 1, at: $1) }
        script.wait(.seconds(2))
        try script.act { try $0.drop(ben, at: $1) }
        #expect(started(script.take(ana)).map(\.serverTime) == [script.now])
    }

    @Test func aPlayerJoiningWhileAQuizLoadsPlaysIt() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        try script.act { try $0.start(by: ana, at: $1) }
        try script.act { try $0.loaded(ana, quiz: 1, at: $1) }
        #expect(script.room.phase == .playing(quiz: 1), "Ana alone is everyone")
        try script.act { try $0.skip(by: ana, quiz: 1, at: $1) }
        script.runUntil(isLoading(2))
        let ben = try script.join("Ben")
        #expect(snapshots(script.take(ben)).last?.standing == .playing(hint: nil))
        try script.act { try $0.loaded(ana, quiz: 2, at: $1) }
        #expect(script.room.phase == .loading(quiz: 2, since: script.now), "Ben is waited for")
        try script.act { try $0.loaded(ben, quiz: 2, at: $1) }
        try script.act { try $0.guess(by: ben, quiz: 2, text: "Parasite", at: $1) }
        script.runUntil { if case .finished = $0 { true } else { false } }
        #expect(summaries(script.take(ana)).last?.solvers.map(\.name) == ["Ben"])
        #expect(script.room.podium?.places.map(\.name) == ["Ben", "Ana"])
    }

    @Test func kickingTheLastSlowPlayerStartsTheQuiz() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        try script.act { try $0.start(by: ana, at: $1) }
        try script.act { try $0.loaded(ana, quiz: 1, at: $1) }
        script.inboxes = [:]
        try script.act { try $0.kick(by: ana, ben, at: $1) }
        #expect(script.take(ben) == [.kicked])
        #expect(started(script.take(ana)).count == 1)
    }

    @Test func aDroppedPlayerKeepsTheQuizOpenUntilTheTimeUp() throws {
        var (script, players) = try runningRoom()
        let start = script.now
        try script.act { try $0.drop(players[2], at: $1) }
        for player in players.prefix(2) {
            try script.act { try $0.guess(by: player, quiz: 1, text: "Inception", at: $1) }
        }
        #expect(script.room.phase == .playing(quiz: 1), "Cleo may still come back and answer")
        script.runUntil { !isPlaying($0) }
        #expect(summaries(script.take(players[0])).last?.ending == .timeUp)
        #expect(script.now == start + .seconds(20))
    }

    // MARK: - Scoring on the server's clock

    /// The points of Ben's guess of quiz 1 received `receivedAfter` its start with the latency allowance `allowance`.
    private func points(receivedAfter: Duration, allowance: Duration) throws -> RoomGuessJudgement? {
        var (script, players) = try runningRoom()
        script.wait(receivedAfter)
        try script.act { try $0.guess(by: players[1], quiz: 1, text: "Inception", latencyAllowance: allowance, at: $1) }
        return judgements(script.take(players[1])).last
    }

    private func expected(stage: Int, elapsed: Duration) -> RoomGuessJudgement {
        .accepted(points: Scoring.score(stageReached: stage, stageCount: 3, elapsed: elapsed, timeLimit: .seconds(20), hints: 0), stage: stage)
    }

    @Test func theLatencyAllowanceIsBoundedAndNeverReachesAnEarlierStage() throws {
        // 9.39 s into 20: the time bonus is 53.05 points, rounded to 53; 100 or 150 ms less makes it 54.
        let onReceipt = try points(receivedAfter: .milliseconds(9390), allowance: .zero)
        #expect(onReceipt == expected(stage: 3, elapsed: .milliseconds(9390)))
        #expect(try points(receivedAfter: .milliseconds(9390), allowance: .milliseconds(100)) == expected(stage: 3, elapsed: .milliseconds(9290)))
        #expect(try points(receivedAfter: .milliseconds(9390), allowance: .seconds(5)) == expected(stage: 3, elapsed: .milliseconds(9240)),
                "a claimed 5 s counts as 150 ms")
        #expect(onReceipt != expected(stage: 3, elapsed: .milliseconds(9240)))
        #expect(try points(receivedAfter: .milliseconds(9390), allowance: .milliseconds(-500)) == onReceipt,
                "a negative allowance adds nothing")
        // 50 ms after stage 2 showed: the allowance stops at the stage's start, still stage 2.
        #expect(try points(receivedAfter: .milliseconds(2050), allowance: .milliseconds(150)) == expected(stage: 2, elapsed: .seconds(2)))
        #expect(RoomRules.maxLatencyAllowance == .milliseconds(150))
    }

    @Test func aGuessReceivedAfterTheTimeUpDoesNotCount() throws {
        var (script, players) = try runningRoom()
        let start = script.now
        script.wait(.milliseconds(20_050))
        #expect(throws: RoomError.quizNotRunning(quiz: 1)) {
            try script.room.guess(by: players[1], quiz: 1, text: "Inception", latencyAllowance: .milliseconds(150), at: script.now)
        }
        #expect(summaries(script.take(players[1])).last?.serverTime == start + .milliseconds(20_050))
    }

    @Test func theSnapshotOfARunningQuizHoldsNoAnswer() throws {
        var (script, players) = try runningRoom()
        try script.act { try $0.hint(by: players[0], quiz: 1, at: $1) }
        script.wait(.milliseconds(4100))
        let snapshot = try script.room.snapshot(for: players[0], at: script.now)
        #expect(snapshot.phase == .playing(RoomQuizClock(quiz: 1, stage: 3, stageCount: 3, nextStageInMs: nil, endsInMs: 15_900, serverTime: script.now)))
        #expect(snapshot.standing == .playing(hint: "I________"))
        #expect(snapshot.lastQuiz == nil)
        #expect(!String(describing: snapshot).contains("Inception"))
        #expect(try script.room.snapshot(for: players[1], at: script.now).standing == .playing(hint: nil), "the hint is Ana's")
        script.wait(.seconds(20))
        let after = try script.room.snapshot(for: players[1], at: script.now)
        #expect(after.lastQuiz?.answerTitle == "Inception" && after.lastQuiz?.answerYear == "1990")
    }

    // MARK: - Seats, hosts and expiry

    @Test func aDroppedSeatIsKeptNinetySecondsThenFreed() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        let cleo = try script.join("Cleo")
        try script.act { try $0.drop(ana, at: $1) }
        let dropped = script.now
        #expect(script.room.host == ana, "a dropped host keeps the role while the seat is held")
        script.at(dropped + .milliseconds(89_999))
        #expect(script.take(ben).last == .lobbyChanged(RoomLobby(players: [
            .init(player: ana, name: "Ana", connected: false, watching: false),
            .init(player: ben, name: "Ben", connected: true, watching: false),
            .init(player: cleo, name: "Cleo", connected: true, watching: false),
        ], host: ana)))
        script.at(dropped + .seconds(90))
        #expect(script.take(ben) == [
            .hostChanged(ben),
            .lobbyChanged(RoomLobby(players: [
                .init(player: ben, name: "Ben", connected: true, watching: false),
                .init(player: cleo, name: "Cleo", connected: true, watching: false),
            ], host: ben)),
        ])
        let anaToken = script.tokens[ana]!
        let now = script.now
        #expect(throws: RoomError.wrongResumeToken, "a freed seat's token is not the room's any more") {
            try script.room.resume(token: anaToken, at: now)
        }
        #expect(throws: RoomError.notInRoom) { try script.room.leave(ana, at: now) }
    }

    @Test func aResumeWithinNinetySecondsKeepsTheSeatAndTheRole() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        _ = try script.join("Ben")
        try script.act { try $0.drop(ana, at: $1) }
        script.wait(.milliseconds(89_999))
        let resumed = try script.room.resume(token: ResumeToken(script.tokens[ana]!.value.uppercased())!, at: script.now)
        #expect(resumed.player == ana)
        script.deliver(resumed.messages)
        #expect(snapshots(script.take(ana)).last?.lobby.host == ana)
        script.wait(.seconds(60))
        #expect(script.room.lobby.players.map(\.connected) == [true, true])
    }

    @Test func aLeavingHostPassesTheRoleToTheLongestPresentConnectedPlayer() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        let cleo = try script.join("Cleo")
        try script.act { try $0.drop(ben, at: $1) }
        try script.act { try $0.leave(ana, at: $1) }
        #expect(script.room.host == cleo, "Ben was here longer but is not connected")
        expectRefusal(.invalidTarget, &script) { try $0.passHost(by: cleo, to: ana, at: $1) }
    }

    @Test func theHostCanPassTheRole() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        try script.act { try $0.passHost(by: ana, to: ben, at: $1) }
        #expect(script.take(ana).suffix(2).first == .hostChanged(ben))
        #expect(throws: RoomError.notHost) { try script.room.start(by: ana, at: script.now) }
        try script.act { try $0.start(by: ben, at: $1) }
    }

    @Test func anIdleRoomExpiresAfterTwoHours() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        let joined = script.now
        script.at(joined + .seconds(3600))
        _ = try script.join("Ben")
        script.at(joined + .seconds(3600 + 7200) - .milliseconds(1))
        #expect(script.take(ana).last != .roomExpired(.idle), "Ben's join was activity")
        script.at(joined + .seconds(3600 + 7200))
        #expect(script.take(ana).last == .roomExpired(.idle))
        #expect(script.room.phase == .expired(.idle))
        #expect(throws: RoomError.roomExpired) { try script.room.start(by: ana, at: script.now) }
    }

    @Test func dropsAreNotActivity() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        script.wait(.seconds(7000))
        try script.act { try $0.drop(ben, at: $1) }
        script.wait(.seconds(200))
        #expect(script.take(ana).last == .roomExpired(.idle))
    }

    @Test func aRoomWhoseLastPlayerLeavesExpires() throws {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        try script.act { try $0.leave(ana, at: $1) }
        #expect(script.room.phase == .expired(.empty))
        #expect(script.room.nextDeadline == nil)
    }

    @Test func aRoomOnNoQuizIsNotOpened() {
        #expect(throws: RoomSetupError.noQuizzes) {
            try Room(code: RoomCode("AB2C")!, shareCode: ShareCode("FE7NWW")!, quizzes: [], rules: rules, openedAt: .zero)
        }
        var bare = quizzes(2)
        bare[1].stageCount = 0
        #expect(throws: RoomSetupError.quizWithoutStages(quiz: 2)) {
            try Room(code: RoomCode("AB2C")!, shareCode: ShareCode("FE7NWW")!, quizzes: bare, rules: rules, openedAt: .zero)
        }
        var backwards = rules
        backwards.interlude = .seconds(-1)
        #expect(throws: RoomSetupError.negativeTiming) {
            try Room(code: RoomCode("AB2C")!, shareCode: ShareCode("FE7NWW")!, quizzes: quizzes(2), rules: backwards, openedAt: .zero)
        }
        var instant = rules
        instant.stageDuration = .zero
        #expect(throws: RoomSetupError.invalidTimings(.stageDurationNotPositive(stage: 1))) {
            try Room(code: RoomCode("AB2C")!, shareCode: ShareCode("FE7NWW")!, quizzes: quizzes(2), rules: instant, openedAt: .zero)
        }
    }

    @Test func tokensComeFromTheInjectedGenerator() throws {
        var first = SeededGenerator(seed: 5)
        var second = SeededGenerator(seed: 5)
        let token = ResumeToken.random(using: &first)
        #expect(token == ResumeToken.random(using: &second))
        #expect(token.value.count == 32 && ResumeToken(token.value) == token)
        #expect(!String(describing: token).contains(token.value), "a token is never printed whole")
        #expect(token.digest == ResumeToken(token.value.uppercased())!.digest)
        #expect(token.digest != ResumeToken.random(using: &first).digest)
        // SHA-256 of the 32 hex digits, as `printf %s TOKEN | sha256sum` prints it.
        #expect(ResumeToken(String(repeating: "ab", count: 16))!.digest
            == "d2f9fa9d99bb30b2b67fc6b0ea2694f345c0961596e0fd82561010b4f7570c2d")
    }
}

@Suite("Room connection limits")
struct RoomConnectionGuardTests {
    @Test func aBurstIsTakenAndAFloodIsCutOff() {
        var connection = RoomConnectionGuard(openedAt: .seconds(10))
        for _ in 0..<RoomConnectionGuard.burst { #expect(connection.receive(bytes: 100, at: .seconds(10)) == .accept) }
        #expect(connection.receive(bytes: 100, at: .seconds(10)) == .cutOff(.flooding))
    }

    @Test func aSteadyFiveMessagesASecondGoOnForever() {
        var connection = RoomConnectionGuard(openedAt: .zero)
        for _ in 0..<RoomConnectionGuard.burst { _ = connection.receive(bytes: 10, at: .zero) }
        var refused = 0
        for tick in 1...10_000 where connection.receive(bytes: 10, at: .milliseconds(200 * tick)) != .accept { refused += 1 }
        #expect(refused == 0)
        #expect(connection.receive(bytes: 10, at: .milliseconds(2_000_000)) == .cutOff(.flooding), "one more at once is too many")
        // Four quiet seconds give the whole burst back, and no more.
        for _ in 0..<RoomConnectionGuard.burst { #expect(connection.receive(bytes: 10, at: .seconds(2004)) == .accept) }
        #expect(connection.receive(bytes: 10, at: .seconds(2004)) == .cutOff(.flooding))
    }

    @Test func aTooLargeMessageIsCutOff() {
        var connection = RoomConnectionGuard(openedAt: .zero)
        #expect(connection.receive(bytes: 4096, at: .zero) == .accept)
        #expect(connection.receive(bytes: 4097, at: .zero) == .cutOff(.messageTooLarge(limit: 4096)))
    }

    @Test func heartbeatsFindADeadConnection() {
        var connection = RoomConnectionGuard(openedAt: .seconds(100))
        #expect(!connection.needsPing(at: .milliseconds(114_999)))
        #expect(connection.needsPing(at: .seconds(115)))
        #expect(!connection.isDead(at: .milliseconds(144_999)))
        connection.heard(at: .seconds(140))
        #expect(!connection.isDead(at: .seconds(180)), "the pong counts")
        #expect(connection.isDead(at: .seconds(185)))
        _ = connection.receive(bytes: 10, at: .seconds(184))
        #expect(!connection.isDead(at: .seconds(185)), "so does any message")
    }
}
