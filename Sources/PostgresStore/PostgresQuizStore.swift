import Foundation
import PosterGrid
internal import PostgresNIO
import QuizCore
import UQuizStorage

/// The server's store on PostgreSQL: the same boundaries as QuizStore's `AppDatabase` (the catalog, sharing, open
/// plays, rate limits, the clock), so that several `uquiz serve` instances share one database. Every method is one
/// transaction on one pooled connection; see `ConnectionPool` for how synchronous callers are served without blocking
/// an event loop, and how a database that is down fails fast with `StoreError.unavailable`.
public final class PostgresQuizStore: Sendable {
    /// The database's URL without its password: what messages name.
    public let redactedURL: String
    let pool: ConnectionPool

    static let shareCodeTries = ShareCode.triesPerNewPackage

    init(pool: ConnectionPool) {
        self.pool = pool
        self.redactedURL = pool.url.redacted
    }

    /// Connects, migrates and, when the database holds no package and no catalog yet, seeds it from `seedContent` in one
    /// transaction. Migrating and seeding happen under a PostgreSQL advisory lock, so instances starting at once do
    /// them once; `seedContent` is asked for only when seeding.
    /// - Returns: the store, and whether this call seeded the database.
    public static func open(
        url: String, seedContent: () throws -> SeedContent, maxConnections: Int = 4
    ) throws -> (store: PostgresQuizStore, seeded: Bool) {
        try open(url: url, seeding: true, seed: seedContent, maxConnections: maxConnections)
    }

    /// Connects and migrates, never seeds: an empty database, for tests and tools. `migrating: false` neither checks
    /// nor migrates the schema (tests that look at a database as it is, or work on the server's own database).
    public static func openWithoutSeeding(url: String, maxConnections: Int = 4, migrating: Bool = true) throws -> PostgresQuizStore {
        if !migrating {
            return PostgresQuizStore(pool: ConnectionPool(url: try PostgresURL(url), maxConnections: maxConnections))
        }
        return try open(url: url, seeding: false, seed: { throw StoreError.seedBundleNotFound(searched: []) }, maxConnections: maxConnections).store
    }

    private static func open(
        url text: String, seeding: Bool, seed: () throws -> SeedContent, maxConnections: Int
    ) throws -> (store: PostgresQuizStore, seeded: Bool) {
        let url = try PostgresURL(text)
        let pool = ConnectionPool(url: url, maxConnections: maxConnections)
        var failed = true
        defer { if failed { pool.close() } }
        let seeded = try mapped {
            try pool.withConnection { session in
                // Another instance may be migrating and seeding: wait for it longer than for any other statement.
                try session.execute("SET statement_timeout = '120s'")
                try session.execute("SET lock_timeout = '120s'")
                try session.execute("SELECT pg_advisory_lock($1)", [.int(Migrations.advisoryLockKey)])
                defer {
                    // A connection that cannot give the lock back (or its timeouts) must not be lent again.
                    do {
                        try session.execute("SELECT pg_advisory_unlock($1)", [.int(Migrations.advisoryLockKey)])
                        try session.execute("RESET statement_timeout")
                        try session.execute("RESET lock_timeout")
                    } catch {
                        session.markBroken()
                    }
                }
                try Migrations.migrate(session, url: url)
                guard seeding else { return false }
                return try Seeder.seedIfEmpty(session, content: seed)
            }
        }
        failed = false
        return (PostgresQuizStore(pool: pool), seeded)
    }

    /// Closes the pooled connections; calls after this open new ones.
    public func close() { pool.close() }

    /// The migrations this build knows, oldest first.
    public static var knownMigrations: [String] { Migrations.names }

    /// Words a server refusal that reached the boundary; every public method goes through here.
    static func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw PostgresFailure.word(error)
        }
    }

    func write<T>(_ body: (Session) throws -> T) throws -> T {
        try Self.mapped { try pool.transaction(body) }
    }

    /// Reads run in a transaction as well, so that a method's several statements see one state.
    func read<T>(_ body: (Session) throws -> T) throws -> T {
        try write(body)
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    static func decodeEnum<E: RawRepresentable>(_ raw: String) throws -> E where E.RawValue == String {
        guard let value = E(rawValue: raw) else {
            throw StoreError.corrupt(path: "postgres", detail: "unexpected \(E.self) value \"\(raw)\"")
        }
        return value
    }

    static func placeholders(_ count: Int, from first: Int = 1) -> String {
        (first..<(first + count)).map { "$\($0)" }.joined(separator: ",")
    }
}

