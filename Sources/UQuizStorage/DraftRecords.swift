import Foundation

/// A package being made on the server: the maker's work in progress as their page keeps it (the body a publish would
/// send, whole or not yet), never listed or playable, and seen by its maker alone.
public struct DraftRecord: Sendable, Equatable {
    public var id: Int64
    public var playerId: Int64
    /// JSON text.
    public var document: String
    /// ISO 8601 in UTC, as stored.
    public var createdAt: String
    public var updatedAt: String

    public init(id: Int64, playerId: Int64, document: String, createdAt: String, updatedAt: String) {
        self.id = id
        self.playerId = playerId
        self.document = document
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A draft not saved because the player's drafts would then hold more than their quota: the bytes of their other
/// drafts.
public struct DraftQuotaExceeded: Error, Equatable {
    public var heldBytes: Int

    public init(heldBytes: Int) {
        self.heldBytes = heldBytes
    }
}

/// Drafts of packages, each its maker's: another player's draft is, to every call, no draft at all.
public protocol DraftStorage: Sendable {
    /// Saves a new draft for `playerId`, unless they have `limit` drafts already (`nil` then). Throws
    /// `DraftQuotaExceeded` when their drafts' documents would then hold more than `quotaBytes` (UTF-8).
    func insertDraft(playerId: Int64, document: String, at date: Date, limit: Int, quotaBytes: Int) async throws -> DraftRecord?
    /// The player's drafts, the one changed last first.
    func drafts(playerId: Int64) async throws -> [DraftRecord]
    func draft(id: Int64, playerId: Int64) async throws -> DraftRecord?
    /// Replaces the document of the player's draft `id`; `nil` when they have no such draft. Throws
    /// `DraftQuotaExceeded` as `insertDraft` does.
    func updateDraft(id: Int64, playerId: Int64, document: String, at date: Date, quotaBytes: Int) async throws -> DraftRecord?
    /// `false` when the player has no such draft.
    func deleteDraft(id: Int64, playerId: Int64) async throws -> Bool
    /// Deletes every draft last changed before `date`; how many.
    func deleteDrafts(changedBefore date: Date) async throws -> Int
}
