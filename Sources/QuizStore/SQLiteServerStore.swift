import Foundation
import QuizCore
import UQuizStorage
internal import GRDB

/// The server's store on the SQLite file: everything `uquiz serve` stores, run through GRDB's asynchronous access.
///
/// Each call runs on GRDB's own dispatch queues while the request suspends, so a request waiting for the database (a
/// long write, another process's lock) never holds one of Swift's cooperative threads, and each ends by `deadline`
/// (`StoreError.unavailable` after it). The queries are `AppDatabase`'s own, which the CLI runs synchronously.
public final class SQLiteServerStore: Sendable {
    /// The database file, or `AppDatabase.inMemoryPath` for a store on an in-memory database.
    public let path: String
    public let deadline: StoreDeadline
    private let writer: any DatabaseWriter
    /// One process serves on a SQLite file: the changes this store makes are all there are.
    private let changes = PackageChangeBroadcast()
    /// For a store on a file of its own pool (`open`): the log's checkpoints, off the writes.
    private let checkpointer: WALCheckpointer?

    /// A store on the connection of `database`: for an in-memory database (tests), or where one connection will do.
    public convenience init(database: AppDatabase, deadline: StoreDeadline = .standard) {
        self.init(path: database.path, writer: database.writer, deadline: deadline, checkpointer: nil)
    }

    private init(path: String, writer: any DatabaseWriter, deadline: StoreDeadline, checkpointer: WALCheckpointer?) {
        self.path = path
        self.writer = writer
        self.deadline = deadline
        self.checkpointer = checkpointer
    }

    deinit { checkpointer?.stop() }

    /// Opens the database file at `path`, which `AppDatabase.openOrSeed` must have made (or migrated) first, as a pool
    /// of connections in WAL mode: reads go on side by side, and beside the one write at a time SQLite allows, which a
    /// server with many requests at once needs (a command's single `DatabaseQueue` would take them one by one).
    public static func open(path: String, deadline: StoreDeadline = .standard) throws -> SQLiteServerStore {
        guard path != AppDatabase.inMemoryPath else {
            throw StoreError.cannotCreate(path: path, reason: "a pool of connections cannot share a database in memory")
        }
        try FileSystem.checkDatabasePath(path)
        // SQLite would create a missing file, empty and without the schema.
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.io(path: path, detail: "no such file")
        }
        var configuration = AppDatabase.configuration()
        WALCheckpointer.configure(&configuration)
        let (pool, checkpointer) = try mappingErrors(path: path) {
            (try DatabasePool(path: path, configuration: configuration), try WALCheckpointer(path: path))
        }
        return SQLiteServerStore(path: path, writer: pool, deadline: deadline, checkpointer: checkpointer)
    }

    /// Runs `updates` in one IMMEDIATE transaction on GRDB's writer queue, within the deadline.
    func write<T: Sendable>(
        _ operation: String = #function, _ updates: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        let path = path
        return try await deadline.run(path, name: operation) { answer in
            // The callback form: the request's task waits for the writer's queue with no task of its own.
            writer.asyncWrite(updates) { _, outcome in answer(outcome.mapError { StoreError.from($0, path: path) }) }
        }
    }

    /// Runs `value` in a read transaction (on a reader of the pool, beside any write), within the deadline.
    func read<T: Sendable>(
        _ operation: String = #function, _ value: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        let path = path
        return try await deadline.run(path, name: operation) { answer in
            writer.asyncRead { database in
                answer(Result { try value(try database.get()) }.mapError { StoreError.from($0, path: path) })
            }
        }
    }
}

// MARK: - The catalog

extension SQLiteServerStore {
    public func package(id: Int64) async throws -> QuizPackage {
        try await read { db in try AppDatabase.package(id: id, in: db) }
    }

    public func quizIDs(packageId: Int64) async throws -> [Int64] {
        try await read { db in try AppDatabase.quizIDs(packageId: packageId, in: db) }
    }

    @discardableResult
    public func upsertMovies(_ movies: [CatalogMovie]) async throws -> [CatalogMovie] {
        try await write { db in try AppDatabase.upsertMovies(movies, in: db) }
    }

