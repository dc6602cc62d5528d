import ArgumentParser
import MovieSearch
import QuizCore

struct PostersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "posters",
        abstract: "List a movie's posters on TMDB (its language's, English and textless ones) to choose from.",
        discussion: """
            Best voted first. The PATH column is what a quiz stores as its poster. --json prints an array of \
            {filePath, language (null for textless), width, height, voteAverage, voteCount}. Needs TMDB credentials.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The TMDB movie id (the ID column of `uquiz search`).") var movieID: Int
    @Option(help: "Include posters in this language (ko, en); default from the configuration or LANG.")
    var language: QuizLanguage?
    @Flag(help: "Print JSON instead of a table.") var json = false

    struct Row: Encodable {
        var filePath: String
        @NullEncodable var language: String?
        var width: Int
        var height: Int
        var voteAverage: Double
        var voteCount: Int
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let language = try context.settings.language(flag: self.language)
        guard let client = try context.environment.movieClient() else {
            throw UsageError("posters needs TMDB: set TMDB_API_KEY or TMDB_READ_ACCESS_TOKEN")
        }
        let posters = try await client.posters(movieID: movieID, language: language)
        if json {
            print(try JSONOutput.string(posters.map {
                Row(filePath: $0.filePath, language: $0.language, width: $0.width, height: $0.height,
                    voteAverage: $0.voteAverage, voteCount: $0.voteCount)
            }))
            return
        }
        guard !posters.isEmpty else {
            print("TMDB has no posters for movie \(movieID) in \(language.rawValue), English or without text.")
            return
        }
        let table = TextTable(
            headers: ["LANG", "SIZE", "VOTES", "PATH"],
            rows: posters.map {
                [$0.language ?? "none", "\($0.width)x\($0.height)", String(format: "%.1f (%d)", $0.voteAverage, $0.voteCount),
                 $0.filePath]
            })
        print(table.render(terminal: context.terminal))
    }
}
