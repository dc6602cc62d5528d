import CTerminal
import Foundation
import LocalUseCases
import MovieSearch
import PosterArt
import PosterGrid
import QuizCore
import RemoteClient
import UQuizWire

#if canImport(Glibc)
    import Glibc
#endif

/// What the room's screen shows at one instant, from the session alone, so a test checks a screen without a terminal:
/// the lobby (code, players, how to join), the countdown to a quiz, the quiz with the server's stage poster, the
/// scoreboard between quizzes and the podium. It reuses the solo player's frame (header, picture, text lines, status,
/// input, footer).
enum RoomScreen {
    static func frame(
        session: RoomSession, now: Duration, poster: CellRaster?, status: String, typed: String, server: String,
        size: (rows: Int, columns: Int)
    ) -> PlayerFrame {
        guard size.rows >= PlayerFrame.minimumSize.rows, size.columns >= PlayerFrame.minimumSize.columns else {
            let message = "terminal too small (needs \(PlayerFrame.minimumSize.columns)x\(PlayerFrame.minimumSize.rows))"
            return PlayerFrame(header: TextWidth.cut(message, to: size.columns), picture: nil, pictureColumn: 1, status: "", input: "", footer: "")
        }
        let seconds = session.secondsLeft(at: now).map { String(format: "%.0f", $0.rounded(.up)) } ?? "-"
        let code = SafeText.clean(session.code)
        var header = " Room \(code)"
        var lines: [String] = []
        var picture: HalfBlockPicture?
        switch session.phase {
        case .connecting:
            header += " · connecting…"
        case .lobby:
            header += " · lobby · \(session.lobby.players.count) in"
            lines = ["Friends join with: uquiz room join \(code) --server \(server)", ""] + session.lobby.players.map { player in
                "\(player.player). \(SafeText.clean(player.name))"
                    + (player.player == session.lobby.host ? " (host)" : "") + (player.player == session.me ? " ← you" : "")
                    + (player.connected ? "" : " (connection lost)")
            }
            lines += ["", session.isHost ? "Type /start when everyone is in." : "Waiting for the host to start…"]
        case .loading(let loading):
            header += " · quiz \(loading.quiz)/\(loading.quizCount)"
            lines = ["Quiz \(loading.quiz) of \(loading.quizCount) starts in \(seconds) s (\(loading.stageCount) stages)."]
        case .playing(let clock):
            let limit = max(1, session.quizTime / .seconds(1))
            let header = PlayerFrame.header(
                packageTitle: "Room \(code)", quizNumber: clock.quiz, quizCount: session.quizCount,
                stage: (clock.stage, clock.stageCount), score: myScore(session),
                secondsLeft: session.secondsLeft(at: now) ?? 0, timeLimit: limit, columns: size.columns)
            if let poster {
                picture = HalfBlockPicture(
                    cells: PosterFrame.uncovered(raster: poster), geometry: poster.geometry, maxWidth: size.columns - 2,
                    maxHeight: max(4, size.rows - 6))
            }
            return PlayerFrame.around(
                header: header, picture: picture, size: size, status: status, typed: typed,
                footer: footer(session), posterProblem: poster == nil ? "The poster is on its way…" : nil)
        case .interlude(let ended):
            header += " · quiz \(ended.quiz)/\(ended.quizCount) ended" + (ended.nextQuizInMs == nil ? "" : " · next in \(seconds) s")
            lines = ["Scoreboard", ""] + RoomLinePrinter.scoreboard(ended.scoreboard, me: session.me).map(SafeText.clean)
        case .finished(let podium):
            header += " · the end"
            lines = ["Podium", ""] + podium.places.map { place in
                "\(place.rank). \(SafeText.clean(place.name)) \(place.score) pts" + (place.player == session.me ? " ← you" : "")
            }
        }
        // Blank lines stay: they part the lobby's sections.
        let notice = lines.flatMap { $0.isEmpty ? [""] : TextWidth.wrap($0, to: max(1, size.columns - 4)) }
        return PlayerFrame(
            header: TextWidth.cut(header, to: size.columns), picture: nil, pictureColumn: 1,
            notice: Array(notice.prefix(max(0, size.rows - 6))), status: TextWidth.fit(status, to: size.columns - 2),
            input: typed, footer: TextWidth.cut(footer(session), to: size.columns - 2))
    }

    static func myScore(_ session: RoomSession) -> Int {
        session.scoreboard.first { $0.player == session.me }?.score ?? 0
    }

    static func footer(_ session: RoomSession) -> String {
        let host = session.isHost ? " · /start /skip /kick N /host N" : ""
        return "Enter guesses · ? hint\(host) · /leave · Ctrl-C leaves"
    }
}

