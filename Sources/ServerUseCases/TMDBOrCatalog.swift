import Foundation
import MovieSearch
import PosterArt
import PosterGrid
import QuizCore
import Synchronization
import UQuizRules
import UQuizStorage

/// What `body` returns within `deadline`, or `nil` when it has not by then: it is then cancelled (a TMDB transfer is
/// stopped and its connection closed), and the caller does not wait for it to wind down.
func withDeadline<T: Sendable>(
    _ deadline: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: deadline)
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Movie search and look-up as the server does them: `MovieAnswers`' rules, with the catalog read through the
/// server's asynchronous store and TMDB asked within the search deadline.
struct TMDBOrCatalog: Sendable {
    let environment: SharingEnvironment
    /// How long a search waits for TMDB before the catalog answers instead.
    var searchDeadline: Duration = .seconds(3)

    /// TMDB's answer, or the catalog's when there are no credentials or TMDB fails in any way (no answer by the
    /// deadline, an error status, a body it cannot read): a maker's search never fails for TMDB's sake.
    func find(_ query: String, language: QuizLanguage, page: Int, year: Int?) async throws -> FoundMovies {
        let store = try environment.store()
        let reason: OfflineReason
        if let client = try environment.movieClient() {
            do {
                if let found = try await withDeadline(searchDeadline, {
                    try await client.search(query, language: language, page: page, year: year)
                }) {
                    try await store.upsertMovies(MovieAnswers.catalogMovies(of: found, language: language))
                    return MovieAnswers.tmdbAnswer(found)
                }
                client.recordUnanswered()
                reason = .unreachable("TMDB did not answer within \(searchDeadline)")
            } catch let error as MovieSearchError {
                reason = .unreachable(error.localizedDescription)
            }
            if case .unreachable(let why) = reason { environment.log("movie search answered from the catalog: \(why)") }
        } else {
            reason = .noCredentials
        }
        let matches = try await store.searchCatalog(query, language: language, limit: MovieAnswers.catalogLimit)
        return MovieAnswers.catalogAnswer(matches, reason: reason, language: language, page: page, year: year)
    }

    func resolve(_ reference: MovieReference) async throws -> ResolvedMovie {
        let store = try environment.store()
        let known = try await store.catalogMovie(key: reference.catalogKey)
        let client = try environment.movieClient()
        if case .tmdb(let id) = reference, let client {
            do {
                let fetched = try await MovieAnswers.tmdbFacts(id: id, client: client, known: known)
                let stored = try await store.upsertMovies([fetched.movie]).first ?? fetched.movie
                return ResolvedMovie(movie: stored, genreIds: fetched.genreIds)
            } catch let error as MovieSearchError where error.isUnreachable {
                environment.log("TMDB unreachable for movie \(id), using the catalog: \(error.localizedDescription)")
            }
        }
        guard let known else { throw MovieLookupProblem.notInCatalog(reference, hadCredentials: client != nil) }
        return ResolvedMovie(movie: known, genreIds: [])
    }

    /// The movie's default poster in `language`, then TMDB's others (in that language, English and textless, best voted
    /// first), then the ones the catalog knows; only those the server can show (no TMDB poster while its image server
    /// is unreachable). At most `MoviePoster.most`.
    func posters(of reference: MovieReference, language: QuizLanguage) async throws -> [MoviePoster] {
        let movie = try await resolve(reference).movie
        var images: [PosterImage] = []
        if let id = movie.tmdbId, let client = try environment.movieClient() {
            do {
                if let found = try await withDeadline(searchDeadline, { try await client.posters(movieID: id, language: language) }) {
                    images = found
                } else {
                    client.recordUnanswered()
                }
            } catch let error as MovieSearchError {
                environment.log("TMDB gave no posters of movie \(id), using the catalog's: \(error.localizedDescription)")
            }
        }
        // A poster's language as TMDB's image list says, else the language the catalog keeps it for (the one asked
        // for first: TMDB may give one poster for both).
        func textLanguage(of path: String) -> String? {
            if let image = images.first(where: { $0.filePath == path }) { return image.language }
            if movie.posterPaths[language] == path { return language.rawValue }
            return movie.posterPaths.first { $0.value == path }?.key.rawValue
        }
        var found: [MoviePoster] = []
        func add(_ path: String?, _ source: PosterSource) {
            guard let path, !found.contains(where: { $0.poster == path }) else { return }
            found.append(MoviePoster(poster: path, source: source, language: source == .tmdb ? textLanguage(of: path) : nil))
        }
        if let primary = QuizBuilding.defaultPoster(of: movie, in: language) { add(primary.path, primary.source) }
        for image in images { add(image.filePath, .tmdb) }
        for path in movie.posterPaths.sorted(by: { $0.key.rawValue < $1.key.rawValue }).map(\.value) { add(path, .tmdb) }
        add(movie.bundledPoster, .bundled)
        if environment.imagesUnreachable { found.removeAll { $0.source == .tmdb } }
        return Array(found.prefix(MoviePoster.most))
    }
}
