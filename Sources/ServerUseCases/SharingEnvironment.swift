import Foundation
import MovieSearch
import PosterGrid
import QuizCore
import UQuizRules
import UQuizStorage

/// What the server's use cases run on, and nothing of the command line's: the server's store (`store`: SQLite or
/// PostgreSQL, opened on first use), the clock, randomness, TMDB and the poster cache, the log, the pool heavy work runs
/// on, and the source of token bytes, which must be unpredictable (the system's generator; tests may pin it).
public struct SharingEnvironment: Sendable {
    /// Wall-clock time, for what is recorded.
    public var now: @Sendable () -> Date
    /// A fresh seed for share codes and automatic areas; tests pin it.
    public var randomSeed: @Sendable () -> UInt64
    public var store: @Sendable () throws -> any ServerStorage
    /// TMDB with credentials, or `nil` without them (search then answers from the catalog).
    public var movieClient: @Sendable () throws -> TMDBClient?
    /// TMDB's posters, from the poster cache or the image server.
    public var tmdbPosters: TMDBPosterFiles
    public var log: @Sendable (String) -> Void
    /// Where JPEGs are cut and drawn and the title index built: a pool of its own, off Swift's cooperative threads.
    public var heavyWork: any HeavyWork
    public var tokenBytes: @Sendable (Int) -> [UInt8]
    /// Players authenticated before, shared by every request of this process.
    public let knownPlayers: KnownPlayers
    /// Whether TMDB's image server answers, as this process last found.
    public let imageReach: ImageServerReach
    /// The whole catalog's exact titles, shared by every judge this process makes.
    public let catalogTitles: SharedCatalogTitles

    public init(
        now: @escaping @Sendable () -> Date, randomSeed: @escaping @Sendable () -> UInt64,
        store: @escaping @Sendable () throws -> any ServerStorage, movieClient: @escaping @Sendable () throws -> TMDBClient?,
        tmdbPosters: TMDBPosterFiles, log: @escaping @Sendable (String) -> Void, heavyWork: any HeavyWork,
        tokenBytes: @escaping @Sendable (Int) -> [UInt8] = SharingEnvironment.systemRandomBytes,
        knownPlayers: KnownPlayers = KnownPlayers(), imageReach: ImageServerReach = ImageServerReach(),
        catalogTitles: SharedCatalogTitles = SharedCatalogTitles()
    ) {
        self.now = now
        self.randomSeed = randomSeed
        self.store = store
        self.movieClient = movieClient
        self.tmdbPosters = tmdbPosters
        self.log = log
        self.heavyWork = heavyWork
        self.tokenBytes = tokenBytes
        self.knownPlayers = knownPlayers
        self.imageReach = imageReach
        self.catalogTitles = catalogTitles
    }

    /// Whether the quizzes this server offers may have TMDB posters: it has TMDB credentials (without them it may have
    /// no way to TMDB's images either) and its image server has not been found unreachable. Otherwise the packages it
    /// lists and the daily quizzes it draws are those whose posters it holds.
    public var reachesTMDB: Bool { imageReach.current != .unreachable && ((try? movieClient()) ?? nil) != nil }

    /// Whether TMDB's image server was found unreachable: a server with no credentials may still fetch TMDB posters.
    public var imagesUnreachable: Bool { imageReach.current == .unreachable }

    /// Bytes from `SystemRandomNumberGenerator` (the kernel's `getrandom`), fit for secrets.
    @Sendable public static func systemRandomBytes(_ count: Int) -> [UInt8] {
        // Eight bytes a draw from the system's generator, not one: a play's id is drawn on every start.
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count { withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) } }
        return Array(bytes.prefix(count))
    }
}
