import QuizCore
import UQuizStorage

/// What the server makes of its whole catalog, from one read of it: the exact titles every judge asks whether a guess
/// is another movie's title, and the index title suggestions are looked up in.
public struct CatalogTitles: Sendable {
    public let lookup: CatalogTitleLookup
    public let index: TitleIndex
}

/// The catalog's titles, shared by every judge and by title suggestions in this process: read a page at a time, made
/// on the heavy-work pool as the server starts, and made again in the background once `lifetime` old. A movie added
/// meanwhile reaches them within `lifetime` (title suggestions add what TMDB answers them at once); a quiz's own movie
/// is read with its package, so its accepted titles are always current.
public final class SharedCatalogTitles: Sendable {
    private let titles: RefreshingCache<Int, CatalogTitles>

    public init(lifetime: Duration = .seconds(600)) {
        let origin = ContinuousClock.now
        titles = RefreshingCache(lifetime: lifetime, capacity: 1, now: { ContinuousClock.now - origin })
    }

    /// Starts making them, so that neither the first play nor the first suggestion waits (a catalog of 200,000 movies
    /// takes seconds); a failure (the store not ready) leaves it to the first that needs them.
    public func prepareInBackground(_ environment: SharingEnvironment) {
        Task { _ = try? await current(environment) }
    }

    func current(_ environment: SharingEnvironment) async throws -> CatalogTitles {
        try await titles.value(of: 0) {
            let movies = try await environment.store().wholeCatalog()
            let work = environment.heavyWork
            async let lookup = work.run { CatalogTitleLookup(movies: movies) }
            async let index = work.run { TitleIndex(movies.map(TitleIndex.Movie.init)) }
            return CatalogTitles(lookup: try await lookup, index: try await index)
        }
    }
}

extension ServerCatalogStorage {
    /// Movies read per call when the whole catalog is read: each call ends well within the store's deadline.
    static var catalogPageSize: Int { 5_000 }

    /// The whole catalog, read a page at a time (a catalog of 200,000 movies read in one call outran the deadline).
    func wholeCatalog() async throws -> [CatalogMovie] {
        var movies: [CatalogMovie] = []
        var after: Int64?
        repeat {
            let page = try await catalogPage(after: after, limit: Self.catalogPageSize)
            movies += page.movies
            after = page.next
        } while after != nil
        return movies
    }
}
