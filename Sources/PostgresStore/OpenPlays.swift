import Foundation
import UQuizStorage

/// Open plays and rate buckets: what several server instances must see alike (see `OpenPlayRecord`).
extension PostgresQuizStore {
    /// Inserts a new open play; refused with `OpenPlayRefusal.full`, `.dailyOpen` or `.outdatedPlan`. The package's
    /// row is locked while this is checked, as `updatePublished` locks it.
    ///
    /// No lock is shared by every play start: the one-open-daily-play rule is the unique index `open_play_daily_once`
    /// (the insert does nothing when the player's daily play of that day is there, and the refusal names it), and
    /// `maxOpen`, a safety bound, is counted without a lock while the open plays are well under it. Within
    /// `exactCountMargin` of it, starts take a transaction-level advisory lock and count again, so that the bound
    /// holds there; it could be passed only if more than that many plays started during one start's transaction.
    public func insertOpenPlay(_ record: OpenPlayRecord, maxOpen: Int) async throws {
        try await write { session in
            guard try await session.one("SELECT id FROM package WHERE id = $1 FOR SHARE", [.int(record.packageId)]) != nil else {
                throw OpenPlayRefusal.outdatedPlan
            }
            var open = try await Self.openPlays(upTo: maxOpen, in: session)
            if open + Self.exactCountMargin >= maxOpen {
                try await session.execute("SELECT pg_advisory_xact_lock(hashtextextended('uquiz open plays', 0))")
                open = try await Self.openPlays(upTo: maxOpen, in: session)
            }
            guard open < maxOpen else { throw OpenPlayRefusal.full }
            if let day = record.dailyDay,
                let existing = try await Self.openDailyPlayId(playerId: record.playerId, day: day, in: session)
            {
                throw OpenPlayRefusal.dailyOpen(playId: existing)
            }
            let plan = try await session.query(
                """
                SELECT quiz.id FROM quiz WHERE quiz.package_id = $1
                  AND EXISTS (SELECT 1 FROM area WHERE area.quiz_id = quiz.id) ORDER BY quiz.position
                """, [.int(record.packageId)]
            ).map { try $0.int64("id") }
            let current = record.dailyDay == nil ? plan == record.quizIds : (record.quizIds.count == 1 && plan.contains(record.quizIds[0]))
            guard current else { throw OpenPlayRefusal.outdatedPlan }
            let json = try record.storedJSON()
            // A daily play of the same player and day inserted since the check above makes the insert do nothing: the
            // refusal names it. When that play ends meanwhile too, the insert is tried again.
            for _ in 0..<3 {
                let inserted = try await session.one(
                    """
                    INSERT INTO open_play (id, player_id, package_id, daily_day, ends_by_micros, record)
                    VALUES ($1, $2, $3, $4, $5, $6)
                    ON CONFLICT (player_id, daily_day) WHERE daily_day IS NOT NULL DO NOTHING RETURNING id
                    """,
                    [
                        .text(record.id), .int(record.playerId), .int(record.packageId), .text(record.dailyDay),
                        .int(record.endsByMicros), .text(json),
                    ])
                if inserted != nil { return }
                if let day = record.dailyDay,
                    let existing = try await Self.openDailyPlayId(playerId: record.playerId, day: day, in: session)
                {
                    throw OpenPlayRefusal.dailyOpen(playId: existing)
                }
            }
            throw StoreError.unavailable(detail: "\(session.url.redacted): the player's daily play kept starting and ending")
        }
    }

    /// How far under `maxOpen` play starts count open plays exactly, under a lock (see `insertOpenPlay`).
    static let exactCountMargin = 64

    /// Open plays, counted up to `limit` only: a count past the bound says no more than one at the bound.
    private static func openPlays(upTo limit: Int, in session: Session) async throws -> Int {
        try await session.one(
            "SELECT COUNT(*) AS n FROM (SELECT 1 FROM open_play LIMIT $1) AS counted", [.int(max(0, limit))])!.int("n")
    }

    private static func openDailyPlayId(playerId: Int64, day: String, in session: Session) async throws -> String? {
        try await session.one(
            "SELECT id FROM open_play WHERE player_id = $1 AND daily_day = $2", [.int(playerId), .text(day)]
        )?.string("id")
    }

    /// Locks the open play `id` (`SELECT … FOR UPDATE`: other instances' changes to it wait), hands it to `change` and
    /// saves what it says in the same transaction. `nil` when no play `id` is open; what `change` throws rolls back.
    public func updateOpenPlay<T: Sendable>(
        id: String, _ change: @escaping @Sendable (OpenPlayRecord) throws -> (T, OpenPlayChange)
    ) async throws -> (value: T, ranked: Bool?)? {
        try await write { session in
            guard let row = try await session.one("SELECT record FROM open_play WHERE id = $1 FOR UPDATE", [.text(id)]) else {
                return nil
            }
            let record = try Self.openPlay(row)
            let (value, outcome) = try change(record)
            switch outcome {
            case .keep(let kept):
                try await session.execute(
                    "UPDATE open_play SET record = $1, ends_by_micros = $2 WHERE id = $3",
                    [.text(try kept.storedJSON()), .int(kept.endsByMicros), .text(id)])
                return (value, nil)
            case .finish(let finished):
                try await session.execute("DELETE FROM open_play WHERE id = $1", [.text(id)])
                return (value, try await Self.recordServerPlay(finished, in: session))
            }
        }
    }

    public func openPlay(id: String) async throws -> OpenPlayRecord? {
        try await read { session in try await session.one("SELECT record FROM open_play WHERE id = $1", [.text(id)]).map(Self.openPlay) }
    }

    public func openDailyPlayId(playerId: Int64, day: String) async throws -> String? {
        try await read { session in try await Self.openDailyPlayId(playerId: playerId, day: day, in: session) }
    }

    public func openPlayCount(packageId: Int64?) async throws -> Int {
        try await read { session in
            if let packageId {
                return try await session.one("SELECT COUNT(*) AS n FROM open_play WHERE package_id = $1", [.int(packageId)])!.int("n")
            }
            return try await session.one("SELECT COUNT(*) AS n FROM open_play")!.int("n")
        }
    }

    public func overdueOpenPlays(before micros: Int64, limit: Int) async throws -> [String] {
        try await read { session in
            try await session.query(
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
    public func takeToken(key: String, burst: Int, intervalMicros: Int64, nowMicros: Int64) async throws -> Int64? {
        try await write { session in
            // Creates the bucket full if it is new, so that the row exists to be locked.
            try await session.execute(
                "INSERT INTO rate_bucket (key, tokens, at_micros) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING",
                [.text(key), .double(Double(burst)), .int(nowMicros)])
            let row = try await session.one("SELECT tokens, at_micros FROM rate_bucket WHERE key = $1 FOR UPDATE", [.text(key)])!
            let bucket = RateBucket(tokens: try row.double("tokens"), atMicros: try row.int64("at_micros"))
                .taking(burst: burst, intervalMicros: intervalMicros, nowMicros: nowMicros)
            try await session.execute(
                "UPDATE rate_bucket SET tokens = $1, at_micros = $2 WHERE key = $3",
                [.double(bucket.tokens), .int(bucket.atMicros), .text(key)])
            return bucket.waitMicros
        }
    }

    public func forgetBuckets(untouchedSince micros: Int64) async throws {
        try await write { session in
            try await session.execute("DELETE FROM rate_bucket WHERE at_micros < $1", [.int(micros)])
        }
    }
}
