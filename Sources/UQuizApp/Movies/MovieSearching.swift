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
}

public enum MovieLookupProblem: Error, Equatable {
    /// Not in the local catalog, and TMDB could not help (`hadCredentials` says whether it was asked at all).
    case notInCatalog(MovieReference, hadCredentials: Bool)
}

/// Search and look-up as `search`, `create` and the server do them: TMDB when it can be reached (what it says joins the
/// catalog), the local catalog otherwise, saying why.
public struct MovieSearching: Sendable {
    public let environment: AppEnvironment
    static let pageSize = 20
    static let catalogLimit = 500

    public init(environment: AppEnvironment) {
        self.environment = environment
    }

    public func find(
        _ query: String, language: QuizLanguage, page: Int = 1, year: Int? = nil, offline: Bool
    ) async throws -> FoundMovies {
        let store = try environment.catalog()
        let reason: OfflineReason
        if offline {
            reason = .asked
        } else if let client = try environment.movieClient() {
            do {
                let found = try await client.search(query, language: language, page: page, year: year)
                try store.upsertMovies(Self.catalogMovies(of: found, language: language))
                return Self.tmdbAnswer(found)
            } catch let error as MovieSearchError where error.isUnreachable {
                reason = .unreachable(error.localizedDescription)
            }
        } else {
            reason = .noCredentials
        }
        let matches = try store.searchCatalog(query, language: language, limit: Self.catalogLimit)
        return Self.catalogAnswer(matches, reason: reason, language: language, page: page, year: year)
    }

    /// What a TMDB search page teaches the catalog.
    static func catalogMovies(of found: SearchPage, language: QuizLanguage) -> [CatalogMovie] {
        found.results.map { $0.catalogMovie(language: language) }
    }

    static func tmdbAnswer(_ found: SearchPage) -> FoundMovies {
        FoundMovies(
            offlineReason: nil, page: found.page, totalPages: found.totalPages, totalResults: found.totalResults,
            results: found.results.map {
                .init(tmdbId: $0.id, catalogKey: "tmdb-\($0.id)", title: $0.title, originalTitle: $0.originalTitle,
                      releaseDate: $0.releaseDate, posterPath: $0.posterPath)
            })
    }

    /// The catalog's matches paged like TMDB: 20 a page, of at most `catalogLimit` matches.
    static func catalogAnswer(
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

    /// The facts of a movie: from TMDB when it can be reached (and then remembered in the catalog), from the catalog
    /// otherwise.
    public func resolve(_ reference: MovieReference) async throws -> ResolvedMovie {
        let store = try environment.catalog()
        let known = try store.catalogMovie(key: reference.catalogKey)
        let client = try environment.movieClient()
        if case .tmdb(let id) = reference, let client {
            do {
                let fetched = try await Self.tmdbFacts(id: id, client: client, known: known)
                // The catalog may hold the film under another key (a seed's `seed-…`): the quiz names the stored one.
                return ResolvedMovie(movie: try store.upsertMovies([fetched.movie]).first ?? fetched.movie, genreIds: fetched.genreIds)
            } catch let error as MovieSearchError where error.isUnreachable {
                environment.log("TMDB unreachable for movie \(id), using the catalog: \(error.localizedDescription)")
            }
        }
        guard let known else { throw MovieLookupProblem.notInCatalog(reference, hadCredentials: client != nil) }
        return ResolvedMovie(movie: known, genreIds: [])
    }

    /// Titles in both languages, the aliases TMDB knows, the posters; what the catalog knew (a bundled poster, aliases
    /// from elsewhere) is kept.
    static func tmdbFacts(id: Int, client: TMDBClient, known: CatalogMovie?) async throws -> ResolvedMovie {
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
    func catalogMovie(language: QuizLanguage) -> CatalogMovie {
        let titles: [QuizLanguage: String] = [language: title]
        var posters: [QuizLanguage: String] = [:]
        posters[language] = posterPath
        return CatalogMovie(
            catalogKey: "tmdb-\(id)", tmdbId: id, originalTitle: originalTitle, titles: titles, releaseDate: releaseDate,
            posterPaths: posters, bundledPoster: nil, aliases: [])
    }
}
