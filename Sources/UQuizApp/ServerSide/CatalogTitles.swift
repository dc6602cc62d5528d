import QuizCore
import UQuizStorage

/// The exact titles of the whole catalog, which every judge this process makes asks whether a guess is another movie's
/// title: read a page at a time, made on the heavy-work pool, and made again in the background once `lifetime` old.
/// A movie added meanwhile reaches these titles within `lifetime`; a quiz's own movie is read with its package, so its
/// accepted titles are always current.
public final class SharedCatalogTitles: Sendable {
    private let titles: RefreshingCache<Int, CatalogTitleLookup>

    public init(lifetime: Duration = .seconds(600)) {
        let origin = ContinuousClock.now
        titles = RefreshingCache(lifetime: lifetime, capacity: 1, now: { ContinuousClock.now - origin })
    }

    /// Starts making the lookup, so that the first play or room does not wait for it; a failure (the store not
    /// ready) leaves it to the first judge.
    public func prepareInBackground(_ environment: SharingEnvironment) {
        Task { _ = try? await lookup(environment) }
    }

    func lookup(_ environment: SharingEnvironment) async throws -> CatalogTitleLookup {
        try await titles.value(of: 0) {
            let movies = try await environment.store().wholeCatalog()
            return try await environment.app.heavyWork.run { CatalogTitleLookup(movies: movies) }
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
