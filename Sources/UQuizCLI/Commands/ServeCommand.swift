import ArgumentParser
import Foundation
import Logging

/// `uquiz serve`: the quiz backend over HTTP, on the same database and use cases as every other command.
package struct ServeCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
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

    @OptionGroup package var store: StoreOptions
    @Option(help: "The address to listen on.") package var host = "127.0.0.1"
    @Option(help: "The port to listen on (0: any free port).") package var port = 8080
    @Option(
        help: ArgumentHelp(
            "The web player's folder (default: the web setting, else found beside the binary).", valueName: "dir"))
    package var web: String?
    @Option(
        help: ArgumentHelp(
            "on, or off to lift every rate limit (making players, starting plays, guesses, movie searches).",
            discussion: "Off is for benchmarks and load tests from one address: never for a server people use.",
            valueName: "on|off"))
    package var rateLimits: OnOff = .on
    @Option(
        help: ArgumentHelp(
            "Close a connection that sends no complete request for this long, a half-sent one included (1 to 3600).",
            valueName: "seconds"))
    package var idleTimeout = 30
    @Option(
        help: ArgumentHelp(
            "Refuse (408) a request whose body has not arrived whole after this long, however slowly it trickles (1 to 3600).",
            valueName: "seconds"))
    package var bodyTimeout = 60
    @Option(
        help: ArgumentHelp(
            "Refuse (408) a request whose head (request line and headers) has not arrived whole after this long from its first byte (1 to 3600).",
            valueName: "seconds"))
    package var headTimeout = 10
    @Option(
        help: ArgumentHelp(
            "This instance's base URL as the other instances on its database reach it (default: http://HOST:PORT as bound, 127.0.0.1 for 0.0.0.0).",
            discussion: """
                A live room lives on the instance that opened it; the others forward its requests and sockets to this \
                URL. Give it when instances run on several machines.
                """,
            valueName: "url"))
    package var instanceURL: String?
    @Option(
        help: ArgumentHelp(
            "Answer 503 with Retry-After when the database has not answered a call within this long (50 to 60000).",
            discussion: "A database that is down, frozen or out of connections then costs each request this long at most.",
            valueName: "milliseconds"))
    package var dbDeadline = 2000
    @Option(
        help: ArgumentHelp(
            "Connections to PostgreSQL this instance's database calls use at most (1 to 200; not used on SQLite).",
            discussion: """
                Calls past this many wait for a connection, within --db-deadline. Each instance keeps its own and one \
                more that listens for package changes, so instances x (this + 1) must stay under PostgreSQL's \
                max_connections.
                """,
            valueName: "count"))
    package var dbConnections = 8
    @Option(
        help: ArgumentHelp(
            "Answer a movie search from the catalog when TMDB has not answered within this long (100 to 60000).",
            valueName: "milliseconds"))
    package var tmdbDeadline = 3000
    @Option(
        help: ArgumentHelp(
            "Calls to TMDB travelling at once; more wait their turn (1 to 1000).",
            discussion: "Searches of many makers at once then never hold more than this many of TMDB's connections.",
            valueName: "count"))
    package var tmdbMaxInFlight = 32
    @Option(
        help: ArgumentHelp(
            "A call to TMDB that has waited this long for its turn is not sent; a search answers from the catalog (10 to 60000).",
            valueName: "milliseconds"))
    package var tmdbQueueTimeout = 2000
    @Option(
        help: ArgumentHelp(
            "Calls to TMDB started in any second at most, under TMDB's own limit of about 50 per address (1 to 10000).",
            valueName: "count"))
    package var tmdbRate = 50
    @Option(
        help: ArgumentHelp(
            "Answers of TMDB kept in memory for reuse as their Cache-Control and ETag allow; the oldest go first (1 to 1000000).",
            valueName: "count"))
    package var tmdbCacheEntries = 10_000
    @Option(
        help: ArgumentHelp(
            "After this many failures of TMDB in a row (timeouts, no connection, 5xx), stop asking it for a while (0: never stop; up to 1000).",
            discussion: """
                Searches then answer from the catalog at once; after --tmdb-breaker-cooldown seconds one call tries \
                TMDB again, and its success resumes the calls.
                """,
            valueName: "count"))
    package var tmdbBreakerFailures = 5
    @Option(
        help: ArgumentHelp("How long TMDB is not asked after --tmdb-breaker-failures failures (1 to 3600).", valueName: "seconds"))
    package var tmdbBreakerCooldown = 30
    @Option(
        help: ArgumentHelp(
            "Suggest titles while a guess is typed from the catalog alone once it holds this many movies (0 to 10000000).",
            discussion: """
                Below it, suggestions come from TMDB (none without TMDB credentials): a list drawn from a few movies \
                would tell which ones the quizzes are about.
                """,
            valueName: "count"))
    package var suggestMinTitles = 500
    @Option(
        help: ArgumentHelp(
            "TMDB searches adding to the title index that may run at once; beyond them suggestions answer as they are (0 to 100).",
            valueName: "count"))
    package var suggestTmdbFills = 4
    @Option(
        help: ArgumentHelp(
            "gzip the web player's files and the API's answers of 1 KiB or more for clients that take it (default: on).",
            discussion: "Off behind a reverse proxy that compresses itself."))
    package var compression: OnOff = .on
    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "The IP address of a reverse proxy in front of this server; repeat for several (default: none).",
            discussion: """
                A request from one of them is counted, in every limit per address, under the client address its \
                X-Forwarded-For (or Forwarded) header names. From any other address those headers are ignored.
                """,
            valueName: "address"))
    package var trustedProxies: [String] = []
    @Option(
        help: ArgumentHelp(
            "Connections one client address may hold open at once; more are closed as they open (1 to 100000).",
            valueName: "count"))
    package var maxConnectionsPerAddress = 64

    @Option(
        help: ArgumentHelp(
            "Hide a package once players with standing from this many networks (/24, /48) have reported it, until a moderator looks (0: never; up to 1000).",
            valueName: "count"))
    package var hideAfterReports = 5
    @Option(
        help: ArgumentHelp(
            "A report counts toward hiding once its player is this old (0 to 8760) and has finished --reporter-min-plays plays.",
            discussion: "Guests made a moment ago, or only to report, then cannot hide a package between them.",
            valueName: "hours"))
    package var reporterMinAgeHours = 24
    @Option(
        help: ArgumentHelp("A report counts toward hiding once its player has finished this many plays (0 to 1000).", valueName: "plays"))
    package var reporterMinPlays = 1
    @Option(
        help: ArgumentHelp(
            "Reports never hide a package played this many times, a bundled one or today's daily quiz's (1 to 100000000); a moderator still sees them.",
            valueName: "plays"))
    package var protectAfterPlays = 1000
    @Option(
        help: ArgumentHelp(
            "How to write the log on standard error: text lines, or one JSON object per line (default: the serve.logFormat setting, else text).",
            valueName: "text|json"))
    package var logFormat: LogFormat?

    @Option(
        name: .customLong("limit"),
        help: ArgumentHelp(
            "A rate limit as NAME=BURST/SECONDS: BURST at once, then one every SECONDS (0.001 to 86400); repeat for several.",
            discussion: """
                NAME is one of \(Self.rateLimitNames.joined(separator: ", ")). Their defaults are in README \
                ("The server"); e.g. --limit publishes-per-player=10/60 is the default for publishing.
                """,
            valueName: "name=burst/seconds"))
    package var limits: [String] = []
    @Option(help: "Live rooms this instance holds at once; when full, the oldest room nobody joined makes way (1 to 100000).")
    package var maxRooms = 1_000
    @Option(help: "Live rooms one player may host at once (1 to 100).")
    package var maxHostedRooms = 3
    @Option(help: ArgumentHelp(
        "Seats of each live room this instance opens (2 to 2000).",
        discussion: """
            Over 50 a room is a large one, for an event: its phones are told how many are in and the first ten of each \
            board with their own place, rather than everyone's names and scores (a big screen shows the room).
            """))
    package var roomSeats = 50
    @Option(help: "Bytes of uploaded posters one player may hold, in MiB (1 to 10240).")
    package var uploadQuotaMib = 20
    @Option(help: ArgumentHelp(
        "Seconds an instance's hold on its live rooms lasts unrenewed (1 to 60): another instance takes a dead one's rooms over after it.",
        discussion: "Renewed every third of it. Shorter moves rooms sooner; each renewal is one write to the database."))
    package var roomLease = 3
    @Option(help: "Drafts one player keeps on the server at once (1 to 1000).")
    package var maxDrafts = 50
    @Option(help: "Bytes all of one player's drafts may hold together, in KiB (64 to 102400).")
    package var draftQuotaKib = 1024
    @Option(help: "Days a draft nobody changes is kept before it is removed (1 to 3650); its maker's list says until when.")
    package var draftExpiryDays = 90
    @Option(help: "Minutes a live room nobody has joined is kept before it expires (1 to 120).")
    package var unjoinedRoomMinutes = 5
    @Option(help: "Hours an uploaded poster no quiz uses is kept before it is removed (1 to 8760).")
    package var unusedUploadHours = 24

    /// The names `--limit` takes: those of `ServerConfiguration.rateLimitsByName` (a test holds the two together).
    package static let rateLimitNames = [
        "players-per-address", "play-starts", "guesses", "movie-searches", "poster-uploads", "poster-uploads-per-address",
        "refused-tokens-per-address",
        "publishes-per-player", "publishes-per-address", "rooms-per-player", "rooms-per-address", "reports-per-player",
        "reports-per-address", "code-misses-per-address", "link-codes-per-address", "title-suggestions",
        "drafts-per-player", "drafts-per-address",
    ]

    /// `--limit`s as given: name, burst and seconds between tokens.
    package var parsedLimits: [(name: String, burst: Int, seconds: Double)] {
        get throws {
            try limits.map { text in
                let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                let rate = parts.count == 2 ? parts[1].split(separator: "/").map(String.init) : []
                guard parts.count == 2, rate.count == 2, let burst = Int(rate[0]), let seconds = Double(rate[1]) else {
                    throw ValidationError("--limit \"\(text)\": give NAME=BURST/SECONDS, e.g. publishes-per-player=10/60")
                }
                guard Self.rateLimitNames.contains(parts[0]) else {
                    throw ValidationError(
                        "--limit \"\(text)\": no limit named \(parts[0]); one of \(Self.rateLimitNames.joined(separator: ", "))")
                }
                guard (1...1_000_000).contains(burst), (0.001...86_400).contains(seconds) else {
                    throw ValidationError("--limit \"\(text)\": BURST is 1 to 1000000 and SECONDS 0.001 to 86400")
                }
                return (parts[0], burst, seconds)
            }
        }
    }

    package enum OnOff: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    package init() {}

    package func validate() throws {
        for bound in numericBounds where !bound.range.contains(bound.value) {
            throw ValidationError(
                "--\(bound.flag) must be from \(bound.range.lowerBound) to \(bound.range.upperBound)\(bound.unit)")
        }
        _ = try parsedLimits
        for proxy in trustedProxies where !Self.isIPAddress(proxy) {
            throw ValidationError("--trusted-proxy \"\(proxy)\" is not an IP address (like 10.0.0.2 or ::1)")
        }
        if let instanceURL {
            let parts = URLComponents(string: instanceURL)
            guard parts?.scheme == "http", parts?.host?.isEmpty == false, parts?.path.isEmpty ?? false,
                parts?.query == nil, parts?.user == nil
            else {
                throw ValidationError("--instance-url must be http://HOST[:PORT] with no path, e.g. http://10.0.0.5:8080")
            }
        }
    }

    /// Every numeric option, its value and the values it may take (with the unit its message names).
    private var numericBounds: [(flag: String, value: Int, range: ClosedRange<Int>, unit: String)] {
        [
            ("port", port, 0...65535, ""),
            ("idle-timeout", idleTimeout, 1...3600, " seconds"),
            ("head-timeout", headTimeout, 1...3600, " seconds"),
            ("body-timeout", bodyTimeout, 1...3600, " seconds"),
            ("max-rooms", maxRooms, 1...100_000, ""),
            ("max-hosted-rooms", maxHostedRooms, 1...100, ""),
            ("room-seats", roomSeats, 2...2_000, ""),
            ("upload-quota-mib", uploadQuotaMib, 1...10_240, ""),
            ("room-lease", roomLease, 1...60, " seconds"),
            ("max-drafts", maxDrafts, 1...1000, ""),
            ("draft-quota-kib", draftQuotaKib, 64...102_400, ""),
            ("draft-expiry-days", draftExpiryDays, 1...3650, ""),
            ("unjoined-room-minutes", unjoinedRoomMinutes, 1...120, ""),
            ("unused-upload-hours", unusedUploadHours, 1...8760, ""),
            ("hide-after-reports", hideAfterReports, 0...1000, ""),
            ("reporter-min-age-hours", reporterMinAgeHours, 0...8760, ""),
            ("reporter-min-plays", reporterMinPlays, 0...1000, ""),
            ("protect-after-plays", protectAfterPlays, 1...100_000_000, ""),
            ("max-connections-per-address", maxConnectionsPerAddress, 1...100_000, ""),
            ("tmdb-deadline", tmdbDeadline, 100...60_000, " milliseconds"),
            ("tmdb-max-in-flight", tmdbMaxInFlight, 1...1000, ""),
            ("tmdb-queue-timeout", tmdbQueueTimeout, 10...60_000, " milliseconds"),
            ("tmdb-rate", tmdbRate, 1...10_000, ""),
            ("tmdb-cache-entries", tmdbCacheEntries, 1...1_000_000, ""),
            ("tmdb-breaker-failures", tmdbBreakerFailures, 0...1000, ""),
            ("tmdb-breaker-cooldown", tmdbBreakerCooldown, 1...3600, ""),
            ("suggest-min-titles", suggestMinTitles, 0...10_000_000, ""),
            ("suggest-tmdb-fills", suggestTmdbFills, 0...100, ""),
            ("db-deadline", dbDeadline, 50...60_000, " milliseconds"),
            ("db-connections", dbConnections, 1...200, ""),
        ]
    }

    /// In `uquiz-net`, which links the server (see `NetworkCommands`).
    package func run() async throws {
        try await NetworkCommands.here().serve(self)
    }

    /// Whether `text` is an IPv4 or IPv6 address as a peer's address is written.
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}

extension LogFormat: ExpressibleByArgument {}