    public func catalogMovie(key: String) async throws -> CatalogMovie? {
        try await read { db in try AppDatabase.catalogMovie(key: key, in: db) }
    }

    public func catalogMovies(keys: [String]) async throws -> [String: CatalogMovie] {
        try await read { db in try Catalog.movies(keys: keys, in: db) }
    }

    public func allCatalogMovies() async throws -> [CatalogMovie] {
        try await read { db in try Catalog.fetchAll(in: db) }
    }

    public func catalogPage(after: Int64?, limit: Int) async throws -> (movies: [CatalogMovie], next: Int64?) {
        try await read { db in
            let records = try MovieRecord.filter(Column("id") > (after ?? 0)).order(Column("id")).limit(limit).fetchAll(db)
            return (try Catalog.movies(records, in: db), records.count == limit ? records.last?.id : nil)
        }
    }

    public func searchCatalog(_ query: String, language: QuizLanguage, limit: Int) async throws -> [CatalogMovie] {
        guard let needle = AppDatabase.searchNeedle(query) else { return [] }
        return try await read { db in
            try AppDatabase.searchCatalog(needle: needle, language: language, limit: limit, in: db)
        }
    }

    public func bundledPoster(fileName: String) async throws -> Data? {
        try await read { db in try AppDatabase.bundledPoster(fileName: fileName, in: db) }
    }

    public func replacePoster(quizId: Int64, with posterPath: String) async throws {
        try await write { db in try AppDatabase.replacePoster(quizId: quizId, with: posterPath, in: db) }
    }
}

// MARK: - Players, publishing, browsing

extension SQLiteServerStore {
    public func insertPlayer(name: String, tokenHash: Data, at date: Date) async throws -> Player {
        try await write { db in try AppDatabase.insertPlayer(name: name, tokenHash: tokenHash, at: date, in: db) }
    }

    public func player(tokenHash: Data) async throws -> Player? {
        try await read { db in try AppDatabase.player(tokenHash: tokenHash, in: db) }
    }

    public func insertLinkCode(codeHash: Data, playerId: Int64, expiresAt: Date) async throws {
        try await write { db in try AppDatabase.insertLinkCode(codeHash: codeHash, playerId: playerId, expiresAt: expiresAt, in: db) }
    }

    public func redeemLinkCode(codeHash: Data, at date: Date, tokenHash: Data) async throws -> Player? {
        try await write { db in try AppDatabase.redeemLinkCode(codeHash: codeHash, at: date, tokenHash: tokenHash, in: db) }
    }

    public func renamePlayer(id: Int64, name: String) async throws -> Player? {
        try await write { db in try AppDatabase.renamePlayer(id: id, name: name, in: db) }
    }

    public func insertPublished(
        _ package: QuizPackage, owner: Int64, visibility: Visibility, otherCodes: [ShareCode]
    ) async throws -> (id: Int64, shareCode: ShareCode) {
        try await write { db in
            try AppDatabase.insertPublished(package, owner: owner, visibility: visibility, otherCodes: otherCodes, in: db)
        }
    }

    public func ownedPackages(playerId: Int64, after position: BrowsePosition?, limit: Int) async throws -> [PublishedPackage] {
        try await read { db in try AppDatabase.ownedPackages(playerId: playerId, after: position, limit: limit, in: db) }
    }

    public func publishedPackage(shareCode: ShareCode) async throws -> PublishedPackage? {
        try await read { db in try AppDatabase.publishedPackage(shareCode: shareCode, in: db) }
    }

    public func publicPackages(
        _ filter: BrowseFilter, after position: BrowsePosition?, limit: Int
    ) async throws -> [PublishedPackage] {
        try await read { db in try AppDatabase.publicPackages(filter, after: position, limit: limit, in: db) }
    }

    public func popularPackages(
        _ filter: BrowseFilter, after position: PopularPosition?, limit: Int
    ) async throws -> [PublishedPackage] {
        try await read { db in try AppDatabase.popularPackages(filter, after: position, limit: limit, in: db) }
    }

