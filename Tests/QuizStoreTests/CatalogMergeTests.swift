import Foundation
import UQuizTestSupport
import GRDB
import PosterGrid
import QuizCore
import Testing

@testable import QuizStore
import UQuizStorage

/// What TMDB says of Metropolis in one language: a title, a date, a poster path; nothing of the other language.
private func networkMetropolis(language: QuizLanguage = .en, title: String = "Metropolis") -> CatalogMovie {
    CatalogMovie(
        catalogKey: "tmdb-19", tmdbId: 19, originalTitle: "Metropolis", titles: [language: title],
        releaseDate: "1927-01-10", posterPaths: [language: "/metropolis-1927.jpg"], bundledPoster: nil, aliases: [])
}

@Suite("Catalog updates merge, from the network and from files")
struct CatalogMergeTests {
    @Test func aNetworkUpdateKeepsWhatTheNetworkDidNotSay() throws {
        let folder = try TemporaryFolder()
        let database = try seededDatabase(in: folder)
        let before = try #require(try database.catalogMovie(key: "tmdb-19"))
        #expect(before.titles[.ko] == "메트로폴리스")
        #expect(before.bundledPoster == "metropolis-1927.jpg")

        try database.upsertMovies([networkMetropolis()])

        let after = try #require(try database.catalogMovie(key: "tmdb-19"))
        #expect(after.titles[.ko] == "메트로폴리스", "the Korean title the search did not mention survives")
        #expect(after.titles[.en] == "Metropolis")
        #expect(after.bundledPoster == "metropolis-1927.jpg", "the bundled poster survives")
        #expect(after.posterPaths[.en] == "/metropolis-1927.jpg", "the poster path TMDB stated is learned")
        #expect(try database.searchCatalog("메트로", language: .ko).map(\.catalogKey) == ["tmdb-19"])
    }

    @Test func aNetworkUpdateOverwritesWhatItStatesAndNeverErases() throws {
        let folder = try TemporaryFolder()
        let database = try seededDatabase(in: folder)
        let inception = try #require(try database.catalogMovie(key: "tmdb-27205"))
        var update = CatalogMovie(
            catalogKey: "tmdb-27205", tmdbId: 27205, originalTitle: "Inception", titles: [.ko: "인셉션 (재개봉)"],
            releaseDate: nil, posterPaths: [.ko: "/new-korean-poster.jpg"], bundledPoster: nil, aliases: ["Origen"])
        try database.upsertMovies([update])
        let after = try #require(try database.catalogMovie(key: "tmdb-27205"))
        #expect(after.titles[.ko] == "인셉션 (재개봉)")
        #expect(after.titles[.en] == inception.titles[.en])
        #expect(after.releaseDate == inception.releaseDate, "a date the network did not give is kept")
        #expect(after.posterPaths[.ko] == "/new-korean-poster.jpg")
        #expect(after.posterPaths[.en] == inception.posterPaths[.en])
        #expect(after.aliases.contains("Origen"))
        update.titles = [:]
        update.originalTitle = ""
        try database.upsertMovies([update])
        let again = try #require(try database.catalogMovie(key: "tmdb-27205"))
        #expect(again.originalTitle == "Inception", "an empty original title never erases the known one")
        #expect(again.titles[.ko] == "인셉션 (재개봉)")
    }
}
