import Foundation
import MovieSearch
import PosterArt
import PosterGrid
import QuizCore
import Synchronization
import UQuizRules
import UQuizStorage

/// A quiz's whole poster as the server reads it: a bundled or uploaded poster from the store, a TMDB poster from the
/// poster cache or downloaded.
struct QuizPosters: Sendable {
    let environment: SharingEnvironment

    func jpeg(for quiz: Quiz) async throws(PosterUnavailable) -> Data {
        try await jpeg(posterPath: quiz.posterPath, source: quiz.posterSource)
    }

    func jpeg(posterPath: String, source: PosterSource) async throws(PosterUnavailable) -> Data {
        switch source {
        case .bundled:
            let bytes: Data?
            do { bytes = try await environment.store().bundledPoster(fileName: posterPath) } catch { bytes = nil }
            guard let bytes else { throw .bundledPosterMissing }
            return bytes
        case .tmdb:
            guard let jpeg = await environment.tmdbPosters.jpeg(posterPath: posterPath) else {
                throw .downloadFailed("no image at \(posterPath)")
            }
            return jpeg
        }
    }

    /// The poster with only `revealed` areas showing (`nil`: the whole poster), cut once and then kept in `cache`.
    func poster(of quiz: Quiz, revealed: [Cell]?, cache: StagePosterCache<String>) async throws(PosterUnavailable) -> Data {
        guard let revealed else { return try await jpeg(for: quiz) }
        let key = StagePosterCache<String>.Key(
            poster: "\(quiz.posterSource.rawValue):\(quiz.posterPath)", geometry: quiz.geometry, revealed: revealed)
        if let cut = cache.cached(key) { return cut }
        let whole = try await jpeg(for: quiz)
        do {
            return try await environment.heavyWork.run { try cache.cut(key) { whole } }
        } catch {
            throw .unreadable
        }
    }
}
