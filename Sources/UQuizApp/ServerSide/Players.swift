internal import Crypto
import Foundation
import QuizCore
import UQuizStorage
import Synchronization

/// A bearer token as handed to a player once: 32 random bytes, base64url without padding (43 characters).
public struct PlayerToken: Sendable, Equatable, CustomStringConvertible {
    public static let byteCount = 32
    public let text: String

    public init(text: String) {
        self.text = text
    }

    /// The SHA-256 of the token's text: the only form the store keeps, so a copy of the database lets nobody in.
    public var hash: Data { Data(SHA256.hash(data: Data(text.utf8))) }

    /// Never the token itself, so that interpolating one into a log line or an error cannot leak it.
    public var description: String { "<token>" }
}

/// Guest players: made with a name, known afterwards by their bearer token.
public struct Players: Sendable {
    public let environment: SharingEnvironment

    public init(environment: SharingEnvironment) {
        self.environment = environment
    }

    /// Makes a guest player named `name` (checked like every text a package holds) and its token, which is returned
    /// once and stored only as its hash.
    public func register(name: String) async throws -> (player: Player, token: PlayerToken) {
        try PackageDocument.checkText(name, path: "$.name", name: "name")
        let token = PlayerToken(text: Base64URL.encode(Data(environment.tokenBytes(PlayerToken.byteCount))))
        let player = try await environment.store().insertPlayer(name: name, tokenHash: token.hash, at: environment.app.now())
        return (player, token)
    }

    /// The player a bearer token belongs to.
    public func authenticate(_ token: PlayerToken) async throws -> Player {
        // A token is 43 base64url characters; anything else cannot be one, and is not worth hashing or a query.
        guard token.text.utf8.count == 43, token.text.utf8.allSatisfy(Base64URL.isAlphabet) else {
            throw PlayerError.unknownToken
        }
        let hash = token.hash
        if let known = environment.knownPlayers.player(tokenHash: hash) { return known }
        guard let player = try await environment.store().player(tokenHash: hash) else { throw PlayerError.unknownToken }
        environment.knownPlayers.remember(player, tokenHash: hash)
        return player
    }
}

extension Players {
    /// How many of the player's latest room results `roomStats` lists.
    public static let recentRoomCount = 20

    /// The player's live-room results added up and the latest few: a room's final results count in the players'
    /// stats.
    public func roomStats(of player: Player) async throws -> ServerAPI.PlayerStats {
        let store = try environment.store()
        let rooms = try await store.roomStats(playerId: player.id)
        let recent = try await store.roomResults(playerId: player.id).prefix(Self.recentRoomCount)
        return ServerAPI.PlayerStats(player: player, rooms: rooms, recent: Array(recent))
    }
}

/// Players this process has recently authenticated, by their token's hash: a player is never renamed, deleted or given
/// another token, so a remembered one stays right on every instance, and most requests of a play skip the store's
/// lookup. Bounded: past `capacity` entries it starts again empty.
public final class KnownPlayers: Sendable {
    private let players = Mutex<[Data: Player]>([:])
    let capacity: Int

    public init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    func player(tokenHash: Data) -> Player? { players.withLock { $0[tokenHash] } }

    func remember(_ player: Player, tokenHash: Data) {
        players.withLock { players in
            if players.count >= capacity { players.removeAll(keepingCapacity: true) }
            players[tokenHash] = player
        }
    }
}

/// Why a player cannot be made or known.
public enum PlayerError: Error, Equatable {
    /// No player has this token (or it is not a token at all).
    case unknownToken
}