    public func updatePublished(packageId: Int64, _ update: PublishedUpdate, visibility: Visibility?) async throws {
        let code = try await write { db in
            let code = try Self.shareCode(ofPackage: packageId, in: db)
            try AppDatabase.updatePublished(packageId: packageId, update, visibility: visibility, in: db)
            return code
        }
        if let code { changes.publish(.package(id: packageId, shareCode: code)) }
    }

    @discardableResult
    public func storeUpload(
        fileName: String, jpeg: Data, attribution: String, owner: Int64, at date: Date, quotaBytes: Int
    ) async throws -> UploadStored {
        try await write { db in
            try AppDatabase.storeUpload(
                fileName: fileName, jpeg: jpeg, attribution: attribution, owner: owner, at: date, quotaBytes: quotaBytes, in: db)
        }
    }

    public func deleteUnusedUploads(storedBefore date: Date) async throws -> [String] {
        try await write { db in try AppDatabase.deleteUnusedUploads(storedBefore: date, in: db) }
    }

    public func storePosterImage(fileName: String, jpeg: Data, attribution: String) async throws -> Bool {
        try await write { db in
            try AppDatabase.storePosterImage(fileName: fileName, jpeg: jpeg, attribution: attribution, in: db)
        }
    }

    @discardableResult
    public func deletePackages(ids: [Int64]) async throws -> [String] {
        let (titles, codes) = try await write { db in
            let codes = try ids.map { try Self.shareCode(ofPackage: $0, in: db) }
            return (try AppDatabase.deletePackages(ids: ids, in: db), codes)
        }
        for (id, code) in zip(ids, codes) {
            if let code { changes.publish(.package(id: id, shareCode: code)) }
        }
        return titles
    }

    public func packageChanges() -> AsyncStream<PackageChange> { changes.listen() }

    private static func shareCode(ofPackage id: Int64, in db: Database) throws -> ShareCode? {
        try String.fetchOne(db, sql: "SELECT shareCode FROM package WHERE id = ?", arguments: [id]).flatMap(ShareCode.init)
    }

    /// Whether the database answers a trivial query within the deadline: what the server's readiness is.
    public func answers() async -> Bool {
        (try? await read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }
}

// MARK: - Server plays, leaderboards, the daily quiz

extension SQLiteServerStore {
    /// Records a finished server play and its quizzes in one transaction, and says whether it is ranked.
    public func recordServerPlay(_ play: FinishedServerPlay) async throws -> Bool {
        try await write { db in try AppDatabase.insertServerPlay(play, in: db) }
    }

    public func answersShown(
        playerId: Int64, packageId: Int64, quizIds: [Int64], alsoShown: [Int64]
    ) async throws -> AnswersShown {
        try await read { db in
            try AppDatabase.answersShown(
                playerId: playerId, packageId: packageId, quizIds: quizIds, alsoShown: alsoShown, in: db)
        }
    }

    public func recordAnswersShown(playerIds: [Int64], packageId: Int64) async throws {
        guard !playerIds.isEmpty else { return }
        try await write { db in try AppDatabase.recordAnswersShown(playerIds: playerIds, packageId: packageId, in: db) }
    }

    public func serverPlay(publicId: String) async throws -> StoredServerPlay? {
        try await read { db in try AppDatabase.serverPlay(publicId: publicId, in: db) }
    }

    public func leaderboard(packageId: Int64, limit: Int, playerId: Int64?) async throws -> RankedPlays {
        try await read { db in try AppDatabase.leaderboard(packageId: packageId, limit: limit, playerId: playerId, in: db) }
    }

    public func quizSolveStats(packageId: Int64) async throws -> [QuizSolveStats] {
        try await read { db in try AppDatabase.quizSolveStats(packageId: packageId, in: db) }
    }

    /// The daily quiz of `day` in `language`, chosen on the first ask as `DailyDraw.choose` says.
    public func daily(
        day: String, language: QuizLanguage, chosenAt: Date, among: DailyCandidates,
        number: @Sendable (String?) -> Int, pick: @Sendable ([Int64]) -> Int
    ) async throws -> DailyChoice? {
        try await DailyDraw.choose(
            where: path,
            read: {
                try await read { db in try AppDatabase.dailyState(day: day, language: language, among: among, in: db) }
            },
            number: number, pick: pick,
            save: { drawn, index, dayNumber in
                try await write { db in
                    try AppDatabase.chooseDaily(
                        day: day, language: language, chosenAt: chosenAt, among: among, drawn: drawn, index: index,
                        number: dayNumber, in: db)
                }
            })
    }

