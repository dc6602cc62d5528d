import Foundation
import LocalUseCases
import RemoteClient
import UQuizWire

/// A live room told line by line (`uquiz room ... --plain`, or without a terminal), or with `--json` every server
/// message as it came, one JSON object per line, for bots. Everything the server sends is escaped before it meets the
/// terminal in plain mode; JSON is JSON-escaped.
struct RoomLinePrinter: RoomObserver {
    var json: Bool
    /// The server, for the line that tells friends how to join.
    var server: String
    var write: (String) -> Void
    /// Refusals of typed lines: standard error in JSON mode, so that standard output stays the server's messages.
    var complain: (String) -> Void

    /// The lobby line last written: a snapshot and the lobby message after it say the same, and it is said once.
    private let lastLobby = LastLine()

    var redrawEvery: Duration? { nil }
    var showsPosters: Bool { false }

    func opened(_ room: RoomWire.Opened) {
        if !json { write("Room \(SafeText.clean(room.code)) is open: friends join with uquiz room join \(SafeText.clean(room.code)) --server \(server)") }
    }

    func received(_ message: RoomWire.ServerMessage, session: RoomSession) {
        if json {
            write(RoomWire.encode(message))
            return
        }
        for line in Self.lines(for: message, session: session) {
            if line.hasPrefix(Self.lobbyPrefix) {
                guard line != lastLobby.text else { continue }
                lastLobby.text = line
            }
            write(SafeText.clean(line))
        }
    }

    static let lobbyPrefix = "Lobby: "

    /// What plain mode says of one message, before escaping.
    static func lines(for message: RoomWire.ServerMessage, session: RoomSession) -> [String] {
        switch message {
        case .welcome(let welcome):
            return ["You are player \(welcome.player) in room \(welcome.code)."]
        case .snapshot, .lobby:
            // After the podium, players leaving change nothing worth a line.
            if case .finished = session.phase { return [] }
            guard session.phase == .lobby || message.type == "lobby" else { return session.notice.map { [$0] } ?? [] }
            return [lobbyPrefix + lobbyLine(session)]
        case .solved(let solved) where solved.player == session.me:
            // The judgement of the player's own guess has said it already.
            return []
        case .hostChanged, .guessJudged, .hint, .solved, .error:
            return session.notice.map { ["  " + $0] } ?? []
        case .quizLoading(let loading):
            return ["quiz \(loading.quiz)/\(loading.quizCount) is loading: it starts within \(seconds(loading.startsWithinMs)) s"]
        case .quizStarted(let clock):
            return ["quiz \(clock.quiz)/\(session.quizCount) · \(clock.stageCount) stages · \(seconds(clock.endsInMs)) s: type the title"]
        case .stageRevealed(let clock):
            return ["  stage \(clock.stage)/\(clock.stageCount)"]
        case .quizEnded(let ended):
            let next = ended.nextQuizInMs.map { ["next quiz in \(seconds($0)) s"] } ?? []
            return (session.notice.map { [$0] } ?? []) + scoreboard(ended.scoreboard, me: session.me) + next
        case .podium(let podium):
            return ["Podium:"] + podium.places.map { place in
                "  \(place.rank). \(place.name) \(place.score) pts" + (place.left ? " (left)" : "")
                    + (place.player == session.me ? " (you)" : "")
            } + (podium.places.first { $0.player == session.me }?.shareLine.map { [$0] } ?? [])
        case .kicked, .roomExpired, .ping, .pong, .screenWelcome, .screenPass, .progress:
            return []
        }
    }

    static func lobbyLine(_ session: RoomSession) -> String {
        session.lobby.players.map { player in
            var marks: [String] = []
            if player.player == session.lobby.host { marks.append("host") }
            if player.player == session.me { marks.append("you") }
            if !player.connected { marks.append("connection lost") }
            return "\(player.player) \(player.name)" + (marks.isEmpty ? "" : " (\(marks.joined(separator: ", ")))")
        }.joined(separator: ", ")
    }

    static func scoreboard(_ scores: [RoomWire.Score], me: Int?) -> [String] {
        scores.map { score in
            "  \(score.rank). \(score.name) \(score.score) pts, \(score.solved)/\(score.played) solved"
                + (score.left ? " (left)" : "") + (score.player == me ? " (you)" : "")
        }
    }

    static func seconds(_ milliseconds: Int) -> String { String(format: "%.0f", (Double(milliseconds) / 1000).rounded()) }

    func poster(_ jpeg: Result<Data, ServerClientError>, quiz: Int, stage: Int?, session: RoomSession) {}

    func refused(_ reason: String, session: RoomSession) {
        if json { complain("refused: " + reason) } else { write("  ✗ " + SafeText.clean(reason)) }
    }

    func reconnecting(session: RoomSession) {
        complain("connection lost: resuming the seat…")
    }

    func tick(session: RoomSession) {}
}

/// One line remembered across the messages of a room.
private final class LastLine {
    var text: String?
}
