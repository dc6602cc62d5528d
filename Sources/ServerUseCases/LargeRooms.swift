import QuizCore
import UQuizWire

/// What a large room (`RoomRules.isLarge`: more seats than `RoomRules.maxPlayers`) tells whom. Its lobby goes out at
/// most once a `LiveRoom.lobbyInterval`, with the latest names only (`RoomWire.largeRoomLobbyNames`) and the count;
/// who solved a quiz goes to the big screens and the solver, not to every phone; a board (a quiz's end, the podium, a
/// snapshot) and a quiz's list of solvers carry their first lines (`RoomWire.largeRoomBoardLines`) and, for each
/// player, their own. So what one join or one quiz's end sends grows with the room, not with its square.
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
            guard let board = RoomWire.LargeRoomBoard(wire()) else { return false }
            for screen in state.screens { screen.send(board.shared) }
            for (player, connection) in state.connections { connection.send(board.text(for: player.value)) }
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
