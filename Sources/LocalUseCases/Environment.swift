import Foundation
import MovieSearch
import Synchronization
import UQuizRules
import UQuizStorage

/// What the use cases need from outside the process's pure logic, built once at start-up by a front end (the CLI from
/// its settings, a test from fakes) and passed down. Nothing below the front end reads the clock, draws randomness or
/// opens a client by itself.
public struct AppEnvironment: Sendable {
    /// Wall-clock time, for what is recorded: when a play started, when a package was made.
    public var now: @Sendable () -> Date
    /// A fresh seed for share codes, automatic areas and shuffles; tests pin it.
    public var randomSeed: @Sendable () -> UInt64
    /// The store, opened (and seeded on a first run) when a use case first needs it.
    public var store: @Sendable () throws -> any QuizStorage
    /// The catalog, packages and posters every store has: the store itself for the CLI, the server's database (SQLite
    /// or PostgreSQL) for `uquiz serve`. The use cases the server runs (posters, movie search) read only this.
    public var catalog: @Sendable () throws -> any CatalogStorage
    /// TMDB with credentials, or `nil` without them (search and resolving then use the catalog).
    public var movieClient: @Sendable () throws -> TMDBClient?
    /// The image server, which needs no credentials.
    public var imageClient: @Sendable () throws -> TMDBClient
    /// The poster cache and the width posters are played at (`w342`).
    public var posterCache: @Sendable () throws -> PosterCache
    public var posterPlayWidth: @Sendable () throws -> Int
    /// Debug lines (`--verbose`), already free of secrets.
    public var log: @Sendable (String) -> Void
    /// Where poster files are read and written, JPEGs cut and the title index built: in place for the command line, a
    /// pool of its own for the server.
    public var heavyWork: any HeavyWork = InPlace()

    public init(
        now: @escaping @Sendable () -> Date, randomSeed: @escaping @Sendable () -> UInt64,
        store: @escaping @Sendable () throws -> any QuizStorage, movieClient: @escaping @Sendable () throws -> TMDBClient?,
        imageClient: @escaping @Sendable () throws -> TMDBClient, posterCache: @escaping @Sendable () throws -> PosterCache,
        posterPlayWidth: @escaping @Sendable () throws -> Int, log: @escaping @Sendable (String) -> Void,
        catalog: (@Sendable () throws -> any CatalogStorage)? = nil
    ) {
        self.now = now
        self.randomSeed = randomSeed
        self.store = store
        self.catalog = catalog ?? { try store() }
        self.movieClient = movieClient
        self.imageClient = imageClient
        self.posterCache = posterCache
        self.posterPlayWidth = posterPlayWidth
        self.log = log
    }
}

/// A value made on first use and then shared: the database and the clients are opened once per process, and only by
/// the commands that need them.
public final class OnFirstUse<Value: Sendable>: Sendable {
    private let make: @Sendable () throws -> Value
    private let made = Mutex<Value?>(nil)

    public init(_ make: @escaping @Sendable () throws -> Value) {
        self.make = make
    }

    public func get() throws -> Value {
        try made.withLock { value in
            if let value { return value }
            let new = try make()
            value = new
            return new
        }
    }
}

extension AppEnvironment {
    /// The TMDB posters this environment reads.
    public var tmdbPosterFiles: TMDBPosterFiles {
        TMDBPosterFiles(
            cache: posterCache, width: posterPlayWidth, imageClient: imageClient, heavyWork: heavyWork, log: log)
    }
}
