import Foundation
import Logging
import Metrics
import PostgresStore
import Prometheus
import QuizStore
import ServerUseCases
import ServiceLifecycle
import UQuizCLI
import UQuizServer
import UQuizStorage

extension ServeCommand {
    /// `uquiz serve`'s run, here because only this binary links the server.
    func serve() async throws {
        // The log is written off the cooperative threads: a slow reader of it never holds a thread that serves.
        // Whatever was logged is written before the process goes on to end.
        let log = BackgroundStandardError()
        do {
            try await serve(logging: log)
        } catch {
            await log.flushed()
            throw error
        }
        await log.flushed()
    }

    private func serve(logging log: BackgroundStandardError) async throws {
        let context = try await AppContext.make(store, serving: .some(logFormat), logStream: log)
        // Every logger of the process writes alike, those the libraries make for themselves too.
        let level: Logger.Level = store.verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var handler = Logger.standardError(label: label, level: level, format: context.logFormat, stream: log).handler
            handler.logLevel = level
            return handler
        }
        var logger = Logger.standardError(label: "uquiz.server", level: level, format: context.logFormat, stream: log)
        // Which process wrote a line, among the instances sharing a database and a log system.
        logger[metadataKey: "instance"] = .string(String(UInt32.random(in: .min ... .max), radix: 16))
        // Before anything that counts (the store's connections) is made.
        let metrics = try context.settings.metricsToken().map { token in
            let registry = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(PrometheusMetricsFactory.uquiz(registry: registry))
            return MetricsEndpoint(registry: registry, token: token)
        }
        let database = try openDatabase(context, logger: logger)
        // The clock, randomness, TMDB and poster cache the settings give, on the server's own store (not the command
        // line's) and a pool of its own for heavy work.
        let settings = try context.servingEnvironment(self)
        let heavyWork = ThreadPoolWork()
        var posters = settings.tmdbPosterFiles
        posters.heavyWork = heavyWork
        let sharing = SharingEnvironment(
            now: settings.now, randomSeed: settings.randomSeed, store: { database.store }, movieClient: settings.movieClient,
            tmdbPosters: posters, log: settings.log, heavyWork: heavyWork)
        let environment = ServerEnvironment(
            sharing: sharing,
            levels: try context.settings.levelRules(), geometry: try context.settings.gridGeometry())
        var configuration = try configuration(context, onPostgres: database.onPostgres, logger: logger)
        configuration.metrics = metrics
        configuration.instanceSecret = try context.settings.instanceSecret()
        // Plays and rate limits run on the store's clock, so instances sharing a store agree on every play's time. It
        // is measured once the store's services run, before the server binds.
        let clock = SharedClock(unsynchronized: database.store)
        let rooms = makeRooms(environment: environment, configuration: configuration, monotonicNow: clock.now)
        let app = buildApplication(
            configuration: configuration, environment: environment, logger: logger, now: clock.now, rooms: rooms,
            services: database.services + [ClockSynchronization(clock: clock)],
            beforeServerStarts: {
                // A bad database stops the server here, before it says it is listening.
                try await database.prepare()
                try await clock.synchronize()
            },
            onListening: { host, port in
                let shownHost = host.contains(":") ? "[\(host)]" : host
                // Written straight to the file descriptor: a pipe would otherwise hold the line in a buffer, and
                // whoever waits for it would wait forever.
                FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(port)\n".utf8))
            })
        // On SIGTERM or SIGINT the services stop in reverse order: the live rooms are handed over to the other
        // instances first, while this one still answers the players sent to reconnect; then the server stops.
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: app), .init(service: RoomHandOver(rooms: rooms))],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// The server's database: the store the use cases call, the services it needs running (PostgreSQL's client), and
/// what to do before serving (PostgreSQL's migrations and first seeding, which need those services).
struct ServerDatabase: Sendable {
    var store: any ServerStorage
    var services: [any Service]
    var prepare: @Sendable () async throws -> Void
    var onPostgres: Bool
}

/// Measures the shared clock again every minute while serving, following the database clock's corrections; a failed
/// measurement keeps the last offset.
struct ClockSynchronization: Service {
    let clock: SharedClock

    func run() async throws {
        // A sleep does not end on a graceful shutdown by itself: it is cancelled then, so the server stops at once.
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: .seconds(60))
                try? await clock.synchronize()
            }
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
            instanceURL: instanceURL, tmdbSearchDeadline: .milliseconds(tmdbDeadline))
        configuration.headTimeout = .seconds(headTimeout)
        configuration.moderation = ModerationRules(
            hideAfterReports: hideAfterReports, reporterAge: .seconds(reporterMinAgeHours * 3600),
            reporterPlays: reporterMinPlays, protectedPlays: protectAfterPlays)
        configuration.rooms.maxRooms = maxRooms
        configuration.rooms.maxHostedRooms = maxHostedRooms
        configuration.rooms.seats = roomSeats
        configuration.drafts.maxDrafts = maxDrafts
        configuration.drafts.quotaBytes = draftQuotaKib << 10
        configuration.drafts.expiry = .seconds(draftExpiryDays * 86_400)
        configuration.rooms.lease = .seconds(roomLease)
        configuration.rooms.leaseRenewal = .seconds(roomLease) / 3
        configuration.uploadQuotaBytes = uploadQuotaMib << 20
        configuration.unusedUploadGrace = .seconds(unusedUploadHours * 3600)
        let unjoinedLifetime = Duration.seconds(unjoinedRoomMinutes * 60)
        configuration.rooms.adjustRules = { rules in
            var rules = rules
            rules.unjoinedLifetime = unjoinedLifetime
            return rules
        }
        for limit in try parsedLimits {
            guard let keyPath = ServerConfiguration.rateLimitsByName[limit.name] else { continue }
            configuration[keyPath: keyPath] = RateLimit(burst: limit.burst, interval: .milliseconds(Int64(limit.seconds * 1000)))
        }
        configuration.trustedProxies = Set(trustedProxies)
        configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.compression = compression == .on
        configuration.titles = TitleSuggestions.Rules(minimumTitles: suggestMinTitles, fillsInFlight: suggestTmdbFills)
        // Several instances share a PostgreSQL database, so their limits count there; one process on SQLite counts in
        // memory.
        configuration.rateLimitsInStore = onPostgres
        if rateLimits == .off {
            configuration = configuration.withoutRateLimits()
            logger.warning("rate limits are off (--rate-limits off): for benchmarks only")
        }
        return configuration
    }

    /// The server's database, SQLite or PostgreSQL (see `Settings.serverDatabase`). SQLite is opened (and on a first
    /// run seeded) now, like every command's database; PostgreSQL once its client runs.
    func openDatabase(_ context: AppContext, logger: Logger) throws -> ServerDatabase {
        let deadline = StoreDeadline(.milliseconds(dbDeadline))
        switch try context.settings.serverDatabase() {
        case .sqlite:
            let file = try context.openDatabase()
            let store = try SQLiteServerStore.open(path: file.path, deadline: deadline)
            return ServerDatabase(store: store, services: [], prepare: {}, onPostgres: false)
        case .postgres(let url):
            let store = try PostgresQuizStore(url: url, maxConnections: dbConnections, deadline: deadline)
            logger.info("database \(store.redactedURL)")
            let settings = context.settings
            return ServerDatabase(
                store: store, services: [store],
                prepare: {
                    let seeded = try await store.prepare(seedContent: { try settings.seedBundle().content() })
                    if seeded { logger.notice("seeded \(store.redactedURL) from the seed bundle") }
                },
                onPostgres: true)
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
