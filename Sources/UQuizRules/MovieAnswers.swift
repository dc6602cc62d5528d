import Foundation
import MovieSearch
import QuizCore
import UQuizStorage

/// A movie a maker names: a TMDB id, or a key of the local catalog.
public typealias MovieReference = PackageDocument.MovieReference

/// Why a search answered from the local catalog instead of TMDB.
public enum OfflineReason: Equatable, Sendable {
    /// The caller asked for the catalog (`--offline`).
    case asked
    /// No TMDB credentials are configured.
    case noCredentials
    /// TMDB could not be reached, for this reason (already free of secrets).
    case unreachable(String)
}

/// Movies found by a search, from TMDB or from the local catalog.
public struct FoundMovies: Sendable {
    public struct Movie: Sendable {
        public var tmdbId: Int?
        public var catalogKey: String
        public var title: String
        public var originalTitle: String
        public var releaseDate: String?
        public var posterPath: String?

        public var reference: MovieReference { tmdbId.map(MovieReference.tmdb) ?? .catalog(catalogKey) }
    }

    /// `nil` when TMDB answered.
    public var offlineReason: OfflineReason?
    public var page: Int
    public var totalPages: Int
    public var totalResults: Int
    public var results: [Movie]
}

/// A movie's facts as a maker's quiz needs them.
public struct ResolvedMovie: Sendable {
    public var movie: CatalogMovie
    public var genreIds: [Int]

    package init(movie: CatalogMovie, genreIds: [Int]) {
        self.movie = movie
        self.genreIds = genreIds
    }
}

public enum MovieLookupProblem: Error, Equatable {
    /// Not in the local catalog, and TMDB could not help (`hadCredentials` says whether it was asked at all).
    case notInCatalog(MovieReference, hadCredentials: Bool)
}

/// How a search and a look-up are answered, on either side: TMDB's answer (and what it teaches the catalog) when it
/// can be reached, the catalog's matches paged like TMDB otherwise. `MovieSearching` (the command line) and the server's
/// `TMDBOrCatalog` both answer by these.
package enum MovieAnswers {
    static let pageSize = 20
    package static let catalogLimit = 500

    /// What a TMDB search page teaches the catalog.
    package static func catalogMovies(of found: SearchPage, language: QuizLanguage) -> [CatalogMovie] {
        found.results.map { $0.catalogMovie(language: language) }
    }

    package static func tmdbAnswer(_ found: SearchPage) -> FoundMovies {
        FoundMovies(
            offlineReason: nil, page: found.page, totalPages: found.totalPages, totalResults: found.totalResults,
            results: found.results.map {
                .init(tmdbId: $0.id, catalogKey: "tmdb-\($0.id)", title: $0.title, originalTitle: $0.originalTitle,
                      releaseDate: $0.releaseDate, posterPath: $0.posterPath)
            })
    }

    /// The catalog's matches paged like TMDB: 20 a page, of at most `catalogLimit` matches.
    package static func catalogAnswer(
        _ matches: [CatalogMovie], reason: OfflineReason, language: QuizLanguage, page: Int, year: Int?
    ) -> FoundMovies {
        let matches = matches.filter { movie in year.map { movie.releaseDate?.hasPrefix(String($0)) == true } ?? true }
        let totalPages = max(1, (matches.count + Self.pageSize - 1) / Self.pageSize)
        let movies = matches.dropFirst((min(page, totalPages) - 1) * Self.pageSize).prefix(Self.pageSize)
        return FoundMovies(
            offlineReason: reason, page: min(page, totalPages), totalPages: totalPages, totalResults: matches.count,
            results: movies.map {
                .init(tmdbId: $0.tmdbId, catalogKey: $0.catalogKey, title: $0.title(in: language),
                      originalTitle: $0.originalTitle, releaseDate: $0.releaseDate,
                      posterPath: $0.posterPaths[language] ?? $0.posterPaths.values.first ?? $0.bundledPoster)
            })
    }

    /// Titles in both languages, the aliases TMDB knows, the posters; what the catalog knew (a bundled poster, aliases
    /// from elsewhere) is kept.
    package static func tmdbFacts(id: Int, client: TMDBClient, known: CatalogMovie?) async throws -> ResolvedMovie {
        var movie = known ?? CatalogMovie(
            catalogKey: "tmdb-\(id)", tmdbId: id, originalTitle: "", titles: [:], releaseDate: nil, posterPaths: [:],
            bundledPoster: nil, aliases: [])
        var genreIds: [Int] = []
        for language in QuizLanguage.allCases {
            let details = try await client.movie(id: id, language: language)
            movie.originalTitle = details.summary.originalTitle
            movie.titles[language] = details.summary.title
            movie.releaseDate = details.summary.releaseDate ?? movie.releaseDate
            if let poster = details.summary.posterPath { movie.posterPaths[language] = poster }
            genreIds = details.genreIds
        }
        movie.aliases = Aliases.merged(movie.aliases, try await client.alternativeTitles(movieID: id))
        return ResolvedMovie(movie: movie, genreIds: genreIds)
    }
}

extension MovieSummary {
    /// What a search teaches the local catalog: the title in the language searched, the rest as TMDB gave it. Only what
    /// TMDB stated: the catalog keeps every other fact it knows (a guessed English title would overwrite a real one).
    package func catalogMovie(language: QuizLanguage) -> CatalogMovie {
        let titles: [QuizLanguage: String] = [language: title]
        var posters: [QuizLanguage: String] = [:]
        posters[language] = posterPath
        return CatalogMovie(
            catalogKey: "tmdb-\(id)", tmdbId: id, originalTitle: originalTitle, titles: titles, releaseDate: releaseDate,
            posterPaths: posters, bundledPoster: nil, aliases: [])
    }
}
