import Foundation
import GRDB
import PosterGrid
import QuizCore
import Testing

@testable import QuizStore
import UQuizStorage

@Suite("Aliases from a file stay with their quiz")
struct QuizAliasTests {
    @Test func importedAliasesJudgeTheirQuizAndNeverReachTheCatalog() throws {
        let database = try AppDatabase.inMemory()
        var package = userPackage()
        package.quizzes[0].aliases = ["El origen", "El origen", "Inception (2010)"]
        let fileMovie = CatalogMovie(
            catalogKey: "tmdb-27205", tmdbId: 27205, originalTitle: "Inception", titles: [.en: "Inception"],
            releaseDate: nil, posterPaths: [:], bundledPoster: nil, aliases: ["smuggled into the catalog"])
        let saved = try database.importPackages([package], movies: [fileMovie], asCopy: false, newCode: { ShareCode("ZZZZZ2")! })
        let stored = try database.package(id: saved[0].id)
        #expect(stored.quizzes[0].aliases == ["El origen", "Inception (2010)"])
        #expect(try database.catalogMovie(key: "tmdb-27205")?.aliases == [], "the catalog learns no alias from a file")
        let catalog = try database.allCatalogMovies()
        #expect(AnswerJudge(quiz: stored.quizzes[0], catalog: catalog).judge("el origen").isAccepted)

        // Another package on the same movie is judged without them.
        var other = userPackage(title: "Other", code: "THERE2")
        other.quizzes[0].aliases = []
        let otherId = try database.insert(other)
        #expect(!AnswerJudge(quiz: try database.package(id: otherId).quizzes[0], catalog: catalog).judge("el origen").isAccepted)

        // An edit keeps them; deleting the package takes them along.
        try database.saveEdit(packageId: saved[0].id, edited: stored)
        #expect(try database.package(id: saved[0].id).quizzes[0].aliases == ["El origen", "Inception (2010)"])
        try database.deletePackages(ids: [saved[0].id])
        #expect(try database.read { try QuizAliasRecord.fetchCount($0) } == 0)
    }

    @Test func theSeedAndTMDBStillTeachTheCatalogAliases() throws {
        let database = try AppDatabase.inMemory()
        let movie = CatalogMovie(
            catalogKey: "tmdb-27205", tmdbId: 27205, originalTitle: "Inception", titles: [.en: "Inception"],
            releaseDate: nil, posterPaths: [:], bundledPoster: nil, aliases: ["Origen"])
        try database.upsertMovies([movie])
        #expect(try database.catalogMovie(key: "tmdb-27205")?.aliases == ["Origen"])
    }
}
