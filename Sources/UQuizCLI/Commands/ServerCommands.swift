import ArgumentParser
import Foundation
import LocalUseCases
import MovieSearch
import PosterGrid
import QuizCore
import QuizStore
import RemoteClient
import UQuizStorage
import UQuizWire

/// `--server URL`, for the commands that talk to a UQuiz server; without it, `server.url` from `uquiz login`.
struct ServerOptions: ParsableArguments {
    @Option(
        name: .customLong("server"),
        help: ArgumentHelp("The UQuiz server (default: server.url, which uquiz login sets).", valueName: "url"))
    var url: String?
}

extension AppContext {
    /// The client of the server named by `--server`, else `server.url`, with the token `uquiz login` saved for it. A
    /// token saved for another server is not sent to this one.
    func serverClient(_ options: ServerOptions) throws -> ServerClient {
        try serverClient(url: options.url)
    }

    func serverClient(url given: String?) throws -> ServerClient {
        let configured = try settings.lookup(SettingKeys.serverURL)?.value.nonEmpty
        guard let url = given ?? configured else {
            throw CommandFailure(message: "no server given: pass --server URL, or run uquiz login --server URL once")
        }
        func trimmed(_ url: String?) -> String? { url.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } }
        let token = given == nil || trimmed(given) == trimmed(configured) ? try settings.lookup(SettingKeys.serverToken)?.value : nil
        let transport = try settings.transportOptions().liveTransport()
        let retry = try settings.retryPolicy()
        do {
            return try ServerClient(baseURL: url, token: token, transport: transport, retry: retry)
        } catch {
            throw CommandFailure(message: Wording.server(error, at: url))
        }
    }

    /// A play started on the server by `start`, driven from standard input and told line by line (or as JSON); the
    /// server keeps the time, judges and scores. Ctrl-C stops following it (exit 130).
    func playOnServer(
        _ client: ServerClient, json: Bool, fullScreen: Bool, bell: Bell = .off,
        start: @escaping @Sendable (ServerClient) throws(ServerClientError) -> ServerAPI.PlayState
    ) async throws {
        try await SessionThread.run { try followPlay(client, json: json, fullScreen: fullScreen, bell: bell, start: start) }
    }

    private func followPlay(
        _ client: ServerClient, json: Bool, fullScreen: Bool, bell: Bell,
        start: (ServerClient) throws(ServerClientError) -> ServerAPI.PlayState
    ) throws {
        let printer = RemoteSolvePrinter(json: json) { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }
        let outcome: RemoteSolve.Outcome
        if fullScreen {
            let interruption = Interruption { FullScreen.restore() }
            let player = RemoteTerminalPlayer(
                client: client, interruption: interruption, environment: ProcessInfo.processInfo.environment)
            player.bell = bell
            outcome = try player.run {
                try sayingFailure(client) { client throws(ServerClientError) in
                    try RemoteSolve(client: client, input: player, observer: player).run(try start(client))
                }
            }
        } else {
            let interruption = Interruption()
            outcome = try sayingFailure(client) { client throws(ServerClientError) in
                try RemoteSolve(client: client, input: LineSolveInput(interruption: interruption), observer: printer)
                    .run(try start(client))
            }
        }
        // After the full screen is gone: the summary stays in the terminal's history.
        printer.summary(outcome)
        if outcome.stopped { throw ExitCode(128 + SIGINT) }
    }

    /// Runs one exchange with the server on a session thread, saying its failure in one line.
    func askServer<Answer: Sendable>(
        _ client: ServerClient, _ exchange: @escaping @Sendable (ServerClient) throws(ServerClientError) -> Answer
    ) async throws -> Answer {
        try await SessionThread.run { try sayingFailure(client, exchange) }
    }

    /// Runs `exchange` with the server where it is called, saying its failure in one line.
    private func sayingFailure<Answer>(
        _ client: ServerClient, _ exchange: (ServerClient) throws(ServerClientError) -> Answer
    ) throws -> Answer {
        do {
            return try exchange(client)
        } catch {
            throw CommandFailure(message: Wording.server(error, at: client.baseURL))
        }
    }
}

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Become a guest player on a UQuiz server; its address and your token are saved for the other commands.",
        discussion: """
            Makes a guest player named --name (default: your player name) and saves server.url and server.token in \
            your config file ($XDG_CONFIG_HOME/uquiz/config.json, mode 0600). The token is printed nowhere; keep the \
            file private. Logging in again makes a new player. With --code, this machine becomes instead the player \
            who made that code on another device (the web page's "Use this player on another device"): the same \
            packages, plays and name.
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var server: ServerOptions
    @Option(help: "Your name on the server (default: the player setting, else your user name).") var name: String?
    @Option(help: "A link code from another device (ABCD-EFGH, 10 minutes, once): become that player here.")
    var code: String?

    func validate() throws {
        if code != nil, name != nil { throw ValidationError("--name and --code do not go together: a linked player keeps their name") }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let client = try context.serverClient(server)
        let player: ServerAPI.NewPlayer
        if let code {
            player = try await context.askServer(client) { client throws(ServerClientError) in try client.link(code: code) }
        } else {
            let name = try context.settings.playerName(flag: name)
            player = try await context.askServer(client) { client throws(ServerClientError) in try client.register(name: name) }
        }
        let file = UserConfigFile(path: context.settings.userFileLayer)
        try file.set([SettingKeys.serverURL.key: client.baseURL, SettingKeys.serverToken.key: player.token])
        print("Logged in to \(Redaction.redact(url: client.baseURL)) as \(SafeText.clean(player.name)); token saved in \(file.path)")
    }
}

struct LinkCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link-code",
        abstract: "A one-time code that makes another device the player you are logged in as.",
        discussion: """
            Type the code on the other device: in a browser, on the server's "You" page; in a terminal, \
            uquiz login --server URL --code CODE. It works once, for 10 minutes; this machine stays logged in.
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var server: ServerOptions
    @Flag(help: "Print {code, expiresInSeconds} as JSON.") var json = false

    func run() async throws {
        let context = try await AppContext.make(store)
        let client = try context.serverClient(server)
        let made = try await context.askServer(client) { client throws(ServerClientError) in try client.makeLinkCode() }
        if json {
            print(try JSONOutput.string(made))
        } else {
            print("\(made.code): type it on the other device within \(made.expiresInSeconds / 60) minutes (it works once).")
        }
    }
}

struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish one of your packages on the server you logged in to, or update the copy published before.",
        discussion: """
            Sends the package's movies, posters and areas; the server checks them by the same rules and gives the copy             a share code of its own, printed with its link and kept with the local package (uquiz list shows both             codes). Publishing the same package on the same server again updates that copy under the same code             (while nobody has played it; after that, only a new copy can change its quizzes: --as-new). Public             packages are listed by browse; unlisted ones are found by their code only.

            --json prints {"shareCode", "link", "outcome"} with outcome published, updated or republished (the copy             published before was deleted on the server, so a new one was made).
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var server: ServerOptions
    @Argument(help: "Id or share code of the package (see uquiz list).") var package: String
    @Flag(help: "Only people given the share code find it.") var unlisted = false
    @Flag(help: "Publish a new copy with a code of its own, even if this package was published there before.")
    var asNew = false
    @Flag(help: "Print JSON instead of a sentence.") var json = false

    struct Output: Encodable {
        var shareCode: String
        var link: String
        var outcome: PublishToServer.Outcome
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let client = try context.serverClient(server)
        let result: PublishToServer.Result
        do {
            result = try PublishToServer(environment: context.environment).publish(
                package, on: client, visibility: unlisted ? .unlisted : nil, asNew: asNew)
        } catch let problem as PublishToServer.Problem {
            throw CommandFailure(message: Self.wording(problem, server: client.baseURL))
        }
        if json {
            print(try JSONOutput.string(Output(shareCode: result.shareCode, link: result.link, outcome: result.outcome)))
            return
        }
        let title = SafeText.clean(result.package.title)
        let code = SafeText.clean(result.shareCode)
        let server = Redaction.redact(url: client.baseURL)
        switch result.outcome {
        case .published: print("Published \"\(title)\" as \(code)" + (unlisted ? " (unlisted)" : "") + " on \(server)")
        case .updated: print("Updated \"\(title)\" on \(server): still \(code)" + (unlisted ? " (unlisted)" : ""))
        case .republished:
            print("The copy published before is gone from \(server); published \"\(title)\" anew as \(code)")
        }
        print("Share: \(SafeText.clean(Redaction.redact(url: result.link)))")
    }

    static func wording(_ problem: PublishToServer.Problem, server: String) -> String {
        switch problem {
        case .notPublishable(let localCode):
            "package \(localCode) has a movie with neither a TMDB id nor a catalog key; it cannot be published"
        case .copyPlayed(let code):
            "the copy \(code) has been played, so its quizzes, level and language stay as they are there (only its "
                + "title and maker can change); publish a new copy with --as-new"
        case .copyNotYours(let code):
            "the copy \(code) belongs to another player than the one logged in now; publish a copy of yours with --as-new"
        case .server(let error):
            Wording.server(error, at: server)
        }
    }
}

struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "List the public packages of a UQuiz server, newest or most played first.",
        discussion: """
            Each page ends with the --cursor of the next one (a cursor belongs to its --sort). RATE is the share of \
            quizzes solved in plays the server judged; - while nobody has played there. Nothing here shows an answer.
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var server: ServerOptions
    @Option(help: "The order: new (newest first) or popular (most plays first).") var sort: BrowseOrder = .new
    @Option(help: "Only this level: beginner, intermediate or expert.") var level: Level?
    @Option(help: "Only this language: ko or en.") var language: QuizLanguage?
    @Option(help: "Only packages whose title or maker contains this text, in any case.") var search: String?
    @Option(help: "Packages per page (1 to 100).") var limit: Int?
    @Option(help: "Where the page starts, as the previous page said.") var cursor: String?
    @Flag(help: "Print the server's JSON page instead of a table.") var json = false

    func run() async throws {
        let context = try await AppContext.make(store)
        let client = try context.serverClient(server)
        let page = try await context.askServer(client) { client throws(ServerClientError) in
            try client.browse(
                sort: sort.rawValue, level: level?.rawValue, language: language?.rawValue, search: search, limit: limit,
                cursor: cursor)
        }
        if json {
            print(try JSONOutput.string(page))
            return
        }
        guard !page.packages.isEmpty else {
            print("No packages here yet.")
            return
        }
        let table = TextTable(
            headers: ["CODE", "TITLE", "MAKER", "LEVEL", "LANG", "QUIZZES", "PLAYS", "RATE"],
            rows: page.packages.map {
                [
                    $0.shareCode, $0.title, $0.maker, $0.level.rawValue, $0.language.rawValue, "\($0.quizCount)",
                    "\($0.plays)", $0.solveRate.map { "\(Int(($0 * 100).rounded()))%" } ?? "-",
                ]
            })
        print(table.render(terminal: context.terminal))
        if let next = page.nextCursor { print(nextPageCommand(cursor: next)) }
    }

    /// The command that lists the next page: the same filters again, or it would be another list's.
    func nextPageCommand(cursor: String) -> String {
        var flags = sort == .new ? [] : ["--sort", sort.rawValue]
        if let level { flags += ["--level", level.rawValue] }
        if let language { flags += ["--language", language.rawValue] }
        if let search { flags += ["--search", "'" + search.replacingOccurrences(of: "'", with: "'\\''") + "'"] }
        return SafeText.clean((["More: uquiz browse"] + flags + ["--cursor", cursor]).joined(separator: " "))
    }
}

