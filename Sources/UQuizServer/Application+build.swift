// The HTTP front end of UQuiz (`uquiz serve`).
//
// The REST contract is one OpenAPI 3.1 document, `openapi.yaml` beside this file, embedded in the binary at build time
// and served as it is at `GET /openapi.yaml`. The routes are plain Hummingbird routes that the document describes, not
// code generated from it by swift-openapi-generator: CI builds from scratch within 30 minutes and Hummingbird alone adds
// minutes to that; the generator's plugin would add OpenAPIKit, Yams and the generator itself to every CI build, and
// committed generated code would still add swift-openapi-runtime and swift-openapi-hummingbird, plus a second set of
// request and response types to map onto the use cases' own. The document and the router are kept in step by a test
// (`OpenAPIDocumentTests`): every route the router has is in the document and every operation of the document is a route.
//
// This module only maps HTTP to ServerUseCases' (players, publishing, posters, browsing, plays) and their errors to
// statuses; the rules live in the use cases, so a WebSocket or CLI client calls the same code.

import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import PosterGrid
import ServerUseCases
import ServiceLifecycle
import UQuizStorage

/// Where the server listens.
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 asks the system for a free port; `onListening` is told which.
    public var port: Int
    /// The most a request body may hold (413 beyond); a poster upload may hold `PosterUploads.maxBytes`.
    public var maxBodyBytes: Int
    /// A connection with no request for this long is closed.
    public var idleTimeout: Duration
    /// A request head (its request line and headers) that has not arrived whole this long after its first byte is
    /// answered 408 and its connection closed.
    public var headTimeout: Duration = .seconds(10)
    /// A request body that has not arrived whole after this long is refused (408) and its reading stopped.
    public var bodyTimeout: Duration
    /// Per client address.
    public var playerCreation: RateLimit
    /// Per player.
    public var playStarts: RateLimit
    public var guesses: RateLimit
    public var movieSearches: RateLimit
    /// Title suggestions while typing a guess, per player.
    public var titleSuggestions: RateLimit = .titleSuggestions
    /// Whether text answers of 1 KiB or more and the web player's assets go gzip-compressed to clients that take it;
    /// off behind a proxy that compresses.
    public var compression = true
    /// When the title index answers by itself, and how it asks TMDB for more.
    public var titles = TitleSuggestions.Rules()
    public var posterUploads: RateLimit
    public var posterUploadsPerAddress: RateLimit = .posterUploadsPerAddress
    /// Per client address: requests answered 401 although they carried an Authorization header.
    public var failedAuthentications: RateLimit
    /// Publishing, per player and per client address.
    /// How many drafts a player keeps, how large they may be and for how long; new drafts, per player and per address.
    public var drafts = DraftLimits()
    public var newDraftsPerPlayer: RateLimit = .newDraftsPerPlayer
    public var newDraftsPerAddress: RateLimit = .newDraftsPerAddress
    public var publishesPerPlayer: RateLimit = .publishesPerPlayer
    public var publishesPerAddress: RateLimit = .publishesPerAddress
    /// Spending link codes, per client address.
    public var linkCodes: RateLimit = .linkCodes
    /// Reports, per player and per client address.
    public var reportsPerPlayer: RateLimit = .reportsPerPlayer
    public var reportsPerAddress: RateLimit = .reportsPerAddress
    /// After how many reports a package hides itself.
    public var moderation = ModerationRules()
    /// Opening live rooms, per player and per client address.
    public var roomOpeningsPerPlayer: RateLimit = .roomOpeningsPerPlayer
    public var roomOpeningsPerAddress: RateLimit = .roomOpeningsPerAddress
    /// Per client address, in this instance: lookups of room and package codes that name nothing.
    public var lookupMisses: RateLimit = .lookupMisses
    /// How plays run: the pause before each quiz, how long finished plays stay in memory.
    public var plays: PlayRules
    /// The web player's files; `nil` serves the API alone.
    public var web: WebPlayer?
    /// Whether rate limits count in the store (shared by every instance on it, one write per limited request) rather
    /// than in this process's memory: on for several instances on PostgreSQL.
    public var rateLimitsInStore: Bool
    /// Live rooms' bounds on this instance (rooms per host, rooms in all, the hello deadline).
    public var rooms: RoomLimits
    /// This instance's base URL as the other instances on its store reach it (`http://HOST:PORT`), under which its
    /// live rooms are listed in the store's room directory; `nil` for `http://` + the bound address (127.0.0.1 for a
    /// wildcard one), which serves instances on one machine.
    public var instanceURL: String?
    /// The secret the instances on one database share (`UQUIZ_INSTANCE_SECRET`): a room request one forwards to the
    /// instance holding the room is signed with it, and only a signed one names its client to the holder. `nil`: the
    /// holder counts relayed requests under the forwarding instance's address.
    public var instanceSecret: String?
    /// How long a movie search waits for TMDB before the catalog answers instead.
    public var tmdbSearchDeadline: Duration
    /// The addresses of reverse proxies whose `X-Forwarded-For` or `Forwarded` header names the client: limits per
    /// address count that client rather than the proxy. Empty (the default): those headers are ignored.
    public var trustedProxies: Set<String> = []
    /// The most bytes one player's uploaded posters may hold together (507 beyond).
    public var uploadQuotaBytes = PosterUploads.defaultQuotaBytes
    /// Connections one client address may hold open at once (a trusted proxy's are not counted).
    public var maxConnectionsPerAddress = 64
    /// Uploaded posters no quiz uses are removed once this old (checked every hour).
    public var unusedUploadGrace: Duration = .seconds(24 * 3600)

    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxBodyBytes: Int = 1 << 20, idleTimeout: Duration = .seconds(30),
        bodyTimeout: Duration = .seconds(60),
        playerCreation: RateLimit = .playerCreation, playStarts: RateLimit = .playStarts, guesses: RateLimit = .guesses,
        movieSearches: RateLimit = .movieSearches, posterUploads: RateLimit = .posterUploads,
        failedAuthentications: RateLimit = .failedAuthentications, plays: PlayRules = .init(), web: WebPlayer? = nil,
        rateLimitsInStore: Bool = false, rooms: RoomLimits = .init(), instanceURL: String? = nil,
        tmdbSearchDeadline: Duration = .seconds(3)
    ) {
        self.tmdbSearchDeadline = tmdbSearchDeadline
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.playerCreation = playerCreation
        self.playStarts = playStarts
        self.guesses = guesses
        self.movieSearches = movieSearches
        self.posterUploads = posterUploads
        self.failedAuthentications = failedAuthentications
        self.plays = plays
        self.web = web
        self.rateLimitsInStore = rateLimitsInStore
        self.rooms = rooms
        self.instanceURL = instanceURL
    }

    /// Where `GET /metrics` reads from and who may; `nil` (the default): no metrics route.
    public var metrics: MetricsEndpoint?

    /// Every rate limit by the name `uquiz serve --limit NAME=BURST/SECONDS` gives it.
    public static let rateLimitsByName: [String: any WritableKeyPath<ServerConfiguration, RateLimit> & Sendable] = [
        "players-per-address": \.playerCreation,
        "play-starts": \.playStarts,
        "guesses": \.guesses,
        "movie-searches": \.movieSearches,
        "poster-uploads": \.posterUploads,
        "poster-uploads-per-address": \.posterUploadsPerAddress,
        "refused-tokens-per-address": \.failedAuthentications,
        "publishes-per-player": \.publishesPerPlayer,
        "publishes-per-address": \.publishesPerAddress,
        "rooms-per-player": \.roomOpeningsPerPlayer,
        "rooms-per-address": \.roomOpeningsPerAddress,
        "reports-per-player": \.reportsPerPlayer,
        "reports-per-address": \.reportsPerAddress,
        "code-misses-per-address": \.lookupMisses,
        "link-codes-per-address": \.linkCodes,
        "title-suggestions": \.titleSuggestions,
        "drafts-per-player": \.newDraftsPerPlayer,
        "drafts-per-address": \.newDraftsPerAddress,
    ]

    /// This configuration with every rate limit `RateLimit.unlimited`: what `uquiz serve --rate-limits off` runs, so that
    /// a benchmark or load test from one address and one player measures throughput rather than 429s. Never for a
    /// server people use: the limits are what stop a script from trying a title list.
    public func withoutRateLimits() -> ServerConfiguration {
        var lifted = self
        for limit in Self.rateLimitsByName.values { lifted[keyPath: limit] = .unlimited }
        return lifted
    }
}

