import Foundation
import QuizCore
import Synchronization
import UQuizRules
import UQuizStorage

/// Movie search for makers through the server, so TMDB's credentials never leave it: `TMDBOrCatalog` (TMDB, the
/// catalog when TMDB cannot be reached or no credentials are set), with answers kept for `lifetime` on the server's
/// monotonic clock so that many makers typing the same title cost TMDB one request.
public final class MovieSearches: Sendable {
    public let environment: SharingEnvironment
    public let lifetime: Duration
    public let capacity: Int
    private let now: @Sendable () -> Duration
    private let cache: ExpiringMap<Key, FoundMovies>
    /// The posters a maker may choose for a movie, per movie and language.
    private let posterChoices: ExpiringMap<PostersKey, [MoviePoster]>
    /// The posters of the movies searches answered with.
    private let postersShown: ExpiringMap<String, Bool>

    struct Key: Hashable {
        var query: String
        var language: QuizLanguage
        var page: Int
        var year: Int?
    }

    /// The longest query accepted, in characters.
    public static let maxQueryLength = 200
    public static let pages = 1...500

    /// How long a search waits for TMDB before the catalog answers.
    public let searchDeadline: Duration

    public init(
        environment: SharingEnvironment, lifetime: Duration = .seconds(600), capacity: Int = 1_000,
        searchDeadline: Duration = .seconds(3), now: @escaping @Sendable () -> Duration
    ) {
        self.environment = environment
        self.searchDeadline = searchDeadline
        self.lifetime = lifetime
        self.capacity = capacity
        self.now = now
        cache = ExpiringMap(lifetime: lifetime, capacity: capacity)
        posterChoices = ExpiringMap(lifetime: lifetime, capacity: capacity)
        // A search shows up to 20 movies.
        postersShown = ExpiringMap(lifetime: lifetime, capacity: capacity * 20)
    }

    public func find(_ query: String, language: QuizLanguage, page: Int, year: Int?) async throws -> FoundMovies {
        let key = Key(
            query: query.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), language: language, page: page,
            year: year)
        let instant = now()
        if let hit = cache.value(for: key, at: instant) {
            noteShown(hit, at: instant)
            return hit
        }
        let found = try await TMDBOrCatalog(environment: environment, searchDeadline: searchDeadline)
            .find(query, language: language, page: page, year: year)
        noteShown(found, at: instant)
        // A catalog answer given because TMDB was unreachable is not kept: TMDB may answer the next ask.
        if case .unreachable = found.offlineReason { return found }
        cache.set(found, for: key, at: instant)
        return found
    }

    /// The whole poster `poster` (a TMDB path or a held image's name) of a movie a search answered within `lifetime`,
    /// which the maker's page shows beside it; any other is refused, so that this is no way to fetch any image.
    public func searchedPoster(_ poster: String) async throws -> Data {
        let instant = now()
        guard postersShown.value(for: poster, at: instant) != nil else {
            throw MoviePosterError.notSearched(poster)
        }
        let source = PosterPath.source(ofSpecPoster: poster)
        if source == .tmdb, environment.imagesUnreachable {
            throw MoviePosterError.unavailable(.downloadFailed("TMDB's image server does not answer"))
        }
        do {
            return try await QuizPosters(environment: environment).jpeg(posterPath: poster, source: source)
        } catch {
            throw MoviePosterError.unavailable(error)
        }
    }

    /// Notes the posters of `found`'s movies as shown by a search at `instant`.
    private func noteShown(_ found: FoundMovies, at instant: Duration) {
        postersShown.set(true, for: found.results.compactMap(\.posterPath), at: instant)
    }

    /// The posters a maker may choose for `movie`'s quiz in `language`, its default one first, kept as long as a search.
    public func posters(of movie: MovieReference, language: QuizLanguage) async throws -> [MoviePoster] {
        let key = PostersKey(movie: movie, language: language)
        let instant = now()
        if let hit = posterChoices.value(for: key, at: instant) { return hit }
        let posters = try await TMDBOrCatalog(environment: environment, searchDeadline: searchDeadline)
            .posters(of: movie, language: language)
        posterChoices.set(posters, for: key, at: instant)
        return posters
    }

    /// Whether `posters(of:language:)` would answer from what it keeps.
    public func holdsPosters(of movie: MovieReference, language: QuizLanguage) -> Bool {
        posterChoices.value(for: PostersKey(movie: movie, language: language), at: now()) != nil
    }

    /// The JPEG of `movie`'s poster `number` (from 1) of `posters(of:language:)`.
    public func poster(_ number: Int, of movie: MovieReference, language: QuizLanguage) async throws -> Data {
        let posters = try await posters(of: movie, language: language)
        guard posters.indices.contains(number - 1) else {
            throw MoviePosterError.noSuchPoster(number: number, count: posters.count)
        }
        let chosen = posters[number - 1]
        do {
            return try await QuizPosters(environment: environment).jpeg(posterPath: chosen.poster, source: chosen.source)
        } catch {
            throw MoviePosterError.unavailable(error)
        }
    }

    private struct PostersKey: Hashable {
        var movie: MovieReference
        var language: QuizLanguage
    }
}

/// A poster a maker may choose for a quiz: `poster` is what a spec names (a TMDB path or a held image's name).
public struct MoviePoster: Sendable, Equatable {
    public var poster: String
    public var source: PosterSource
    /// The language of its text (`nil`: textless, or not known).
    public var language: String?

    /// The most posters offered for one movie.
    public static let most = 12
}

public enum MoviePosterError: Error {
    case noSuchPoster(number: Int, count: Int)
    /// No search this server answered lately showed this poster.
    case notSearched(String)
    case unavailable(PosterUnavailable)
}
