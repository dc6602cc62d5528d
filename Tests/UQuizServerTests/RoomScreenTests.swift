import Foundation
import QuizCore
import ServerUseCases
import Testing
import UQuizWire

/// A room's big screen in process: opened with the host's token or pass only, told counts and never a guess, and
/// back with its own token after a lost connection.
@Suite("Big screens in process")
struct RoomScreenConnectionTests {
    func screenWelcome(_ outbox: RecordingOutbox) -> RoomWire.ScreenWelcome? {
        outbox.messages.lazy.compactMap { if case .screenWelcome(let welcome) = $0 { welcome } else { nil } }.first
    }

    @Test func onlyTheHostsTokenOrPassOpensAScreen() async throws {
        let bench = try await RoomBench()
        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let guest = try await Players(environment: bench.server.environment.sharing).register(name: "Guest")
        _ = try await bench.join("Guest", token: guest.token.text)

        let (stranger, strangerBox) = try bench.connect()
        await stranger.say(.screen(.playerToken(guest.token.text)))
        #expect(strangerBox.errors() == ["not_host"])
        await stranger.say(.screen(.pass("12345678")))
        #expect(strangerBox.errors().last == "wrong_screen_pass", "no pass was given")
        await stranger.say(.screen(.token(String(repeating: "a", count: 32))))
        #expect(strangerBox.errors().last == "wrong_screen_token")

        let (screen, screenBox) = try bench.connect()
        await screen.say(.screen(.playerToken(bench.host.token.text)))
        #expect(screenWelcome(screenBox)?.code == bench.code.value)
        let snapshot = try #require(screenBox.messages.lazy.compactMap { if case .snapshot(let s) = $0 { s } else { nil } }.first)
        #expect(snapshot.you == nil && snapshot.phase == "lobby" && snapshot.lobby.players.map(\.name) == ["Host", "Guest"])
        #expect(screenBox.rawObjects.first { $0["type"] as? String == "snapshot" }?["you"] == nil, "no seat is named")

        await host.say(.screenPass)
        let pass = try #require(hostBox.messages.compactMap { if case .screenPass(let p) = $0 { p } else { nil } }.last)
        #expect(pass.pass.count == 8 && pass.expiresInMs == 600_000)
        let (tv, tvBox) = try bench.connect()
        await tv.say(.screen(.pass(pass.pass)))
        #expect(screenWelcome(tvBox) != nil)
        let (again, againBox) = try bench.connect()
        await again.say(.screen(.pass(pass.pass)))
        #expect(againBox.errors() == ["wrong_screen_pass"], "a pass opens one screen")

        let (_, guestAsks) = try await bench.join("Asker")
        #expect(guestAsks.errors().isEmpty)
        // Players seated, screens beside them: a screen holds no seat.
        #expect(try await bench.rooms.info(code: bench.code.value).players.count == 3)
    }

    @Test func aScreenSeesCountsNeverGuessesAndTheAnswerOnlyAtTheEnd() async throws {
        let bench = try await RoomBench()
        let answer = try bench.server.quiz(silentClassics, 1).title
        let (host, _) = try await bench.join("Host", token: bench.host.token.text)
        let (ben, _) = try await bench.join("Ben")
        let (screen, screenBox) = try bench.connect()
        await screen.say(.screen(.playerToken(bench.host.token.text)))
        await host.say(.start)
        for connection in [host, ben] { await connection.say(.loaded(quiz: 1)) }
        #expect(screenBox.messages.contains { if case .quizStarted(let c) = $0 { c.quiz == 1 } else { false } })
        await bench.advance(.seconds(1))
        await ben.say(.guess(quiz: 1, text: "Not a film at all"))
        await host.say(.guess(quiz: 1, text: answer))
        let progress = screenBox.messages.compactMap { if case .progress(let p) = $0 { p } else { nil } }
        #expect(progress.map(\.answered) == [0, 1, 2] && progress.last?.solved == 1 && progress.last?.players == 2)
        #expect(screenBox.messages.contains { if case .solved(let s) = $0 { s.player == 1 && s.stage == 1 } else { false } })
        #expect(!screenBox.messages.contains { if case .guessJudged = $0 { true } else { false } })
        let everything = screenBox.rawObjects.map { String(describing: $0) }.joined()
        #expect(!everything.contains("Not a film at all") && !everything.contains(answer))

        await screen.say(.guess(quiz: 1, text: answer))
        #expect(screenBox.errors() == ["screen_watches"])
        await host.say(.skip(quiz: 1))
        #expect(screenBox.messages.contains { if case .quizEnded(let e) = $0 { e.answerTitle == answer } else { false } })
    }