struct LeaderboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaderboard",
        abstract: "The best ranked plays of a package on the server, and yours.",
        discussion: """
            A player's first finished play of a package is the ranked one; equal scores are ranked by the quicker play. \
            Logged in, your own line is shown too; the package's maker also sees each quiz's solve rate and the \
            average stage at which it is solved.

            Charts: the ranked plays' scores (your bin marked), and for the maker the solve rate per quiz and the \
            stage each quiz is solved at. They fit the terminal's width (COLUMNS when the output is not a terminal), \
            in Unicode blocks, or in # with TERM=dumb or NO_COLOR set.
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var server: ServerOptions
    @Argument(help: "The package's share code on the server.") var code: String
    @Flag(help: "Print the server's JSON instead of tables.") var json = false

    func run() async throws {
        let context = try await AppContext.make(store)
        let client = try context.serverClient(server)
        let board = try await context.askServer(client) { client throws(ServerClientError) in try client.leaderboard(shareCode: code) }
        if json {
            print(try JSONOutput.string(board))
            return
        }
        print("\(SafeText.clean(board.shareCode)): \(Wording.count(board.rankedPlays, "ranked play", "ranked plays"))")
        func row(_ line: ServerAPI.Leaderboard.Line) -> [String] {
            ["\(line.rank)", line.player, "\(line.score)", String(format: "%.1f", line.seconds), line.finishedAt]
        }
        if !board.top.isEmpty {
            let table = TextTable(headers: ["RANK", "PLAYER", "SCORE", "SECONDS", "FINISHED"], rows: board.top.map(row))
            print(table.render(terminal: context.terminal))
        }
        if let me = board.me { print("You: #\(me.rank) with \(me.score) points") }
        if let quizzes = board.quizzes {
            let rows = quizzes.map { quiz in
                [
                    "\(quiz.number)", "\(quiz.attempts)", "\(quiz.solved)",
                    quiz.solveRate.map { String(format: "%.0f%%", $0 * 100) } ?? "-",
                    quiz.averageStage.map { String(format: "%.1f", $0) } ?? "-",
                ]
            }
            print(TextTable(headers: ["QUIZ", "ATTEMPTS", "SOLVED", "RATE", "AVG STAGE"], rows: rows).render(terminal: context.terminal))
        }
        Self.charts(board, terminal: context.terminal, width: BarChart.terminalWidth(), glyphs: .current())
    }

    /// The board's distributions as bar charts: scores for everyone, each quiz's solves for its maker.
    static func charts(_ board: ServerAPI.Leaderboard, terminal: Terminal, width: Int, glyphs: BarChart.Glyphs) {
        func chart(_ title: String, _ chart: BarChart) {
            print("")
            print(terminal.bold(title))
            chart.lines(width: width, glyphs: glyphs).forEach { print($0) }
        }
        if let bins = board.scores, !bins.isEmpty {
            let mine = board.me.flatMap { Distribution.bin(of: $0.score, in: bins) }
            chart("Scores of the ranked plays", BarChart(bars: bins.enumerated().map { index, bin in
                BarChart.Bar(label: bin.from == bin.to ? "\(bin.from)" : "\(bin.from)-\(bin.to)", value: bin.plays, marked: index == mine)
            }))
        }
        guard let quizzes = board.quizzes, !quizzes.isEmpty else { return }
        chart("Solve rate per quiz", BarChart(
            bars: quizzes.map { quiz in
                BarChart.Bar(
                    label: "quiz \(quiz.number)", value: Int(((quiz.solveRate ?? 0) * 100).rounded()),
                    figure: "\(quiz.solveRate.map { String(format: "%.0f%%", $0 * 100) } ?? "-") (\(quiz.solved) of \(quiz.attempts)), hint \(quiz.hinted ?? 0)")
            },
            fullScale: 100))
        for quiz in quizzes {
            guard let stages = quiz.solvedAtStage, stages.contains(where: { $0.solved > 0 }) else { continue }
            chart("Quiz \(quiz.number): the stage it is solved at", BarChart(
                bars: stages.map { BarChart.Bar(label: "stage \($0.stage)", value: $0.solved) }))
        }
    }
}

struct DailyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daily",
        abstract: "Today's daily quiz on the server (one a UTC day per language); --play plays it, --archive lists past days.",
        discussion: """
            Each language draws its own quiz each day, from the public packages in that language, numbered from its \
            first day; --language picks one (default: the language setting, else LANG). You may play one daily a \
            day, judged by the server, and solving it on consecutive days makes your streak. Past days stay in the \
            archive: --archive lists them, --day yyyy-MM-dd --play plays one again, unranked and outside the streak. \
            Needs uquiz login to play.
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var server: ServerOptions
    @Option(help: "The daily of this language: ko or en (default: the language setting, else LANG).") var language: QuizLanguage?
    @Flag(help: "List the past days' daily quizzes, newest first.") var archive = false
    @Option(help: "A past day (yyyy-MM-dd, UTC) to play from the archive with --play.") var day: String?
    @Flag(help: "Play it now (line by line, as solve --plain).") var play = false
    @Flag(help: "Print JSON instead of text.") var json = false

    func validate() throws {
        if archive, play || day != nil { throw ValidationError("--archive lists the past days: leave out --play and --day") }
        if day != nil, !play { throw ValidationError("--day plays a past day: add --play (--archive lists them)") }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let client = try context.serverClient(server)
        let language = try context.settings.language(flag: language)
        if archive {
            let page = try await context.askServer(client) { client throws(ServerClientError) in
                try client.dailyArchive(language: language)
            }
            if json {
                print(try JSONOutput.string(page))
                return
            }
            if page.days.isEmpty { print("No past daily quiz in \(language.rawValue) yet.") }
            for daily in page.days {
                print("#\(daily.number) \(daily.day): quiz \(daily.quiz) of \"\(SafeText.clean(daily.packageTitle))\" (\(daily.level.rawValue), \(daily.stageCount) stages)")
            }
            if !page.days.isEmpty { print("Play one again (unranked): uquiz daily --day DAY --play") }
            return
        }
        guard play else {
            let daily = try await context.askServer(client) { client throws(ServerClientError) in try client.daily(language: language) }
            if json {
                print(try JSONOutput.string(daily))
                return
            }
            print("UQuiz daily #\(daily.number) (\(daily.day), \(daily.language.rawValue)): quiz \(daily.quiz) of \"\(SafeText.clean(daily.packageTitle))\" (\(daily.level.rawValue), \(daily.stageCount) stages)")
            if let you = daily.you {
                var played = you.play.map { $0.finished ? "played today: \($0.score) points" : "in play" } ?? "not played today: uquiz daily --play"
                if you.playedAnotherLanguage == true, let score = you.play?.score {
                    played = "played today in the other language: \(score) points (one daily a day counts)"
                }
                print("Your streak: \(you.streak) (best \(you.bestStreak)); \(played)")
            }
            return
        }
        let fullScreen = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && !json
            && !["dumb", nil].contains(ProcessInfo.processInfo.environment["TERM"])
        let bell = Bell(enabled: try context.settings.sound(flag: false) && fullScreen)
        try await context.playOnServer(client, json: json, fullScreen: fullScreen, bell: bell) { client throws(ServerClientError) in
            if let day { return try client.startArchivedDaily(day: day, language: language) }
            return try client.startDaily(language: language)
        }
    }
}
