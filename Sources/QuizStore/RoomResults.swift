import Foundation
import UQuizStorage
internal import GRDB


struct RoomResultRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "roomResult"
    var id: Int64?
    var roomCode: String
    var packageId: Int64
    var playerId: Int64?
    var name: String
    var rank: Int
    var score: Int
    var solved: Int
    var played: Int
    var shareLine: String?
    var finishedAt: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension AppDatabase {
    /// Stores a room's final results inside the caller's transaction: all of them or none, and none when `instance`
    /// (not `nil`) no longer holds the room in the directory.
    static func insertRoomResults(_ rows: [RoomResultRow], heldBy instance: String?, in db: Database) throws -> Bool {
        if let instance, let code = rows.first?.roomCode,
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM roomDirectory WHERE code = ? AND instance = ?)",
                arguments: [code, instance]) != true
        {
            return false
        }
        for row in rows {
            var record = RoomResultRecord(
                id: nil, roomCode: row.roomCode, packageId: row.packageId, playerId: row.playerId, name: row.name,
                rank: row.rank, score: row.score, solved: row.solved, played: row.played, shareLine: row.shareLine,
                finishedAt: timestamp(row.finishedAt))
            try record.insert(db)
        }
        return true
    }

    /// The player's room results, newest first.
    static func roomResults(playerId: Int64, limit: Int, in db: Database) throws -> [RoomResultRow] {
        try RoomResultRecord.filter(Column("playerId") == playerId).order(Column("id").desc).limit(limit).fetchAll(db).map {
            RoomResultRow(
                roomCode: $0.roomCode, packageId: $0.packageId, playerId: $0.playerId, name: $0.name, rank: $0.rank,
                score: $0.score, solved: $0.solved, played: $0.played, shareLine: $0.shareLine,
                finishedAt: (try? Date($0.finishedAt, strategy: .iso8601)) ?? Date(timeIntervalSince1970: 0))
        }
    }

    /// The player's room results added up.
    static func roomStats(playerId: Int64, in db: Database) throws -> RoomStats {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) AS rooms, COALESCE(SUM(rank = 1), 0) AS wins, COALESCE(SUM(score), 0) AS points,
                       COALESCE(SUM(solved), 0) AS solved, COALESCE(SUM(played), 0) AS played
                FROM roomResult WHERE playerId = ?
                """,
            arguments: [playerId])
        return RoomStats(
            rooms: row?["rooms"] ?? 0, wins: row?["wins"] ?? 0, points: row?["points"] ?? 0,
            solved: row?["solved"] ?? 0, played: row?["played"] ?? 0)
    }
}

extension AppDatabase {
    /// Records that the room `code` lives on `instance` (its base URL); `false` when the code is taken already.
    static func claimRoomCode(
        _ code: String, instance: String, host: Int64?, at date: Date, leaseUntil: Int64?, in db: Database
    ) throws -> Bool {
        try db.execute(
            sql: """
                INSERT INTO roomDirectory (code, instance, openedAt, hostId, leaseUntil) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (code) DO NOTHING
                """,
            arguments: [code, instance, timestamp(date), host, leaseUntil])
        return db.changesCount == 1
    }

    static func markRoomFinished(_ code: String, in db: Database) throws {
        try db.execute(sql: "UPDATE roomDirectory SET finished = 1 WHERE code = ?", arguments: [code])
    }

    static func hostedRoomCount(host: Int64, notOn instance: String, in db: Database) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM roomDirectory WHERE hostId = ? AND NOT finished AND instance <> ?",
            arguments: [host, instance]) ?? 0
    }

    /// Who holds the room `code`, or `nil` when no instance has it.
    static func roomHolder(code: String, in db: Database) throws -> RoomHolder? {
        try Row.fetchOne(db, sql: "SELECT instance, leaseUntil FROM roomDirectory WHERE code = ?", arguments: [code]).map {
            RoomHolder(instance: $0["instance"], leaseUntil: $0["leaseUntil"])
        }
    }

    /// Forgets the room `code` if `instance` holds it (never another instance's room of the same code).
    static func releaseRoomCode(_ code: String, instance: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM roomDirectory WHERE code = ? AND instance = ?", arguments: [code, instance])
    }

    static func saveRoomCheckpoint(_ code: String, instance: String, checkpoint: Data, in db: Database) throws -> Bool {
        try db.execute(
            sql: "UPDATE roomDirectory SET checkpoint = ? WHERE code = ? AND instance = ?",
            arguments: [String(decoding: checkpoint, as: UTF8.self), code, instance])
        return db.changesCount == 1
    }

    static func renewRoomLeases(instance: String, until: Int64, in db: Database) throws -> [String] {
        try db.execute(sql: "UPDATE roomDirectory SET leaseUntil = ? WHERE instance = ?", arguments: [until, instance])
        return try String.fetchAll(db, sql: "SELECT code FROM roomDirectory WHERE instance = ? ORDER BY code", arguments: [instance])
    }

    static func endRoomLeases(instance: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM roomDirectory WHERE instance = ? AND checkpoint IS NULL", arguments: [instance])
        try db.execute(sql: "UPDATE roomDirectory SET leaseUntil = 0 WHERE instance = ?", arguments: [instance])
    }

    static func roomsWithEndedLeases(now: Int64, limit: Int, in db: Database) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT code FROM roomDirectory WHERE leaseUntil < ? ORDER BY leaseUntil, code LIMIT ?",
            arguments: [now, limit])
    }

    static func takeOverRoom(
        _ code: String, instance: String, leaseUntil: Int64, now: Int64, in db: Database
    ) throws -> Data? {
        try db.execute(
            sql: "DELETE FROM roomDirectory WHERE code = ? AND leaseUntil < ? AND checkpoint IS NULL", arguments: [code, now])
        try db.execute(
            sql: "UPDATE roomDirectory SET instance = ?, leaseUntil = ? WHERE code = ? AND leaseUntil < ?",
            arguments: [instance, leaseUntil, code, now])
        guard db.changesCount == 1 else { return nil }
        return try String.fetchOne(db, sql: "SELECT checkpoint FROM roomDirectory WHERE code = ?", arguments: [code])
            .map { Data($0.utf8) }
    }
}
