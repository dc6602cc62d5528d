/// A room played in teams: the host turns teams on in the lobby (2 to 6, scored by the mean or the best of each team's
/// players per quiz), players pick theirs there or the host assigns them, and whoever has none when the room starts, or
/// joins later, goes to the smallest team. Every player still scores as in any room; the teams' board adds them up.
extension Room {
    /// Teams on (`count` 2 to 6) or off (`count` 0), host only, in the lobby. Picks of teams that no longer exist are
    /// undone.
    public mutating func setTeams(
        by player: RoomPlayerID, count: Int, scoring: RoomTeams.Scoring, at instant: Duration
    ) throws(RoomError) -> [RoomMessage] {
        try perform(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            try room.requireHost(player)
            guard case .lobby = room.phase else { throw .teamsOnlyInTheLobby }
            guard count == 0 || (2...RoomTeams.maxCount).contains(count) else { throw .invalidTeamCount }
            room.teams = count == 0 ? nil : RoomTeams(count: count, scoring: scoring)
            for index in room.seats.indices {
                if let team = room.seats[index].team, team > count { room.seats[index].team = nil }
            }
            out.append(RoomMessage(to: .everyone, .lobbyChanged(room.lobby)))
        }.1
    }

    /// A player picks their team, in the lobby.
    public mutating func pickTeam(_ player: RoomPlayerID, team: Int, at instant: Duration) throws(RoomError) -> [RoomMessage] {
        try perform(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            let index = try room.connectedIndex(of: player)
            try room.putInTeam(index, team)
            out.append(RoomMessage(to: .everyone, .lobbyChanged(room.lobby)))
        }.1
    }

    /// The host puts a seated player in a team, in the lobby.
    public mutating func assignTeam(
        by player: RoomPlayerID, _ target: RoomPlayerID, team: Int, at instant: Duration
    ) throws(RoomError) -> [RoomMessage] {
        try perform(at: instant) { (room: inout Room, out: inout [RoomMessage]) throws(RoomError) in
            try room.requireHost(player)
            guard let index = room.seats.firstIndex(where: { $0.id == target && $0.isSeated }) else { throw .invalidTarget }
            try room.putInTeam(index, team)
            out.append(RoomMessage(to: .everyone, .lobbyChanged(room.lobby)))
        }.1
    }

    /// The teams' board of the quizzes that have ended; `nil` without teams. A team's points for one quiz are the mean
    /// (rounded down) or the best of the points of its players who played that quiz; a team is ranked by their sum.
    public var teamScoreboard: [RoomTeamScore]? {
        guard let teams else { return nil }
        let board = seats.filter { $0.departure != .kicked && $0.team != nil && ($0.isSeated || !$0.results.isEmpty) }
        let quizNumbers = Set(board.flatMap(\.results.keys))
        let lines = (1...teams.count).map { team -> (team: Int, score: Int, players: [RoomPlayerID]) in
            let members = board.filter { $0.team == team }
            let score = quizNumbers.reduce(0) { sum, quiz in
                let points = members.compactMap { $0.results[quiz]?.score }
                guard !points.isEmpty else { return sum }
                return sum + (teams.scoring == .best ? points.max()! : points.reduce(0, +) / points.count)
            }
            let players = members.sorted { Self.total($0.results) > Self.total($1.results) }.map(\.id)
            return (team, score, players)
        }.sorted { ($0.score, -$0.team) > ($1.score, -$1.team) }
        var ranked: [RoomTeamScore] = []
        for (position, line) in lines.enumerated() {
            let rank = position > 0 && lines[position - 1].score == line.score ? ranked[position - 1].rank : position + 1
            ranked.append(RoomTeamScore(rank: rank, team: line.team, score: line.score, players: line.players))
        }
        return ranked
    }

    /// The seat at `index` joins the team with the fewest seated players (the lowest number among equals).
    mutating func placeInSmallestTeam(_ index: Int) {
        guard let teams else { return }
        let sizes = (1...teams.count).map { team in seats.filter { $0.isSeated && $0.team == team }.count }
        seats[index].team = sizes.indices.min { sizes[$0] < sizes[$1] }! + 1
    }

    private mutating func putInTeam(_ index: Int, _ team: Int) throws(RoomError) {
        guard case .lobby = phase else { throw .teamsOnlyInTheLobby }
        guard let teams, (1...teams.count).contains(team) else { throw .noSuchTeam }
        seats[index].team = team
    }
}
