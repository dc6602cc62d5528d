import Foundation
import MovieSearch
import PosterArt

/// TMDB posters' JPEGs at the width posters are played at: from the poster cache, else downloaded from the image
/// server and kept in the cache. What the command line's `PosterLoader` and the server's posters both read them by.
public struct TMDBPosterFiles: Sendable {
    public var cache: @Sendable () throws -> PosterCache
    public var width: @Sendable () throws -> Int
    public var imageClient: @Sendable () throws -> TMDBClient
    /// Where the cache's files are read and written.
    public var heavyWork: any HeavyWork
    public var log: @Sendable (String) -> Void

    public init(
        cache: @escaping @Sendable () throws -> PosterCache, width: @escaping @Sendable () throws -> Int,
        imageClient: @escaping @Sendable () throws -> TMDBClient, heavyWork: any HeavyWork,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.cache = cache
        self.width = width
        self.imageClient = imageClient
        self.heavyWork = heavyWork
        self.log = log
    }

    /// The poster's bytes, or `nil` when it is neither cached nor downloadable now (said in the log).
    public func jpeg(posterPath: String) async -> Data? {
        guard let cache = try? cache().checking(JPEG.isReadable), let width = try? width() else { return nil }
        let size = "w\(width)"
        if let cached = try? await heavyWork.run({ cache.data(for: posterPath, size: size) }) {
            return cached
        }
        guard let client = try? imageClient(),
            let data = try? await client.downloadPosters([posterPath], size: size)[0].get()
        else {
            log("poster \(posterPath) unavailable: it is neither cached nor downloadable now")
            return nil
        }
        _ = try? await heavyWork.run { try cache.store(data, for: posterPath, size: size) }
        return data
    }
}
