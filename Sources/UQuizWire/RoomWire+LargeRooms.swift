/// What a large room's messages carry (`RoomRules.isLarge`): the latest names of its lobby, the first lines of a board
/// and of a quiz's solvers, and each player's own line; `LiveRoom.deliverToLargeRoom` (ServerUseCases) says whom, and
/// `LargeRoomBoard` (RoomWire+Written.swift) writes a board for each of thousands of players.
extension RoomWire {
    /// The names a large room's lobby carries: the latest to join (and the host).
    public static let largeRoomLobbyNames = 100
    /// The lines of a board a large room sends: the first ones, and the player's own.
    public static let largeRoomBoardLines = 10

    /// `message` as a large room sends it to `player` (`nil`: a big screen).
    package static func forLargeRoom(_ message: ServerMessage, player: Int?) -> ServerMessage {
        switch message {
        case .lobby(let lobby): return .lobby(latestNames(of: lobby))
        case .quizEnded(let ended): return .quizEnded(firstLines(of: ended, for: player))
        case .podium(var podium):
            podium.places = firstLines(of: podium.places, andOf: player, \.player)
            return .podium(podium)
        case .snapshot(var snapshot):
            snapshot.lobby = latestNames(of: snapshot.lobby)
            snapshot.scoreboard = firstLines(of: snapshot.scoreboard, andOf: player, \.player)
            snapshot.lastQuiz = snapshot.lastQuiz.map { firstLines(of: $0, for: player) }
            if let places = snapshot.podium?.places {
                snapshot.podium?.places = firstLines(of: places, andOf: player, \.player)
            }
            return .snapshot(snapshot)
        default:
            return message
        }
    }

    private static func firstLines(of ended: QuizEnded, for player: Int?) -> QuizEnded {
        var trimmed = ended
        trimmed.scoreboard = firstLines(of: ended.scoreboard, andOf: player, \.player)
        trimmed.solvers = firstLines(of: ended.solvers, andOf: player, \.player)
        trimmed.solverCount = ended.solvers.count
        return trimmed
    }

    package static func latestNames(of lobby: Lobby) -> Lobby {
        var trimmed = lobby
        trimmed.playerCount = lobby.players.count
        guard lobby.players.count > largeRoomLobbyNames else { return trimmed }
        let latest = lobby.players.suffix(largeRoomLobbyNames)
        let host = lobby.players.first { $0.player == lobby.host && !latest.contains($0) }
        trimmed.players = (host.map { [$0] } ?? []) + latest
        return trimmed
    }

    /// The first `largeRoomBoardLines` of `lines`, then `player`'s own line when it is not among them: for one
    /// message (a snapshot, a big screen's board); a board for each of thousands is `LargeRoomBoard`'s.
    static func firstLines<Line>(of lines: [Line], andOf player: Int?, _ id: KeyPath<Line, Int>) -> [Line] {
        var first = Array(lines.prefix(largeRoomBoardLines))
        if let player, !first.contains(where: { $0[keyPath: id] == player }),
            let own = lines.first(where: { $0[keyPath: id] == player })
        {
            first.append(own)
        }
        return first
    }
}