    public func dailyChoice(day: String, language: QuizLanguage) async throws -> DailyChoice? {
        try await read { db in try AppDatabase.daily(day: day, language: language, in: db) }
    }

    public func dailyArchive(language: QuizLanguage, before day: String, limit: Int) async throws -> [DailyChoice] {
        try await read { db in try AppDatabase.dailyArchive(language: language, before: day, limit: limit, in: db) }
    }

    public func dailyResults(playerId: Int64) async throws -> [(day: String, solved: Bool)] {
        try await read { db in try AppDatabase.dailyResults(playerId: playerId, in: db) }
    }

    public func dailyPlayId(playerId: Int64, day: String) async throws -> String? {
        try await read { db in try AppDatabase.dailyPlayId(playerId: playerId, day: day, in: db) }
    }

    public func playerPlays(playerId: Int64, limit: Int) async throws -> [PlayerPlayRow] {
        try await read { db in try AppDatabase.playerPlays(playerId: playerId, limit: limit, in: db) }
    }

    public func playerPlayTotals(playerId: Int64) async throws -> PlayerPlayTotals {
        try await read { db in try AppDatabase.playerPlayTotals(playerId: playerId, in: db) }
    }
}

// MARK: - Open plays, rate limits, the clock

extension SQLiteServerStore {
    public func insertOpenPlay(_ record: OpenPlayRecord, maxOpen: Int) async throws {
        let json = try record.storedJSON()
        try await write { db in try AppDatabase.insertOpenPlay(record, json: json, maxOpen: maxOpen, in: db) }
    }

    public func updateOpenPlay<T: Sendable>(
        id: String, _ change: @escaping @Sendable (OpenPlayRecord) throws -> (T, OpenPlayChange)
    ) async throws -> (value: T, ranked: Bool?)? {
        try await write { db in try AppDatabase.updateOpenPlay(id: id, change, in: db) }
    }

    public func appendOpenPlayEvents(_ seen: OpenPlayRecord, giving kept: OpenPlayRecord) async throws -> Bool {
        let json = try kept.storedJSON()
        return try await write { db in
            try AppDatabase.appendOpenPlayEvents(
                id: seen.id, seenEvents: seen.events.count, keptJSON: json, endsByMicros: kept.endsByMicros, in: db)
        }
    }

    public func openPlay(id: String) async throws -> OpenPlayRecord? {
        try await read { db in try AppDatabase.openPlay(id: id, in: db) }
    }

    public func openPlays(playerId: Int64, limit: Int) async throws -> [OpenPlayRecord] {
        try await read { db in try AppDatabase.openPlays(playerId: playerId, limit: limit, in: db) }
    }

    public func openDailyPlayId(playerId: Int64, day: String) async throws -> String? {
        try await read { db in try AppDatabase.openDailyPlayId(playerId: playerId, day: day, in: db) }
    }

    public func openPlayCount(packageId: Int64?) async throws -> Int {
        try await read { db in try AppDatabase.openPlayCount(packageId: packageId, in: db) }
    }

    public func overdueOpenPlays(before micros: Int64, limit: Int) async throws -> [String] {
        try await read { db in try AppDatabase.overdueOpenPlays(before: micros, limit: limit, in: db) }
    }

    public func takeToken(key: String, burst: Int, intervalMicros: Int64, nowMicros: Int64) async throws -> Int64? {
        try await write { db in
            try AppDatabase.takeToken(
                key: key, burst: burst, intervalMicros: intervalMicros, nowMicros: nowMicros, in: db)
        }
    }

    public func forgetBuckets(untouchedSince micros: Int64) async throws {
        try await write { db in try AppDatabase.forgetBuckets(untouchedSince: micros, in: db) }
    }

    /// SQLite runs in this process: the database's clock is this machine's.
    public func databaseMicros() async throws -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
    }
}

