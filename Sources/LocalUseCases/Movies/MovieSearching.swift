import Foundation
import MovieSearch
import QuizCore
import UQuizRules
import UQuizStorage

/// Search and look-up as the command line's `search` and `create` do them, by `MovieAnswers`' rules: TMDB when it can
/// be reached (what it says joins the catalog), the local catalog otherwise, saying why.
public struct MovieSearching: Sendable {
    public let environment: AppEnvironment

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
                try store.upsertMovies(MovieAnswers.catalogMovies(of: found, language: language))
                return MovieAnswers.tmdbAnswer(found)
            } catch let error as MovieSearchError where error.isUnreachable {
                reason = .unreachable(error.localizedDescription)
            }
        } else {
            reason = .noCredentials
        }
        let matches = try store.searchCatalog(query, language: language, limit: MovieAnswers.catalogLimit)
        return MovieAnswers.catalogAnswer(matches, reason: reason, language: language, page: page, year: year)
    }

    /// The facts of a movie: from TMDB when it can be reached (and then remembered in the catalog), from the catalog
    /// otherwise.
    public func resolve(_ reference: MovieReference) async throws -> ResolvedMovie {
        let store = try environment.catalog()
        let known = try store.catalogMovie(key: reference.catalogKey)
        let client = try environment.movieClient()
        if case .tmdb(let id) = reference, let client {
            do {
                let fetched = try await MovieAnswers.tmdbFacts(id: id, client: client, known: known)
                // The catalog may hold the film under another key (a seed's `seed-…`): the quiz names the stored one.
                return ResolvedMovie(movie: try store.upsertMovies([fetched.movie]).first ?? fetched.movie, genreIds: fetched.genreIds)
            } catch let error as MovieSearchError where error.isUnreachable {
                environment.log("TMDB unreachable for movie \(id), using the catalog: \(error.localizedDescription)")
            }
        }
        guard let known else { throw MovieLookupProblem.notInCatalog(reference, hadCredentials: client != nil) }
        return ResolvedMovie(movie: known, genreIds: [])
    }
}

