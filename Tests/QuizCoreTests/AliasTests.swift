import Foundation
import PosterGrid
import QuizCore
import Testing

/// A title that counts how often it is compared or hashed, to measure a merge by its steps rather than its time.
final class StepCounter: @unchecked Sendable {
    var steps = 0
}

struct CountedTitle: Hashable {
    let text: String
    let counter: StepCounter

    static func == (lhs: CountedTitle, rhs: CountedTitle) -> Bool {
        lhs.counter.steps += 1
        return lhs.text == rhs.text
    }

    func hash(into hasher: inout Hasher) {
        counter.steps += 1
        hasher.combine(text)
    }
}

@Suite("Aliases: bounded in files, merged in linear time")
struct AliasTests {
    @Test func aMergeOfManyAliasesTakesStepsInProportionToThem() {
        for count in [1_000, 20_000] {
            let counter = StepCounter()
            let existing = (0..<count).map { CountedTitle(text: "old \($0)", counter: counter) }
            let added = (0..<count).map { CountedTitle(text: $0 % 2 == 0 ? "old \($0)" : "new \($0)", counter: counter) }
            let merged = Aliases.merged(existing, added)
            #expect(merged.count == count + count / 2)
            #expect(merged.prefix(count) == existing[...], "what was held stays first, in order")
            // A search of the list per alias would take count² / 2 steps (200 million for 20,000).
            #expect(counter.steps < 10 * count, "\(counter.steps) steps for \(count) + \(count) aliases")
        }
    }

    @Test func aMergeKeepsOrderAndDropsRepeats() {
        #expect(Aliases.merged(["a", "b"], ["b", "c", "a", "c", "d"]) == ["a", "b", "c", "d"])
        #expect(Aliases.merged([], ["x", "x"]) == ["x"])
    }

    @Test func aFileMayCarryAtMostFiftyAliasesPerMovie() throws {
        let fifty = (0..<Aliases.maxPerMovie).map { "alias \($0)" }
        #expect(throws: Never.self) { try ExportDocument.read(exportJSON(aliases: fifty), levels: .standard) }
        #expect(throws: SpecProblem("$.packages[0].quizzes[0].movie.aliases", "100000 aliases: a movie carries at most 50")) {
            try ExportDocument.read(exportJSON(aliases: (0..<100_000).map { "alias \($0)" }), levels: .standard)
        }
        #expect(throws: SpecProblem("$.packages[0].quizzes[0].movie.aliases[1]", "the alias contains control characters")) {
            try ExportDocument.read(exportJSON(aliases: ["fine", "bad\u{1B}[2J"]), levels: .standard)
        }
    }

    @Test func anExportCarriesOnlyAliasesItsImportAccepts() throws {
        let quiz = Quiz(
            tmdbId: 19, catalogKey: "tmdb-19", title: "Metropolis", originalTitle: "Metropolis", releaseDate: nil,
            genreIds: [], posterPath: "/metropolis-1927.jpg", posterSource: .tmdb, geometry: .standard,
            areas: [Cell(row: 20, column: 20)])
        let package = QuizPackage(
            shareCode: ShareCode("HSTX22")!, seedId: nil, origin: .user, title: "Mine", maker: "me", level: .expert,
            language: .en, createdAt: "2026-11-23T00:00:00Z", quizzes: [quiz])
        // What TMDB may have given the catalog: many titles, some longer than a file may carry.
        let catalogAliases = [String(repeating: "long ", count: 60)] + (0..<80).map { "title \($0)" }
        let movie = CatalogMovie(
            catalogKey: "tmdb-19", tmdbId: 19, originalTitle: "Metropolis", titles: [.en: "Metropolis"], releaseDate: nil,
            posterPaths: [:], bundledPoster: nil, aliases: catalogAliases)
        var heavyTitled = movie
        heavyTitled.titles[.ko] = String(repeating: "긴 제목 ", count: 60)
        let document = ExportDocument(packages: [package], movies: ["tmdb-19": heavyTitled])
        let written = document.packages[0].quizzes[0].movie.facts?.aliases
        #expect(written == (0..<50).map { "title \($0)" })
        #expect(document.packages[0].quizzes[0].movie.facts?.titles == ["en": "Metropolis"], "a title too long to import is left out")
        #expect(throws: Never.self) { try ExportDocument.read(JSONEncoder().encode(document), levels: .standard) }
    }

    @Test func aQuizCarriesABoundedNumberOfGenres() throws {
        var document = try JSONDecoder().decode(ExportDocument.self, from: exportJSON())
        document.packages[0].quizzes[0].genreIds = Array(0..<100_000)
        #expect(throws: SpecProblem("$.packages[0].quizzes[0].genreIds", "100000 genres: a quiz carries at most 30")) {
            try ExportDocument.read(JSONEncoder().encode(document), levels: .standard)
        }
    }
}
