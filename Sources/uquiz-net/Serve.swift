import Foundation
import Logging
import PostgresStore
import QuizStore
import UQuizStorage
import UQuizApp
import UQuizCLI
import UQuizServer

extension ServeCommand {
    /// `uquiz serve`'s run, here because only this binary links the server.
    func serve() async throws {
        let context = try await AppContext.make(store)
        let logger = Logger.escapingStandardError(label: "uquiz.server", level: store.verbose ? .debug : .info)
        // Opened now rather than on the first request: a first run seeds here, and a bad database stops the server
        // before it says it is listening.
        let (database, appEnvironment, onPostgres) = try openDatabase(context, logger: logger)
        let environment = ServerEnvironment(
            sharing: SharingEnvironment(app: appEnvironment, store: { database }),
            levels: try context.settings.levelRules(), geometry: try context.settings.gridGeometry())
        let configuration = try configuration(context, onPostgres: onPostgres, logger: logger)
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
    /// The flags and settings as the server takes them; says what it will do without a web player or rate limits.
    func configuration(_ context: AppContext, onPostgres: Bool, logger: Logger) throws -> ServerConfiguration {
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
        return configuration
    }

    /// The server's database, SQLite or PostgreSQL (see `Settings.serverDatabase`), and the application environment
    /// over it; whether it is PostgreSQL.
    func openDatabase(
        _ context: AppContext, logger: Logger
    ) throws -> (database: any ServerStorage, environment: AppEnvironment, onPostgres: Bool) {
        switch try context.settings.serverDatabase() {
        case .sqlite:
            return (try context.openDatabase(), context.environment, false)
        case .postgres(let url):
            let (database, seeded) = try PostgresQuizStore.open(url: url, seedContent: { try context.settings.seedBundle().content() })
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
        do {
            return try WebPlayer.locate(override: settings.webFolder(flag: flag), executable: settings.executable)
        } catch {
            throw CommandFailure(message: "\(error)")
        }
    }
}
