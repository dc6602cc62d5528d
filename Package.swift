// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "UQuiz",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "uquiz", targets: ["uquiz"]),
        // `uquiz serve` and `uquiz room` run in this one (see UQuizCLI's NetworkCommands); install it beside `uquiz`.
        .executable(name: "uquiz-net", targets: ["uquiz-net"]),
        .executable(name: "fake-tmdb", targets: ["fake-tmdb"]),
        .library(name: "PosterGrid", targets: ["PosterGrid"]),
        .library(name: "QuizCore", targets: ["QuizCore"]),
        .library(name: "UQuizStorage", targets: ["UQuizStorage"]),
        .library(name: "QuizStore", targets: ["QuizStore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "MovieSearch", targets: ["MovieSearch"]),
        .library(name: "PosterArt", targets: ["PosterArt"]),
        .library(name: "UQuizRules", targets: ["UQuizRules"]),
        .library(name: "ServerUseCases", targets: ["ServerUseCases"]),
        .library(name: "RemoteClient", targets: ["RemoteClient"]),
        .library(name: "LocalUseCases", targets: ["LocalUseCases"]),
        .library(name: "UQuizCLI", targets: ["UQuizCLI"]),
        .library(name: "UQuizServer", targets: ["UQuizServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // SHA-256 for player token hashes (issue 14).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // `uquiz serve` (issue 14): the HTTP server, its start-up and graceful shutdown; NIO and HTTP types are
        // Hummingbird's own dependencies, named because the server module uses a few of their types directly.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // `uquiz serve` on PostgreSQL (issue 16): the wire protocol client, used only by the PostgresStore module.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Live rooms (issue 17): the WebSocket route `/v1/rooms/{code}/ws`, and a real client for the loopback tests.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Rooms across instances (issue 17): an instance forwards a room's lobby and poster requests to the instance
        // holding the room (the room's socket goes through HummingbirdWSClient).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The server's metrics (`GET /metrics`), in the Prometheus text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // gzip on the wire for the web player's assets and the API's larger answers (zlib through CompressNIO).
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    ],
    targets: [
        // Pure grid geometry, area rules, levels and the reveal schedule: no I/O, no dependencies.
        .target(name: "PosterGrid"),
        // Domain model shared by every capability.
        // Crypto for SHA-256 only: a room keeps the digest of each resume token, never the token, so what it checkpoints to
        // the store cannot seat anyone.
        // Confusables/confusables.txt is Unicode TR39's table of look-alike characters, generated from ICU by
        // generate.py beside it and embedded, so that comparing names needs no ICU at run time.
        .target(
            name: "QuizCore", dependencies: ["PosterGrid", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["Confusables/generate.py"], resources: [.embedInCode("Confusables/confusables.txt")]),
        // The storage boundary: the protocols the front ends' use cases store through (the CLI's local store, the
        // server's store, rooms), the records they pass and the store errors. It knows neither database, and both
        // stores implement it without knowing each other.
        .target(
            name: "UQuizStorage",
            // Each store call is timed by operation (swift-metrics: a no-op unless the server bootstraps a backend).
            dependencies: ["QuizCore", "PosterGrid", .product(name: "Metrics", package: "swift-metrics")]),
        // The SQLite store: GRDB over the system libsqlite3; the only module that knows SQLite.
        .target(
            name: "QuizStore",
            dependencies: ["UQuizStorage", "QuizCore", "PosterGrid", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The PostgreSQL store: the server's storage over postgres-nio, so that several `uquiz serve` instances share
        // one database; the only module that knows PostgreSQL.
        .target(
            name: "PostgresStore",
            dependencies: [
                "UQuizStorage", "QuizCore", "PosterGrid",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The connection error that says what each address tried answered (refused, unreachable).
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // The store is a service: its connection pool runs beside the server, and stops with it.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Connections in use and waiting, for the server's metrics.
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // libcurl, the only HTTP stack of the product (apt libcurl4-openssl-dev): its headers only. No pkg-config and
        // no link: linking libcurl would load it and ~30 libraries behind it at every start-up (9 ms, doubling the
        // cost of `uquiz list`), so CurlLoader opens it with dlopen when a network command first needs it.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CurlLoader", dependencies: ["CCurl"]),
        // The TMDB-style API over libcurl: the only module that knows HTTP.
        .target(name: "MovieSearch", dependencies: ["CCurl", "CurlLoader", "QuizCore"]),
        // A TMDB-compatible server with fault injection, for tests, benchmarks and offline demos.
        .target(name: "FakeTMDB", dependencies: [.product(name: "FlyingFox", package: "FlyingFox")]),
        .executableTarget(
            name: "fake-tmdb",
            dependencies: ["FakeTMDB", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // libjpeg-turbo's TurboJPEG API (apt libturbojpeg0-dev); it links only libc, so it costs nothing at start-up.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // libqrencode (apt libqrencode-dev): the QR codes of join links; it links only libc.
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Poster pixels: JPEG decoding, the poster seen through the grid (colours, detail); share cards and QR codes.
        .target(
            name: "PosterArt",
            dependencies: ["CTurboJPEG", "CQREncode", "PosterGrid", .product(name: "Metrics", package: "swift-metrics")]),
        // Terminal size and raw mode: ioctl is variadic, which Swift cannot call.
        .target(name: "CTerminal"),
        // The WebSocket client of live rooms (issue 17), for the terminal's `uquiz room`: the only client module that
        // knows WebSockets, as MovieSearch is the only one that knows HTTP. It adapts RemoteClient's room-socket port.
        .target(
            name: "RoomSocket",
            dependencies: [
                "RemoteClient",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The wire both sides speak: the API's Codable bodies (`ServerAPI`) and the live rooms' messages (`RoomWire`),
        // what the server answers and its clients read. It names no use case of either side.
        .target(name: "UQuizWire", dependencies: ["PosterGrid", "QuizCore", "UQuizStorage"]),
        // The application layer, by the side it serves. First what both sides' use cases apply: how a search is
        // answered, how a quiz is built from a spec, how a play runs (`SolveLoop`), TMDB's poster files.
        .target(
            name: "UQuizRules",
            dependencies: ["PosterGrid", "QuizCore", "UQuizStorage", "MovieSearch", "PosterArt"]
        ),
        // The server's use cases (players, plays, boards, the daily, rooms, drafts, moderation) over `ServerStorage` and
        // the server's own environment; it knows nothing of the command line.
        // Crypto: player tokens are issued and checked here (SHA-256 of the token is all that is stored).
        .target(
            name: "ServerUseCases",
            dependencies: [
                "UQuizRules", "UQuizWire", "PosterGrid", "QuizCore", "UQuizStorage", "MovieSearch", "PosterArt",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The client of a UQuiz server (`uquiz play`, `publish`, `room`): the API over the one HTTP transport, plays
        // and rooms driven from a front end's input, and the room-socket port `RoomSocket` implements.
        .target(name: "RemoteClient", dependencies: ["UQuizRules", "UQuizWire", "PosterGrid", "QuizCore", "MovieSearch"]),
        // The command line's own use cases (create, search, play, posters, seed, publish) over its local SQLite store
        // and an environment (clock, randomness, store, clients) built once at start-up.
        .target(
            name: "LocalUseCases",
            dependencies: [
                "UQuizRules", "RemoteClient", "UQuizWire", "PosterGrid", "QuizCore", "UQuizStorage", "MovieSearch", "PosterArt",
            ]
        ),
        // The HTTP front end (`uquiz serve`): Hummingbird routes that map requests to ServerUseCases and their
        // errors to statuses; the REST contract is `openapi.yaml`, embedded in the binary and served as it is.
        .target(
            name: "UQuizServer",
            dependencies: [
                "ServerUseCases", "UQuizRules", "UQuizWire", "QuizCore", "UQuizStorage", "PosterGrid",
                // What the server counts and times, and `GET /metrics` that says it (Metrics.swift).
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // The server's connection type, wrapped to close idle connections (ReadIdleGuard.swift).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // The bound channel's address, to say the real port when asked for port 0.
                .product(name: "NIOCore", package: "swift-nio"),
                // Request heads as the HTTP/1.1 decoder makes them, before Hummingbird does (RequestHeadDeadline.swift).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The thread pool poster files and JPEG cuts run on (ThreadPoolWork.swift).
                .product(name: "NIOPosix", package: "swift-nio"),
                // Header names Hummingbird does not re-export (`X-Request-Id`).
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The web player's asset version, a hash of its files.
                .product(name: "Crypto", package: "swift-crypto"),
                // Live rooms' WebSocket route, and the relay of a room's socket to the instance holding the room.
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            resources: [.embedInCode("openapi.yaml")]
        ),
        // The command-line front end: argument parsing, wording, output formatting, terminal drawing, configuration.
        .target(
            name: "UQuizCLI",
            dependencies: [
                "LocalUseCases", "RemoteClient", "UQuizRules", "UQuizWire", "PosterGrid", "QuizCore", "UQuizStorage", "QuizStore", "MovieSearch", "PosterArt", "CTerminal",
                // `uquiz admin`: the moderation desk of the server's use cases, run on the server's database.
                "ServerUseCases",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "uquiz", dependencies: ["UQuizCLI"]),
        // The same commands with the server and the room client linked: what `uquiz serve` and `uquiz room` become.
        .executableTarget(
            name: "uquiz-net",
            dependencies: [
                "UQuizCLI", "LocalUseCases", "ServerUseCases", "RemoteClient", "UQuizRules", "UQuizServer", "UQuizStorage", "QuizStore", "PostgresStore", "RoomSocket",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Bootstrapping swift-metrics with the Prometheus registry `GET /metrics` reads.
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(name: "PosterGridTests", dependencies: ["PosterGrid"]),
        .testTarget(name: "QuizCoreTests", dependencies: ["QuizCore", "PosterGrid"]),
        // Use cases in process: an in-memory store, a scripted clock and input, fakes for the network.
        .testTarget(
            name: "UseCaseTests",
            dependencies: ["LocalUseCases", "ServerUseCases", "RemoteClient", "UQuizRules", "UQuizWire", "UQuizTestSupport", "UQuizStorage", "QuizStore", "QuizCore", "PosterGrid"]
        ),
        // The server's router in process (HummingbirdTesting), over a real SQLite file seeded from the bundle.
        .testTarget(
            name: "UQuizServerTests",
            dependencies: [
                "UQuizServer", "ServerUseCases", "LocalUseCases", "UQuizRules", "UQuizWire", "UQuizStorage", "QuizStore", "QuizCore", "PosterGrid",
                // A real fake-tmdb process behind movie search, for TMDB's failures.
                "UQuizTestSupport", "MovieSearch",
                // To read what the server sent gzip-compressed.
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                // Real WebSocket clients for the live-room tests on loopback.
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                // Connection handlers driven by hand, without sockets or real time.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Each storage test written once and run against AppDatabase (SQLite) and PostgresQuizStore (PostgreSQL at
        // UQUIZ_TEST_POSTGRES_URL, which `bash .ci/test` starts; see `.ci/postgres`), and the server on PostgreSQL.
        .testTarget(
            name: "StorageContractTests",
            dependencies: [
                "PostgresStore", "ServerUseCases", "LocalUseCases", "UQuizRules", "UQuizServer", "UQuizStorage", "QuizStore", "QuizCore", "PosterGrid", "MovieSearch",
                "UQuizTestSupport",
                // Two server instances' routers in process on one PostgreSQL database.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "PosterArtTests", dependencies: ["PosterArt", "PosterGrid"]),
        // Client tests talk to a real fake-tmdb process on 127.0.0.1 through the real libcurl transport.
        .testTarget(name: "MovieSearchTests", dependencies: ["MovieSearch", "UQuizTestSupport"]),
        // Starts fake-tmdb processes for the test targets; the dependency gets the binary built.
        .target(name: "UQuizTestSupport", dependencies: ["fake-tmdb", "CTerminal", "LocalUseCases", "ServerUseCases", "UQuizRules", "UQuizStorage"], path: "Tests/Support"),
        .testTarget(
            name: "QuizStoreTests",
            dependencies: ["QuizStore", "UQuizStorage", "QuizCore", "PosterGrid", "UQuizTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // End-to-end tests run the built `uquiz` binary, so they depend on it to get it built first.
        .testTarget(
            name: "UQuizCLITests",
            dependencies: [
                "uquiz", "uquiz-net", "UQuizCLI", "UQuizServer", "UQuizWire", "UQuizTestSupport", "UQuizStorage", "QuizStore", "QuizCore", "PosterGrid", "PosterArt", "MovieSearch",
                // The terminal's room socket, as real WebSocket clients of `uquiz serve` processes.
                "RoomSocket",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)
