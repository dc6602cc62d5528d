import ArgumentParser
import Foundation
import MovieSearch
import QuizCore
import RemoteClient

/// `uquiz room`: live rooms in the terminal, played on a UQuiz server with friends at the same time.
struct RoomCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "room",
        abstract: "Play a package live with friends in a room on a UQuiz server.",
        discussion: """
            The host opens a room on a package published on the server (uquiz room host PACKAGE) and gets a 4-character \
            room code; friends join with it (uquiz room join CODE). The server runs every quiz on its own clock for \
            everyone, judges the guesses and keeps the scoreboard; the podium ends the room.

            \(RoomCommand.playing)
            """,
        subcommands: [RoomHostCommand.self, RoomJoinCommand.self]
    )

    static let playing = """
        Type a guess and Enter while a quiz runs; `?` asks for the hint (it halves the quiz's points). Commands: /start \
        (host: starts the room), /skip (host: ends the running quiz for everyone), /kick N and /host N (host: removes \
        player N, or passes the host's role to them; N is the number or the name the lobby shows), /leave. Ctrl-C \
        leaves the room too.

        On a terminal the room is drawn full screen (the lobby, each stage's poster as the server cuts it, the \
        countdown, the scoreboard between quizzes and the podium); --plain tells it line by line (also without a \
        terminal). --json is for bots: every message the server sends is one JSON line on standard output, as README \
        "Live rooms" documents them (welcome, lobby, quizLoading, quizStarted, stageRevealed, guessJudged, solved, \
        quizEnded, podium, ping, pong, ...); standard input is read line by line, each line a guess, a `/` command, or a \
        client message as JSON ({"v": 1, "type": "guess", "quiz": 1, "text": "..."}); pings, `loaded` and the resume \
        after a dropped connection are answered for you. A line refused before sending is said on standard error.

        Exit status: 0 after the podium or /leave; 1 for an error (unknown room, server down, connection lost and \
        not resumed within the seat hold, a join the room refused); 3 when the host kicked you; 4 when the room \
        expired; 64 for a bad flag or code; 130 after Ctrl-C.
        """
}

/// The flags both room commands share.
struct RoomOptions: ParsableArguments {
    @OptionGroup var server: ServerOptions
    @Option(help: "Your name in the room (default: the player setting, else your user name).") var name: String?
    @Flag(help: "One line per event, for scripts and screen readers.") var plain = false
    @Flag(help: "Every server message as one JSON line; commands and guesses read as lines from standard input.")
    var json = false
    @Flag(help: "Ring the terminal's bell for your right and wrong guesses and when time runs out (the full screen only; default: the sound setting).")
    var sound = false

    func validate() throws {
        if plain && json { throw ValidationError("--plain and --json exclude each other") }
        if sound && (plain || json) { throw ValidationError(Bell.onlyFullScreen) }
    }

    /// The full screen runs on a terminal that can address the cursor, unless a line mode is asked for.
    var fullScreen: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && !plain && !json
            && !["dumb", nil].contains(ProcessInfo.processInfo.environment["TERM"])
    }
}

struct RoomHostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Open a live room on a package published on the server, and host it.",
        discussion: """
            PACKAGE is the package's share code on the server (uquiz publish prints it; uquiz browse lists the public \
            ones). Needs uquiz login first: the room is opened with your token and you join it first, as its host. The \
            room code is shown in the lobby (--plain prints it on the first line, --json in the welcome message); \
            /start starts the room when everyone is in.

            \(RoomCommand.playing)
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var room: RoomOptions
    @Argument(help: "The package's share code on the server.") var package: String

    func run() async throws {
        let connector = try NetworkCommands.here().roomConnector()
        let context = try await AppContext.make(store)
        let client = try context.serverClient(room.server)
        let name = try context.settings.playerName(flag: room.name)
        try await context.playRoom(client, connector: connector, options: room) { remote throws(ServerClientError) in
            try remote.host(shareCode: package, name: name)
        }
    }
}

struct RoomJoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a live room by its code.",
        discussion: """
            CODE is the 4-character code the host gives (any case). Logged in to the server (uquiz login), your result \
            counts in your stats there; without it you join by name only. Joining during a quiz, you watch it and play \
            from the next. A dropped connection is resumed on its own while the server holds your seat (90 s).

            \(RoomCommand.playing)
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var room: RoomOptions
    @Argument(help: "The room's code, e.g. K7QF.") var code: String

    func validate() throws {
        guard RoomCode(code) != nil else {
            throw ValidationError("\(SafeText.clean(code)) is not a room code: 4 characters of \(String(RoomCode.alphabet))")
        }
    }

    func run() async throws {
        let connector = try NetworkCommands.here().roomConnector()
        let context = try await AppContext.make(store)
        let client = try context.serverClient(room.server)
        let name = try context.settings.playerName(flag: room.name)
        let code = RoomCode(code)!.value
        try await context.playRoom(client, connector: connector, options: room) { remote throws(ServerClientError) in
            try remote.join(code: code, name: name)
        }
    }
}

