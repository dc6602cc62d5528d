internal import GRDB
import UQuizStorage
import QuizCore

extension AppDatabase {
    /// Writes imported packages and what they teach the catalog, all or nothing.
    ///
    /// A package whose share code is already here is refused unless `asCopy`, which gives it a fresh code (from
    /// `newCode`) and keeps both. A quiz with a bundled poster needs that poster in this database's bundle images.
    /// - Returns: each package's new id and share code, in order.
    public func importPackages(
        _ packages: [QuizPackage], movies: [CatalogMovie], asCopy: Bool, newCode: () -> ShareCode
    ) throws -> [(id: Int64, shareCode: ShareCode)] {
        try write { db in
            // A movie the catalog holds under another key (matched by TMDB id) joins that row; its quizzes follow it.
            var storedKeys: [String: String] = [:]
            for movie in movies { storedKeys[movie.catalogKey] = try Catalog.merge(movie, from: .file, in: db).catalogKey }
            var saved: [(Int64, ShareCode)] = []
            for var package in packages {
                for index in package.quizzes.indices {
                    guard let key = package.quizzes[index].catalogKey, let stored = storedKeys[key] else { continue }
                    package.quizzes[index].catalogKey = stored
                }
                for quiz in package.quizzes where quiz.posterSource == .bundled {
                    guard try PosterImageRecord.exists(db, key: quiz.posterPath) else {
                        throw StoreError.missingBundledPoster(quiz.posterPath)
                    }
                }
                if let existing = try Int64.fetchOne(
                    db, sql: "SELECT id FROM package WHERE shareCode = ?", arguments: [package.shareCode.value])
                {
                    guard asCopy else { throw StoreError.alreadyImported(code: package.shareCode.value, id: existing) }
                    package.shareCode = newCode()
                }
                package.origin = .user
                package.seedId = nil
                saved.append(try Self.insertChoosingShareCode(package, newCode: newCode, in: db))
            }
            return saved
        }
    }

    /// The catalog facts of these keys, for an export.
    public func catalogMovies(keys: [String]) throws -> [String: CatalogMovie] {
        try read { db in try Catalog.movies(keys: keys, in: db) }
    }
}