    @Test func aScreenComesBackWithItsTokenAndAFifthTakesTheFirstsPlace() async throws {
        let bench = try await RoomBench()
        _ = try await bench.join("Host", token: bench.host.token.text)
        var tokens: [String] = []
        var screens: [(RoomConnection, RecordingOutbox)] = []
        for _ in 1...5 {
            let (screen, box) = try bench.connect()
            await screen.say(.screen(.playerToken(bench.host.token.text)))
            tokens.append(try #require(screenWelcome(box)?.screenToken))
            screens.append((screen, box))
        }
        #expect(screens[0].1.closeReason == .replaced && screens[1].1.closeReason == nil)
        await screens[1].0.closed()
        let (back, backBox) = try bench.connect()
        await back.say(.screen(.token(tokens[1])))
        #expect(screenWelcome(backBox)?.screenToken == tokens[1])
        let (first, firstBox) = try bench.connect()
        await first.say(.screen(.token(tokens[0])))
        #expect(firstBox.errors() == ["wrong_screen_token"], "the fifth screen took the first one's place")
    }
}

/// Teams over the wire: the host's setting, the players' picks, the teams' board at each quiz's end.
@Suite("Room teams in process")
struct RoomTeamConnectionTests {
    @Test func teamsAreSetPickedAndScoredOverTheWire() async throws {
        let bench = try await RoomBench()
        let answer = try bench.server.quiz(silentClassics, 1).title
        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let (ben, benBox) = try await bench.join("Ben")
        await ben.say(.setTeams(count: 2, scoring: "best"))
        #expect(benBox.errors() == ["not_host"])
        await host.say(.setTeams(count: 2, scoring: "median"))
        #expect(hostBox.errors() == ["bad_message"])
        await host.say(.setTeams(count: 2, scoring: nil))
        #expect(lastLobby(benBox)?.teams?.count == 2 && lastLobby(benBox)?.teams?.scoring == "mean")
        await ben.say(.pickTeam(team: 3))
        #expect(benBox.errors().last == "no_such_team")
        await ben.say(.pickTeam(team: 2))
        #expect(lastLobby(hostBox)?.players.map(\.team) == [nil, 2])
        await host.say(.start)
        #expect(lastLobby(hostBox)?.players.map(\.team) == [1, 2], "the host had no team: the smallest is theirs")
        for connection in [host, ben] { await connection.say(.loaded(quiz: 1)) }
        await host.say(.guess(quiz: 1, text: answer))
        await host.say(.skip(quiz: 1))
        let ended = try #require(benBox.messages.compactMap { if case .quizEnded(let e) = $0 { e } else { nil } }.first)
        let board = try #require(ended.teamScoreboard)
        #expect(board.map(\.team) == [1, 2] && board[0].players == [1] && board[1].score == 0)
        #expect(board[0].score == ended.scoreboard.first { $0.player == 1 }?.score)
        let raw = try #require(benBox.rawObjects.last { $0["type"] as? String == "quizEnded" })
        #expect((raw["teamScoreboard"] as? [[String: Any]])?.first?["team"] as? Int == 1)
    }
}
