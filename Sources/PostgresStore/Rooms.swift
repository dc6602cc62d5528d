import Foundation
import UQuizStorage

/// Live rooms: their final results and the directory of which instance holds each open room, as QuizStore keeps them
/// (RoomResults.swift), so the room routes run alike on both stores.
extension PostgresQuizStore {
    public func insertRoomResults(_ rows: [RoomResultRow], heldBy instance: String?) async throws -> Bool {
        try await write { session in
            // The directory's row shared-locked: a takeover of the room waits for these results, or they see it.
            if let instance, let code = rows.first?.roomCode {
                try await session.execute(Self.leaseLockTimeout)
                guard try await session.one(
                    "SELECT code FROM room_directory WHERE code = $1 AND instance = $2 FOR SHARE", [.text(code), .text(instance)]
                ) != nil else { return false }
            }
            for row in rows {
                try await session.execute(
                    """
                    INSERT INTO room_result (room_code, package_id, player_id, name, rank, score, solved, played,
                                             share_line, finished_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                    """,
                    [
                        .text(row.roomCode), .int(row.packageId), .int(row.playerId), .text(row.name), .int(row.rank),
                        .int(row.score), .int(row.solved), .int(row.played), .text(row.shareLine),
                        .text(Self.timestamp(row.finishedAt)),
                    ])
            }
            return true
        }
    }

    public func roomResults(playerId: Int64, limit: Int) async throws -> [RoomResultRow] {
        try await read { session in
            try await session.query(
                "SELECT * FROM room_result WHERE player_id = $1 ORDER BY id DESC LIMIT $2", [.int(playerId), .int(limit)]
            ).map {
                RoomResultRow(
                    roomCode: try $0.string("room_code"), packageId: try $0.int64("package_id"),
                    playerId: try $0.int64OrNil("player_id"), name: try $0.string("name"), rank: try $0.int("rank"),
                    score: try $0.int("score"), solved: try $0.int("solved"), played: try $0.int("played"),
                    shareLine: try $0.stringOrNil("share_line"),
                    finishedAt: (try? Date(try $0.string("finished_at"), strategy: .iso8601)) ?? Date(timeIntervalSince1970: 0))
            }
        }
    }

    public func roomStats(playerId: Int64) async throws -> RoomStats {
        try await read { session in
            let row = try await session.one(
                """
                SELECT COUNT(*) AS rooms, COALESCE(SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END), 0)::bigint AS wins,
                       COALESCE(SUM(score), 0)::bigint AS points, COALESCE(SUM(solved), 0)::bigint AS solved,
                       COALESCE(SUM(played), 0)::bigint AS played
                FROM room_result WHERE player_id = $1
                """, [.int(playerId)])!
            return RoomStats(
                rooms: try row.int("rooms"), wins: try row.int("wins"), points: try row.int("points"),
                solved: try row.int("solved"), played: try row.int("played"))
        }
    }

    public func claimRoomCode(
        _ code: String, instance: String, host: Int64?, at date: Date, leaseUntil: Int64?
    ) async throws -> Bool {
        try await write { session in
            try await session.one(
                """
                INSERT INTO room_directory (code, instance, opened_at, host_id, lease_until) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (code) DO NOTHING RETURNING code
                """, [.text(code), .text(instance), .text(Self.timestamp(date)), .int(host), .int(leaseUntil)]) != nil
        }
    }

    public func markRoomFinished(_ code: String) async throws {
        try await write { session in
            try await session.execute("UPDATE room_directory SET finished = true WHERE code = $1", [.text(code)])
        }
    }

    public func hostedRoomCount(host: Int64, notOn instance: String) async throws -> Int {
        try await read { session in
            try await session.one(
                "SELECT COUNT(*) AS n FROM room_directory WHERE host_id = $1 AND NOT finished AND instance <> $2",
                [.int(host), .text(instance)])!.int("n")
        }
    }

    public func roomHolder(code: String) async throws -> RoomHolder? {
        try await read { session in
            try await session.one("SELECT instance, lease_until FROM room_directory WHERE code = $1", [.text(code)]).map {
                RoomHolder(instance: try $0.string("instance"), leaseUntil: try $0.int64OrNil("lease_until"))
            }
        }
    }

    public func releaseRoomCode(_ code: String, instance: String) async throws {
        try await write { session in
            try await session.execute("DELETE FROM room_directory WHERE code = $1 AND instance = $2", [.text(code), .text(instance)])
        }
    }

    public func saveRoomCheckpoint(_ code: String, instance: String, checkpoint: Data) async throws -> Bool {
        try await write { session in
            try await session.one(
                "UPDATE room_directory SET checkpoint = $3 WHERE code = $1 AND instance = $2 RETURNING code",
                [.text(code), .text(instance), .text(String(decoding: checkpoint, as: UTF8.self))]) != nil
        }
    }

    /// A lease statement that waits on another instance's lock gives up after this: that instance is stalled, and the
    /// next round tries again, rather than hold a connection until the store's deadline and beyond.
    static let leaseLockTimeout = "SET LOCAL lock_timeout = '1s'"

    public func renewRoomLeases(instance: String, until: Int64) async throws -> [String] {
        try await write { session in
            try await session.execute(Self.leaseLockTimeout)
            return try await session.query(
                "UPDATE room_directory SET lease_until = $2 WHERE instance = $1 RETURNING code", [.text(instance), .int(until)]
            ).map { try $0.string("code") }.sorted()
        }
    }

    public func endRoomLeases(instance: String) async throws {
        try await write { session in
            try await session.execute(
                "DELETE FROM room_directory WHERE instance = $1 AND checkpoint IS NULL", [.text(instance)])
            try await session.execute("UPDATE room_directory SET lease_until = 0 WHERE instance = $1", [.text(instance)])
        }
    }

    public func roomsWithEndedLeases(now: Int64, limit: Int) async throws -> [String] {
        try await read { session in
            try await session.query(
                "SELECT code FROM room_directory WHERE lease_until < $1 ORDER BY lease_until, code LIMIT $2",
                [.int(now), .int(limit)]
            ).map { try $0.string("code") }
        }
    }

    public func takeOverRoom(_ code: String, instance: String, leaseUntil: Int64, now: Int64) async throws -> Data? {
        try await write { session in
            try await session.execute(Self.leaseLockTimeout)
            try await session.execute(
                "DELETE FROM room_directory WHERE code = $1 AND lease_until < $2 AND checkpoint IS NULL",
                [.text(code), .int(now)])
            // One statement: of instances taking the same room over at once, one row update wins and the others see
            // the lease it set.
            return try await session.one(
                """
                UPDATE room_directory SET instance = $2, lease_until = $3 WHERE code = $1 AND lease_until < $4
                RETURNING checkpoint
                """, [.text(code), .text(instance), .int(leaseUntil), .int(now)]
            ).map { Data(try $0.string("checkpoint").utf8) }
        }
    }
}
