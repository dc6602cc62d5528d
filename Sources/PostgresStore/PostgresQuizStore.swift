import Foundation
import Metrics
import Synchronization
import Logging
import PosterGrid
internal import PostgresNIO
import QuizCore
import ServiceLifecycle
import UQuizStorage

/// The server's store on PostgreSQL: the same boundaries as QuizStore's `AppDatabase` (the catalog, sharing, open
/// plays, rate limits, the clock, live rooms), so that several `uquiz serve` instances share one database.
///
/// Every storage method is one transaction on one connection of postgres-nio's `PostgresClient` pool, and ends by the
/// store's deadline: waiting for a free connection, connecting and every statement count inside it, and past it the
/// call fails with `StoreError.unavailable` (the work is abandoned and its connection closed, so nothing of it is
/// committed afterwards). The pool works only while `run()` runs: hand the store to a `ServiceGroup`, or use
/// `withRunning`.
public final class PostgresQuizStore: Sendable, Service {
    /// The database's URL without its password: what messages name.
    public let redactedURL: String
    let url: PostgresURL
    let client: PostgresClient
    /// This instance's listeners of package changes, fed by `listenForChanges`.
    let changes = PackageChangeBroadcast()
    let maxConnections: Int
    let deadline: StoreDeadline
    /// How long one statement may go unanswered before its connection is closed (see `Session`).
    let queryTimeout: TimeInterval
    let logger: Logger
    let census = ConnectionCensus()

    /// Reads the URL (a bad one throws `StoreError.cannotCreate`, without echoing it) and makes the pool, of at most
    /// `maxConnections` connections; nothing connects before `run()` runs and a call needs a connection.
    /// - Parameters:
    ///   - deadline: how long each storage call may take before it fails with `StoreError.unavailable`.
    ///   - logger: where postgres-nio's background events go; silent by default.
    public convenience init(
        url: String, maxConnections: Int = 8, deadline: StoreDeadline = .standard,
        logger: Logger = Logger(label: "uquiz.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.init(
            url: try PostgresURL(url), maxConnections: maxConnections, deadline: deadline, queryTimeout: 20, logger: logger)
    }

    init(url: PostgresURL, maxConnections: Int, deadline: StoreDeadline, queryTimeout: TimeInterval, logger: Logger) {
        self.url = url
        self.redactedURL = url.redacted
        self.maxConnections = max(1, maxConnections)
        self.deadline = deadline
        self.queryTimeout = queryTimeout
        self.logger = logger
        self.client = PostgresClient(
            configuration: url.clientConfiguration(maxConnections: maxConnections), backgroundLogger: logger)
    }

