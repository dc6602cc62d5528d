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
            let shared = RoomWire.encode(RoomWire.forLargeRoom(whole, player: nil))
            for screen in state.screens { screen.send(shared) }
            for (player, connection) in state.connections {
                connection.send(RoomWire.encode(RoomWire.forLargeRoom(whole, player: player.value)))
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

    /// `message` as a large room sends it to `player` (`nil`: a big screen).
    static func forLargeRoom(_ message: ServerMessage, player: Int?) -> ServerMessage {
        switch message {
        case .lobby(let lobby): return .lobby(latestNames(of: lobby))
        case .quizEnded(var ended):
            ended.scoreboard = firstLines(of: ended.scoreboard, andOf: player, \.player)
            return .quizEnded(ended)
        case .podium(var podium):
            podium.places = firstLines(of: podium.places, andOf: player, \.player)
            return .podium(podium)
        case .snapshot(var snapshot):
            snapshot.lobby = latestNames(of: snapshot.lobby)
            snapshot.scoreboard = firstLines(of: snapshot.scoreboard, andOf: player, \.player)
            if let board = snapshot.lastQuiz?.scoreboard {
                snapshot.lastQuiz?.scoreboard = firstLines(of: board, andOf: player, \.player)
            }
            if let places = snapshot.podium?.places { snapshot.podium?.places = firstLines(of: places, andOf: player, \.player) }
            return .snapshot(snapshot)
        default:
            return message
        }
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

    /// The first `largeRoomBoardLines` of `lines`, then `player`'s own line when it is not among them.
    static func firstLines<Line>(of lines: [Line], andOf player: Int?, _ id: KeyPath<Line, Int>) -> [Line] {
        var first = Array(lines.prefix(largeRoomBoardLines))
        if let player, !first.contains(where: { $0[keyPath: id] == player }), let own = lines.first(where: { $0[keyPath: id] == player }) {
            first.append(own)
        }
        return first
    }
}
