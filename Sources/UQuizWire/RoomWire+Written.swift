import UQuizStorage

/// A quiz's end and the podium written by `JSONWriter`: a large room sends them to each of thousands of players with
/// their own line, and `JSONEncoder` made that a quarter of a second. Members in sorted order, the envelope's `type`
/// and `v` among them, as the `Codable` form (`RoomWire.encodedByCoder`) writes them.
protocol JSONMembers {
    func writeMembers(to json: inout JSONWriter)
}

extension RoomWire {
    static func written(_ payload: some JSONMembers, type: String) -> String {
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.object { json in
            payload.writeMembers(to: &json)
            json.member("type", type)
            json.member("v", version)
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension RoomWire.QuizEnded: JSONMembers {
    func writeMembers(to json: inout JSONWriter) {
        json.member("answerTitle", answerTitle)
        json.member("answerYear", ifPresent: answerYear)
        json.member("ending", ending)
        json.member("nextQuizInMs", ifPresent: nextQuizInMs)
        json.member("posterURL", posterURL)
        json.member("quiz", quiz)
        json.member("quizCount", quizCount)
        json.key("scoreboard")
        json.array(scoreboard) { json, score in score.writeJSON(to: &json) }
        json.member("serverTime", serverTime)
        json.member("solverCount", ifPresent: solverCount)
        json.key("solvers")
        json.array(solvers) { json, solver in solver.writeJSON(to: &json) }
        if let teamScoreboard {
            json.key("teamScoreboard")
            json.array(teamScoreboard) { json, team in team.writeJSON(to: &json) }
        }
    }
}

extension RoomWire.Podium: JSONMembers {
    func writeMembers(to json: inout JSONWriter) {
        json.key("places")
        json.array(places) { json, place in place.writeJSON(to: &json) }
        if let teams {
            json.key("teams")
            json.array(teams) { json, team in team.writeJSON(to: &json) }
        }
    }
}

extension RoomWire.Score: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("left", left)
            json.member("name", name)
            json.member("played", played)
            json.member("player", player)
            json.member("rank", rank)
            json.member("score", score)
            json.member("solved", solved)
        }
    }
}

extension RoomWire.Solver: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("name", name)
            json.member("player", player)
            json.member("points", points)
            json.member("seconds", seconds)
            json.member("stage", stage)
        }
    }
}

extension RoomWire.TeamScore: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("players", players)
            json.member("rank", rank)
            json.member("score", score)
            json.member("team", team)
        }
    }
}

extension RoomWire.Place: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("left", left)
            json.member("name", name)
            json.member("player", player)
            json.member("rank", rank)
            json.member("score", score)
            json.member("shareLine", ifPresent: shareLine)
        }
    }
}
