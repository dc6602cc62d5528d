import Foundation
import UQuizStorage
internal import GRDB

/// Open plays and rate-limit buckets in the SQLite file: what lets two `uquiz serve` processes on one file share plays,
/// and what keeps a play across a restart. `SQLiteServerStore` runs each of these in one IMMEDIATE transaction, so
/// writers never interleave.
extension AppDatabase {
    /// Inserts an open play (`json` is `record` as stored) unless `OpenPlayStorage.insertOpenPlay` says to refuse it.
    static func insertOpenPlay(_ record: OpenPlayRecord, json: String, maxOpen: Int, in db: Database) throws {
        guard try Int.fetchOne(db.cachedStatement(sql: "SELECT n FROM openPlayTally"))! < maxOpen else {
            throw OpenPlayRefusal.full
        }
        if let day = record.dailyDay,
            let open = try String.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM openPlay WHERE playerId = ? AND dailyDay = ?"),
                arguments: [record.playerId, day])
        {
            throw OpenPlayRefusal.dailyOpen(playId: open)
        }
        if record.dailyDay == nil,
            let open = try String.fetchOne(
                db.cachedStatement(
                    sql: "SELECT id FROM openPlay WHERE playerId = ? AND packageId = ? AND dailyDay IS NULL LIMIT 1"),
                arguments: [record.playerId, record.packageId])
        {
            throw OpenPlayRefusal.packageOpen(playId: open)
        }
        let playable = try Int64.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT quiz.id FROM quiz WHERE quiz.packageId = ?
                      AND EXISTS (SELECT 1 FROM area WHERE area.quizId = quiz.id)
                    ORDER BY quiz.position
                    """),
            arguments: [record.packageId])
        let current = record.playsOneQuiz
            ? record.quizIds.count == 1 && playable.contains(record.quizIds[0]) : playable == record.quizIds
        guard current else { throw OpenPlayRefusal.outdatedPlan }
        try db.cachedStatement(
            sql: "INSERT INTO openPlay (id, playerId, packageId, dailyDay, endsByMicros, record) VALUES (?, ?, ?, ?, ?, ?)"
        ).execute(arguments: [record.id, record.playerId, record.packageId, record.dailyDay, record.endsByMicros, json])
    }

    /// Hands the open play `id` to `change` and saves what it says, inside the caller's transaction (whose write lock
    /// keeps every other writer out meanwhile).
    static func updateOpenPlay<T>(
        id: String, _ change: (OpenPlayRecord) throws -> (T, OpenPlayChange), in db: Database
    ) throws -> (value: T, ranked: Bool?)? {
        guard let json = try String.fetchOne(db.cachedStatement(sql: "SELECT record FROM openPlay WHERE id = ?"), arguments: [id])
        else { return nil }
        let (value, outcome) = try change(try OpenPlayRecord(storedJSON: json))
        switch outcome {
        case .keep(let record):
            try db.cachedStatement(sql: "UPDATE openPlay SET record = ?, endsByMicros = ? WHERE id = ?")
                .execute(arguments: [try record.storedJSON(), record.endsByMicros, id])
            return (value, nil)
        case .finish(let finished):
            try db.execute(sql: "DELETE FROM openPlay WHERE id = ?", arguments: [id])
            return (value, try insertServerPlay(finished, in: db))
        }
    }

    /// See `OpenPlayStorage.appendOpenPlayEvents`.
    static func appendOpenPlayEvents(
        id: String, seenEvents: Int, keptJSON: String, endsByMicros: Int64, in db: Database
    ) throws -> Bool {
        try db.cachedStatement(
            sql: "UPDATE openPlay SET record = ?, endsByMicros = ? WHERE id = ? AND json_array_length(record, '$.events') = ?"
        ).execute(arguments: [keptJSON, endsByMicros, id, seenEvents])
        return db.changesCount == 1
    }

    static func openPlay(id: String, in db: Database) throws -> OpenPlayRecord? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT record FROM openPlay WHERE id = ?"), arguments: [id])
            .map(OpenPlayRecord.init(storedJSON:))
    }

    static func openPlays(playerId: Int64, limit: Int, in db: Database) throws -> [OpenPlayRecord] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT record FROM openPlay WHERE playerId = ? ORDER BY id LIMIT ?"),
            arguments: [playerId, limit]
        ).map(OpenPlayRecord.init(storedJSON:))
    }

    static func openDailyPlayId(playerId: Int64, day: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT id FROM openPlay WHERE playerId = ? AND dailyDay = ?", arguments: [playerId, day])
    }

    static func openPlayCount(packageId: Int64?, in db: Database) throws -> Int {
        if let packageId {
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM openPlay WHERE packageId = ?", arguments: [packageId])!
        }
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM openPlay")!
    }

    static func overdueOpenPlays(before micros: Int64, limit: Int, in db: Database) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT id FROM openPlay WHERE endsByMicros < ? ORDER BY endsByMicros LIMIT ?",
            arguments: [micros, limit])
    }

    static func takeToken(
        key: String, burst: Int, intervalMicros: Int64, nowMicros: Int64, in db: Database
    ) throws -> Int64? {
        let row = try Row.fetchOne(db, sql: "SELECT tokens, atMicros FROM rateBucket WHERE key = ?", arguments: [key])
        let bucket = RateBucket(
            tokens: row?["tokens"] ?? Double(burst), atMicros: row?["atMicros"] ?? nowMicros
        ).taking(burst: burst, intervalMicros: intervalMicros, nowMicros: nowMicros)
        try db.execute(
            sql: """
                INSERT INTO rateBucket (key, tokens, atMicros) VALUES (?, ?, ?)
                ON CONFLICT(key) DO UPDATE SET tokens = excluded.tokens, atMicros = excluded.atMicros
                """,
            arguments: [key, bucket.tokens, bucket.atMicros])
        return bucket.waitMicros
    }

    static func forgetBuckets(untouchedSince micros: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM rateBucket WHERE atMicros < ?", arguments: [micros])
    }
}