// MARK: - Packages

extension PostgresQuizStore {
    public func package(id: Int64) throws -> QuizPackage {
        try read { session in
            guard let package = try Self.fetchPackage(id: id, in: session) else { throw StoreError.packageNotFound("\(id)") }
            return package
        }
    }

    /// The stored ids of a package's quizzes, in the package's order.
    public func quizIDs(packageId: Int64) throws -> [Int64] {
        try read { session in
            try session.query("SELECT id FROM quiz WHERE package_id = $1 ORDER BY position", [.int(packageId)])
                .map { try $0.int64("id") }
        }
    }

    /// Deletes packages with their quizzes, areas, plays and attempts, all or none; returns their titles in order.
    @discardableResult
    public func deletePackages(ids: [Int64]) throws -> [String] {
        try write { session in
            try ids.map { id in
                guard let row = try session.one("DELETE FROM package WHERE id = $1 RETURNING title", [.int(id)]) else {
                    throw StoreError.packageNotFound("\(id)")
                }
                return try row.string("title")
            }
        }
    }

    static func checkStorable(_ package: QuizPackage) throws {
        do {
            try ExportDocument.checkStorable(package)
        } catch {
            throw StoreError.refused(detail: error.description)
        }
    }

    static func insert(_ package: QuizPackage, in session: Session) throws -> Int64 {
        try checkStorable(package)
        let row = try session.one(
            """
            INSERT INTO package (share_code, seed_id, origin, title, maker, level, language, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id
            """,
            [
                .text(package.shareCode.value), .text(package.seedId), .text(package.origin.rawValue),
                .text(package.title), .text(package.maker), .text(package.level.rawValue),
                .text(package.language.rawValue), .text(package.createdAt),
            ])!
        let packageId = try row.int64("id")
        for (position, quiz) in package.quizzes.enumerated() {
            try insert(quiz, packageId: packageId, position: position, in: session)
        }
        return packageId
    }

    static func insert(_ quiz: Quiz, packageId: Int64, position: Int, in session: Session) throws {
        let row = try session.one(
            """
            INSERT INTO quiz (package_id, position, catalog_key, tmdb_id, title, original_title, release_date, genre_ids,
                              poster_path, poster_source, grid_columns, grid_rows, grid_area_size, grid_margin)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id
            """,
            [
                .int(packageId), .int(position), .text(quiz.catalogKey), .int(quiz.tmdbId), .text(quiz.title),
                .text(quiz.originalTitle), .text(quiz.releaseDate), .text(encodeGenreIds(quiz.genreIds)),
                .text(quiz.posterPath), .text(quiz.posterSource.rawValue), .int(quiz.geometry.columns),
                .int(quiz.geometry.rows), .int(quiz.geometry.areaSize), .int(quiz.geometry.margin),
            ])!
        let quizId = try row.int64("id")
        try insertAreas(quiz.areas, quizId: quizId, in: session)
        try replaceAliases(of: quizId, with: quiz.aliases, in: session)
    }

    static func insertAreas(_ areas: [Cell], quizId: Int64, in session: Session) throws {
        for (index, cell) in areas.enumerated() {
            try session.execute(
                "INSERT INTO area (quiz_id, stage, centre_row, centre_column) VALUES ($1, $2, $3, $4)",
                [.int(quizId), .int(index + 1), .int(cell.row), .int(cell.column)])
        }
    }

    static func replaceAliases(of quizId: Int64, with aliases: [String], in session: Session) throws {
        try session.execute("DELETE FROM quiz_alias WHERE quiz_id = $1", [.int(quizId)])
        for title in Aliases.merged([], aliases) {
            try session.execute("INSERT INTO quiz_alias (quiz_id, title) VALUES ($1, $2)", [.int(quizId), .text(title)])
        }
    }

    /// As `AppDatabase.insertChoosingShareCode`: the package's code or, when taken, the next from `newCode`, each try
    /// in a savepoint so a refused code leaves nothing behind.
    static func insertChoosingShareCode(
        _ package: QuizPackage, newCode: () -> ShareCode, in session: Session
    ) throws -> (id: Int64, shareCode: ShareCode) {
        var package = package
        for attempt in 1...shareCodeTries {
            if attempt > 1 { package.shareCode = newCode() }
            do {
                let id = try session.savepoint { try insert(package, in: session) }
                return (id, package.shareCode)
            } catch let refusal as ServerRefusal where refusal.isUniqueViolation && refusal.constraint == "package_share_code_key" {
                continue
            }
        }
        throw StoreError.noFreeShareCode(tries: shareCodeTries)
    }

