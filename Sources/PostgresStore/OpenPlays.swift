import Foundation
import UQuizStorage

/// Open plays and rate buckets: what several server instances must see alike (see `OpenPlayRecord`).
extension PostgresQuizStore {
    /// Inserts a new open play; refused with `OpenPlayRefusal.full`, `.dailyOpen` or `.outdatedPlan`. The package's
    /// row is locked while this is checked, as `updatePublished` locks it, and a transaction-level advisory lock makes
    /// the count against `maxOpen` exact across instances.
    public func insertOpenPlay(_ record: OpenPlayRecord, maxOpen: Int) throws {
        try write { session in
            try session.execute("SELECT pg_advisory_xact_lock(hashtextextended('uquiz open plays', 0))")
            guard try session.one("SELECT id FROM package WHERE id = $1 FOR SHARE", [.int(record.packageId)]) != nil else {
                throw OpenPlayRefusal.outdatedPlan
            }
            let open = try session.one("SELECT COUNT(*) AS n FROM open_play")!.int("n")
            guard open < maxOpen else { throw OpenPlayRefusal.full }
            if let day = record.dailyDay,
                let existing = try session.one(
                    "SELECT id FROM open_play WHERE player_id = $1 AND daily_day = $2", [.int(record.playerId), .text(day)])
            {
                throw OpenPlayRefusal.dailyOpen(playId: try existing.string("id"))
            }
            let plan = try session.query(
                """
                SELECT quiz.id FROM quiz WHERE quiz.package_id = $1
                  AND EXISTS (SELECT 1 FROM area WHERE area.quiz_id = quiz.id) ORDER BY quiz.position
                """, [.int(record.packageId)]
            ).map { try $0.int64("id") }
            let current = record.dailyDay == nil ? plan == record.quizIds : (record.quizIds.count == 1 && plan.contains(record.quizIds[0]))
            guard current else { throw OpenPlayRefusal.outdatedPlan }
            try session.execute(
                """
                INSERT INTO open_play (id, player_id, package_id, daily_day, ends_by_micros, record)
                VALUES ($1, $2, $3, $4, $5, $6)
                """,
                [
                    .text(record.id), .int(record.playerId), .int(record.packageId), .text(record.dailyDay),
                    .int(record.endsByMicros), .text(try record.storedJSON()),
                ])
        }
    }

    /// Locks the open play `id` (`SELECT … FOR UPDATE`: other instances' changes to it wait), hands it to `change` and
    /// saves what it says in the same transaction. `nil` when no play `id` is open; what `change` throws rolls back.
    public func updateOpenPlay<T>(
        id: String, _ change: (OpenPlayRecord) throws -> (T, OpenPlayChange)
    ) throws -> (value: T, ranked: Bool?)? {
        try write { session in
            guard let row = try session.one("SELECT record FROM open_play WHERE id = $1 FOR UPDATE", [.text(id)]) else {
                return nil
            }
            let record = try Self.openPlay(row)
            let (value, outcome) = try change(record)
            switch outcome {
            case .keep(let kept):
                try session.execute(
                    "UPDATE open_play SET record = $1, ends_by_micros = $2 WHERE id = $3",
                    [.text(try kept.storedJSON()), .int(kept.endsByMicros), .text(id)])
                return (value, nil)
            case .finish(let finished):
                try session.execute("DELETE FROM open_play WHERE id = $1", [.text(id)])
                return (value, try Self.recordServerPlay(finished, in: session))
            }
        }
    }

    public func openPlay(id: String) throws -> OpenPlayRecord? {
        try read { session in try session.one("SELECT record FROM open_play WHERE id = $1", [.text(id)]).map(Self.openPlay) }
    }

    public func openDailyPlayId(playerId: Int64, day: String) throws -> String? {
        try read { session in
            try session.one(
                "SELECT id FROM open_play WHERE player_id = $1 AND daily_day = $2", [.int(playerId), .text(day)]
            )?.string("id")
        }
    }

    public func openPlayCount(packageId: Int64?) throws -> Int {
        try read { session in
            if let packageId {
                return try session.one("SELECT COUNT(*) AS n FROM open_play WHERE package_id = $1", [.int(packageId)])!.int("n")
            }
            return try session.one("SELECT COUNT(*) AS n FROM open_play")!.int("n")
        }
    }

    public func overdueOpenPlays(before micros: Int64, limit: Int) throws -> [String] {
        try read { session in
            try session.query(
                "SELECT id FROM open_play WHERE ends_by_micros < $1 ORDER BY ends_by_micros, id COLLATE \"C\" LIMIT $2",
                [.int(micros), .int(limit)]
            ).map { try $0.string("id") }
        }
    }

    private static func openPlay(_ row: Row) throws -> OpenPlayRecord {
        do {
            return try OpenPlayRecord(storedJSON: try row.string("record"))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.corrupt(path: "postgres", detail: "open play record: \(error)")
        }
    }
}

extension PostgresQuizStore {
    /// Takes one token from bucket `key` (at most `burst`, one more every `intervalMicros`) at `nowMicros`, with
    /// QuizStore's `RateBucket` arithmetic; the bucket's row is locked, so instances take tokens one at a time.
    /// `nil` when taken, else microseconds until a token is there.
    public func takeToken(key: String, burst: Int, intervalMicros: Int64, nowMicros: Int64) throws -> Int64? {
        try write { session in
            // Creates the bucket full if it is new, so that the row exists to be locked.
            try session.execute(
                "INSERT INTO rate_bucket (key, tokens, at_micros) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING",
                [.text(key), .double(Double(burst)), .int(nowMicros)])
            let row = try session.one("SELECT tokens, at_micros FROM rate_bucket WHERE key = $1 FOR UPDATE", [.text(key)])!
            let bucket = RateBucket(tokens: try row.double("tokens"), atMicros: try row.int64("at_micros"))
                .taking(burst: burst, intervalMicros: intervalMicros, nowMicros: nowMicros)
            try session.execute(
                "UPDATE rate_bucket SET tokens = $1, at_micros = $2 WHERE key = $3",
                [.double(bucket.tokens), .int(bucket.atMicros), .text(key)])
            return bucket.waitMicros
        }
    }

    public func forgetBuckets(untouchedSince micros: Int64) throws {
        try write { session in
            try session.execute("DELETE FROM rate_bucket WHERE at_micros < $1", [.int(micros)])
        }
    }
}
