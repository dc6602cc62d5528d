import Foundation
import PosterGrid
import QuizCore

/// One player's final result in one live room, as stored when the room's last quiz ends.
public struct RoomResultRow: Sendable, Equatable {
    public var roomCode: String
    public var packageId: Int64
    /// The player's account when they joined with their bearer token; `nil` for a guest known only by name.
    public var playerId: Int64?
    public var name: String
    public var rank: Int
    public var score: Int
    public var solved: Int
    public var played: Int
    public var shareLine: String?
    public var finishedAt: Date

    public init(
        roomCode: String, packageId: Int64, playerId: Int64?, name: String, rank: Int, score: Int, solved: Int,
        played: Int, shareLine: String?, finishedAt: Date
    ) {
        self.roomCode = roomCode
        self.packageId = packageId
        self.playerId = playerId
        self.name = name
        self.rank = rank
        self.score = score
        self.solved = solved
        self.played = played
        self.shareLine = shareLine
        self.finishedAt = finishedAt
    }
}

/// What a player's room results add up to, for their stats.
public struct RoomStats: Sendable, Equatable {
    public var rooms: Int
    /// Rooms finished at rank 1 (ties included).
    public var wins: Int
    public var points: Int
    public var solved: Int
    public var played: Int

    public init(rooms: Int, wins: Int, points: Int, solved: Int, played: Int) {
        self.rooms = rooms
        self.wins = wins
        self.points = points
        self.solved = solved
        self.played = played
    }
}
