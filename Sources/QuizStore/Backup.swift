import Foundation
internal import GRDB
import UQuizStorage

/// What a backup holds, as counted in it.
public struct BackupSummary: Sendable, Equatable, Codable {
    public var path: String
    public var bytes: Int
    public var packages: Int
    public var players: Int
    public var plays: Int
}

extension AppDatabase {
    /// Copies the database, as one consistent state, into a new file at `path` while others go on reading and writing
    /// it (SQLite's online backup through GRDB: the copy is made inside one read transaction, which in WAL mode holds
    /// no writer back). The copy is written beside `path` and renamed into place once whole and checked, so no half
    /// copy is ever found there; an existing `path` is refused.
    public func backup(to path: String) throws -> BackupSummary {
        try Self.refuseExisting(path)
        let temporary = path + ".partial-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        try mappingErrors(path: path) {
            let copy = try DatabaseQueue(path: temporary, configuration: Self.configuration())
            try writer.backup(to: copy)
            try copy.close()
        }
        let summary = try Self.checkedCopy(at: temporary, reportedAs: path)
        try Self.publish(temporary, at: path)
        return summary
    }

    /// Makes a new database at `path` from the backup at `source`, which must be a whole UQuiz database this build
    /// can open (migrated to this build's schema if older); an existing `path` is refused, so a restore never
    /// replaces data.
    public static func restore(backup source: String, to path: String) throws -> BackupSummary {
        try refuseExisting(path)
        guard FileManager.default.fileExists(atPath: source) else { throw StoreError.io(path: source, detail: "no such file") }
        _ = try checkedCopy(at: source, reportedAs: source)
        let temporary = path + ".partial-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        try mappingErrors(path: source) {
            let backup = try DatabaseQueue(path: source, configuration: configuration(readonly: true))
            let copy = try DatabaseQueue(path: temporary, configuration: configuration())
            try backup.backup(to: copy)
            try backup.close()
            try copy.close()
        }
        // Opened as any database is: refused when newer than this build, migrated when older.
        _ = try AppDatabase(existingAt: temporary)
        try publish(temporary, at: path)
        return try checkedCopy(at: path, reportedAs: path)
    }

    private static func refuseExisting(_ path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { throw exists(path) }
    }

    private static func exists(_ path: String) -> StoreError {
        .io(path: path, detail: "already exists; name a new file (nothing was overwritten)")
    }

    /// The copy at `path` passes SQLite's integrity and foreign-key checks; what it holds.
    private static func checkedCopy(at path: String, reportedAs shown: String) throws -> BackupSummary {
        try mappingErrors(path: shown) {
            let copy = try DatabaseQueue(path: path, configuration: configuration(readonly: true))
            defer { try? copy.close() }
            return try copy.read { db in
                let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                    + Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { "foreign key: \($0)" }
                guard problems.isEmpty else {
                    throw StoreError.corrupt(path: shown, detail: problems.prefix(3).joined(separator: "; "))
                }
                guard try db.tableExists("package"), try db.tableExists("player") else {
                    throw StoreError.notADatabase(path: shown)
                }
                let bytes = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
                return BackupSummary(
                    path: shown, bytes: bytes,
                    packages: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM package") ?? 0,
                    players: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0,
                    plays: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM play") ?? 0)
            }
        }
    }

    /// Gives the finished copy its name, flushed first and only if nothing took the name meanwhile.
    private static func publish(_ temporary: String, at path: String) throws {
        try FileSystem.syncFile(temporary)
        guard try FileSystem.linkIfAbsent(temporary: temporary, destination: path) else { throw exists(path) }
    }
}
