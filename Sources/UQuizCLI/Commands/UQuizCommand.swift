import ArgumentParser
import Foundation
import LocalUseCases
import Logging
import MovieSearch
import QuizCore
import QuizStore
import UQuizStorage

/// `uquiz`: make and solve movie-poster quizzes from the shell.
public struct UQuizCommand: AsyncParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "uquiz",
        abstract: "Make and solve movie-poster quizzes in the terminal.",
        discussion: """
            A quiz shows a black poster whose areas are revealed one by one; solvers type the title before time runs out.
            The database is created from the bundled seed on first use: try `uquiz list`, then `uquiz show en-silent`.

            Configuration: flags > environment (UQUIZ_...) > $XDG_CONFIG_HOME/uquiz/config.json > Config/uquiz.json > \
            built-in defaults; `uquiz config` shows the effective values.
            """,
        version: version,
        subcommands: [
            ListCommand.self, ShowCommand.self, SolveCommand.self, StatsCommand.self, CreateCommand.self, EditCommand.self, DeleteCommand.self, ExportCommand.self, ImportCommand.self, SearchCommand.self, PostersCommand.self,
            JudgeCommand.self, FetchPostersCommand.self, SeedCommand.self, ConfigCommand.self, ServeCommand.self,
            LoginCommand.self, LinkCodeCommand.self, PublishCommand.self, BrowseCommand.self, LeaderboardCommand.self, DailyCommand.self,
            RoomCommand.self, AdminCommand.self,
        ]
    )

    public init() {}

    /// Parses and runs like `main()`, except that a `UsageError` found while running is one line and exit 64; bad flags
    /// caught while parsing still show the usage, as argument-parser prints them.
    public static func runMain() async {
        await runMain(network: nil)
    }

    /// `runMain()` for `uquiz-net`, with the network commands it links.
    package static func runMain(network: NetworkCommands?) async {
        await NetworkCommands.$linked.withValue(network) { await parseAndRun() }
    }

    private static func parseAndRun() async {
        do {
            var command = try parseAsRoot()
            if let checked = command as? any FlagChecking {
                do {
                    try checked.checkFlags()
                } catch let error as ValidationError {
                    throw UsageError(error.message)
                }
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("Error: \(SafeText.clean(error.message))\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch {
            if let suggestion = subcommandSuggestion(for: error) {
                FileHandle.standardError.write(Data("Error: \(SafeText.clean(suggestion))\n".utf8))
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            // As argument-parser's `exit(withError:)` does: help and version go to standard output, failures to error.
            let message = errorMessage(for: error)
            let code = exitCode(for: error)
            let stream = code == .success ? FileHandle.standardOutput : FileHandle.standardError
            if !message.isEmpty { stream.write(Data((message + "\n").utf8)) }
            Foundation.exit(code.rawValue)
        }
    }

    /// `uquiz slove`: argument-parser says only "Unexpected argument"; a word a typo away from a command gets the
    /// command suggested, as a misspelled option gets "Did you mean".
    static func subcommandSuggestion(for error: any Error) -> String? {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let word = arguments.first, !word.hasPrefix("-"),
            fullMessage(for: error).contains("Unexpected argument '\(word)'")
        else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        guard let closest = names.min(by: { AnswerJudge.distance(word, $0) < AnswerJudge.distance(word, $1) }),
            AnswerJudge.distance(word, closest) <= 2
        else { return nil }
        return "unknown command '\(word)'. Did you mean '\(closest)'? (uquiz --help lists the commands)"
    }

    /// What is said about a failure, the one place errors meet the terminal: every line escaped, since a message may
    /// quote a file, the database or the network.
    static func errorMessage(for error: any Error) -> String {
        fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).map {
            SafeText.clean(String($0))
        }.joined(separator: "\n")
    }
}

/// Commands whose flags are checked together after parsing, so that argument-parser first reports options it does not
/// know (`--levle`, with its "Did you mean"), which it does only after `validate()` has passed.
protocol FlagChecking {
    func checkFlags() throws
}

extension CreateCommand: FlagChecking {}
extension DeleteCommand: FlagChecking {}
extension EditCommand: FlagChecking {}
extension ExportCommand: FlagChecking {}
extension ImportCommand: FlagChecking {}
extension JudgeCommand: FlagChecking {}
extension ListCommand: FlagChecking {}
extension SearchCommand: FlagChecking {}
extension SolveCommand: FlagChecking {}

/// Bad input in flags or arguments that only running the command reveals: exit 64 like a bad flag, in one line.
struct UsageError: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

/// Options every command that touches the database takes.
package struct StoreOptions: ParsableArguments {
    package init() {}

    @Option(name: .long, help: ArgumentHelp("Database file (overrides UQUIZ_DB and the config files).", valueName: "path"))
    package var db: String?

    @Flag(name: .long, help: "Log what uquiz does (configuration sources, database, seeding) to standard error.")
    package var verbose = false

    var flags: [String: String] {
        var flags: [String: String] = [:]
        flags[SettingKeys.database.key] = db
        return flags
    }
}

/// What a command needs, built once at start-up from the flags and the environment: the settings, how to write to
/// the terminal, and the application layer's environment (store, clients, clock, randomness) made from them.
package struct AppContext: Sendable {
    package let settings: Settings
    let terminal: Terminal
    let logger: Logger
    /// How the log is written: text, unless a server asked for JSON (`--log-format`, the `serve.logFormat` setting).
    package let logFormat: LogFormat
    package let environment: AppEnvironment
    private let database: OnFirstUse<AppDatabase>

    /// The context of a command; `serving` with the server's `--log-format` (nil when not given), so that its log is
    /// written as the flag or the setting says from its first line.
    package static func make(
        _ options: StoreOptions, serving logFormatFlag: LogFormat?? = nil,
        logStream: any TextOutputStream & Sendable = DirectStandardError()
    ) async throws -> AppContext {
        let settings = try await Settings.load(flags: options.flags)
        let format = try logFormatFlag.map { try settings.logFormat(flag: $0) } ?? .text
        let logger = Logger.standardError(
            label: "uquiz", level: options.verbose ? .debug : .warning, format: format, stream: logStream)
        logger.debug("configuration sources, strongest first: \(settings.layers.map(\.name).joined(separator: ", "))")
        return AppContext(settings: settings, logger: logger, logFormat: format)
    }

    init(settings: Settings, logger: Logger, logFormat: LogFormat = .text, terminal: Terminal = .current()) {
        self.settings = settings
        self.terminal = terminal
        self.logger = logger
        self.logFormat = logFormat
        let database = OnFirstUse { try Self.openDatabase(settings: settings, logger: logger, logFormat: logFormat) }
        let imageClient = OnFirstUse { try Self.imageClient(settings: settings, logger: logger) }
        self.database = database
        environment = AppEnvironment(
            now: { Date() }, randomSeed: { .random(in: 0...UInt64.max) }, store: { try database.get() },
            movieClient: {
                let client = try imageClient.get()
                return client.settings.credentials == nil ? nil : client
            },
            imageClient: { try imageClient.get() }, posterCache: { try settings.posterCache() },
            posterPlayWidth: { try settings.posterPlayWidth() }, log: { message in logger.debug("\(message)") })
    }

    /// The database, created from the seed bundle on first use; opened once per process.
    package func openDatabase() throws -> AppDatabase {
        try database.get()
    }

    private static func openDatabase(settings: Settings, logger: Logger, logFormat: LogFormat) throws -> AppDatabase {
        let path = try settings.databasePath()
        logger.debug("database \(path)")
        let (database, seeded) = try AppDatabase.openOrSeed(at: path, seedBundle: {
            let bundle = try settings.seedBundle()
            logger.debug("first run: installing the seed bundle from \(bundle.directory.path)")
            return bundle
        })
        if seeded {
            let count = try database.packages().total
            let note = "created \(path) from the seed bundle (\(count) packages)"
            if logFormat == .json { logger.notice("\(note)") } else { Console.note(note) }
        }
        return database
    }

    /// One TMDB client per process (it keeps its connections open); without credentials it still reaches the public
    /// image server.
    private static func imageClient(settings: Settings, logger: Logger) throws -> TMDBClient {
        TMDBClient(
            settings: try settings.tmdbSettings(),
            transport: try settings.transportOptions().liveTransport(),
            cache: HTTPCache(directory: try settings.cacheDirectory().appendingPathComponent("http")),
            retry: try settings.retryPolicy(),
            log: debugLog(logger))
    }

    private static func debugLog(_ logger: Logger) -> (@Sendable (String) -> Void)? {
        guard logger.logLevel <= .debug else { return nil }
        return { message in logger.debug("\(message)") }
    }

    /// The environment of `uquiz serve`: the command's, with a TMDB client made for many makers at once (bounded
    /// transfers, paced under TMDB's rate, answers kept in memory rather than in files, and a breaker that stops
    /// asking a failing TMDB).
    package func servingEnvironment(_ serve: ServeCommand) throws -> AppEnvironment {
        var transport = try settings.transportOptions()
        transport.maxTransfersInFlight = serve.tmdbMaxInFlight
        transport.maxConnectionsPerHost = serve.tmdbMaxInFlight
        transport.queueTimeout = Double(serve.tmdbQueueTimeout) / 1000
        let client = TMDBClient(
            settings: try settings.tmdbSettings(), transport: transport.liveTransport(),
            cache: MemoryResponseCache(capacity: serve.tmdbCacheEntries), retry: try settings.retryPolicy(),
            limiter: RequestPacer(limit: serve.tmdbRate),
            breaker: serve.tmdbBreakerFailures == 0
                ? nil
                : CircuitBreaker(policy: .init(failures: serve.tmdbBreakerFailures, cooldown: .seconds(serve.tmdbBreakerCooldown))),
            log: Self.debugLog(logger))
        var environment = self.environment
        environment.movieClient = { client.settings.credentials == nil ? nil : client }
        environment.imageClient = { client }
        return environment
    }
}

/// A command that ran but could not do all it was asked, said in one line.
package struct CommandFailure: Error, LocalizedError {
    package var message: String
    package var errorDescription: String? { message }

    package init(message: String) {
        self.message = message
    }
}

enum Console {
    /// Notes go to standard error so that standard output stays clean for pipes and `--json`.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Asks a yes/no question on the terminal; refuses to guess when nobody can answer.
    /// `action` says what would happen, for the refusal when there is no terminal to ask on.
    static func confirm(_ question: String, action: String) throws -> Bool {
        guard isatty(STDIN_FILENO) == 1 else {
            throw UsageError("\(action) needs confirmation: run it on a terminal or pass --yes")
        }
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
