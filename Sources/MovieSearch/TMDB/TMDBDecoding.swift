import Foundation
import QuizCore

/// TMDB's response bodies turned into uquiz's values, the way real TMDB data demands (see the wire shapes). Public so the
/// fuzzer feeds it the same bytes the client would.
public enum TMDBDecoding {
    static func decode<T: Decodable>(_ type: T.Type, _ body: Data, endpoint: String) throws(MovieSearchError) -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try JSONDecodingProblem.decode(T.self, from: body, using: decoder)
        } catch {
            throw .malformed(endpoint: endpoint, detail: "\(error)")
        }
    }

    public static func searchPage(_ body: Data, endpoint: String = "/search/movie") throws(MovieSearchError) -> SearchPage {
        let wire = try decode(SearchPageWire.self, body, endpoint: endpoint)
        let results = wire.results.elements.map(\.summary)
        return SearchPage(
            page: wire.page, totalPages: wire.totalPages ?? 1, totalResults: wire.totalResults ?? results.count,
            results: results)
    }

    public static func movie(_ body: Data, endpoint: String = "/movie") throws(MovieSearchError) -> MovieDetails {
        let wire = try decode(MovieWire.self, body, endpoint: endpoint)
        return MovieDetails(summary: wire.summary, genreIds: wire.summary.genreIds)
    }

    /// Best voted first.
    public static func posters(_ body: Data, endpoint: String = "/movie/images") throws(MovieSearchError) -> [PosterImage] {
        let wire = try decode(ImagesWire.self, body, endpoint: endpoint)
        // A path that is not "/" and a file name is not a poster uquiz may ask for.
        return (wire.posters?.elements ?? []).filter { PosterPath.isTMDBPath($0.filePath) }.map {
            PosterImage(
                filePath: $0.filePath, language: $0.iso6391, width: $0.width ?? 0, height: $0.height ?? 0,
                voteAverage: $0.voteAverage ?? 0, voteCount: $0.voteCount ?? 0)
        }.sorted { ($0.voteAverage, $0.voteCount) > ($1.voteAverage, $1.voteCount) }
    }

    /// The most alternative titles taken for one movie: TMDB lists a few dozen for the most translated films; a body
    /// of 100,000 would make every guess at that movie slow to judge.
    public static let maxAlternativeTitles = 200

    /// Distinct titles, in TMDB's order, at most `maxAlternativeTitles` of them.
    public static func alternativeTitles(_ body: Data, endpoint: String = "/movie/alternative_titles") throws(MovieSearchError) -> [String] {
        let titles = try decode(AlternativeTitlesWire.self, body, endpoint: endpoint).titles?.elements.map(\.title.value) ?? []
        return Array(Aliases.merged([], titles).prefix(maxAlternativeTitles))
    }

    public static func imageConfiguration(_ body: Data, endpoint: String = "/configuration") throws(MovieSearchError) -> ImageConfiguration {
        ImageConfiguration(posterSizes: try decode(ConfigurationWire.self, body, endpoint: endpoint).images.posterSizes ?? ["original"])
    }

    /// The longest `Retry-After` taken as said: a day, far past any retry budget, and a number every clock can hold.
    static let longestRetryAfter = 86_400

    /// An HTTP error status with TMDB's own code and message when the body has them (either error shape).
    public static func error(status: Int, body: Data, retryAfter: String?, endpoint: String) -> MovieSearchError {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let wire = try? decoder.decode(ErrorWire.self, from: body)
        return .http(
            status: status, endpoint: endpoint, tmdbCode: wire?.statusCode,
            message: wire?.statusMessage ?? wire?.errors?.joined(separator: "; "),
            // An HTTP date, or anything that is not delta-seconds, is no wait the client can honour: it backs off.
            retryAfter: retryAfter.flatMap { DeltaSeconds.parse($0, cap: longestRetryAfter) })
    }

}