/// What the routes run on: the sharing use cases' environment and the package rules (levels, grid) the server checks
/// publications against, the same ones the CLI reads from its settings.
public struct ServerEnvironment: Sendable {
    public var sharing: SharingEnvironment
    public var levels: LevelRules
    public var geometry: GridGeometry

    public init(sharing: SharingEnvironment, levels: LevelRules, geometry: GridGeometry) {
        self.sharing = sharing
        self.levels = levels
        self.geometry = geometry
    }
}

/// The application: the router, bound where the configuration says, logging through `logger`; `onListening` hears the
/// address actually bound (with the real port when 0 was asked). `services` (the store's client, say) start before the
/// server and stop after it, so requests in flight finish on them; `beforeServerStarts` runs once they run and before
/// the server binds (migrations, the clock's first measurement). Run it with `runService()` for graceful shutdown on
/// SIGINT and SIGTERM: the server stops accepting, in-flight requests finish, then the services stop in reverse order.
/// `rooms` are the instance's live rooms (made here unless given: a caller that hands them over before the server
/// stops, as `uquiz serve` does with `RoomHandOver`, makes them itself).
public func buildApplication(
    configuration: ServerConfiguration, environment: ServerEnvironment, logger: Logger,
    now: @escaping @Sendable () -> Duration = ServerClock.sinceStart, rooms: Rooms? = nil,
    services: [any Service] = [],
    beforeServerStarts: @escaping @Sendable () async throws -> Void = {},
    onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
) -> some ApplicationProtocol {
    let host = configuration.host
    let seconds = configuration.idleTimeout.components.seconds
    let rooms = rooms ?? makeRooms(environment: environment, configuration: configuration, monotonicNow: now)
    let (router, routeServices) = buildRoutes(
        environment: environment, configuration: configuration, monotonicNow: now, rooms: rooms, logger: logger)
    var application = Application(
        router: HeadAsGetRouter(router),
        // HTTP/1.1 with the upgrade to a live room's WebSocket (`/v1/rooms/{code}/ws`), idle connections closed from
        // their first byte on; the rooms send their own heartbeats, so the library's automatic pings are off.
        server: .http1WebSocketUpgrade(
            guarding: router, idleTimeout: .seconds(seconds), headTimeout: configuration.headTimeout, webSocket: roomSocketConfiguration,
            connections: ConnectionsPerAddress(limit: configuration.maxConnectionsPerAddress, exempt: configuration.trustedProxies)),
        configuration: .init(address: .hostname(host, port: configuration.port), serverName: nil),
        services: services + routeServices + [RoomHandOver(rooms: rooms), RoomLeases(rooms: rooms)],
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            let reachableHost = ["0.0.0.0", "::", ""].contains(host) ? "127.0.0.1" : host
            let instanceURL = configuration.instanceURL ?? "http://\(reachableHost.contains(":") ? "[\(reachableHost)]" : reachableHost):\(port)"
            do {
                try await rooms.listening(at: instanceURL)
            } catch {
                // The store does not answer now: rooms opened here stay out of the directory, so only players on this
                // instance reach them; the server serves everything else.
                logger.warning("live rooms: the room directory could not be read (\(error)); rooms stay on this instance")
            }
            await onListening(host, port)
        },
        logger: logger)
    application.beforeServerStarts(perform: beforeServerStarts)
    return application
}

