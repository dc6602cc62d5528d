import Foundation
import MovieSearch
import PosterArt
import QuizCore
import UQuizStorage

/// The fetch-posters use case: brings the TMDB posters of packages into the cache so that solving needs no network,
/// and points quizzes whose poster TMDB removed at the movie's current one.
public struct FetchPosters: Sendable {
    public let environment: AppEnvironment

    public init(environment: AppEnvironment) {
        self.environment = environment
    }

    /// One poster's fate.
    public struct Line: Sendable {
        public var quizTitle: String
        public var posterPath: String
        public var outcome: PosterOutcome
    }

    public struct Report: Sendable {
        /// The TMDB size fetched (`w342`).
        public var size: String
        public var lines: [Line]

        public func count(_ matches: (PosterOutcome) -> Bool) -> Int { lines.filter { matches($0.outcome) }.count }
        public var failures: [Line] { lines.filter { if case .failed = $0.outcome { true } else { false } } }
    }

    /// The TMDB posters of the packages (every package when none is named); `nil` when they all use bundled posters.
    /// `progress` gets (done, total) as downloads finish.
    public func run(packageIDs: [Int64], progress: (Int, Int) -> Void = { _, _ in }) async throws -> Report? {
        let store = try environment.store()
        let refs = try store.tmdbPosters(packageIDs: packageIDs)
        guard !refs.isEmpty else { return nil }
        let client = try environment.imageClient()
        let width = try environment.posterPlayWidth()
        // /configuration needs credentials; without them the TMDB size named after the width is the best guess.
        var size = "w\(width)"
        if client.settings.credentials != nil, let sizes = try? await client.imageConfiguration() {
            size = sizes.posterSize(atLeast: width)
        }
        let fetcher = PosterFetcher(client: client, cache: try environment.posterCache(), size: size, isPoster: JPEG.isReadable)
        let outcomes = await fetcher.fetch(
            refs.map { PosterRequest(posterPath: $0.posterPath, tmdbId: $0.tmdbId, language: $0.language) },
            progress: progress)
        var lines: [Line] = []
        for (ref, outcome) in zip(refs, outcomes) {
            if case .replaced(let newPath) = outcome { try store.replacePoster(quizId: ref.quizId, with: newPath) }
            lines.append(Line(quizTitle: ref.title, posterPath: ref.posterPath, outcome: outcome))
        }
        return Report(size: size, lines: lines)
    }
}
