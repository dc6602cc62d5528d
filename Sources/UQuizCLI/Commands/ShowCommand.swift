import ArgumentParser
import Foundation
import LocalUseCases
import PosterGrid
import QuizCore
import QuizStore
import UQuizStorage

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a package, its quizzes and where each quiz's areas lie.",
        discussion: """
            ID is the numeric id, the share code, or a seed id such as en-silent. Each quiz gets a small map of its \
            poster: each character stands for 2 x 4 grid cells, digits are the stages in reveal order, dots stay black.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The package's id, share code or seed id.") var id: String
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() async throws {
        let context = try await AppContext.make(store)
        let package = try PackageLibrary(environment: context.environment).package(id)
        if json {
            print(try JSONOutput.string(PackageJSON(package)))
            return
        }
        let terminal = context.terminal
        let clean = SafeText.clean
        print(terminal.bold(clean(package.title)))
        print(
            "id \(package.id!) · code \(package.shareCode) · \(package.level.rawValue) · \(package.language.rawValue)"
                + " · maker \(clean(package.maker)) · \(package.origin.rawValue) · \(Wording.count(package.quizzes.count, "quiz", "quizzes"))"
        )
        for (index, quiz) in package.quizzes.enumerated() {
            print("")
            let year = quiz.releaseYear.map { " (\(clean($0)))" } ?? ""
            let original = quiz.originalTitle != quiz.title ? " — \(clean(quiz.originalTitle))" : ""
            print(terminal.bold("\(index + 1). \(clean(quiz.title))\(year)") + original)
            let tmdb = quiz.tmdbId.map { "TMDB \($0) · " } ?? ""
            let poster = quiz.posterSource == .bundled ? "bundled poster \(quiz.posterPath)" : "poster \(quiz.posterPath)"
            print(terminal.dim("   \(tmdb)\(clean(poster)) · areas \(Wording.areas(quiz.areas))"))
            for line in AreaMap.lines(for: quiz) { print("   " + line) }
        }
    }
}

/// A text picture of where a quiz's areas lie on its poster.
enum AreaMap {
    /// One character per `cellsWide` x `cellsTall` cells keeps the poster's 2:3 shape in a terminal whose characters are
    /// about twice as tall as wide.
    static func lines(for quiz: Quiz, cellsWide: Int = 2, cellsTall: Int = 4) -> [String] {
        lines(geometry: quiz.geometry, areas: quiz.areas, cellsWide: cellsWide, cellsTall: cellsTall)
    }

    static func lines(geometry: GridGeometry, areas: [Cell], cellsWide: Int = 2, cellsTall: Int = 4) -> [String] {        return stride(from: 0, to: geometry.rows, by: cellsTall).map { top in
            String(
                stride(from: 0, to: geometry.columns, by: cellsWide).map { left -> Character in
                    var stage: Int?
                    for row in top..<min(top + cellsTall, geometry.rows) {
                        for column in left..<min(left + cellsWide, geometry.columns) {
                            let cell = Cell(row: row, column: column)
                            if let covering = geometry.stage(covering: cell, among: areas) {
                                stage = min(stage ?? covering, covering)
                            }
                        }
                    }
                    return stage.map { $0 < 10 ? Character(String($0)) : "+" } ?? "·"
                })
        }
    }
}

extension AreaMap {
    /// The map with row numbers down the left and column numbers across the top, for picking areas by coordinates.
    static func labelledLines(geometry: GridGeometry, areas: [Cell]) -> [String] {
        var header = Array(repeating: Character(" "), count: (geometry.columns + 1) / 2)
        for column in stride(from: 0, to: geometry.columns, by: 10) {
            for (offset, digit) in String(column).enumerated() where column / 2 + offset < header.count {
                header[column / 2 + offset] = digit
            }
        }
        let body = lines(geometry: geometry, areas: areas).enumerated().map { index, line in
            let row = String(index * 4)
            return String(repeating: " ", count: 4 - row.count) + row + "  " + line
        }
        return ["      " + String(header)] + body
    }
}

/// The documented JSON shape of one package (`show --json`); absent facts are `null`, never left out.
struct PackageJSON: Codable {
    struct QuizJSON: Codable {
        var position: Int
        var title: String
        var originalTitle: String
        @NullEncodable var tmdbId: Int?
        @NullEncodable var releaseDate: String?
        var posterPath: String
        var posterSource: String
        var grid: GridGeometry
        var areas: [[Int]]
    }

    var id: Int64
    var shareCode: String
    @NullEncodable var seedId: String?
    var origin: String
    var title: String
    var maker: String
    var level: String
    var language: String
    var createdAt: String
    var quizzes: [QuizJSON]


    init(_ package: QuizPackage) {
        id = package.id ?? 0
        shareCode = package.shareCode.value
        seedId = package.seedId
        origin = package.origin.rawValue
        title = package.title
        maker = package.maker
        level = package.level.rawValue
        language = package.language.rawValue
        createdAt = package.createdAt
        quizzes = package.quizzes.enumerated().map { index, quiz in
            QuizJSON(
                position: index + 1, title: quiz.title, originalTitle: quiz.originalTitle, tmdbId: quiz.tmdbId,
                releaseDate: quiz.releaseDate, posterPath: quiz.posterPath, posterSource: quiz.posterSource.rawValue,
                grid: quiz.geometry,
                areas: quiz.areas.map { [$0.row, $0.column] })
        }
    }
}
