import Foundation
import UQuizStorage
internal import GRDB
import QuizCore


extension AppDatabase {
    /// The TMDB posters of the given packages (all packages when empty); bundled posters need no download.
    public func tmdbPosters(packageIDs: [Int64]) throws -> [TMDBPosterRef] {
        try read { db in
            var sql = """
                SELECT quiz.id, quiz.tmdbId, quiz.posterPath, quiz.title, package.language
                FROM quiz JOIN package ON package.id = quiz.packageId
                WHERE quiz.posterSource = 'tmdb'
                """
            var arguments: StatementArguments = []
            if !packageIDs.isEmpty {
                sql += " AND quiz.packageId IN (\(packageIDs.map { _ in "?" }.joined(separator: ",")))"
                arguments = StatementArguments(packageIDs)
            }
            sql += " ORDER BY package.id, quiz.position"
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                TMDBPosterRef(
                    quizId: row["id"], tmdbId: row["tmdbId"], posterPath: row["posterPath"],
                    language: try Self.decodeEnum(row["language"]), title: row["title"])
            }
        }
    }

    /// Points a quiz (and its catalog movie, for that language) at a poster that replaced one TMDB no longer has.
    public func replacePoster(quizId: Int64, with posterPath: String) throws {
        try write { db in try Self.replacePoster(quizId: quizId, with: posterPath, in: db) }
    }

    static func replacePoster(quizId: Int64, with posterPath: String, in db: Database) throws {
        guard let quiz = try QuizRecord.fetchOne(db, key: quizId) else { throw StoreError.packageNotFound("quiz \(quizId)") }
        let language = try String.fetchOne(db, sql: "SELECT language FROM package WHERE id = ?", arguments: [quiz.packageId])
        try db.execute(sql: "UPDATE quiz SET posterPath = ? WHERE id = ?", arguments: [posterPath, quizId])
        if let key = quiz.catalogKey {
            let column = language == "ko" ? "posterPathKo" : "posterPathEn"
            try db.execute(
                sql: "UPDATE movie SET \(column) = ? WHERE catalogKey = ? AND \(column) = ?",
                arguments: [posterPath, key, quiz.posterPath])
        }
    }
}

extension AppDatabase {
    /// The JPEG of a poster kept in the database: one that travels with the seed bundle, or an upload.
    public func bundledPoster(fileName: String) throws -> Data? {
        try read { db in try Self.bundledPoster(fileName: fileName, in: db) }
    }

    static func bundledPoster(fileName: String, in db: Database) throws -> Data? {
        try PosterImageRecord.fetchOne(db, key: fileName)?.jpeg
    }
}