    /// Runs the connection pool until the task is cancelled or a graceful shutdown is triggered (what a `ServiceGroup`
    /// does); storage calls wait for connections, and so fail by their deadline, while it does not run. It runs once:
    /// once it has returned, the store serves no more. Beside the pool, a connection of its own listens for the package
    /// changes other instances commit (`packageChanges()`).
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.listenForChanges() }
            await client.run()
            group.cancelAll()
        }
    }

    /// Migrates and, when `seedContent` is given and the database holds no package and no catalog yet, seeds it from
    /// `seedContent` in one transaction. Migrating and seeding happen under a PostgreSQL advisory lock on a connection
    /// of their own (not the pool's, so `run()` need not run), so that instances starting at once do them once; a
    /// database holding a migration this build does not know is refused (`StoreError.newerSchema`) before anything is
    /// written. Not bounded by the store's deadline: it waits up to 2 minutes for another instance's migration.
    /// `seedContent` is asked for only when seeding.
    /// - Returns: whether this call seeded the database.
    @discardableResult
    public func prepare(seedContent: (@Sendable () throws -> SeedContent)?) async throws -> Bool {
        let url = self.url
        do {
            return try await Self.withDirectSession(url: url, queryTimeout: 150, logger: logger) { session in
                // Another instance may be migrating and seeding: wait for it longer than for any other statement.
                try await session.execute("SET statement_timeout = '120s'")
                try await session.execute("SET lock_timeout = '120s'")
                try await session.execute("SELECT pg_advisory_lock($1)", [.int(Migrations.advisoryLockKey)])
                // On failure the connection's close gives the lock back.
                try await Migrations.migrate(session, url: url)
                var seeded = false
                if let seedContent { seeded = try await Seeder.seedIfEmpty(session, content: seedContent) }
                try await session.execute("SELECT pg_advisory_unlock($1)", [.int(Migrations.advisoryLockKey)])
                return seeded
            }
        } catch {
            throw PostgresFailure.word(error)
        }
    }

    /// Runs `body` with a store on `url` whose pool runs meanwhile (for tests and tools; a server hands the store to
    /// its `ServiceGroup` instead): `run()` runs in a child task, the store is prepared, `body` is called, and the pool
    /// is stopped when `body` returns or throws.
    /// - Parameters:
    ///   - migrating: `false` neither checks nor migrates the schema (a database looked at as it is, or the server's
    ///     own database for administration). By default the schema is migrated.
    ///   - seedContent: seeds an empty database with this content after migrating (see `prepare`); `nil` (the
    ///     default) never seeds. Seeding needs `migrating`. A caller that needs to know whether it seeded calls
    ///     `prepare` itself with `migrating: false`.
    ///   - isolation: where `body` runs: the caller's actor, if any.
    public static func withRunning<T: Sendable>(
        url: String, maxConnections: Int = 8, deadline: StoreDeadline = .standard, migrating: Bool = true,
        seedContent: (@Sendable () throws -> SeedContent)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresQuizStore) async throws -> T
    ) async throws -> T {
        precondition(migrating || seedContent == nil, "seeding a database needs migrating it")
        let store = try PostgresQuizStore(url: url, maxConnections: maxConnections, deadline: deadline)
        return try await store.whileRunning(migrating: migrating, seedContent: seedContent, isolation: isolation, body)
    }

    /// Runs `run()` in a child task while `body` runs, after preparing the store when `migrating`.
    func whileRunning<T: Sendable>(
        migrating: Bool, seedContent: (@Sendable () throws -> SeedContent)?,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresQuizStore) async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self, isolation: isolation) { group in
            group.addTask { await self.run() }
            defer { group.cancelAll() }
            if migrating { try await prepare(seedContent: seedContent) }
            return try await body(self)
        }
    }

    /// The migrations this build knows, oldest first.
    public static var knownMigrations: [String] { Migrations.names }

    // MARK: Calls, transactions and connections

    /// One transaction, bounded by the store's deadline: BEGIN, `body`, COMMIT on one pooled connection. Anything
    /// thrown rolls it back (nothing is written) and is rethrown, a server refusal worded as a `StoreError`.
    func write<T: Sendable>(
        _ operation: String = #function, _ body: @escaping @Sendable (Session) async throws -> T
    ) async throws -> T {
        try await deadline.run(redactedURL, name: operation) { [self] in
            do {
                return try await transaction(body)
            } catch {
                throw PostgresFailure.word(error)
            }
        }
    }

    /// A read of several statements, in a transaction so that they see one state.
    func readTogether<T: Sendable>(
        _ operation: String = #function, _ body: @escaping @Sendable (Session) async throws -> T
    ) async throws -> T {
        try await write(operation, body)
    }

    /// A read of one statement, or of statements that need not see one state: outside any transaction, since a
    /// statement alone sees one state, so it costs one round trip where BEGIN and COMMIT around it would cost three.
    func read<T: Sendable>(
        _ operation: String = #function, _ body: @escaping @Sendable (Session) async throws -> T
    ) async throws -> T {
        try await repeatableCall(operation, body)
    }

    /// One pooled connection outside any transaction, bounded by the store's deadline, for a call that may be made
    /// twice (a read, or a write that knows its own earlier success): one that fails as unavailable (a pooled
    /// connection the server had closed: a restart, an idle timeout) is made again on another, as a transaction's
    /// BEGIN is.
    func repeatableCall<T: Sendable>(
        _ operation: String = #function, _ body: @escaping @Sendable (Session) async throws -> T
    ) async throws -> T {
        try await deadline.run(redactedURL, name: operation) { [self] in
            var retries = 0
            while true {
                let mayRetry = retries < maxConnections
                do {
                    return try await leased { session in
                        do {
                            return try await body(session)
                        } catch StoreError.unavailable where mayRetry && session.broken && !Task.isCancelled {
                            throw StaleConnection()
                        }
                    }
                } catch is StaleConnection {
                    retries += 1
                } catch {
                    throw PostgresFailure.word(error)
                }
            }
        }
    }

    /// One pooled connection outside any transaction, bounded by the store's deadline.
    func withSession<T: Sendable>(
        _ operation: String = #function, _ body: @escaping @Sendable (Session) async throws -> T
    ) async throws -> T {
        try await deadline.run(redactedURL, name: operation) { [self] in
            do {
                return try await leased(body)
            } catch {
                throw PostgresFailure.word(error)
            }
        }
    }

    private struct StaleConnection: Error {}

    /// A pooled connection the server closed meanwhile (a restart, an idle timeout) or that stopped answering is found
    /// out by BEGIN, before anything is sent: the transaction then starts again on another connection instead of
    /// failing. As many times as the pool has connections, since a restart leaves all of them dead, and the pool
    /// may lend them before it sees their close.
    private func transaction<T: Sendable>(_ body: (Session) async throws -> T) async throws -> T {
        var retries = 0
        while true {
            let mayRetry = retries < maxConnections
            do {
                return try await leased { session in
                    do {
                        try await session.execute("BEGIN")
                    } catch StoreError.unavailable where mayRetry && !Task.isCancelled {
                        throw StaleConnection()
                    }
                    do {
                        let value = try await body(session)
                        try await session.execute("COMMIT")
                        return value
                    } catch {
                        await session.rollback()
                        throw error
                    }
                }
            } catch is StaleConnection {
                retries += 1
            }
        }
    }

    /// What `body` threw, told apart from what leasing the connection threw.
    private struct BodyFailure: Error {
        var error: any Error
    }

    /// Lends a pooled connection to `body`; a connection left in an unknown state is closed before it goes back, so
    /// that the pool replaces it.
    func leased<T: Sendable>(_ body: (Session) async throws -> T) async throws -> T {
        let lease = census.waiting()
        defer { lease.end() }
        do {
            return try await client.withConnection { connection in
                lease.inUse()
                let session = Session(connection: connection, url: url, queryTimeout: queryTimeout, logger: logger)
                do {
                    let value = try await body(session)
                    if session.broken { await retire(session) }
                    return value
                } catch {
                    if session.broken || connection.isClosed { await retire(session) }
                    throw BodyFailure(error: error)
                }
            }
        } catch let failure as BodyFailure {
            throw failure.error
        } catch {
            throw PostgresFailure.map(error, url: url, connecting: false)
        }
    }

    /// Closes a leased connection and has the pool open another for whoever waits. postgres-nio's pool (1.33) opens
    /// none when a leased connection closes: a call already waiting for a connection would wait until another call
    /// asks for one or gives one back, so a throwaway request, given up after the deadline, asks for it.
    private func retire(_ session: Session) async {
        await session.closeConnection()
        let client = self.client
        let asking = Task { try? await client.withConnection { _ in } }
        let limit = deadline.duration
        Task {
            try? await Task.sleep(for: limit)
            asking.cancel()
        }
    }

    /// A connection of its own to `url`, for `body` alone, closed afterwards (which ends whatever session state
    /// `body` left, advisory locks included).
    static func withDirectSession<T>(
        url: PostgresURL, queryTimeout: TimeInterval, logger: Logger, _ body: (Session) async throws -> T
    ) async throws -> T {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: url.connectionConfiguration, id: 0, logger: logger)
        } catch {
            throw PostgresFailure.map(error, url: url, connecting: true)
        }
        let session = Session(connection: connection, url: url, queryTimeout: queryTimeout, logger: logger)
        do {
            let value = try await body(session)
            await session.closeConnection()
            return value
        } catch {
            await session.closeConnection()
            throw error
        }
    }

    // MARK: Helpers

    /// As AppDatabase's `timestamp`: a format style, not a formatter made on every call.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
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
    public func package(id: Int64) async throws -> QuizPackage {
        try await readTogether { session in
            guard let package = try await Self.fetchPackage(id: id, in: session) else { throw StoreError.packageNotFound("\(id)") }
            return package
        }
    }

    /// The stored ids of a package's quizzes, in the package's order.
    public func quizIDs(packageId: Int64) async throws -> [Int64] {
        try await read { session in
            try await session.query("SELECT id FROM quiz WHERE package_id = $1 ORDER BY position", [.int(packageId)])
                .map { try $0.int64("id") }
        }
    }

    /// Deletes packages with their quizzes, areas, plays and attempts, all or none; returns their titles in order.
    @discardableResult
    public func deletePackages(ids: [Int64]) async throws -> [String] {
        try await write { session in
            var titles: [String] = []
            for id in ids {
                guard let row = try await session.one(
                    "DELETE FROM package WHERE id = $1 RETURNING title, share_code", [.int(id)])
                else {
                    throw StoreError.packageNotFound("\(id)")
                }
                titles.append(try row.string("title"))
                if let code = ShareCode(try row.string("share_code")) {
                    try await Self.notifyChange(packageId: id, shareCode: code, in: session)
                }
            }
            return titles
        }
    }

    static func checkStorable(_ package: QuizPackage) throws {
        do {
            try ExportDocument.checkStorable(package)
        } catch {
            throw StoreError.refused(detail: error.description)
        }
    }

    static func insert(_ package: QuizPackage, in session: Session) async throws -> Int64 {
        try checkStorable(package)
        let row = try await session.one(
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
            try await insert(quiz, packageId: packageId, position: position, in: session)
        }
        return packageId
    }

    static func insert(_ quiz: Quiz, packageId: Int64, position: Int, in session: Session) async throws {
        let row = try await session.one(
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
        try await insertAreas(quiz.areas, quizId: quizId, in: session)
        try await replaceAliases(of: quizId, with: quiz.aliases, in: session)
    }

    static func insertAreas(_ areas: [Cell], quizId: Int64, in session: Session) async throws {
        for (index, cell) in areas.enumerated() {
            try await session.execute(
                "INSERT INTO area (quiz_id, stage, centre_row, centre_column) VALUES ($1, $2, $3, $4)",
                [.int(quizId), .int(index + 1), .int(cell.row), .int(cell.column)])
        }
    }

    static func replaceAliases(of quizId: Int64, with aliases: [String], in session: Session) async throws {
        try await session.execute("DELETE FROM quiz_alias WHERE quiz_id = $1", [.int(quizId)])
        for title in Aliases.merged([], aliases) {
            try await session.execute("INSERT INTO quiz_alias (quiz_id, title) VALUES ($1, $2)", [.int(quizId), .text(title)])
        }
    }

    /// As `AppDatabase.insertChoosingShareCode`: the package's own code or, each time it is taken, the next of
    /// `otherCodes`, each try in a savepoint so a refused code leaves nothing behind; `StoreError.noFreeShareCode` when
    /// every code is taken.
    static func insertChoosingShareCode(
        _ package: QuizPackage, otherCodes: [ShareCode], in session: Session
    ) async throws -> (id: Int64, shareCode: ShareCode) {
        var package = package
        var codes = otherCodes.makeIterator()
        var tries = 1
        while true {
            do {
                let candidate = package
                let id = try await session.savepoint { try await insert(candidate, in: session) }
                return (id, package.shareCode)
            } catch let refusal as ServerRefusal where refusal.isUniqueViolation && refusal.constraint == "package_share_code_key" {
                guard let next = codes.next() else { throw StoreError.noFreeShareCode(tries: tries) }
                package.shareCode = next
                tries += 1
            }
        }
    }

    static func fetchPackage(id: Int64, in session: Session) async throws -> QuizPackage? {
        guard let record = try await session.one(
            """
            SELECT id, share_code, seed_id, origin, title, maker, level, language, created_at FROM package WHERE id = $1
            """, [.int(id)])
        else { return nil }
        let quizRows = try await session.query(
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
            for row in try await session.query(
                "SELECT quiz_id, centre_row, centre_column FROM area WHERE quiz_id IN (\(list)) ORDER BY quiz_id, stage",
                quizIds.map { .int($0) })
            {
                areas[try row.int64("quiz_id"), default: []].append(
                    Cell(row: try row.int("centre_row"), column: try row.int("centre_column")))
            }
            for row in try await session.query(
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
    static func update(packageId: Int64, to package: QuizPackage, in session: Session) async throws {
        try checkStorable(package)
        try await session.execute(
            "UPDATE package SET share_code = $1, title = $2, maker = $3, level = $4, language = $5, created_at = $6 WHERE id = $7",
            [
                .text(package.shareCode.value), .text(package.title), .text(package.maker),
                .text(package.level.rawValue), .text(package.language.rawValue), .text(package.createdAt), .int(packageId),
            ])
        let existing = try await session.query("SELECT id, catalog_key FROM quiz WHERE package_id = $1", [.int(packageId)])
            .map { (id: try $0.int64("id"), catalogKey: try $0.stringOrNil("catalog_key")) }
        // Every position out of the way first: (package_id, position) is unique.
        try await session.execute("UPDATE quiz SET position = -1 - position WHERE package_id = $1", [.int(packageId)])
        var kept: Set<Int64> = []
        for (position, quiz) in package.quizzes.enumerated() {
            guard let record = existing.first(where: { $0.catalogKey != nil && $0.catalogKey == quiz.catalogKey && !kept.contains($0.id) })
            else {
                try await insert(quiz, packageId: packageId, position: position, in: session)
                continue
            }
            kept.insert(record.id)
            try await session.execute(
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
            try await session.execute("DELETE FROM area WHERE quiz_id = $1", [.int(record.id)])
            try await insertAreas(quiz.areas, quizId: record.id, in: session)
            try await replaceAliases(of: record.id, with: quiz.aliases, in: session)
        }
        for record in existing where !kept.contains(record.id) {
            try await session.execute("DELETE FROM quiz WHERE id = $1", [.int(record.id)])
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
    public func bundledPoster(fileName: String) async throws -> Data? {
        try await read { session in
            try await session.one("SELECT jpeg FROM poster_image WHERE file_name = $1", [.text(fileName)])?.data("jpeg")
        }
    }

    /// Keeps a JPEG under `fileName` unless one is there (upload names are their content's hash); returns whether new.
    @discardableResult
    public func storePosterImage(fileName: String, jpeg: Data, attribution: String) async throws -> Bool {
        try await write { session in
            !(try await session.query(
                """
                INSERT INTO poster_image (file_name, jpeg, attribution) VALUES ($1, $2, $3)
                ON CONFLICT (file_name) DO NOTHING RETURNING file_name
                """, [.text(fileName), .bytes(jpeg), .text(attribution)]
            ).isEmpty)
        }
    }

    /// Keeps a player's upload within their quota; the player's row is locked so two uploads of one player at once
    /// cannot both fit in the room left for one.
    public func storeUpload(
        fileName: String, jpeg: Data, attribution: String, owner: Int64, at date: Date, quotaBytes: Int
    ) async throws -> UploadStored {
        try await write { session in
            _ = try await session.query("SELECT id FROM player WHERE id = $1 FOR UPDATE", [.int(owner)])
            if try await session.one("SELECT 1 AS present FROM poster_image WHERE file_name = $1", [.text(fileName)]) != nil {
                return .existing
            }
            let held = try await session.one(
                "SELECT COALESCE(SUM(octet_length(jpeg)), 0)::bigint AS held FROM poster_image WHERE owner_id = $1",
                [.int(owner)])!.int("held")
            guard held + jpeg.count <= quotaBytes else { return .overQuota(heldBytes: held) }
            try await session.execute(
                """
                INSERT INTO poster_image (file_name, jpeg, attribution, owner_id, stored_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (file_name) DO NOTHING
                """, [.text(fileName), .bytes(jpeg), .text(attribution), .int(owner), .text(Self.timestamp(date))])
            return .stored
        }
    }

    public func deleteUnusedUploads(storedBefore date: Date) async throws -> [String] {
        try await write { session in
            try await session.query(
                """
                DELETE FROM poster_image
                WHERE stored_at IS NOT NULL AND stored_at < $1
                  AND NOT EXISTS (SELECT 1 FROM quiz WHERE quiz.poster_source = 'bundled' AND quiz.poster_path = poster_image.file_name)
                  AND NOT EXISTS (SELECT 1 FROM movie WHERE movie.bundled_poster = poster_image.file_name)
                  AND NOT EXISTS (SELECT 1 FROM draft WHERE strpos(draft.document, poster_image.file_name) > 0)
                RETURNING file_name
                """, [.text(Self.timestamp(date))]
            ).map { try $0.string("file_name") }
        }
    }

    /// Points a quiz (and its catalog movie, for that language) at a poster that replaced one TMDB no longer has.
    public func replacePoster(quizId: Int64, with posterPath: String) async throws {
        try await write { session in
            guard let quiz = try await session.one(
                """
                SELECT quiz.catalog_key, quiz.poster_path, package.language FROM quiz
                JOIN package ON package.id = quiz.package_id WHERE quiz.id = $1 FOR UPDATE OF quiz
                """, [.int(quizId)])
            else { throw StoreError.packageNotFound("quiz \(quizId)") }
            try await session.execute("UPDATE quiz SET poster_path = $1 WHERE id = $2", [.text(posterPath), .int(quizId)])
            if let key = try quiz.stringOrNil("catalog_key") {
                let column = try quiz.string("language") == "ko" ? "poster_path_ko" : "poster_path_en"
                try await session.execute(
                    "UPDATE movie SET \(column) = $1 WHERE catalog_key = $2 AND \(column) = $3",
                    [.text(posterPath), .text(key), .text(try quiz.string("poster_path"))])
            }
        }
    }
}

// MARK: - Store clock and readiness

extension PostgresQuizStore {
    /// Microseconds since 1970-01-01 UTC by the database server's clock (`clock_timestamp()`, not the transaction's).
    public func databaseMicros() async throws -> Int64 {
        try await withSession { session in
            try await session.one("SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS micros")!.int64("micros")
        }
    }

    /// Whether the database answers a trivial query now, within the store's deadline; `false` on any failure.
    public func answers() async -> Bool {
        let one = try? await withSession { session in try await session.one("SELECT 1::bigint AS one")?.int64("one") }
        return one == 1
    }
}

/// How many of the pool's connections calls hold, and how many calls wait for one: `uquiz_store_connections_in_use`
/// and `uquiz_store_connections_waiting` (through swift-metrics; nothing without a backend).
final class ConnectionCensus: Sendable {
    private let counts = Mutex((inUse: 0, waiting: 0))
    // Made once, with the store: `uquiz serve` bootstraps its metrics backend before it makes the store.
    private let inUseGauge = Gauge(label: "uquiz_store_connections_in_use")
    private let waitingGauge = Gauge(label: "uquiz_store_connections_waiting")

    /// One call, waiting for a connection until it says `inUse()`, counted until `end()`.
    final class Lease: Sendable {
        private let census: ConnectionCensus
        private let state = Mutex((using: false, ended: false))

        init(_ census: ConnectionCensus) {
            self.census = census
        }

        func inUse() {
            let changed = state.withLock { state in
                defer { state.using = true }
                return !state.using && !state.ended
            }
            if changed { census.change(inUse: 1, waiting: -1) }
        }

        func end() {
            let using = state.withLock { state -> Bool? in
                guard !state.ended else { return nil }
                state.ended = true
                return state.using
            }
            guard let using else { return }
            census.change(inUse: using ? -1 : 0, waiting: using ? 0 : -1)
        }
    }

    func waiting() -> Lease {
        change(inUse: 0, waiting: 1)
        return Lease(self)
    }

    private func change(inUse: Int, waiting: Int) {
        // Recorded under the lock, so that the gauges are set in the order the counts changed.
        counts.withLock { counts in
            counts.inUse += inUse
            counts.waiting += waiting
            inUseGauge.record(counts.inUse)
            waitingGauge.record(counts.waiting)
        }
    }
}