/// Every route of the server, with the middleware every request goes through: request logs with an id, the security
/// headers, then errors turned into JSON, then the limit on refused tokens, then the body limit and timeout; with a
/// web player, its pages and assets. `monotonicNow` is the clock of plays and rate limits (tests drive it; `uquiz
/// serve` passes `SharedClock.now`, the same time on every instance): a play's stages and score follow it alone.
public func buildRouter(
    environment: ServerEnvironment, configuration: ServerConfiguration = .init(),
    monotonicNow: @escaping @Sendable () -> Duration = ServerClock.sinceStart, rooms: Rooms? = nil,
    plays: Plays? = nil, logger: Logger = Logger(label: "uquiz.serve")
) -> Router<ServerRequestContext> {
    buildRoutes(
        environment: environment, configuration: configuration, monotonicNow: monotonicNow, rooms: rooms, plays: plays,
        logger: logger
    ).router
}

/// `buildRouter`'s routes, and the services they need running beside them: the one that drops this instance's kept
/// packages when any instance changes one.
func buildRoutes(
    environment: ServerEnvironment, configuration: ServerConfiguration,
    monotonicNow: @escaping @Sendable () -> Duration, rooms: Rooms?, plays: Plays? = nil, logger: Logger
) -> (router: Router<ServerRequestContext>, services: [any Service]) {
    let router = Router(context: ServerRequestContext.self)
    let relaySignature = RelaySignature(secret: configuration.instanceSecret)
    router.add(middleware: ForwardedClientMiddleware(trustedProxies: configuration.trustedProxies, relaySignature: relaySignature))
    router.add(middleware: RequestLogMiddleware())
    // Outside the error middleware, so that each request is counted with the status it was answered.
    if configuration.metrics != nil { router.add(middleware: MetricsMiddleware()) }
    router.add(middleware: SecurityHeadersMiddleware())
    if configuration.compression { router.add(middleware: ResponseCompressionMiddleware(assetsPath: configuration.web?.assetsPath)) }
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: ControlCharacterPathMiddleware())
    func limiter(_ limit: RateLimit, _ name: String) -> RateLimiter {
        guard configuration.rateLimitsInStore else { return RateLimiter(limit: limit, name: name, now: monotonicNow) }
        let store = environment.sharing.store
        return RateLimiter(limit: limit, name: name, store: { try store() }, now: monotonicNow)
    }
    // Gives authentication the client's count of refused tokens (`AuthenticationGate`).
    router.add(
        middleware: FailedAuthenticationLimitMiddleware(
            limiter: limiter(configuration.failedAuthentications, "refused-tokens-per-address")))
    router.add(
        middleware: BodyLimitMiddleware(
            maxBytes: configuration.maxBodyBytes, maxBytesByPath: [PosterRoutes.path: PosterUploads.maxBytes],
            bodyTimeout: configuration.bodyTimeout))
    HealthRoutes(environment: environment).add(to: router)
    // One set of plays for the routes that play and the one that updates packages, which must not change one under a
    // play.
    let plays = plays ?? Plays(
        environment: environment.sharing, levels: environment.levels, rules: configuration.plays, now: monotonicNow)
    PlayerRoutes(environment: environment, plays: plays).add(
        to: router, creationLimit: RateLimitMiddleware(limiter: limiter(configuration.playerCreation, "players-per-address")),
        linkLimit: RateLimitMiddleware(limiter: limiter(configuration.linkCodes, "link-codes-per-address")))
    let recent = RecentAnswers(now: monotonicNow)
    let misses = LookupMissLimit(limiter: limiter(configuration.lookupMisses, "code-misses-per-address"))
    // Publishing a package and publishing a draft count together.
    let publishes = PlayerAndAddressLimit(
        perPlayer: limiter(configuration.publishesPerPlayer, "publishes-per-player"),
        perAddress: limiter(configuration.publishesPerAddress, "publishes-per-address"))
    PackageRoutes(
        environment: environment, plays: plays, recent: recent, misses: misses, publishes: publishes
    ).add(to: router.group("v1/packages"))
    let publishing = Publications(
        environment: environment.sharing, levels: environment.levels, geometry: environment.geometry)
    DraftRoutes(
        environment: environment,
        drafts: Drafts(environment: environment.sharing, publishing: publishing, plays: plays, limits: configuration.drafts),
        publishes: publishes,
        creations: PlayerAndAddressLimit(
            perPlayer: limiter(configuration.newDraftsPerPlayer, "drafts-per-player"),
            perAddress: limiter(configuration.newDraftsPerAddress, "drafts-per-address"))
    ).add(to: router)
    PosterRoutes(
        environment: environment,
        uploads: PlayerAndAddressLimit(
            perPlayer: limiter(configuration.posterUploads, "poster-uploads"),
            perAddress: limiter(configuration.posterUploadsPerAddress, "poster-uploads-per-address")),
        quotaBytes: configuration.uploadQuotaBytes
    ).add(to: router)
    let movieSearch = MovieSearches(
        environment: environment.sharing, searchDeadline: configuration.tmdbSearchDeadline, now: monotonicNow)
    let titles = TitleSuggestions(
        environment: environment.sharing, search: movieSearch, rules: configuration.titles, now: monotonicNow)
    environment.sharing.catalogTitles.prepareInBackground(environment.sharing)
    PlayRoutes(
        environment: environment,
        plays: plays,
        movies: movieSearch,
        titles: titles,
        playStarts: limiter(configuration.playStarts, "play-starts"),
        guesses: limiter(configuration.guesses, "guesses"),
        movieSearches: limiter(configuration.movieSearches, "movie-searches"),
        titleSuggestions: limiter(configuration.titleSuggestions, "title-suggestions")
    ).add(to: router)
    let instanceClient = InstanceClient(logger: logger)
    let rooms = rooms ?? makeRooms(environment: environment, configuration: configuration, monotonicNow: monotonicNow)
    let forwarding = RoomForwarding(client: instanceClient, logger: logger, signature: relaySignature)
    RoomRoutes(
        environment: environment, rooms: rooms, forwarding: forwarding,
        openings: PlayerAndAddressLimit(
            perPlayer: limiter(configuration.roomOpeningsPerPlayer, "rooms-per-player"),
            perAddress: limiter(configuration.roomOpeningsPerAddress, "rooms-per-address")),
        misses: misses
    ).add(to: router)
    if let metrics = configuration.metrics { MetricsRoutes(endpoint: metrics, environment: environment, rooms: rooms).add(to: router) }
    ReportRoutes(
        environment: environment, reports: Reports(environment: environment.sharing, rules: configuration.moderation),
        rooms: rooms, forwarding: forwarding,
        limit: PlayerAndAddressLimit(
            perPlayer: limiter(configuration.reportsPerPlayer, "reports-per-player"),
            perAddress: limiter(configuration.reportsPerAddress, "reports-per-address"))
    ).add(to: router)
    // After the error middleware: the file middleware serves an asset where the router found no route, and its own
    // errors (a path with "..") still become JSON.
    let cards = ShareCards(environment: environment.sharing, now: monotonicNow)
    ShareCardRoutes(cards: cards, misses: misses).add(to: router)
    QRCodeRoutes().add(to: router)
    if let web = configuration.web {
        WebRoutes(web: web, compress: configuration.compression, cards: cards, misses: misses).add(to: router)
    }
    let forgetting = PackageChangeFollower(
        environment: environment.sharing, recent: recent, plays: plays, rooms: rooms, logger: logger)
    let services: [any Service] = [
        forgetting, instanceClient, ImageServerWatch(environment: environment.sharing, logger: logger),
        UnusedWorkSweep(
            environment: environment.sharing, uploadGrace: configuration.unusedUploadGrace,
            draftExpiry: configuration.drafts.expiry, logger: logger),
        OverduePlaySweep(plays: plays, interval: configuration.plays.sweepInterval, logger: logger),
    ]
    return (router, services)
}


