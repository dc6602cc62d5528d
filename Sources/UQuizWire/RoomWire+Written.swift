import UQuizStorage

/// A quiz's end and the podium written by `JSONWriter`: a large room sends them to each of thousands of players with
/// their own line, and `JSONEncoder` made that a quarter of a second. Members in sorted order, the envelope's `type`
/// and `v` among them, as the `Codable` form (`RoomWire.encodedByCoder`) writes them.
protocol JSONMembers {
    /// Writes the members; `listEnded` is told where each list of players' lines ends (its `]`) in `json.bytes`.
    func writeMembers(to json: inout JSONWriter, listEnded: (Int) -> Void)
}

extension RoomWire {
    static func written(_ payload: some JSONMembers, type: String) -> String {
        String(decoding: writtenBytes(payload, type: type) { _ in }, as: UTF8.self)
    }

    private static func writtenBytes(_ payload: some JSONMembers, type: String, listEnded: (Int) -> Void) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.object { json in
            payload.writeMembers(to: &json, listEnded: listEnded)
            json.member("type", type)
            json.member("v", version)
        }
        return writer.bytes
    }

    /// A quiz's end or the podium as a large room sends it to its thousands: `shared` with the first lines of each list
    /// (a big screen's, and the text of a player among the first of every list), and each other player's with their
    /// own lines set in after the first ones, which are written once.
    package struct LargeRoomBoard {
        package let shared: String
        private let bytes: [UInt8]
        /// Each list of players' lines, in the order of the text: where its `]` is in `bytes`, and each player's line.
        private let lists: [(end: Int, lines: OwnLineWriter)]

        package init?(_ whole: ServerMessage) {
            var ends: [Int] = []
            let first = forLargeRoom(whole, player: nil)
            switch (whole, first) {
            case (.quizEnded(let ended), .quizEnded(let trimmed)):
                bytes = writtenBytes(trimmed, type: whole.type) { ends.append($0) }
                lists = [(ends[0], OwnLineWriter(ended.scoreboard, \.player)), (ends[1], OwnLineWriter(ended.solvers, \.player))]
            case (.podium(let podium), .podium(let trimmed)):
                bytes = writtenBytes(trimmed, type: whole.type) { ends.append($0) }
                lists = [(ends[0], OwnLineWriter(podium.places, \.player))]
            default:
                return nil
            }
            shared = String(decoding: bytes, as: UTF8.self)
        }

        /// What `player` is sent: `shared`, with their line of each list where it is past the first ones.
        package func text(for player: Int) -> String {
            var text: [UInt8] = []
            var from = 0
            for list in lists {
                guard let line = list.lines.line(of: player) else { continue }
                if text.isEmpty { text.reserveCapacity(bytes.count + 512) }
                text.append(contentsOf: bytes[from..<list.end])
                text.append(UInt8(ascii: ","))
                text.append(contentsOf: line)
                from = list.end
            }
            guard !text.isEmpty else { return shared }
            text.append(contentsOf: bytes[from...])
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// A player's line of a list, written when it is past the list's first `largeRoomBoardLines`.
    struct OwnLineWriter {
        private let write: (Int) -> [UInt8]
        private let positions: [Int: Int]

        init<Line: JSONWritable>(_ lines: [Line], _ player: KeyPath<Line, Int>) {
            positions = Dictionary(lines.enumerated().map { ($1[keyPath: player], $0) }, uniquingKeysWith: { first, _ in first })
            write = { JSONWriter.write(lines[$0]) }
        }

        func line(of player: Int) -> [UInt8]? {
            guard let position = positions[player], position >= largeRoomBoardLines else { return nil }
            return write(position)
        }
    }
}

extension RoomWire.QuizEnded: JSONMembers {
    func writeMembers(to json: inout JSONWriter, listEnded: (Int) -> Void) {
        json.member("answerTitle", answerTitle)
        json.member("answerYear", ifPresent: answerYear)
        json.member("ending", ending)
        json.member("nextQuizInMs", ifPresent: nextQuizInMs)
        json.member("posterURL", posterURL)
        json.member("quiz", quiz)
        json.member("quizCount", quizCount)
        json.member("scoreboard", scoreboard)
        listEnded(json.bytes.count - 1)
        json.member("serverTime", serverTime)
        json.member("solverCount", ifPresent: solverCount)
        json.member("solvers", solvers)
        listEnded(json.bytes.count - 1)
        json.member("teamScoreboard", ifPresent: teamScoreboard)
    }
}

extension RoomWire.Podium: JSONMembers {
    func writeMembers(to json: inout JSONWriter, listEnded: (Int) -> Void) {
        json.member("places", places)
        listEnded(json.bytes.count - 1)
        json.member("teams", ifPresent: teams)
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
