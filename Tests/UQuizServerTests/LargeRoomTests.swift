import Foundation
import QuizCore
import ServerUseCases
import Testing
import UQuizWire

/// A room for an event (more than 50 seats): phones are told counts, the latest names, who solved only when it is
/// them, and the first ten of each board with their own place; the big screen the same without a place of its own.
@Suite("Large rooms in process")
struct LargeRoomTests {
    func lobbies(_ outbox: RecordingOutbox) -> [RoomWire.Lobby] {
        outbox.messages.compactMap { if case .lobby(let lobby) = $0 { lobby } else { nil } }
    }

    @Test func aLargeRoomTellsCountsTheFirstTenAndEachPlayersOwnPlace() async throws {
        let bench = try await RoomBench(limits: RoomLimits(seats: 300, maxQueuedMessages: 100_000))
        let answer = try bench.server.quiz(silentClassics, 1).title
        let (host, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        let (screen, screenBox) = try bench.connect()
        await screen.say(.screen(.playerToken(bench.host.token.text)))
        var players: [(RoomConnection, RecordingOutbox)] = []
        for index in 1...150 { players.append(try await bench.join("Player \(index)")) }
        #expect(players.allSatisfy { welcome($0.1) != nil }, "150 more seats than a small room's 50")

        // 151 joins within the lobby's interval: one lobby message (the first join's), then one for all the rest.
        #expect(lobbies(hostBox).count == 1)
        await bench.advance(.seconds(1))
        #expect(lobbies(hostBox).count == 2)
        let lobby = try #require(lobbies(hostBox).last)
        #expect(lobby.playerCount == 151)
        #expect(lobby.players.count == 101 && lobby.players.first?.name == "Host" && lobby.players.last?.name == "Player 150",
                "the host and the latest 100")
        let newcomer = try #require(players.last?.1.messages.compactMap { if case .snapshot(let s) = $0 { s } else { nil } }.first)
        #expect(newcomer.lobby.players.count <= 101 && newcomer.lobby.playerCount == 151)

        await host.say(.start)
        for connection in [host] + players.map(\.0) { await connection.say(.loaded(quiz: 1)) }
        let (solver, solverBox) = players[119]
        await solver.say(.guess(quiz: 1, text: answer))
        let solvedMessages = { (box: RecordingOutbox) in box.messages.filter { if case .solved = $0 { true } else { false } }.count }
        #expect(solvedMessages(solverBox) == 1 && solvedMessages(screenBox) == 1)
        #expect(solvedMessages(players[0].1) == 0 && solvedMessages(hostBox) == 0, "who solved is not every phone's message")

        // Eleven more solve it: a phone is told the first ten solvers, its own line and how many solved in all.
        await bench.advance(.seconds(1))
        for (connection, _) in players[100...110] { await connection.say(.guess(quiz: 1, text: answer)) }
        await host.say(.skip(quiz: 1))
        func ended(_ box: RecordingOutbox) throws -> RoomWire.QuizEnded {
            try #require(box.messages.compactMap { if case .quizEnded(let e) = $0 { e } else { nil } }.first)
        }
        let solverPlayer = try #require(welcome(solverBox)?.player)
        #expect(try ended(solverBox).scoreboard.first?.player == solverPlayer && ended(solverBox).scoreboard.count == 10)
        let last = try #require(players.last)
        let lastPlayer = try #require(welcome(last.1)?.player)
        let board = try ended(last.1).scoreboard
        #expect(board.count == 11 && board.last?.player == lastPlayer && board.last?.rank == 13, "the first ten, then their own")
        #expect(try ended(screenBox).scoreboard.count == 10)
        #expect(try ended(last.1).solvers.count == 10 && ended(last.1).solverCount == 12)
        #expect(try ended(solverBox).solvers.first?.player == solverPlayer && ended(solverBox).solvers.count == 10)
        let lastSolver = try #require(welcome(players[110].1)?.player)
        let lastSolverSaw = try ended(players[110].1).solvers
        #expect(lastSolverSaw.count == 11 && lastSolverSaw.last?.player == lastSolver, "the first ten solvers, then their own")
        #expect(try ended(screenBox).solvers.count == 10 && ended(screenBox).solverCount == 12)
    }

    @Test func aSmallRoomStillTellsEveryoneEverything() async throws {
        let bench = try await RoomBench()
        let (_, hostBox) = try await bench.join("Host", token: bench.host.token.text)
        for index in 1...3 { _ = try await bench.join("Player \(index)") }
        #expect(lobbies(hostBox).count == 4 && lobbies(hostBox).last?.playerCount == nil)
        for index in 4...49 { _ = try await bench.join("Player \(index)") }
        let (_, refused) = try await bench.join("One too many")
        #expect(refused.errors() == ["room_full"])
    }
}
