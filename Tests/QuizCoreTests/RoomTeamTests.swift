import Foundation
import QuizCore
import Testing

/// Rooms played in teams: set by the host in the lobby, picked by players or given to the smallest team, scored by
/// the mean or the best of each team's players per quiz.
@Suite("Room teams")
struct RoomTeamTests {
    /// Ana hosts; Ben, Cleo and Dan are in; two quizzes.
    func lobby() throws -> (RoomScript, [RoomPlayerID]) {
        var script = try RoomScript(quizCount: 2)
        let players = try ["Ana", "Ben", "Cleo", "Dan"].map { try script.join($0) }
        return (script, players)
    }

    @Test func onlyTheHostSetsTeamsAndOnlyInTheLobby() throws {
        var (script, players) = try lobby()
        let (ana, ben) = (players[0], players[1])
        #expect(throws: RoomError.notHost) { try script.act { try $0.setTeams(by: ben, count: 2, scoring: .mean, at: $1) } }
        #expect(throws: RoomError.invalidTeamCount) { try script.act { try $0.setTeams(by: ana, count: 7, scoring: .mean, at: $1) } }
        #expect(throws: RoomError.invalidTeamCount) { try script.act { try $0.setTeams(by: ana, count: 1, scoring: .mean, at: $1) } }
        #expect(throws: RoomError.noSuchTeam, "no teams yet") { try script.act { try $0.pickTeam(ben, team: 1, at: $1) } }
        try script.act { try $0.setTeams(by: ana, count: 3, scoring: .best, at: $1) }
        guard case .lobbyChanged(let lobby)? = script.take(ben).last else { Issue.record("no lobby"); return }
        #expect(lobby.teams == RoomTeams(count: 3, scoring: .best))
        try script.act { try $0.pickTeam(ben, team: 3, at: $1) }
        #expect(throws: RoomError.noSuchTeam) { try script.act { try $0.pickTeam(ben, team: 4, at: $1) } }
        try script.act { try $0.setTeams(by: ana, count: 2, scoring: .best, at: $1) }
        #expect(script.room.lobby.players.first { $0.player == ben }?.team == nil, "team 3 is gone, and Ben's pick with it")
        try script.act { try $0.start(by: ana, at: $1) }
        #expect(throws: RoomError.teamsOnlyInTheLobby) { try script.act { try $0.pickTeam(ben, team: 1, at: $1) } }
        #expect(throws: RoomError.teamsOnlyInTheLobby) { try script.act { try $0.setTeams(by: ana, count: 0, scoring: .mean, at: $1) } }
    }

    @Test func whoeverHasNoTeamAtTheStartOrJoinsLaterGoesToTheSmallest() throws {
        var (script, players) = try lobby()
        let (ana, ben, cleo, dan) = (players[0], players[1], players[2], players[3])
        try script.act { try $0.setTeams(by: ana, count: 2, scoring: .mean, at: $1) }
        try script.act { try $0.pickTeam(ben, team: 1, at: $1) }
        try script.act { try $0.pickTeam(cleo, team: 1, at: $1) }
        try script.act { try $0.assignTeam(by: ana, dan, team: 1, at: $1) }
        try script.act { try $0.start(by: ana, at: $1) }
        func team(_ player: RoomPlayerID) -> Int? { script.room.lobby.players.first { $0.player == player }?.team }
        #expect(team(ana) == 2, "Ana had none: team 2 had fewest")
        let eve = try script.join("Eve")
        #expect(team(eve) == 2)
        let fay = try script.join("Fay")
        #expect(team(fay) == 2, "3 and 2 before her: team 2 again")
    }

    /// Ana and Ben are team 1, Cleo and Dan team 2. Quiz 1: Ana solves (points a), Ben does not; Cleo and Dan both
    /// solve (c, d). With the mean team 1 has a/2 and team 2 (c+d)/2; with the best, a and max(c, d).
    @Test(arguments: [RoomTeams.Scoring.mean, .best])
    func aTeamsPointsAreTheMeanOrTheBestOfItsPlayers(scoring: RoomTeams.Scoring) throws {
        var (script, players) = try lobby()
        let (ana, ben, cleo, dan) = (players[0], players[1], players[2], players[3])
        try script.act { try $0.setTeams(by: ana, count: 2, scoring: scoring, at: $1) }
        for (player, team) in [(ana, 1), (ben, 1), (cleo, 2), (dan, 2)] { try script.act { try $0.pickTeam(player, team: team, at: $1) } }
        try script.act { try $0.start(by: ana, at: $1) }
        for player in players { try script.act { try $0.loaded(player, quiz: 1, at: $1) } }
        script.wait(.seconds(1))
        try script.act { try $0.guess(by: ana, quiz: 1, text: titles[0], at: $1) }
        script.wait(.seconds(2))
        try script.act { try $0.guess(by: cleo, quiz: 1, text: titles[0], at: $1) }
        script.wait(.seconds(1))
        try script.act { try $0.guess(by: dan, quiz: 1, text: titles[0], at: $1) }
        script.runUntil(isLoading(2))
        let points = Dictionary(uniqueKeysWithValues: script.room.scoreboard.map { ($0.player, $0.score) })
        let (a, c, d) = (points[ana]!, points[cleo]!, points[dan]!)
        #expect(a > c && c > d && points[ben] == 0)
        let board = try #require(script.room.teamScoreboard)
        let expected = scoring == .mean ? [(2, (c + d) / 2), (1, a / 2)] : [(1, a), (2, c)]
        let ordered = expected.sorted { $0.1 > $1.1 }
        #expect(board.map(\.team) == ordered.map(\.0))
        #expect(board.map(\.score) == ordered.map(\.1))
        #expect(board.first { $0.team == 1 }?.players == [ana, ben], "best first")
        guard case .quizEnded(let summary)? = script.screen.last(where: { if case .quizEnded = $0 { true } else { false } })
        else { Issue.record("no summary"); return }
        #expect(summary.teamScoreboard == board)
    }

    @Test func teamsAreCarriedOnWithTheRoom() throws {
        var (script, players) = try lobby()
        try script.act { try $0.setTeams(by: players[0], count: 2, scoring: .best, at: $1) }
        try script.act { try $0.pickTeam(players[1], team: 2, at: $1) }
        let data = try JSONEncoder().encode(try #require(script.room.checkpoint))
        let restored = try Room(
            restoring: JSONDecoder().decode(RoomCheckpoint.self, from: data), quizzes: quizzes(2), at: script.now,
            replayingRunningQuiz: false)
        #expect(restored.teams == RoomTeams(count: 2, scoring: .best))
        #expect(restored.lobby.players.first { $0.player == players[1] }?.team == 2)
    }
}
