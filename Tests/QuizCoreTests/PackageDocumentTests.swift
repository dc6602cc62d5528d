import Foundation
import PosterGrid
import QuizCore
import Testing

/// A spec, an export's package and a seed package are one type, `PackageDocument`, checked by one validator.
@Suite("One package document")
struct PackageDocumentTests {
    @Test func aSpecIsOnePackageBesideItsFormat() throws {
        let spec = try PackageSpec.decode(Data("""
            {"format": 1, "title": "Mine", "level": "expert",
             "quizzes": [{"movie": 27205, "poster": "/abc.jpg", "areas": [[30, 25]]}, {"movie": "seed-the-host"}]}
            """.utf8))
        #expect(spec.format == 1)
        #expect(spec.package == PackageDocument(
            title: "Mine", maker: nil, level: "expert", language: nil,
            quizzes: [.init(movie: .tmdb(27205), poster: "/abc.jpg", areas: [[30, 25]]), .init(movie: .catalog("seed-the-host"))]))
        let checked = try spec.check(geometry: .standard, levels: .standard)
        #expect(checked.quizzes.map(\.movie) == [.tmdb(27205), .catalog("seed-the-host")])
        #expect(checked.quizzes.map(\.areas) == [[Cell(row: 30, column: 25)], nil])
        #expect(checked.stored == nil, "a spec is no stored package")
    }

    @Test func anExportsPackageHasTheMoviesFactsAndItsGrid() throws {
        let document = try JSONDecoder().decode(ExportDocument.self, from: exportJSON())
        let package = try #require(document.packages.first)
        #expect(package.shareCode == "HSTX22" && package.createdAt == "2026-11-23T00:00:00Z" && package.seedId == nil)
        let quiz = try #require(package.quizzes.first)
        guard case .facts(let movie) = quiz.movie else {
            Issue.record("an export writes the movie's facts")
            return
        }
        #expect(movie.catalogKey == "tmdb-19" && movie.tmdbId == 19)
        #expect(quiz.grid == .standard)
        let stored = try #require(try package.check(levels: .standard, form: .stored).stored)
        #expect(stored.package.quizzes.map(\.areas) == [[Cell(row: 20, column: 20)]])
        #expect(stored.movies.map(\.catalogKey) == ["tmdb-19"])
    }

    @Test func aSeedPackageHasItsSeedIdAndMoviesByKey() throws {
        let package = try JSONDecoder().decode(PackageDocument.self, from: Data("""
            {"seedId": "en-silent", "shareCode": "SYGAJY", "title": "Silent Classics", "maker": "uquiz", "level": "beginner",
             "language": "en", "createdAt": "2026-11-22T00:00:00Z",
             "quizzes": [{"movie": "tmdb-19", "poster": "bundled", "areas": [[20, 20]]}]}
            """.utf8))
        #expect(package.seedId == "en-silent")
        #expect(package.quizzes == [.init(movie: .catalog("tmdb-19"), poster: "bundled", areas: [[20, 20]])])
        #expect(throws: SpecProblem("$.packages[0].quizzes[0].movie", "expected the movie's facts")) {
            try package.check(levels: .standard, form: .stored, at: "$.packages[0]")
        }
    }

    @Test func aBadGridFailsWhenDecodedAtItsPath() {
        let bad = exportJSON(grid: #"{"columns": 50, "rows": 75, "areaSize": 4, "margin": 2}"#)
        #expect(throws: SpecProblem(
            "$.packages[0].quizzes[0].grid",
            "area size 4 is invalid: it must be a positive odd number so that an area has a centre cell")) {
            try ExportDocument.read(bad, levels: .standard)
        }
        #expect {
            try JSONDecoder().decode(ExportDocument.self, from: bad)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return JSONDecodingProblem.jsonPath(context.codingPath) == "$.packages[0].quizzes[0].grid"
        }
    }

    @Test func aStoredPackageNeedsWhatASpecMayLeaveOut() throws {
        var package = try JSONDecoder().decode(ExportDocument.self, from: exportJSON()).packages[0]
        package.maker = nil
        #expect(throws: SpecProblem("$.packages[0]", "missing \"maker\"")) {
            try package.check(levels: .standard, form: .stored, at: "$.packages[0]")
        }
        package.maker = "mallory"
        package.quizzes[0].areas = nil
        #expect(throws: SpecProblem("$.packages[0].quizzes[0]", "missing \"areas\"")) {
            try package.check(levels: .standard, form: .stored, at: "$.packages[0]")
        }
    }

    @Test func anExportWritesThePackagesAsItReadsThem() throws {
        let document = try JSONDecoder().decode(ExportDocument.self, from: exportJSON())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let again = try JSONDecoder().decode(ExportDocument.self, from: encoder.encode(document))
        #expect(again == document)
        let keys = try #require(
            (try JSONSerialization.jsonObject(with: encoder.encode(document)) as? [String: Any])
                .flatMap { ($0["packages"] as? [[String: Any]])?.first?["quizzes"] as? [[String: Any]] }?.first?.keys)
        #expect(Set(keys) == ["movie", "title", "posterPath", "posterSource", "genreIds", "grid", "areas"])
    }
}
