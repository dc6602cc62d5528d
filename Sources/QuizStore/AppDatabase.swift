import Foundation
import UQuizStorage
internal import GRDB

/// The uquiz database: one SQLite file in WAL mode with a busy timeout, so that several `uquiz` processes can read and
/// write it at once. Every write is an IMMEDIATE transaction on this type.
///
/// One `DatabaseQueue` (a single connection) rather than a `DatabasePool`: a command is one short-lived process that never
/// reads while it writes, and a pool's second connection would parse the schema again on every start-up. Concurrency
/// between processes comes from WAL and the busy timeout, which a queue has as well.
///
/// The store works on `any DatabaseWriter`, so tests can hand it an in-memory database (`inMemory()`) instead of a file.
///
/// Its calls block the calling thread until SQLite answers, which suits a command. `uquiz serve` reaches the same file
/// through `SQLiteServerStore`, which runs the same queries (static functions here taking a `Database`) asynchronously.
public final class AppDatabase: Sendable {
    /// The database file, or `inMemoryPath` for a database made by `inMemory()`.
    public let path: String
    let writer: any DatabaseWriter

    /// The `path` of an in-memory database: SQLite's own name for one.
    public static let inMemoryPath = ":memory:"

    /// Whether the database lives in memory only, so that nothing can be done with its file (a backup, a reset).
    public var isInMemory: Bool { path == Self.inMemoryPath }

    /// How long a write waits for another process's write before giving up with `StoreError.locked`.
    public static let busyTimeout: TimeInterval = 10

    /// Opens an existing database, or on first run installs the seed bundle at `path` and opens that.
    ///
    /// `seedBundle` is asked for only when there is no database yet: later runs never touch the bundle.
    /// - Returns: the database, and whether this call installed the seed.
    public static func openOrSeed(
        at path: String,
        seedBundle: () throws -> SeedBundle
    ) throws -> (database: AppDatabase, seeded: Bool) {
        try refuseInMemoryPath(path)
        try FileSystem.checkDatabasePath(path)
        var seeded = false
        if SeedInstaller.isEmptyDatabaseFile(path) {
            // An empty file (`touch`, a tool that died before writing) is no database: SQLite would adopt it as an empty
            // one, without the seed. It is seeded like a missing one.
            seeded = try SeedInstaller.install(bundle: seedBundle(), at: path, replacingEmpty: true)
        } else if FileManager.default.fileExists(atPath: path) {
            // A first run killed between publishing the database and dropping its temporary copy leaves that copy behind.
            SeedInstaller.removeStaleTemporaries(for: URL(fileURLWithPath: path))
        } else {
            seeded = try SeedInstaller.install(bundle: seedBundle(), at: path)
        }
        return (try AppDatabase(existingAt: path), seeded)
    }

    /// A new database in memory, migrated to the current schema and empty: for tests, gone when it is released.
    public static func inMemory() throws -> AppDatabase {
        try mappingErrors(path: inMemoryPath) {
            let queue = try DatabaseQueue(configuration: configuration())
            try Schema.migrator.migrate(queue)
            return AppDatabase(path: inMemoryPath, writer: queue)
        }
    }

    /// SQLite reads `:memory:` as "a new database in memory", never as a file, so a file opened by that name would be
    /// an empty database that vanishes, and its seed would go to a file nobody reads.
    private static func refuseInMemoryPath(_ path: String) throws {
        guard path != inMemoryPath else {
            throw StoreError.cannotCreate(path: path, reason: "it is SQLite's name for a database in memory, not a file")
        }
    }

    init(path: String, writer: any DatabaseWriter) {
        self.path = path
        self.writer = writer
    }

    /// Opens a database that must already exist and migrates it to the current schema.
    public convenience init(existingAt path: String) throws {
        try Self.refuseInMemoryPath(path)
        try FileSystem.checkDatabasePath(path)
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.io(path: path, detail: "no such file")
        }
        let writer = try mappingErrors(path: path) { try DatabaseQueue(path: path, configuration: Self.configuration()) }
        self.init(path: path, writer: writer)
        try mappingErrors(path: path) {
            let migrator = Schema.migrator
            let (superseded, complete) = try writer.read { db in
                (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db))
            }
            // A database from a newer uquiz is refused before anything, even its journal mode, is written.
            if superseded {
                let known = Set(migrator.migrations)
                let applied = try writer.read { try migrator.appliedIdentifiers($0) }
                throw StoreError.newerSchema(path: path, unknownMigrations: applied.subtracting(known).sorted())
            }
            try writer.writeWithoutTransaction { db in
                // WAL is a property of the file, kept across connections: set it once. GRDB's `journalMode = .wal`
                // would instead write to the database on every open to keep a non-empty -wal file for pool readers,
                // which a single-connection command does not need.
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                }
            }
            if !complete { try Self.migrate(writer, with: migrator) }
        }
    }

    /// Applies the migrations the file lacks. Another uquiz upgrading the same file at the same moment can apply one
    /// between GRDB reading what is applied and applying it; our copy then fails (its transaction also records the
    /// migration's name, which a primary key allows once) and rolls back whole. So a failure is retried when someone
    /// else made progress meanwhile, and is real when nobody did.
    static func migrate(_ writer: any DatabaseWriter, with migrator: DatabaseMigrator) throws {
        while true {
            let appliedBefore = try writer.read { try migrator.appliedIdentifiers($0) }
            do {
                return try migrator.migrate(writer)
            } catch {
                let appliedAfter = try writer.read { try migrator.appliedIdentifiers($0) }
                guard appliedAfter.isStrictSuperset(of: appliedBefore) else { throw error }
            }
        }
    }

    static func configuration(readonly: Bool = false) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.readonly = readonly
        if !readonly {
            // Per connection; with WAL, NORMAL keeps the database consistent and skips an fsync per commit.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "uquiz"
        return configuration
    }

    /// Runs a write transaction, mapping SQLite errors to user-facing ones. Blocks the calling thread meanwhile.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try mappingErrors(path: path) { try writer.write(updates) }
    }

    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try mappingErrors(path: path) { try writer.read(value) }
    }

    /// The migrations this build knows, oldest first.
    public static var knownMigrations: [String] { Schema.migrator.migrations }

    /// SQLite's own full check, for `seed status` and tests.
    public func integrityProblems() throws -> [String] {
        try read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
            let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { "foreign key: \($0)" }
            return integrity + foreignKeys
        }
    }
}