/// The full-screen player of a live room (`uquiz room host|join` on a terminal): the keyboard and the room's socket
/// waited on together, the screen drawn from `RoomScreen` on every event and five times a second for the countdown.
/// Lines typed go to `RoomSession.typed`: a guess, `?` on an empty line for the hint, or a `/` command.
final class RoomTerminalPlayer: RoomInput, RoomObserver {
    private let client: ServerClient
    private let interruption: Interruption
    private var screen: ServerClockScreen
    private var session: RoomSession?
    /// The poster on screen: the quiz and stage it shows.
    private var poster: (quiz: Int, stage: Int?, raster: CellRaster?)?
    private var guessLine = GuessLine()
    private let language: QuizLanguage
    private var status = ""
    /// Rung for this player's wrong guess and solve, and for a quiz whose time ran out before they solved it.
    var bell = Bell.off

    init(client: ServerClient, interruption: Interruption, environment: [String: String]) {
        self.client = client
        self.interruption = interruption
        screen = ServerClockScreen(environment: environment)
        language = ServerClient.suggestionLanguage(environment: environment)
    }

    func run<T>(_ body: () throws -> T) rethrows -> T {
        try screen.run(body)
    }

    // MARK: - Input

    func now() -> Duration { screen.now() }

    func next(until deadline: Duration?, socket: Int32, keyboard: Bool) -> RoomInputEvent {
        while true {
            if interruption.isRequested { return .interrupted }
            if let line = guessLine.next() { return .line(line) }
            if let deadline, now() >= deadline { return .deadline }
            var wait = deadline.map { max(0, Int32((($0 - now()) / .milliseconds(1)).rounded(.up))) } ?? -1
            // Typing that pauses this long is asked suggestions for.
            let suggesting = guessLine.wantsSuggestions
            if suggesting != nil { wait = wait < 0 ? 150 : min(wait, 150) }
            var entries = [
                pollfd(fd: keyboard ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: interruption.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&entries, 3, wait) > 0 else {
                if let text = suggesting {
                    guessLine.suggested(client.guessSuggestions(for: text, language: language), for: text)
                    draw()
                }
                continue
            }
            if entries[1].revents != 0 { return .socket }
            if entries[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 256)
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count <= 0 { return .ended }
                take(Array(buffer.prefix(count)))
                draw()
            }
        }
    }

    private func take(_ bytes: [UInt8]) {
        if guessLine.take(bytes) { status = "A live room cannot pause: its clock runs on." }
    }

    // MARK: - What the room says

    var redrawEvery: Duration? { .milliseconds(200) }
    var showsPosters: Bool { true }

    func opened(_ room: RoomWire.Opened) {}

    func received(_ message: RoomWire.ServerMessage, session: RoomSession) {
        self.session = session
        switch message {
        case .quizLoading, .quizEnded, .podium, .snapshot:
            screen.relayOut()
            status = session.notice ?? ""
        default:
            if let notice = session.notice { status = notice }
        }
        draw()
        switch message {
        case .guessJudged(let judged) where judged.judgement == "accepted": bell.ring(.right)
        case .guessJudged(let judged) where judged.judgement != "empty": bell.ring(.wrong)
        case .quizEnded(let ended) where ended.ending == "timeUp" && !ended.solvers.contains(where: { $0.player == session.me }):
            bell.ring(.timeUp)
        default: break
        }
    }

    func poster(_ jpeg: Result<Data, ServerClientError>, quiz: Int, stage: Int?, session: RoomSession) {
        let raster = (try? jpeg.get()).flatMap { try? JPEG.decode($0) }.map { CellRaster(image: $0, geometry: .standard) }
        // Stage 1 of a loading quiz is kept for its start; a whole poster after the end is not drawn over the scoreboard.
        guard stage != nil else { return }
        poster = (quiz, stage, raster)
        if raster == nil, case .failure(let problem) = jpeg {
            status = "No poster: " + Wording.server(problem, at: client.baseURL)
        }
        self.session = session
        draw()
    }

    func refused(_ reason: String, session: RoomSession) {
        status = "✗ " + reason
        self.session = session
    }

    func reconnecting(session: RoomSession) {
        self.session = session
        status = "Connection lost: resuming your seat…"
        draw()
    }

    func tick(session: RoomSession) {
        self.session = session
        draw()
    }

    private func draw() {
        guard let session else { return }
        let size = screen.size()
        let shown = poster.flatMap { $0.quiz == session.currentQuiz ? $0.raster : nil }
        let frame = RoomScreen.frame(
            session: session, now: now(), poster: shown, status: guessLine.suggestionLine ?? SafeText.clean(status),
            typed: guessLine.typed,
            server: Redaction.redact(url: client.baseURL), size: size)
        screen.draw(frame, rows: size.rows)
    }
}
