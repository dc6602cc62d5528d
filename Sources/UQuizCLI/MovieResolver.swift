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
        try database.upsertMovies([movie])
        return Resolved(movie: movie, genreIds: genreIds)
    }
}
