import ArgumentParser
import Foundation
import Logging
import UQuizApp
import PostgresStore
import UQuizServer

/// `uquiz serve`: the quiz backend over HTTP, on the same database and use cases as every other command.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the UQuiz HTTP server (REST API described at /openapi.yaml).",
        discussion: """
            Opens (and on first use seeds) the database like every command, then listens until SIGINT or SIGTERM, \
            letting requests in progress finish. Prints `listening on http://HOST:PORT` once bound (with --port 0, \
            the port the system chose). Request logs go to standard error. With the web player's files found (--web, \
            the web setting, share/uquiz/web under the install prefix or Web/ of the checkout), it also serves the \
            web player at / (a package at /p/CODE, the daily quiz at /d). With --db postgres://USER[:PASSWORD]@HOST[:PORT]/DB \
            (or UQUIZ_DB) it runs on PostgreSQL instead, where several instances can share one database (migrated and \
            seeded by the first; the password is never printed).
            """
    )

    @OptionGroup var store: StoreOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0: any free port).") var port = 8080
    @Option(
        help: ArgumentHelp(
            "The web player's folder (default: the web setting, else found beside the binary).", valueName: "dir"))
    var web: String?
    @Option(
        help: ArgumentHelp(
            "on, or off to lift every rate limit (making players, starting plays, guesses, movie searches).",
            discussion: "Off is for benchmarks and load tests from one address: never for a server people use.",
            valueName: "on|off"))
    var rateLimits: RateLimitSwitch = .on
    @Option(
        help: ArgumentHelp(
            "Close a connection that sends no complete request for this long, a half-sent one included (1 to 3600).",
            valueName: "seconds"))
    var idleTimeout = 30
    @Option(
        help: ArgumentHelp(
            "Refuse (408) a request whose body has not arrived whole after this long, however slowly it trickles (1 to 3600).",
            valueName: "seconds"))
    var bodyTimeout = 60
    @Option(
        help: ArgumentHelp(
            "This instance's base URL as the other instances on its database reach it (default: http://HOST:PORT as bound, 127.0.0.1 for 0.0.0.0).",
            discussion: """
                A live room lives on the instance that opened it; the others forward its requests and sockets to this \
                URL. Give it when instances run on several machines.
                """,
            valueName: "url"))
    var instanceURL: String?

    enum RateLimitSwitch: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard (1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be from 1 to 3600 seconds") }
        guard (1...3600).contains(bodyTimeout) else { throw ValidationError("--body-timeout must be from 1 to 3600 seconds") }
        if let instanceURL {
            let parts = URLComponents(string: instanceURL)
            guard parts?.scheme == "http", parts?.host?.isEmpty == false, parts?.path.isEmpty ?? false,
                parts?.query == nil, parts?.user == nil
            else {
                throw ValidationError("--instance-url must be http://HOST[:PORT] with no path, e.g. http://10.0.0.5:8080")
            }
        }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        var logger = Logger(label: "uquiz.server") { EscapingLogHandler(inner: StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = store.verbose ? .debug : .info
        // Opened now rather than on the first request: a first run seeds here, and a bad database stops the server
        // before it says it is listening.
        let (database, appEnvironment, onPostgres) = try openDatabase(context, logger: logger)
        let environment = ServerEnvironment(
            sharing: SharingEnvironment(app: appEnvironment, store: { database }),
            levels: try context.settings.levelRules(), geometry: try context.settings.gridGeometry())
        let webPlayer = try context.webPlayer(flag: web)
        if webPlayer == nil {
            logger.notice("no web player found (give its folder with --web DIR); serving the API alone")
        }
        var configuration = ServerConfiguration(
            host: host, port: port, idleTimeout: .seconds(idleTimeout), bodyTimeout: .seconds(bodyTimeout), web: webPlayer,
            instanceURL: instanceURL)
        // Several instances share a PostgreSQL database, so their limits count there; one process on SQLite counts in
        // memory.
        configuration.rateLimitsInStore = onPostgres
        if rateLimits == .off {
            configuration = configuration.withoutRateLimits()
            logger.warning("rate limits are off (--rate-limits off): for benchmarks only")
        }
        // Plays and rate limits run on the store's clock, so instances sharing a store agree on every play's time.
        let clock = try SharedClock(store: database)
        let app = buildApplication(
            configuration: configuration, environment: environment, logger: logger, now: clock.now,
            onListening: { host, port in
                let shownHost = host.contains(":") ? "[\(host)]" : host
                // Written straight to the file descriptor: a pipe would otherwise hold the line in a buffer, and
                // whoever waits for it would wait forever.
                FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(port)\n".utf8))
            })
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                // Follows the database clock's corrections; a failed measurement keeps the last offset. Ends quietly
                // when the server stops.
                while (try? await Task.sleep(for: .seconds(60))) != nil {
                    try? clock.synchronize()
                }
            }
            try await app.runService()
            group.cancelAll()
        }
    }
}

extension ServeCommand {
    /// The server's database, SQLite or PostgreSQL (see `Settings.serverDatabase`), and the application environment
    /// over it; whether it is PostgreSQL.
    func openDatabase(
        _ context: AppContext, logger: Logger
    ) throws -> (database: any SharingStorage, environment: AppEnvironment, onPostgres: Bool) {
        switch try context.settings.serverDatabase() {
        case .sqlite:
            return (try context.openDatabase(), context.environment, false)
        case .postgres(let url):
            let (database, seeded) = try PostgresQuizStore.open(url: url, seedBundle: { try context.settings.seedBundle() })
            logger.info("database \(database.redactedURL)")
            if seeded { logger.notice("seeded \(database.redactedURL) from the seed bundle") }
            var environment = context.environment
            // The use cases the server runs read the catalog, packages and posters from PostgreSQL; the CLI's own
            // store (local packages, plays, the seed's maintenance) is a SQLite file the server never opens.
            environment.catalog = { database }
            environment.store = {
                throw CommandFailure(message: "uquiz serve on PostgreSQL has no local SQLite store (a server bug if seen)")
            }
            return (database, environment, true)
        }
    }
}

extension AppContext {
    /// The web player's files: `--web`, else the `web` setting (`UQUIZ_WEB`, config files), else found beside the
    /// binary like the seed bundle. A folder named explicitly must be one; a missing default only means no web player.
    func webPlayer(flag: String?) throws -> WebPlayer? {
        let named = try flag ?? settings.lookup(SettingKeys.web)?.value.nonEmpty
        do {
            return try WebPlayer.locate(override: named.map(settings.expandTilde), executable: settings.executable)
        } catch {
            throw CommandFailure(message: "\(error)")
        }
    }
}