/// Drops what this instance keeps of a package (its recent metadata, its play plan, its rooms' judges) as soon as any
/// instance on the store changes or deletes it, so that every instance answers with the change at once.
struct PackageChangeFollower: Service {
    let environment: SharingEnvironment
    let recent: RecentAnswers
    let plays: Plays
    let rooms: Rooms
    let logger: Logger

    func run() async throws {
        let store: any ServerStorage
        do {
            store = try environment.store()
        } catch {
            logger.warning("package changes: the store could not be opened (\(error)); kept packages expire by time only")
            return
        }
        for await change in store.packageChanges().cancelOnGracefulShutdown() {
            switch change {
            case .package(let id, let shareCode):
                recent.forget(shareCode.value)
                plays.packageChanged(id)
                rooms.packageChanged(id)
            case .unknown:
                recent.forgetAll()
                plays.forgetAllPlans()
                rooms.forgetPreparedPackages()
            }
        }
    }
}

/// Removes, every hour, drafts nobody changed for `draftExpiry` (`Drafts.removeExpired`), then uploaded posters no quiz
/// or draft uses once they are `uploadGrace` old (`PosterUploads.removeUnused`). Any instance may; the store makes each
/// removal once.
struct UnusedWorkSweep: Service {
    let environment: SharingEnvironment
    let uploadGrace: Duration
    let draftExpiry: Duration
    let logger: Logger

