import ArgumentParser
import Foundation
import LocalUseCases
import MovieSearch
import QuizCore
import QuizStore
import UQuizStorage

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search movies on TMDB, or in the local catalog when offline.",
        discussion: """
            With TMDB credentials (TMDB_READ_ACCESS_TOKEN or TMDB_API_KEY, or tmdb.readAccessToken / tmdb.apiKey in \
            $XDG_CONFIG_HOME/uquiz/config.json) the search goes to TMDB and every movie found joins the local catalog. \
            Without credentials, with --offline, or when TMDB cannot be reached, the local catalog answers (the \
            bundled movies and every movie a search brought) and the output says so. Repeated searches within TMDB's \
            cache time cost no request.

            --json prints {source: "tmdb"|"catalog", offlineReason: string|null, page, totalPages, totalResults, \
            results: [{id, title, originalTitle, releaseDate, posterPath}]}; id is the TMDB id (null for catalog \
            movies without one).
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Words of the title, in any language.") var query: String
    @Option(help: "Only movies released this year.") var year: Int?
    @Option(help: "Result page, 1...500.") var page: Int = 1
    @Option(help: "Titles in this language (ko, en); default from the configuration or LANG.") var language: QuizLanguage?
    @Flag(help: "Search only the local catalog.") var offline = false
    @Flag(help: "Print JSON instead of a table.") var json = false

    func checkFlags() throws {
        if query.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the search words are empty") }
        if !(1...500).contains(page) { throw ValidationError("--page must be 1...500") }
        if let year, !(1870...2100).contains(year) { throw ValidationError("--year must be a year such as 2019") }
    }

    struct Output: Encodable {
        var source: String
        @NullEncodable var offlineReason: String?
        var page: Int
        var totalPages: Int
        var totalResults: Int
        var results: [Row]

        struct Row: Encodable {
            @NullEncodable var id: Int?
            var title: String
            var originalTitle: String
            @NullEncodable var releaseDate: String?
            @NullEncodable var posterPath: String?
        }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let language = try context.settings.language(flag: self.language)
        let found = try await MovieSearching(environment: context.environment).find(
            query, language: language, page: page, year: year, offline: offline)
        let output = Output(
            source: found.offlineReason == nil ? "tmdb" : "catalog", offlineReason: found.offlineReason.map(Wording.offlineReason),
            page: found.page, totalPages: found.totalPages, totalResults: found.totalResults,
            results: found.results.map {
                .init(id: $0.tmdbId, title: $0.title, originalTitle: $0.originalTitle, releaseDate: $0.releaseDate,
                      posterPath: $0.posterPath)
            })
        try print(output, terminal: context.terminal)
    }

    private func print(_ output: Output, terminal: Terminal) throws {
        if json {
            Swift.print(try JSONOutput.string(output))
            return
        }
        if let reason = output.offlineReason {
            Console.note("offline: results from the local catalog (\(SafeText.clean(reason)))")
        }
        guard !output.results.isEmpty else {
            Swift.print("No movies match \"\(SafeText.clean(query))\".")
            return
        }
        let table = TextTable(
            headers: ["ID", "TITLE", "ORIGINAL TITLE", "YEAR", "POSTER"],
            rows: output.results.map { row in
                [
                    row.id.map(String.init) ?? "-", row.title, row.originalTitle == row.title ? "" : row.originalTitle,
                    row.releaseDate.map { String($0.prefix(4)) } ?? "", row.posterPath == nil ? "no" : "yes",
                ]
            })
        Swift.print(table.render(terminal: terminal, maxWidths: [1: 40, 2: 30]))
        if output.totalPages > output.page {
            Swift.print(terminal.dim("page \(output.page) of \(output.totalPages) (\(output.totalResults) movies); --page N for more"))
        }
    }
}

