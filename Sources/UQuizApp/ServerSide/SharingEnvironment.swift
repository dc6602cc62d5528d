import Foundation
import PosterGrid
import QuizCore
import UQuizStorage

/// What the sharing use cases run on: the application's environment, the sharing store (`store`, opened on first use
/// like the rest of the store), and the source of token bytes, which must be unpredictable (the system's generator;
/// tests may pin it).
public struct SharingEnvironment: Sendable {
    public var app: AppEnvironment
    public var store: @Sendable () throws -> any ServerStorage
    public var tokenBytes: @Sendable (Int) -> [UInt8]
    /// Players authenticated before, shared by every request of this process.
    public let knownPlayers: KnownPlayers
    /// Whether TMDB's image server answers, as this process last found.
    public let imageReach: ImageServerReach
    /// The whole catalog's exact titles, shared by every judge this process makes.
    public let catalogTitles: SharedCatalogTitles

    public init(
        app: AppEnvironment, store: @escaping @Sendable () throws -> any ServerStorage,
        tokenBytes: @escaping @Sendable (Int) -> [UInt8] = SharingEnvironment.systemRandomBytes,
        knownPlayers: KnownPlayers = KnownPlayers(), imageReach: ImageServerReach = ImageServerReach(),
        catalogTitles: SharedCatalogTitles = SharedCatalogTitles()
    ) {
        self.app = app
        self.store = store
        self.tokenBytes = tokenBytes
        self.knownPlayers = knownPlayers
        self.imageReach = imageReach
        self.catalogTitles = catalogTitles
    }

    /// Whether the quizzes this server offers may have TMDB posters: it has TMDB credentials (without them it may have
    /// no way to TMDB's images either) and its image server has not been found unreachable. Otherwise the packages it
    /// lists and the daily quizzes it draws are those whose posters it holds.
    public var reachesTMDB: Bool { imageReach.current != .unreachable && ((try? app.movieClient()) ?? nil) != nil }

    /// Whether TMDB's image server was found unreachable: a server with no credentials may still fetch TMDB posters.
    public var imagesUnreachable: Bool { imageReach.current == .unreachable }

    /// Bytes from `SystemRandomNumberGenerator` (the kernel's `getrandom`), fit for secrets.
    @Sendable public static func systemRandomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
