import Foundation
import QuizCore

/// What every store gives every front end: packages read by id, the movie catalog and posters. The CLI's SQLite file
/// and the server's PostgreSQL database both implement it, so the use cases the server runs (posters, movie search,
/// plays) work on either.
public protocol CatalogStorage: Sendable {
    func package(id: Int64) throws -> QuizPackage
    /// The stored ids of a package's quizzes, in the package's order.
    func quizIDs(packageId: Int64) throws -> [Int64]
    /// Merges what a source says into the catalog and returns the movies as stored.
    @discardableResult func upsertMovies(_ movies: [CatalogMovie]) throws -> [CatalogMovie]
    func catalogMovie(key: String) throws -> CatalogMovie?
    func catalogMovies(keys: [String]) throws -> [String: CatalogMovie]
    func allCatalogMovies() throws -> [CatalogMovie]
    func searchCatalog(_ query: String, language: QuizLanguage, limit: Int) throws -> [CatalogMovie]
    /// A poster image kept in the database (bundled with the seed, or uploaded) by its file name.
    func bundledPoster(fileName: String) throws -> Data?
    func replacePoster(quizId: Int64, with posterPath: String) throws
}

/// The storage boundary the CLI's use cases talk to: beyond the catalog, listing, creating, editing, importing and
/// deleting packages, local plays and statistics, and the seed, with no database types in sight. `AppDatabase`
/// (SQLite) implements it.
public protocol QuizStorage: CatalogStorage {
    // Packages
    func packages(matching filter: PackageFilter, limit: Int?) throws -> PackageListPage
    func packageID(for reference: String) throws -> Int64
    func insert(_ package: QuizPackage) throws -> Int64
    /// Inserts a new package under its code or, when that is taken, the next from `newCode`, chosen inside the write.
    func insertChoosingShareCode(_ package: QuizPackage, newCode: () -> ShareCode) throws -> (id: Int64, shareCode: ShareCode)
    func saveEdit(packageId: Int64, edited: QuizPackage) throws
    @discardableResult func deletePackages(ids: [Int64]) throws -> [String]
    func importPackages(
        _ packages: [QuizPackage], movies: [CatalogMovie], asCopy: Bool, newCode: () -> ShareCode
    ) throws -> [(id: Int64, shareCode: ShareCode)]

    // Copies published on servers
    /// The share code the server at `server` (its base URL) gave the package's copy, if it was published there.
    func serverCopy(packageId: Int64, server: String) throws -> String?
    /// Records (or replaces) the package's copy on `server`.
    func recordServerCopy(packageId: Int64, server: String, shareCode: String, at date: Date) throws

    // Posters
    func tmdbPosters(packageIDs: [Int64]) throws -> [TMDBPosterRef]

    // Plays and statistics
    /// A play and its attempts in one transaction; `score` is `nil` for a play stopped before its end.
    @discardableResult func recordPlay(
        packageId: Int64, player: String, startedAt: Date, finishedAt: Date, score: Int?, attempts: [PlayAttempt]
    ) throws -> Int64
    func stats(packageId: Int64?, player: String?) throws -> PlayStats

    // The seed
    var location: String { get }
    func seedStatus() throws -> SeedStatus
    func mergeSeed(from bundle: SeedBundle) throws -> MergeReport
    func reset(from bundle: SeedBundle, now: Date) throws -> String
}