extension AppContext {
    /// Plays a room on the full screen or line by line, then says how it ended and exits with its status.
    func playRoom(
        _ client: ServerClient, connector: any RoomSocketConnector, options: RoomOptions,
        start: @escaping @Sendable (RemoteRoom) throws(ServerClientError) -> RoomSession
    ) async throws {
        try await SessionThread.run { try followRoom(client, connector: connector, options: options, start: start) }
    }

    private func followRoom(
        _ client: ServerClient, connector: any RoomSocketConnector, options: RoomOptions,
        start: (RemoteRoom) throws(ServerClientError) -> RoomSession
    ) throws {
        let write = { (line: String) in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        let printer = RoomLinePrinter(
            json: options.json, server: Redaction.redact(url: client.baseURL), write: write, complain: Console.note)
        let session: RoomSession
        let interruption: Interruption
        do {
            if options.fullScreen {
                interruption = Interruption { FullScreen.restore() }
                let player = RoomTerminalPlayer(
                    client: client, interruption: interruption, environment: ProcessInfo.processInfo.environment)
                player.bell = Bell(enabled: try settings.sound(flag: options.sound))
                session = try player.run { () throws(ServerClientError) in
                    try start(RemoteRoom(client: client, connector: connector, input: player, observer: player))
                }
                // After the full screen is gone, the podium stays in the terminal's history.
                if case .finished(let podium) = session.phase {
                    RoomLinePrinter.lines(for: .podium(podium), session: session).forEach { write(SafeText.clean($0)) }
                }
            } else {
                interruption = Interruption()
                let input = LineSolveInput(interruption: interruption)
                session = try start(RemoteRoom(
                    client: client, connector: connector, input: input, observer: printer, json: options.json))
            }
        } catch ServerClientError.refused(404, _, _, _) {
            throw CommandFailure(message: "no such room on \(Redaction.redact(url: client.baseURL)): check the code (a room lives until it expires)")
        } catch let problem as ServerClientError {
            throw CommandFailure(message: Wording.server(problem, at: client.baseURL))
        }
        if interruption.isRequested { throw ExitCode(128 + SIGINT) }
        try Self.end(session, server: client.baseURL)
    }

    /// The last word on a session that did not end at the podium or by leaving: one line, and the exit status.
    static func end(_ session: RoomSession, server: String) throws {
        let room = "room \(SafeText.clean(session.code))"
        switch session.ending {
        case .podium?, .left?, nil:
            return
        case .kicked?:
            Console.note("Error: the host removed you from \(room)")
            throw ExitCode(3)
        case .expired(let reason)?:
            let why = reason == "gone" ? "the server closed it" : reason == "idle" ? "nothing happened for too long" : reason
            Console.note("Error: \(room) has expired (\(SafeText.clean(why)))")
            throw ExitCode(4)
        case .replaced?:
            throw CommandFailure(message: "your seat in \(room) was resumed on another connection")
        case .lost?:
            throw CommandFailure(message: "lost the connection to \(room) on \(Redaction.redact(url: server)), and the seat could not be resumed")
        case .refused(_, let message)?:
            throw CommandFailure(message: "\(room) refused you: \(message)")
        }
    }
}
