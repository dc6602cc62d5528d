import ArgumentParser
import Foundation
import Logging
import MovieSearch
import QuizStore

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
            JudgeCommand.self, FetchPostersCommand.self, SeedCommand.self, ConfigCommand.self,
        ]
    )

    public init() {}

    /// Parses and runs like `main()`, except that a `UsageError` found while running is one line and exit 64; bad flags
    /// caught while parsing still show the usage, as argument-parser prints them.
    public static func runMain() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("Error: \(error.message)\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}

/// Bad input in flags or arguments that only running the command reveals: exit 64 like a bad flag, in one line.
struct UsageError: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

/// Options every command that touches the database takes.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Database file (overrides UQUIZ_DB and the config files).", valueName: "path"))
    var db: String?

    @Flag(name: .long, help: "Log what uquiz does (configuration sources, database, seeding) to standard error.")
    var verbose = false

    var flags: [String: String] {
        var flags: [String: String] = [:]
        flags[SettingKeys.database.key] = db
        return flags
    }
}

/// What a command needs, built once at start-up from the flags and the environment.
struct AppContext {
    let settings: Settings
    let terminal: Terminal
    let logger: Logger

    static func make(_ options: StoreOptions) async throws -> AppContext {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = options.verbose ? .debug : .warning
            return handler
        }
        let logger = Logger(label: "uquiz")
        let settings = try await Settings.load(flags: options.flags)
        logger.debug("configuration sources, strongest first: \(settings.layers.map(\.name).joined(separator: ", "))")
        return AppContext(settings: settings, terminal: .current(), logger: logger)
    }

    /// Opens the database, creating it from the seed bundle on first use.
    func openDatabase() throws -> AppDatabase {
        let path = try settings.databasePath()
        logger.debug("database \(path)")
        let (database, seeded) = try AppDatabase.openOrSeed(at: path, seedBundle: {
            let bundle = try settings.seedBundle()
            logger.debug("first run: installing the seed bundle from \(bundle.directory.path)")
            return bundle
        })
        if seeded {
            let count = try database.packages().total
            Console.note("created \(path) from the seed bundle (\(count) packages)")
        }
        return database
    }
}

extension AppContext {
    /// The TMDB client, or `nil` when no credentials are configured. One per process: it keeps its connections open.
    func tmdbClient() throws -> TMDBClient? {
        let client = try imageClient()
        return client.settings.credentials == nil ? nil : client
    }

    /// A TMDB client that may lack credentials: enough for the public image server.
    func imageClient() throws -> TMDBClient {
        let settings = try self.settings.tmdbSettings()
        let logger = self.logger
        var log: (@Sendable (String) -> Void)?
        if logger.logLevel <= .debug {
            log = { message in logger.debug("\(message)") }
        }
        return TMDBClient(
            settings: settings,
            transport: CurlTransport(options: try self.settings.transportOptions()),
            cache: HTTPCache(directory: try self.settings.cacheDirectory().appendingPathComponent("http")),
            retry: try self.settings.retryPolicy(),
            log: log)
    }
}

/// A command that ran but could not do all it was asked, said in one line.
struct CommandFailure: Error, LocalizedError {
    var message: String
    var errorDescription: String? { message }
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
