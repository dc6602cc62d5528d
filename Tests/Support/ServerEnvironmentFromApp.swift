import Foundation
import LocalUseCases
import ServerUseCases
import UQuizStorage

extension SharingEnvironment {
    /// The server's environment from the clock, randomness, TMDB, poster cache, log and heavy-work pool a test built
    /// as an `AppEnvironment` of fakes, on the server's own `store` (`app`'s store is the command line's and is not
    /// kept): what `uquiz serve` builds from its settings.
    public init(
        app: AppEnvironment, store: @escaping @Sendable () throws -> any ServerStorage,
        tokenBytes: @escaping @Sendable (Int) -> [UInt8] = SharingEnvironment.systemRandomBytes
    ) {
        self.init(
            now: app.now, randomSeed: app.randomSeed, store: store, movieClient: app.movieClient,
            tmdbPosters: app.tmdbPosterFiles, log: app.log, heavyWork: app.heavyWork, tokenBytes: tokenBytes)
    }
}