    static func fetchPackage(id: Int64, in session: Session) throws -> QuizPackage? {
        guard let record = try session.one(
            """
            SELECT id, share_code, seed_id, origin, title, maker, level, language, created_at FROM package WHERE id = $1
            """, [.int(id)])
        else { return nil }
        let quizRows = try session.query(
            """
            SELECT id, catalog_key, tmdb_id, title, original_title, release_date, genre_ids, poster_path, poster_source,
                   grid_columns, grid_rows, grid_area_size, grid_margin
            FROM quiz WHERE package_id = $1 ORDER BY position
            """, [.int(id)])
        let quizIds = try quizRows.map { try $0.int64("id") }
        var areas: [Int64: [Cell]] = [:]
        var aliases: [Int64: [String]] = [:]
        if !quizIds.isEmpty {
            let list = placeholders(quizIds.count)
            for row in try session.query(
                "SELECT quiz_id, centre_row, centre_column FROM area WHERE quiz_id IN (\(list)) ORDER BY quiz_id, stage",
                quizIds.map { .int($0) })
            {
                areas[try row.int64("quiz_id"), default: []].append(
                    Cell(row: try row.int("centre_row"), column: try row.int("centre_column")))
            }
            for row in try session.query(
                "SELECT quiz_id, title FROM quiz_alias WHERE quiz_id IN (\(list)) ORDER BY id", quizIds.map { .int($0) })
            {
                aliases[try row.int64("quiz_id"), default: []].append(try row.string("title"))
            }
        }
        let quizzes = try quizRows.map { row -> Quiz in
            let quizId = try row.int64("id")
            let geometry: GridGeometry
            do {
                geometry = try GridGeometry(
                    columns: try row.int("grid_columns"), rows: try row.int("grid_rows"),
                    areaSize: try row.int("grid_area_size"), margin: try row.int("grid_margin"))
            } catch {
                throw StoreError.corrupt(path: "postgres", detail: "quiz \(quizId): \(error)")
            }
            return Quiz(
                tmdbId: try row.intOrNil("tmdb_id"), catalogKey: try row.stringOrNil("catalog_key"),
                title: try row.string("title"), originalTitle: try row.string("original_title"),
                releaseDate: try row.stringOrNil("release_date"), genreIds: decodeGenreIds(try row.string("genre_ids")),
                posterPath: try row.string("poster_path"), posterSource: try decodeEnum(try row.string("poster_source")),
                geometry: geometry, areas: areas[quizId] ?? [], aliases: aliases[quizId] ?? [])
        }
        let code = try record.string("share_code")
        guard let shareCode = ShareCode(code) else {
            throw StoreError.corrupt(path: "postgres", detail: "package \(id) has share code \"\(code)\"")
        }
        return QuizPackage(
            id: id, shareCode: shareCode, seedId: try record.stringOrNil("seed_id"),
            origin: try decodeEnum(try record.string("origin")), title: try record.string("title"),
            maker: try record.string("maker"), level: try decodeEnum(try record.string("level")),
            language: try decodeEnum(try record.string("language")), createdAt: try record.string("created_at"),
            quizzes: quizzes)
    }

