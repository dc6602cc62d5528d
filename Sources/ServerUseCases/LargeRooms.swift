import QuizCore
import UQuizWire

/// What a large room (`RoomRules.isLarge`: more seats than `RoomRules.maxPlayers`) tells whom. Its lobby goes out at
/// most once a `LiveRoom.lobbyInterval`, with the latest names only (`RoomWire.largeRoomLobbyNames`) and the count;
/// who solved a quiz goes to the big screens and the solver, not to every phone; a board (a quiz's end, the podium, a
/// snapshot) carries its first lines (`RoomWire.largeRoomBoardLines`) and, for each player, their own. So what one join
/// or one quiz's end sends grows with the room, not with its square.
extension LiveRoom {
    /// Sends `message` (its wire form made by `wire`) as a large room does; `false` for a message sent as in any room.
    func deliverToLargeRoom(
        _ message: RoomMessage, _ wire: () -> RoomWire.ServerMessage, in state: inout State
    ) -> Bool {
        switch (message.event, message.to) {
        case (.lobbyChanged, .everyone):
            state.lobbyPending = true
            return true
        case (.solved(_, let solver, _), .everyone):
            let text = RoomWire.encode(wire())
            for screen in state.screens { screen.send(text) }
            state.connections[solver]?.send(text)
            return true
        case (.quizEnded, .everyone), (.podium, .everyone):
            let whole = wire()
            let lines = RoomWire.OwnLines(of: whole)
            let shared = RoomWire.encode(RoomWire.forLargeRoom(whole, player: nil, lines: lines))
            for screen in state.screens { screen.send(shared) }
            for (player, connection) in state.connections {
                // A player among the first lines of every list gets what the screens get.
                if lines.isAmongTheFirst(player.value) {
                    connection.send(shared)
                } else {
                    connection.send(RoomWire.encode(RoomWire.forLargeRoom(whole, player: player.value, lines: lines)))
                }
            }
            return true
        case (.snapshot, .player(let player)):
            state.connections[player]?.send(RoomWire.encode(RoomWire.forLargeRoom(wire(), player: player.value)))
            return true
        default:
            return false
        }
    }

    /// Tells everyone the lobby when it changed and the last telling is `lobbyInterval` old; otherwise the room's timer
    /// (`rearm`) comes back for it.
    func tellLobbyIfDue(in state: inout State) {
        guard state.lobbyPending else { return }
        let instant = rooms.now()
        if let sent = state.lobbySentAt, instant - sent < Self.lobbyInterval { return }
        state.lobbyPending = false
        state.lobbySentAt = instant
        let text = RoomWire.encode(RoomWire.forLargeRoom(.lobby(RoomWire.lobby(state.room.lobby)), player: nil))
        for connection in state.connections.values { connection.send(text) }
        for screen in state.screens { screen.send(text) }
    }
}

extension RoomWire {
    /// The names a large room's lobby carries: the latest to join (and the host).
    public static let largeRoomLobbyNames = 100
    /// The lines of a board a large room sends: the first ones, and the player's own.
    public static let largeRoomBoardLines = 10

    /// Where each player's own line is in a board's lists (the scoreboard, the solvers, the podium's places), found
    /// once for a message that goes to every player of a large room.
    struct OwnLines {
        var scoreboard: [Int: Int] = [:]
        var solvers: [Int: Int] = [:]
        var places: [Int: Int] = [:]

        init(of message: ServerMessage) {
            func positions(_ players: [Int]) -> [Int: Int] {
                Dictionary(players.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            }
            switch message {
            case .quizEnded(let ended):
                scoreboard = positions(ended.scoreboard.map(\.player))
                solvers = positions(ended.solvers.map(\.player))
            case .podium(let podium):
                places = positions(podium.places.map(\.player))
            case .snapshot(let snapshot):
                scoreboard = positions(snapshot.scoreboard.map(\.player))
                if let podium = snapshot.podium { places = positions(podium.places.map(\.player)) }
            default:
                break
            }
        }

        /// Whether `player`'s lines, where they have any, are among the first `largeRoomBoardLines` of each list.
        func isAmongTheFirst(_ player: Int) -> Bool {
            [scoreboard, solvers, places].allSatisfy { ($0[player] ?? 0) < largeRoomBoardLines }
        }
    }

    /// `message` as a large room sends it to `player` (`nil`: a big screen); `lines` is `OwnLines(of: message)`.
    static func forLargeRoom(_ message: ServerMessage, player: Int?, lines: OwnLines? = nil) -> ServerMessage {
        let lines = lines ?? OwnLines(of: message)
        switch message {
        case .lobby(let lobby): return .lobby(latestNames(of: lobby))
        case .quizEnded(let ended):
            return .quizEnded(firstLines(of: ended, for: player, lines: lines))
        case .podium(var podium):
            podium.places = firstLines(of: podium.places, andOf: player, at: lines.places)
            return .podium(podium)
        case .snapshot(var snapshot):
            snapshot.lobby = latestNames(of: snapshot.lobby)
            snapshot.scoreboard = firstLines(of: snapshot.scoreboard, andOf: player, at: lines.scoreboard)
            snapshot.lastQuiz = snapshot.lastQuiz.map { firstLines(of: $0, for: player, lines: OwnLines(of: .quizEnded($0))) }
            if let places = snapshot.podium?.places {
                snapshot.podium?.places = firstLines(of: places, andOf: player, at: lines.places)
            }
            return .snapshot(snapshot)
        default:
            return message
        }
    }

    private static func firstLines(of ended: QuizEnded, for player: Int?, lines: OwnLines) -> QuizEnded {
        var trimmed = ended
        trimmed.scoreboard = firstLines(of: ended.scoreboard, andOf: player, at: lines.scoreboard)
        trimmed.solvers = firstLines(of: ended.solvers, andOf: player, at: lines.solvers)
        trimmed.solverCount = ended.solvers.count
        return trimmed
    }

    static func latestNames(of lobby: Lobby) -> Lobby {
        var trimmed = lobby
        trimmed.playerCount = lobby.players.count
        guard lobby.players.count > largeRoomLobbyNames else { return trimmed }
        let latest = lobby.players.suffix(largeRoomLobbyNames)
        let host = lobby.players.first { $0.player == lobby.host && !latest.contains($0) }
        trimmed.players = (host.map { [$0] } ?? []) + latest
        return trimmed
    }

    /// The first `largeRoomBoardLines` of `lines`, then `player`'s own line (at `positions[player]`) when it is not
    /// among them.
    static func firstLines<Line>(of lines: [Line], andOf player: Int?, at positions: [Int: Int]) -> [Line] {
        var first = Array(lines.prefix(largeRoomBoardLines))
        if let player, let own = positions[player], own >= largeRoomBoardLines { first.append(lines[own]) }
        return first
    }
}