    func run() async throws {
        // The first sweep an hour after the start: by then the store's migrations have run.
        await repeatUntilShutdown(every: .seconds(3600), waitingFirst: true) {
            // Drafts first: an upload only an expired draft used goes in the same sweep.
            do {
                let expired = try await Drafts.removeExpired(environment: environment, expiry: draftExpiry)
                if expired > 0 { logger.info("removed \(expired) drafts nobody changed for \(draftExpiry.components.seconds / 86_400) days") }
            } catch {
                logger.warning("expired drafts could not be removed now (\(error)); trying again in an hour")
            }
            do {
                let removed = try await PosterUploads.removeUnused(environment: environment, grace: uploadGrace)
                if !removed.isEmpty { logger.info("removed \(removed.count) uploaded posters no quiz uses") }
            } catch {
                logger.warning("unused uploads could not be removed now (\(error)); trying again in an hour")
            }
        }
    }
}

/// Records, every `interval`, the plays whose time ran out with nobody asking (`Plays.sweepOverdue`), beside the
/// requests rather than inside one of them.
struct OverduePlaySweep: Service {
    let plays: Plays
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await repeatUntilShutdown(every: interval, waitingFirst: true) {
            do {
                try await plays.sweepOverdue()
            } catch {
                logger.warning("open plays whose time ran out could not be recorded now (\(error)); trying again")
            }
        }
    }
}