// MARK: - Rooms

extension SQLiteServerStore {
    public func insertRoomResults(_ rows: [RoomResultRow], heldBy instance: String?) async throws -> Bool {
        try await write { db in try AppDatabase.insertRoomResults(rows, heldBy: instance, in: db) }
    }

    public func roomResults(playerId: Int64, limit: Int) async throws -> [RoomResultRow] {
        try await read { db in try AppDatabase.roomResults(playerId: playerId, limit: limit, in: db) }
    }

    public func roomStats(playerId: Int64) async throws -> RoomStats {
        try await read { db in try AppDatabase.roomStats(playerId: playerId, in: db) }
    }

    public func claimRoomCode(
        _ code: String, instance: String, host: Int64?, at date: Date, leaseUntil: Int64?
    ) async throws -> Bool {
        try await write { db in
            try AppDatabase.claimRoomCode(code, instance: instance, host: host, at: date, leaseUntil: leaseUntil, in: db)
        }
    }

    public func markRoomFinished(_ code: String) async throws {
        try await write { db in try AppDatabase.markRoomFinished(code, in: db) }
    }

    public func hostedRoomCount(host: Int64, notOn instance: String) async throws -> Int {
        try await read { db in try AppDatabase.hostedRoomCount(host: host, notOn: instance, in: db) }
    }

    public func roomHolder(code: String) async throws -> RoomHolder? {
        try await read { db in try AppDatabase.roomHolder(code: code, in: db) }
    }

    public func releaseRoomCode(_ code: String, instance: String) async throws {
        try await write { db in try AppDatabase.releaseRoomCode(code, instance: instance, in: db) }
    }

    public func saveRoomCheckpoint(_ code: String, instance: String, checkpoint: Data) async throws -> Bool {
        try await write { db in try AppDatabase.saveRoomCheckpoint(code, instance: instance, checkpoint: checkpoint, in: db) }
    }

    public func renewRoomLeases(instance: String, until: Int64) async throws -> [String] {
        try await write { db in try AppDatabase.renewRoomLeases(instance: instance, until: until, in: db) }
    }

    public func endRoomLeases(instance: String) async throws {
        try await write { db in try AppDatabase.endRoomLeases(instance: instance, in: db) }
    }

    public func roomsWithEndedLeases(now: Int64, limit: Int) async throws -> [String] {
        try await read { db in try AppDatabase.roomsWithEndedLeases(now: now, limit: limit, in: db) }
    }

    public func takeOverRoom(_ code: String, instance: String, leaseUntil: Int64, now: Int64) async throws -> Data? {
        try await write { db in
            try AppDatabase.takeOverRoom(code, instance: instance, leaseUntil: leaseUntil, now: now, in: db)
        }
    }

    public func insertDraft(
        playerId: Int64, document: String, at date: Date, limit: Int, quotaBytes: Int
    ) async throws -> DraftRecord? {
        try await write { db in
            try AppDatabase.insertDraft(
                playerId: playerId, document: document, at: date, limit: limit, quotaBytes: quotaBytes, in: db)
        }
    }

    public func drafts(playerId: Int64) async throws -> [DraftRecord] {
        try await read { db in try AppDatabase.drafts(playerId: playerId, in: db) }
    }

    public func draft(id: Int64, playerId: Int64) async throws -> DraftRecord? {
        try await read { db in try AppDatabase.draft(id: id, playerId: playerId, in: db) }
    }

    public func updateDraft(
        id: Int64, playerId: Int64, document: String, at date: Date, quotaBytes: Int
    ) async throws -> DraftRecord? {
        try await write { db in
            try AppDatabase.updateDraft(
                id: id, playerId: playerId, document: document, at: date, quotaBytes: quotaBytes, in: db)
        }
    }

    public func deleteDrafts(changedBefore date: Date) async throws -> Int {
        try await write { db in try AppDatabase.deleteDrafts(changedBefore: date, in: db) }
    }

    public func deleteDraft(id: Int64, playerId: Int64) async throws -> Bool {
        try await write { db in try AppDatabase.deleteDraft(id: id, playerId: playerId, in: db) }
    }
}