    /// As AppDatabase's `update(packageId:to:keepAttemptedQuizzes: false)`: quizzes that stay (same catalog key) keep
    /// their rows, the others go with their attempts.
    static func update(packageId: Int64, to package: QuizPackage, in session: Session) throws {
        try checkStorable(package)
        try session.execute(
            "UPDATE package SET share_code = $1, title = $2, maker = $3, level = $4, language = $5, created_at = $6 WHERE id = $7",
            [
                .text(package.shareCode.value), .text(package.title), .text(package.maker),
                .text(package.level.rawValue), .text(package.language.rawValue), .text(package.createdAt), .int(packageId),
            ])
        let existing = try session.query("SELECT id, catalog_key FROM quiz WHERE package_id = $1", [.int(packageId)])
            .map { (id: try $0.int64("id"), catalogKey: try $0.stringOrNil("catalog_key")) }
        // Every position out of the way first: (package_id, position) is unique.
        try session.execute("UPDATE quiz SET position = -1 - position WHERE package_id = $1", [.int(packageId)])
        var kept: Set<Int64> = []
        for (position, quiz) in package.quizzes.enumerated() {
            guard let record = existing.first(where: { $0.catalogKey != nil && $0.catalogKey == quiz.catalogKey && !kept.contains($0.id) })
            else {
                try insert(quiz, packageId: packageId, position: position, in: session)
                continue
            }
            kept.insert(record.id)
            try session.execute(
                """
                UPDATE quiz SET position = $1, tmdb_id = $2, title = $3, original_title = $4, release_date = $5,
                       genre_ids = $6, poster_path = $7, poster_source = $8, grid_columns = $9, grid_rows = $10,
                       grid_area_size = $11, grid_margin = $12
                WHERE id = $13
                """,
                [
                    .int(position), .int(quiz.tmdbId), .text(quiz.title), .text(quiz.originalTitle),
                    .text(quiz.releaseDate), .text(encodeGenreIds(quiz.genreIds)), .text(quiz.posterPath),
                    .text(quiz.posterSource.rawValue), .int(quiz.geometry.columns), .int(quiz.geometry.rows),
                    .int(quiz.geometry.areaSize), .int(quiz.geometry.margin), .int(record.id),
                ])
            try session.execute("DELETE FROM area WHERE quiz_id = $1", [.int(record.id)])
            try insertAreas(quiz.areas, quizId: record.id, in: session)
            try replaceAliases(of: record.id, with: quiz.aliases, in: session)
        }
        for record in existing where !kept.contains(record.id) {
            try session.execute("DELETE FROM quiz WHERE id = $1", [.int(record.id)])
        }
    }

    static func encodeGenreIds(_ ids: [Int]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    static func decodeGenreIds(_ text: String) -> [Int] {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
    }
}

// MARK: - Posters

extension PostgresQuizStore {
    /// A poster image kept in the database (bundled with the seed, or uploaded) by its file name.
    public func bundledPoster(fileName: String) throws -> Data? {
        try read { session in
            try session.one("SELECT jpeg FROM poster_image WHERE file_name = $1", [.text(fileName)])?.data("jpeg")
        }
    }

    /// Keeps a JPEG under `fileName` unless one is there (upload names are their content's hash); returns whether new.
    @discardableResult
    public func storePosterImage(fileName: String, jpeg: Data, attribution: String) throws -> Bool {
        try write { session in
            !(try session.query(
                """
                INSERT INTO poster_image (file_name, jpeg, attribution) VALUES ($1, $2, $3)
                ON CONFLICT (file_name) DO NOTHING RETURNING file_name
                """, [.text(fileName), .bytes(jpeg), .text(attribution)]
            ).isEmpty)
        }
    }

    /// Points a quiz (and its catalog movie, for that language) at a poster that replaced one TMDB no longer has.
    public func replacePoster(quizId: Int64, with posterPath: String) throws {
        try write { session in
            guard let quiz = try session.one(
                """
                SELECT quiz.catalog_key, quiz.poster_path, package.language FROM quiz
                JOIN package ON package.id = quiz.package_id WHERE quiz.id = $1 FOR UPDATE OF quiz
                """, [.int(quizId)])
            else { throw StoreError.packageNotFound("quiz \(quizId)") }
            try session.execute("UPDATE quiz SET poster_path = $1 WHERE id = $2", [.text(posterPath), .int(quizId)])
            if let key = try quiz.stringOrNil("catalog_key") {
                let column = try quiz.string("language") == "ko" ? "poster_path_ko" : "poster_path_en"
                try session.execute(
                    "UPDATE movie SET \(column) = $1 WHERE catalog_key = $2 AND \(column) = $3",
                    [.text(posterPath), .text(key), .text(try quiz.string("poster_path"))])
            }
        }
    }
}

// MARK: - Store clock and readiness

extension PostgresQuizStore {
    /// Microseconds since 1970-01-01 UTC by the database server's clock (`clock_timestamp()`, not the transaction's).
    public func databaseMicros() throws -> Int64 {
        try Self.mapped {
            try pool.withConnection { session in
                try session.one("SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS micros")!.int64("micros")
            }
        }
    }

    /// Whether the database answers a trivial query now.
    public func answers() -> Bool {
        (try? pool.withConnection { session in try session.one("SELECT 1::bigint AS one")?.int64("one") }) == 1
    }
}
