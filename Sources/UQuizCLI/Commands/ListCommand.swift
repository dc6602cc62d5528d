import ArgumentParser
import LocalUseCases
import PosterGrid
import QuizCore
import QuizStore
import UQuizStorage
import UQuizWire

// Levels and languages are read in any case (`--level Expert`).
extension Level: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension QuizLanguage: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension BrowseOrder: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List quiz packages.",
        discussion: """
            Shows id, share code, title, level, language, number of quizzes, maker, best score and the codes servers \
            gave the copies uquiz publish made, oldest first. \
            Either the id or the share code names a package in other commands.

            --json prints an array of objects with the keys id, shareCode, title, level (beginner|intermediate|expert), \
            language (ko|en), maker, origin (seed|user), quizCount, bestScore (null until played) and createdAt \
            (ISO 8601), and serverCodes (the code each server gave the copy uquiz publish made, by server address; {} \
            when never published); the keys are stable.
            """
    )

    @OptionGroup var store: StoreOptions
    @Option(help: "Only packages of this level (beginner, intermediate, expert).") var level: Level?
    @Option(help: "Only packages in this language (ko, en).") var language: QuizLanguage?
    @Flag(help: "Only packages you made (not the bundled ones).") var mine = false
    // Unconditional, so `--limit -1` is read as a number (and refused as one) rather than as an unknown option.
    @Option(parsing: .unconditional, help: "Show at most this many packages.") var limit: Int = 50
    @Flag(help: "Show every package, however many.") var all = false
    @Flag(help: "Print JSON instead of a table.") var json = false

    func checkFlags() throws {
        if limit < 1 { throw ValidationError("--limit must be 1 or more") }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let filter = PackageFilter(level: level, language: language, origin: mine ? .user : nil)
        let page = try PackageLibrary(environment: context.environment).list(filter, limit: all ? nil : limit)
        if json {
            print(try JSONOutput.string(page.rows.map(PackageRowJSON.init)))
            return
        }
        guard !page.rows.isEmpty else {
            print(mine ? "You have made no packages yet." : "No packages match.")
            return
        }
        let terminal = context.terminal
        print(Self.table(page.rows, terminal: terminal))
        if page.total > page.rows.count {
            print(terminal.dim("… \(page.total - page.rows.count) more; use --limit N or --all to see them"))
        }
    }

    /// The packages table, shared with `solve` when it has no terminal to play on.
    static func table(_ rows: [PackageSummary], terminal: Terminal) -> String {
        TextTable(
            headers: ["ID", "CODE", "TITLE", "LEVEL", "LANG", "QUIZZES", "BEST", "MAKER", "ON SERVERS"],
            rows: rows.map { row in
                [
                    String(row.id), row.shareCode, row.title, row.level.rawValue, row.language.rawValue,
                    String(row.quizCount), row.bestScore.map(String.init) ?? "-", row.maker,
                    row.serverCodes.isEmpty ? "-" : row.serverCodes.values.sorted().joined(separator: " "),
                ]
            }
        ).render(terminal: terminal, maxWidths: [2: 40])
    }
}

/// The documented JSON shape of one `list` row (`list --json`); a package never played has `bestScore: null`.
struct PackageRowJSON: Encodable {
    var id: Int64
    var shareCode: String
    var title: String
    var level: String
    var language: String
    var maker: String
    var origin: String
    var quizCount: Int
    @NullEncodable var bestScore: Int?
    var createdAt: String
    /// The codes of the copies `uquiz publish` made, by server base URL.
    var serverCodes: [String: String]

    init(_ row: PackageSummary) {
        id = row.id
        shareCode = row.shareCode
        title = row.title
        level = row.level.rawValue
        language = row.language.rawValue
        maker = row.maker
        origin = row.origin.rawValue
        quizCount = row.quizCount
        bestScore = row.bestScore
        createdAt = row.createdAt
        serverCodes = row.serverCodes
    }
}
