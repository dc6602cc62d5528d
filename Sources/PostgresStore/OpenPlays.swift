import Foundation
import UQuizStorage

/// Open plays and rate buckets: what several server instances must see alike (see `OpenPlayRecord`).
extension PostgresQuizStore {
    /// Inserts a new open play; refused with `OpenPlayRefusal.full`, `.dailyOpen`, `.packageOpen` or `.outdatedPlan`. The package's
    /// row is locked while this is checked, as `updatePublished` locks it. One round trip: the checks and the insert
    /// are the database function `uquiz_start_open_play` (migration pg3), called outside any transaction and
    /// made again if the connection fails (the play's id, new and random, tells a start that went through).
    ///
    /// No lock is shared by every play start: the one-open-daily-play rule is the unique index `open_play_daily_once`
    /// (the insert does nothing when the player's daily play of that day is there, and the refusal names it), and
    /// `maxOpen`, a safety bound, is read from the sharded tally `open_play_tally` without a lock while the open plays
    /// are well under it. Within `exactCountMargin` of it, starts take a transaction-level advisory lock and count
    /// the table, so that the bound holds there; it could be passed only if more than that many plays started during
    /// one start's transaction.
    public func insertOpenPlay(_ record: OpenPlayRecord, maxOpen: Int) async throws {
        let json = try record.storedJSON()
        let outcome = try await repeatableCall { session in
            try await session.one(StartOpenPlay(values: [
                    .text(record.id), .int(record.playerId), .int(record.packageId), .text(record.dailyDay),
                    .int(record.endsByMicros), .text(json),
                    .text("{" + record.quizIds.map(String.init).joined(separator: ",") + "}"),
                    .int(Int64(max(0, min(maxOpen, Int(Int32.max))))), .int(Int64(Self.exactCountMargin)),
                ]))!.string("outcome")
        }
        switch outcome {
        case "started": return
        case "outdated": throw OpenPlayRefusal.outdatedPlan
        case "full": throw OpenPlayRefusal.full
        case let daily where daily.hasPrefix("daily "): throw OpenPlayRefusal.dailyOpen(playId: String(daily.dropFirst(6)))
        case let open where open.hasPrefix("open "): throw OpenPlayRefusal.packageOpen(playId: String(open.dropFirst(5)))
        default:
            throw StoreError.unavailable(detail: "\(redactedURL): the player's daily play kept starting and ending")
        }
    }

    /// How far under `maxOpen` play starts count open plays exactly, under a lock (see `insertOpenPlay`).
    static let exactCountMargin = 64

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

    /// One statement outside a transaction (see `OpenPlayStorage.appendOpenPlayEvents`); an `UPDATE` waits for a row
    /// another instance holds under `updateOpenPlay`'s lock and then sees the events that instance stored. Never made
    /// twice: an update that went through unanswered would be found changed and judged again under the lock.
    public func appendOpenPlayEvents(_ seen: OpenPlayRecord, giving kept: OpenPlayRecord) async throws -> Bool {
        let json = try kept.storedJSON()
        return try await withSession { session in
            try await session.one(
                AppendOpenPlayEvents(values: [.text(json), .int(kept.endsByMicros), .text(seen.id), .int(seen.events.count)])
            ) != nil
        }
    }

    public func openPlay(id: String) async throws -> OpenPlayRecord? {
        try await read { session in try await session.one(OpenPlayById(values: [.text(id)])).map(Self.openPlay) }
    }

    public func openPlays(playerId: Int64, limit: Int) async throws -> [OpenPlayRecord] {
        try await read { session in
            try await session.query(
                "SELECT record FROM open_play WHERE player_id = $1 ORDER BY id LIMIT $2",
                [.int(playerId), .int(Int64(limit))]
            ).map(Self.openPlay)
        }
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

// The statements of every play request, prepared (see `PreparedSQL`).

struct StartOpenPlay: PreparedSQL {
    static let sql =
        "SELECT uquiz_start_open_play($1, $2, $3, $4::text, $5, $6, $7::bigint[], $8::integer, $9::integer) AS outcome"
    var values: [Bind]
}

struct OpenPlayById: PreparedSQL {
    static let sql = "SELECT record FROM open_play WHERE id = $1"
    var values: [Bind]
}

struct AppendOpenPlayEvents: PreparedSQL {
    static let sql = """
        UPDATE open_play SET record = $1, ends_by_micros = $2
        WHERE id = $3 AND jsonb_array_length(record::jsonb -> 'events') = $4 RETURNING 1 AS done
        """
    var values: [Bind]
}