/// Runs `body`, then again `interval` after each run ends, until the service group shuts down gracefully; with
/// `waitingFirst`, the first run comes after `interval` too (once the store's migrations have run at start).
func repeatUntilShutdown(
    every interval: Duration, waitingFirst: Bool = false, _ body: @escaping @Sendable () async -> Void
) async {
    await cancelWhenGracefulShutdown {
        if waitingFirst { try? await Task.sleep(for: interval) }
        while !Task.isCancelled {
            await body()
            try? await Task.sleep(for: interval)
        }
    }
}

/// Asks TMDB's image server whether it answers, at start and then every `interval`, so that the packages listed are
/// the ones this instance can show (`ImageServerReach`).
struct ImageServerWatch: Service {
    let environment: SharingEnvironment
    let logger: Logger
    var interval: Duration = .seconds(60)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var last = ImageServerReach.State.unknown
            while !Task.isCancelled {
                await environment.imageReach.probe(environment.tmdbPosters.imageClient)
                let now = environment.imageReach.current
                if now != last {
                    logger.info("TMDB's image server is \(now.rawValue): \(now == .unreachable ? "packages with TMDB posters are not listed" : "every package is listed")")
                    last = now
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}

/// Hands this instance's live rooms over to the other instances when it shuts down gracefully (`Rooms.handOver`).
/// Among the application's services it runs once the server has stopped; `uquiz serve` runs one more before the server
/// (later in its own service group, so signalled first), so that the players, told to reconnect, are answered.
public struct RoomHandOver: Service {
    let rooms: Rooms

    public init(rooms: Rooms) {
        self.rooms = rooms
    }

    public func run() async throws {
        // Cancelled rather than shut down: the process is being torn down anyway.
        do { try await gracefulShutdown() } catch { return }
        await rooms.handOver()
    }
}

/// Renews this instance's leases on its rooms and takes over rooms whose holder stopped renewing, while it runs.
struct RoomLeases: Service {
    let rooms: Rooms

    func run() async throws {
        await cancelWhenGracefulShutdown { await rooms.maintainLeases() }
    }
}

/// The live rooms of one instance, keeping results and the room directory in the store.
public func makeRooms(
    environment: ServerEnvironment, configuration: ServerConfiguration,
    monotonicNow: @escaping @Sendable () -> Duration
) -> Rooms {
    Rooms(
        environment: environment.sharing, levels: environment.levels, limits: configuration.rooms, now: monotonicNow)
}

/// The WebSocket settings of live rooms: frames up to 16 KiB (larger messages are sent in several), no automatic pings
/// (`RoomConnection` sends its own heartbeats and measures latency with them).
public let roomSocketConfiguration = WebSocketServerConfiguration(maxFrameSize: 16 << 10, autoPing: .disabled)

/// The request context of every route: Hummingbird's core storage and who is asking.
public struct ServerRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Where the WebSocket route leaves its handler for the upgrade.
    public let webSocket = WebSocketHandlerReference<ServerRequestContext>()
    /// The client's IP address, what rate limits count per; "unknown" when the channel has none (in-process tests).
    /// Behind a trusted proxy, the address it forwarded (`ForwardedClientMiddleware`); for a request another instance
    /// forwarded with a valid signature, the client's (the same middleware).
    public var clientAddress: String
    /// Whether another instance forwarded this request, signed with the shared secret: its limits were taken there.
    public var relayedByInstance = false
    /// Whether the request came from one of the trusted proxies, whose `X-Forwarded-*` headers may be read.
    public var viaTrustedProxy = false
    /// The connection the request came on.
    let connection: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = source.channel
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}

/// Monotonic time for the server's limits: never jumps with the wall clock.
public enum ServerClock {
    private static let start = ContinuousClock.now

    @Sendable public static func sinceStart() -> Duration { ContinuousClock.now - start }
}
