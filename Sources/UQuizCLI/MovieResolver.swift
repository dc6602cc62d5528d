import Foundation
import Logging
import MovieSearch
import QuizCore
import QuizStore

/// Finds the facts of a movie a maker names: from TMDB when it can be reached (and then remembered in the catalog), from
/// the local catalog otherwise.
struct MovieResolver {
    let database: AppDatabase
    let client: TMDBClient?
    let logger: Logger

    struct Resolved {
        var movie: CatalogMovie
        var genreIds: [Int]
    }

    func resolve(_ reference: PackageSpec.MovieReference, language: QuizLanguage) throws -> Resolved {
        let known = try database.catalogMovie(key: reference.catalogKey)
        if case .tmdb(let id) = reference, let client {
            do {
                return try fetch(id: id, client: client, known: known)
            } catch let error as MovieSearchError where error.isUnreachable {
                logger.debug("TMDB unreachable for movie \(id), using the catalog: \(error.localizedDescription)")
            }
        }
        guard let known else {
            let why = client == nil ? "and there are no TMDB credentials" : "and TMDB could not be reached"
            throw CommandFailure(message: "\(reference) is not in the local catalog \(why); find it with `uquiz search`")
        }
        return Resolved(movie: known, genreIds: [])
    }

    /// Titles in both languages, the aliases TMDB knows, the posters; what the catalog knew (a bundled poster, aliases
    /// from elsewhere) is kept.
    private func fetch(id: Int, client: TMDBClient, known: CatalogMovie?) throws -> Resolved {
        var movie = known ?? CatalogMovie(
            catalogKey: "tmdb-\(id)", tmdbId: id, originalTitle: "", titles: [:], releaseDate: nil, posterPaths: [:],
            bundledPoster: nil, aliases: [])
        var genreIds: [Int] = []
        for language in QuizLanguage.allCases {
            let details = try client.movie(id: id, language: language)
            movie.originalTitle = details.summary.originalTitle
            movie.titles[language] = details.summary.title
            movie.releaseDate = details.summary.releaseDate ?? movie.releaseDate
            if let poster = details.summary.posterPath { movie.posterPaths[language] = poster }
            genreIds = details.genreIds
        }
        for alias in try client.alternativeTitles(movieID: id) where !movie.aliases.contains(alias) {
            movie.aliases.append(alias)
        }
        // The catalog may hold the film under another key (a seed's `seed-…`): the quiz names the stored one.
        return Resolved(movie: try database.upsertMovies([movie]).first ?? movie, genreIds: genreIds)
    }
}

/// Search as `uquiz search` and the interactive `create` do it: TMDB when it can be reached (results join the catalog),
/// the local catalog otherwise, saying why.
enum MovieFinder {
    struct Found {
        /// `tmdb` or `catalog`.
        var source: String
        var offlineReason: String?
        var page: Int
        var totalPages: Int
        var totalResults: Int
        var results: [Movie]
    }

    struct Movie {
        var tmdbId: Int?
        var catalogKey: String
        var title: String
        var originalTitle: String
        var releaseDate: String?
        var posterPath: String?

        var reference: PackageSpec.MovieReference { tmdbId.map(PackageSpec.MovieReference.tmdb) ?? .catalog(catalogKey) }
    }

    static func find(
        _ query: String, language: QuizLanguage, page: Int = 1, year: Int? = nil, offline: Bool, client: TMDBClient?,
        database: AppDatabase
    ) throws -> Found {
        var offlineReason: String
        if offline {
            offlineReason = "--offline"
        } else if let client {
            do {
                let found = try client.search(query, language: language, page: page, year: year)
                try database.upsertMovies(found.results.map { $0.catalogMovie(language: language) })
                return Found(
                    source: "tmdb", offlineReason: nil, page: found.page, totalPages: found.totalPages,
                    totalResults: found.totalResults,
                    results: found.results.map {
                        Movie(tmdbId: $0.id, catalogKey: "tmdb-\($0.id)", title: $0.title, originalTitle: $0.originalTitle,
                              releaseDate: $0.releaseDate, posterPath: $0.posterPath)
                    })
            } catch let error as MovieSearchError where error.isUnreachable {
                offlineReason = error.localizedDescription
            }
        } else {
            offlineReason = "no TMDB credentials (set TMDB_API_KEY or TMDB_READ_ACCESS_TOKEN)"
        }
        let movies = try database.searchCatalog(query, language: language, limit: 20)
            .filter { movie in year.map { movie.releaseDate?.hasPrefix(String($0)) == true } ?? true }
        return Found(
            source: "catalog", offlineReason: offlineReason, page: 1, totalPages: 1, totalResults: movies.count,
            results: movies.map {
                Movie(tmdbId: $0.tmdbId, catalogKey: $0.catalogKey, title: $0.title(in: language),
                      originalTitle: $0.originalTitle, releaseDate: $0.releaseDate,
                      posterPath: $0.posterPaths[language] ?? $0.posterPaths.values.first ?? $0.bundledPoster)
            })
    }
}
