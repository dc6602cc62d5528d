import Foundation
internal import GRDB
import UQuizStorage

/// Drafts of packages (`DraftStorage`), as PostgresStore keeps them too.
extension AppDatabase {
    static func insertDraft(
        playerId: Int64, document: String, at date: Date, limit: Int, quotaBytes: Int, in db: Database
    ) throws -> DraftRecord? {
        let held = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM draft WHERE playerId = ?", arguments: [playerId]) ?? 0
        guard held < limit else { return nil }
        try checkQuota(playerId: playerId, besides: nil, document: document, quotaBytes: quotaBytes, in: db)
        let now = timestamp(date)
        try db.execute(
            sql: "INSERT INTO draft (playerId, document, createdAt, updatedAt) VALUES (?, ?, ?, ?)",
            arguments: [playerId, document, now, now])
        return DraftRecord(id: db.lastInsertedRowID, playerId: playerId, document: document, createdAt: now, updatedAt: now)
    }

    static func drafts(playerId: Int64, in db: Database) throws -> [DraftRecord] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM draft WHERE playerId = ? ORDER BY updatedAt DESC, id DESC", arguments: [playerId]
        ).map(draft(of:))
    }

    static func draft(id: Int64, playerId: Int64, in db: Database) throws -> DraftRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM draft WHERE id = ? AND playerId = ?", arguments: [id, playerId])
            .map(draft(of:))
    }

    static func updateDraft(
        id: Int64, playerId: Int64, document: String, at date: Date, quotaBytes: Int, in db: Database
    ) throws -> DraftRecord? {
        guard try draft(id: id, playerId: playerId, in: db) != nil else { return nil }
        try checkQuota(playerId: playerId, besides: id, document: document, quotaBytes: quotaBytes, in: db)
        try db.execute(
            sql: "UPDATE draft SET document = ?, updatedAt = ? WHERE id = ? AND playerId = ?",
            arguments: [document, timestamp(date), id, playerId])
        return db.changesCount == 1 ? try draft(id: id, playerId: playerId, in: db) : nil
    }

    static func deleteDraft(id: Int64, playerId: Int64, in db: Database) throws -> Bool {
        try db.execute(sql: "DELETE FROM draft WHERE id = ? AND playerId = ?", arguments: [id, playerId])
        return db.changesCount == 1
    }

    static func deleteDrafts(changedBefore date: Date, in db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM draft WHERE updatedAt < ?", arguments: [timestamp(date)])
        return db.changesCount
    }

    /// Throws `DraftQuotaExceeded` when the player's drafts other than `besides`, with `document`, pass `quotaBytes`.
    private static func checkQuota(
        playerId: Int64, besides id: Int64?, document: String, quotaBytes: Int, in db: Database
    ) throws {
        let held = try Int.fetchOne(
            db, sql: "SELECT COALESCE(SUM(length(CAST(document AS BLOB))), 0) FROM draft WHERE playerId = ? AND id IS NOT ?",
            arguments: [playerId, id]) ?? 0
        if held + document.utf8.count > quotaBytes { throw DraftQuotaExceeded(heldBytes: held) }
    }

    private static func draft(of row: Row) -> DraftRecord {
        DraftRecord(
            id: row["id"], playerId: row["playerId"], document: row["document"], createdAt: row["createdAt"],
            updatedAt: row["updatedAt"])
    }
}
