import Foundation
import QuizCore
import QuizStore
import UQuizStorage
import Testing

/// The catalog's merge rules and search: the same answers from SQLite and PostgreSQL.
@Suite struct CatalogContractTests {
    @Test(arguments: StoreKind.allCases)
    func upsertMergesWithoutErasing(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let first = CatalogMovie(
                catalogKey: "seed-host", tmdbId: nil, originalTitle: "괴물", titles: [.ko: "괴물"], releaseDate: "2006-07-27",
                posterPaths: [.ko: "/ko.jpg"], bundledPoster: nil, aliases: ["The Host"])
            #expect(try await store.upsertMovies([first]) == [first])
            // TMDB states the English title and a TMDB id for the same key: merged, the Korean facts kept.
            let stated = CatalogMovie(
                catalogKey: "seed-host", tmdbId: 1255, originalTitle: "괴물", titles: [.en: "The Host"], releaseDate: nil,
                posterPaths: [.en: "/en.jpg"], bundledPoster: nil, aliases: ["Gwoemul", "The Host"])
            let merged = try await store.upsertMovies([stated])
            let expected = CatalogMovie(
                catalogKey: "seed-host", tmdbId: 1255, originalTitle: "괴물", titles: [.ko: "괴물", .en: "The Host"],
                releaseDate: "2006-07-27", posterPaths: [.ko: "/ko.jpg", .en: "/en.jpg"], bundledPoster: nil,
                aliases: ["The Host", "Gwoemul"])
            #expect(merged == [expected])
            #expect(try await store.catalogMovie(key: "seed-host") == expected)
            // Another key with the same TMDB id is the same film: its facts join the stored row, under the stored key.
            let again = try await store.upsertMovies([
                CatalogMovie(
                    catalogKey: "tmdb-1255", tmdbId: 1255, originalTitle: "", titles: [:], releaseDate: "2006-07-28",
                    posterPaths: [:], bundledPoster: nil, aliases: [])
            ])
            #expect(again[0].catalogKey == "seed-host")
            #expect(again[0].releaseDate == "2006-07-28" && again[0].originalTitle == "괴물")
            #expect(try await store.catalogMovie(key: "tmdb-1255")?.catalogKey == "seed-host")
            #expect(try await store.allCatalogMovies().count == 1)
            #expect(try await store.catalogMovie(key: "tmdb-999") == nil)
            #expect(try await store.catalogMovies(keys: ["seed-host", "nope"]).keys.sorted() == ["seed-host"])
            let keys = try await store.allCatalogMovies().map(\.catalogKey)
            #expect(keys == keys.sorted())
        }
    }

    /// The whole catalog read a page at a time (how the server's title index reads it): every movie once, aliases and
    /// all, and the last page says there is no next.
    @Test(arguments: StoreKind.allCases)
    func theCatalogIsReadWholeInPages(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let movies = (1...23).map { n in
                CatalogMovie(
                    catalogKey: "page-\(n)", tmdbId: 7_000 + n, originalTitle: "Paged \(n)", titles: [.en: "Paged \(n)"],
                    releaseDate: "2001", posterPaths: [:], bundledPoster: nil, aliases: n == 5 ? ["Fifth"] : [])
            }
            try await store.upsertMovies(movies)
            var read: [CatalogMovie] = []
            var after: Int64?
            var pages = 0
            repeat {
                let page = try await store.catalogPage(after: after, limit: 5)
                #expect(page.movies.count <= 5)
                read += page.movies
                after = page.next
                pages += 1
            } while after != nil && pages < 100
            #expect(pages == 5)
            #expect(read.map(\.catalogKey).sorted() == movies.map(\.catalogKey).sorted())
            #expect(read.first { $0.catalogKey == "page-5" }?.aliases == ["Fifth"])
            #expect(try await store.catalogPage(after: nil, limit: 23).next != nil, "a full page may have a next, empty")
        }
    }

    @Test func bothStoresMergeTheSameWay() async throws {
        let movies = [
            CatalogMovie(
                catalogKey: "seed-a", tmdbId: nil, originalTitle: "A", titles: [.ko: "가"], releaseDate: nil, posterPaths: [:],
                bundledPoster: nil, aliases: ["Aa"]),
            CatalogMovie(
                catalogKey: "tmdb-5", tmdbId: 5, originalTitle: "Five", titles: [.en: "Five"], releaseDate: "2001-01-01",
                posterPaths: [.en: "/5.jpg"], bundledPoster: nil, aliases: []),
            CatalogMovie(
                catalogKey: "seed-a", tmdbId: 7, originalTitle: "", titles: [.en: "A"], releaseDate: "1999-09-09",
                posterPaths: [.ko: "/a.jpg"], bundledPoster: nil, aliases: ["Ab", "Aa"]),
            CatalogMovie(
                catalogKey: "Tmdb-5-upper", tmdbId: 5, originalTitle: "Five!", titles: [.ko: "다섯"], releaseDate: nil,
                posterPaths: [:], bundledPoster: nil, aliases: ["V"]),
        ]
        var results: [([[CatalogMovie]], [CatalogMovie])] = []
        for kind in StoreKind.allCases {
            results.append(try await withStore(kind) { store in
                var returned: [[CatalogMovie]] = []
                for movie in movies { returned.append(try await store.upsertMovies([movie])) }
                return (returned, try await store.allCatalogMovies())
            })
        }
        #expect(results[0].0 == results[1].0)
        #expect(results[0].1 == results[1].1)
    }

    /// The seeded catalog searched both ways for a set of queries, Korean and English, short and long.
    @Test func searchGivesTheSameResultsOnBothStores() async throws {
        let queries = [
            "괴물", "스토리", "토이", "사랑", "의", "the", "The", "man", "ception", "night", "Metropolis", "metro", "a", "ka",
            "  city  ", "100%", "_", "\"", "nosferatu", "zzzz", "",
        ]
        var answers: [[[String]]] = []
        for kind in StoreKind.allCases {
            answers.append(try await withSeededStore(kind) { store in
                var found: [[String]] = []
                for query in queries {
                    for language in [QuizLanguage.ko, .en] {
                        found.append(try await store.searchCatalog(query, language: language, limit: 20).map(\.catalogKey))
                    }
                }
                return found
            })
        }
        for (index, query) in queries.enumerated() {
            #expect(answers[0][2 * index] == answers[1][2 * index], "ko: \(query)")
            #expect(answers[0][2 * index + 1] == answers[1][2 * index + 1], "en: \(query)")
        }
        #expect(answers[0].contains { !$0.isEmpty })
    }

    /// A fresh PostgreSQL database seeded from the repository's bundle holds what the SQLite seed holds.
    @Test func postgresSeedMatchesTheSQLiteSeed() async throws {
        func snapshot(_ store: any ContractStore) async throws -> (packages: [QuizPackage], movies: [CatalogMovie], posters: [String: Data]) {
            let published = try await store.publicPackages(.init(), after: nil, limit: 10_000)
            var packages: [QuizPackage] = []
            for entry in published {
                var package = try await store.package(id: entry.id)
                package.id = nil
                packages.append(package)
            }
            packages.sort { $0.shareCode < $1.shareCode }
            let movies = try await store.allCatalogMovies()
            var posters: [String: Data] = [:]
            for file in Set(movies.compactMap(\.bundledPoster) + packages.flatMap { $0.quizzes.filter { $0.posterSource == .bundled }.map(\.posterPath) }) {
                posters[file] = try await store.bundledPoster(fileName: file)
            }
            return (packages, movies, posters)
        }
        let sqlite = try await withSeededStore(.sqlite, snapshot)
        let postgres = try await withSeededStore(.postgres, snapshot)
        #expect(!sqlite.packages.isEmpty && !sqlite.posters.isEmpty)
        #expect(sqlite.packages.map(\.shareCode) == postgres.packages.map(\.shareCode))
        #expect(sqlite.packages == postgres.packages)
        #expect(sqlite.movies == postgres.movies)
        #expect(sqlite.posters == postgres.posters)
        #expect(sqlite.posters.values.allSatisfy { !$0.isEmpty })
    }
}
