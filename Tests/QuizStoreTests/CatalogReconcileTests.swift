import Foundation
import UQuizTestSupport
import GRDB
import PosterGrid
import QuizCore
import Testing

@testable import QuizStore
import UQuizStorage

@Suite("The catalog holds one row per TMDB id")
struct CatalogReconcileTests {
    @Test func aNetworkUpdateOfAMovieKnownUnderAnotherKeyMergesIntoIt() throws {
        let folder = try TemporaryFolder()
        let database = try seededDatabase(in: folder)
        let custom = CatalogMovie(
            catalogKey: "seed-some-film", tmdbId: 4242, originalTitle: "Some Film", titles: [.ko: "어떤 영화"],
            releaseDate: "2001", posterPaths: [:], bundledPoster: nil, aliases: [])
        try database.upsertMovies([custom])
        let stored = try database.upsertMovies([
            CatalogMovie(
                catalogKey: "tmdb-4242", tmdbId: 4242, originalTitle: "Some Film", titles: [.en: "Some Film"],
                releaseDate: "2001-02-03", posterPaths: [.en: "/some.jpg"], bundledPoster: nil, aliases: [])
        ])
        #expect(stored.map(\.catalogKey) == ["seed-some-film"])
        #expect(try database.catalogMovie(key: "tmdb-4242")?.catalogKey == "seed-some-film", "found by its TMDB id")
        #expect(try database.searchCatalog("Some Film", language: .en).count == 1, "one row")
        let merged = try #require(try database.catalogMovie(key: "seed-some-film"))
        #expect(merged.titles == [.ko: "어떤 영화", .en: "Some Film"])
        #expect(merged.releaseDate == "2001-02-03")
    }

    @Test func anImportedMovieKnownUnderAnotherKeyJoinsThatRowAndTheQuizPointsAtIt() throws {
        let folder = try TemporaryFolder()
        let database = try seededDatabase(in: folder)
        var package = userPackage(code: "MPRTX2")
        package.quizzes[0] = Quiz(
            tmdbId: 19, catalogKey: "export-metropolis", title: "Metropolis", originalTitle: "Metropolis",
            releaseDate: "1927", genreIds: [], posterPath: "/metropolis-1927.jpg", posterSource: .tmdb,
            geometry: .standard, areas: [Cell(row: 20, column: 20)])
        let movie = CatalogMovie(
            catalogKey: "export-metropolis", tmdbId: 19, originalTitle: "Metropolis", titles: [.en: "Metropolis"],
            releaseDate: "1927", posterPaths: [:], bundledPoster: nil, aliases: [])
        let saved = try database.importPackages([package], movies: [movie], asCopy: false, newCode: { ShareCode("ZZZZZ2")! })
        let stored = try database.package(id: saved[0].id)
        #expect(stored.quizzes[0].catalogKey == "tmdb-19")
        #expect(try database.catalogMovie(key: "export-metropolis") == nil, "no second row for the same film")
        let metropolis = try #require(try database.catalogMovie(key: "tmdb-19"))
        #expect(metropolis.titles[.ko] == "메트로폴리스")
        #expect(metropolis.releaseDate == "1927-01-10", "an import fills gaps only")
    }

    @Test func aSeedMergeJoinsAFilmHeldUnderAnotherKeyAndItsQuizzesFollow() throws {
        let folder = try TemporaryFolder()
        let database = try seededDatabase(in: folder)
        // As if Metropolis had come from a file under its own key before the seed had it.
        try database.write { db in
            try db.execute(sql: "UPDATE movie SET catalogKey = 'export-metropolis' WHERE catalogKey = 'tmdb-19'")
            try db.execute(sql: "UPDATE quiz SET catalogKey = 'export-metropolis' WHERE catalogKey = 'tmdb-19'")
        }
        let report = try database.mergeSeed(from: repositorySeed)
        #expect(report.updated.isEmpty && report.added.isEmpty, "\(report)")
        let orphans = try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM quiz WHERE catalogKey NOT IN (SELECT catalogKey FROM movie)")
        }
        #expect(orphans == 0, "every quiz names a movie of the catalog")
        #expect(try database.catalogMovie(key: "export-metropolis")?.bundledPoster == "metropolis-1927.jpg")
        #expect(try database.integrityProblems().isEmpty)
    }
}
