import ArgumentParser
import FakeTMDB
import Foundation

@main
struct FakeTMDBCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fake-tmdb",
        abstract: "A TMDB-compatible server on 127.0.0.1 with fault injection, for tests, benchmarks and offline demos.",
        discussion: """
            API under /3 (search/movie, movie/{id}, movie/{id}/images, movie/{id}/alternative_titles, configuration), \
            posters under /t/p/{size}/{file}. Point uquiz at it with UQUIZ_TMDB_API_URL=http://127.0.0.1:PORT/3 and \
            UQUIZ_TMDB_IMAGE_URL=http://127.0.0.1:PORT/t/p. The first line on standard output is \
            `listening on 127.0.0.1:PORT`.

            Posters: --posters FOLDER serves the JPEG files there under their own names (/t/p/w342/NAME.jpg) and \
            answers 404 for any other file, as TMDB does for a file it lacks; --stand-in-poster FILE serves that one \
            JPEG for every catalog movie's poster the folder lacks (a stand-in, not the movie's poster). Without \
            either, every catalog poster is a tiny grey stand-in.

            --fault PATH[;key=value]... injects a fault into requests whose path starts with PATH (* for all). Keys: \
            status, retry-after, delay-ms, drip-ms, truncate, close, malformed, huge=BYTES, content-type, times.
            """
    )

    @Option(help: "Port to listen on; 0 picks a free one.") var port: UInt16 = 0
    @Option(help: "Require this API key (api_key=KEY or Authorization: Bearer KEY).") var apiKey: String?
    @Option(help: ArgumentHelp("A JSON array of movies to serve instead of the built-in catalog.", valueName: "file"))
    var catalog: String?
    @Option(help: ArgumentHelp("Serve the movies of a uquiz seed source (Seed/seed.json) that have a TMDB id.", valueName: "file"))
    var seed: String?
    @Option(help: ArgumentHelp("A folder of JPEG files served as posters under their own names; any other file is 404.", valueName: "folder"))
    var posters: String?
    @Option(help: ArgumentHelp("A JPEG served for every catalog poster the folder lacks (a stand-in).", valueName: "file"))
    var standInPoster: String?
    @Option(help: "A fault to inject; repeat for more.") var fault: [String] = []
    @Option(help: ArgumentHelp("Append one line per request received to this file.", valueName: "file")) var log: String?

    func validate() throws {
        if catalog != nil && seed != nil { throw ValidationError("give --catalog or --seed, not both") }
    }

    func run() async throws {
        var configuration = FakeTMDBServer.Configuration(apiKey: apiKey, requestLog: log)
        if let catalog {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            configuration.catalog = try decoder.decode([FakeMovie].self, from: Data(contentsOf: URL(fileURLWithPath: catalog)))
        }
        if let seed {
            configuration.catalog = try SeedCatalog.movies(from: URL(fileURLWithPath: seed))
        }
        if let posters {
            let folder = URL(fileURLWithPath: posters)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }
            configuration.posterFiles = Dictionary(
                uniqueKeysWithValues: try names.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) })
            configuration.standInPoster = nil
        }
        if let standInPoster { configuration.standInPoster = try Data(contentsOf: URL(fileURLWithPath: standInPoster)) }
        configuration.faults = try fault.map(FaultRule.init(parsing:))
        let server = FakeTMDBServer(port: port, configuration: configuration)
        async let running: Void = server.run()
        try await server.waitUntilListening()
        // Written straight to the file descriptor: whoever started us waits for this line, so it must not sit in a buffer.
        FileHandle.standardOutput.write(Data("listening on 127.0.0.1:\(await server.port ?? port)\n".utf8))
        try await running
    }
}

/// The movies of a seed source in the fake server's shape: every language's poster, aliases as alternative titles.
enum SeedCatalog {
    struct Source: Decodable {
        var movies: [Movie]

        struct Movie: Decodable {
            var tmdbId: Int?
            var originalTitle: String
            var titles: [String: String]
            var releaseDate: String?
            var posters: [String: String]
            var aliases: [String]
        }
    }

    static func movies(from url: URL) throws -> [FakeMovie] {
        let source = try JSONDecoder().decode(Source.self, from: Data(contentsOf: url))
        return source.movies.compactMap { movie in
            guard let id = movie.tmdbId else { return nil }
            let posters = movie.posters.sorted { $0.key < $1.key }.map {
                FakeMovie.FakePoster(filePath: $0.value, language: $0.key, voteAverage: 5.5, voteCount: 10)
            }
            return FakeMovie(
                id: id, originalTitle: movie.originalTitle, titles: movie.titles, releaseDate: movie.releaseDate,
                genreIds: [], posters: posters, alternativeTitles: movie.aliases)
        }
    }
}
