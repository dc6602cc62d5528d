import Foundation
import UQuizStorage

/// Drafts of packages (`DraftStorage`), as QuizStore keeps them.
extension PostgresQuizStore {
    public func insertDraft(
        playerId: Int64, document: String, at date: Date, limit: Int, quotaBytes: Int
    ) async throws -> DraftRecord? {
        try await write { session in
            // The player's row locked: two drafts made at once cannot both pass the count.
            guard try await session.one("SELECT id FROM player WHERE id = $1 FOR UPDATE", [.int(playerId)]) != nil else {
                return nil
            }
            let held = try await session.one("SELECT COUNT(*) AS held FROM draft WHERE player_id = $1", [.int(playerId)])!
            guard try held.int("held") < limit else { return nil }
            try await Self.checkDraftQuota(playerId: playerId, besides: nil, document: document, quotaBytes: quotaBytes, in: session)
            let now = Self.timestamp(date)
            let row = try await session.one(
                """
                INSERT INTO draft (player_id, document, created_at, updated_at) VALUES ($1, $2, $3, $3) RETURNING *
                """, [.int(playerId), .text(document), .text(now)])!
            return try Self.draft(of: row)
        }
    }

    public func drafts(playerId: Int64) async throws -> [DraftRecord] {
        try await read { session in
            try await session.query(
                "SELECT * FROM draft WHERE player_id = $1 ORDER BY updated_at DESC, id DESC", [.int(playerId)]
            ).map(Self.draft(of:))
        }
    }

    public func draft(id: Int64, playerId: Int64) async throws -> DraftRecord? {
        try await read { session in
            try await session.one("SELECT * FROM draft WHERE id = $1 AND player_id = $2", [.int(id), .int(playerId)])
                .map(Self.draft(of:))
        }
    }

    public func updateDraft(
        id: Int64, playerId: Int64, document: String, at date: Date, quotaBytes: Int
    ) async throws -> DraftRecord? {
        try await write { session in
            // The player's row locked, as for a new draft: two saves at once cannot both pass the quota.
            guard try await session.one("SELECT id FROM player WHERE id = $1 FOR UPDATE", [.int(playerId)]) != nil,
                try await session.one("SELECT id FROM draft WHERE id = $1 AND player_id = $2", [.int(id), .int(playerId)]) != nil
            else { return nil }
            try await Self.checkDraftQuota(playerId: playerId, besides: id, document: document, quotaBytes: quotaBytes, in: session)
            return try await session.one(
                "UPDATE draft SET document = $3, updated_at = $4 WHERE id = $1 AND player_id = $2 RETURNING *",
                [.int(id), .int(playerId), .text(document), .text(Self.timestamp(date))]
            ).map(Self.draft(of:))
        }
    }

    public func deleteDraft(id: Int64, playerId: Int64) async throws -> Bool {
        try await write { session in
            try await session.one(
                "DELETE FROM draft WHERE id = $1 AND player_id = $2 RETURNING id", [.int(id), .int(playerId)]) != nil
        }
    }

    public func deleteDrafts(changedBefore date: Date) async throws -> Int {
        try await write { session in
            try await session.query(
                "DELETE FROM draft WHERE updated_at < $1 RETURNING id", [.text(Self.timestamp(date))]
            ).count
        }
    }

    /// Throws `DraftQuotaExceeded` when the player's drafts other than `besides`, with `document`, pass `quotaBytes`.
    private static func checkDraftQuota(
        playerId: Int64, besides id: Int64?, document: String, quotaBytes: Int, in session: Session
    ) async throws {
        let held = try await session.one(
            """
            SELECT COALESCE(SUM(octet_length(document)), 0) AS held FROM draft
            WHERE player_id = $1 AND id IS DISTINCT FROM $2
            """, [.int(playerId), .int(id)])!.int("held")
        if held + document.utf8.count > quotaBytes { throw DraftQuotaExceeded(heldBytes: held) }
    }

    static func draft(of row: Row) throws -> DraftRecord {
        DraftRecord(
            id: try row.int64("id"), playerId: try row.int64("player_id"), document: try row.string("document"),
            createdAt: try row.string("created_at"), updatedAt: try row.string("updated_at"))
    }
}
