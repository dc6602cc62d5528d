internal import Crypto
import Foundation
import QuizCore
import Synchronization
import UQuizStorage
import UQuizWire

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
        let name = ReadableName.normalized(name)
        let token = PlayerToken(text: Base64URL.encode(Data(environment.tokenBytes(PlayerToken.byteCount))))
        let player = try await environment.store().insertPlayer(name: name, tokenHash: token.hash, at: environment.now())
        return (player, token)
    }

    /// Whether this instance looked `token` up in the store within `KnownPlayers.vouchLifetime`: a token known good, which may be
    /// looked up while its client's address is locked out for others' wrong tokens.
    public func vouched(_ token: PlayerToken) -> Bool {
        environment.knownPlayers.vouches(forTokenHash: token.hash)
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

/// A one-time code that moves a player to another device.
public struct LinkCode: Sendable, Equatable {
    /// Eight characters of `LinkCode.alphabet`, shown as "ABCD-EFGH".
    public var code: String
    public var expiresAt: Date

    /// The share codes' look-alike-free alphabet: a code is read off one screen and typed on another.
    public static let alphabet = ShareCode.alphabet
    public static let length = 8
    public static let lifetime: TimeInterval = 600

    /// The code as typed (any case, with or without the dash and spaces), or `nil` when it cannot be one.
    public static func normalized(_ text: String) -> String? {
        let code = text.uppercased().filter { $0 != "-" && $0 != " " }
        guard code.count == length, code.allSatisfy(alphabet.contains) else { return nil }
        return code
    }

    static func hash(_ code: String) -> Data { PlayerToken(text: "link:" + code).hash }
}

extension Players {
    /// A code that gives `player` to another device (a browser, or `uquiz login --code`) for `LinkCode.lifetime`,
    /// once. Only its hash is kept.
    public func linkCode(for player: Player) async throws -> LinkCode {
        let bytes = environment.tokenBytes(LinkCode.length)
        let code = String(bytes.map { LinkCode.alphabet[Int($0) % LinkCode.alphabet.count] })
        let expiresAt = environment.now().addingTimeInterval(LinkCode.lifetime)
        try await environment.store().insertLinkCode(codeHash: LinkCode.hash(code), playerId: player.id, expiresAt: expiresAt)
        return LinkCode(code: String(code.prefix(4)) + "-" + String(code.suffix(4)), expiresAt: expiresAt)
    }

    /// Spends a link code: the player it was made for, and a new token of theirs for this device (their other
    /// devices keep theirs).
    public func redeem(linkCode text: String) async throws -> (player: Player, token: PlayerToken) {
        guard let code = LinkCode.normalized(text) else { throw PlayerError.unknownLinkCode }
        let token = PlayerToken(text: Base64URL.encode(Data(environment.tokenBytes(PlayerToken.byteCount))))
        guard
            let player = try await environment.store().redeemLinkCode(
                codeHash: LinkCode.hash(code), at: environment.now(), tokenHash: token.hash)
        else { throw PlayerError.unknownLinkCode }
        return (player, token)
    }

    /// How many of the player's latest plays and room results `stats` lists.
    public static let recentCount = 20

    /// The player's plays and live-room results added up and the latest few, with their daily streak (`streak`, as
    /// `Plays.streak(of:)` counts it).
    public func stats(of player: Player, streak: DailyStreak) async throws -> ServerAPI.PlayerStats {
        let store = try environment.store()
        let totals = try await store.playerPlayTotals(playerId: player.id)
        let plays = try await store.playerPlays(playerId: player.id, limit: Self.recentCount)
        let rooms = try await store.roomStats(playerId: player.id)
        let recent = try await store.roomResults(playerId: player.id, limit: Self.recentCount)
        return ServerAPI.PlayerStats(
            player: player, plays: totals, recentPlays: plays, streak: streak, rooms: rooms, recent: Array(recent))
    }

    /// Gives `player` (authenticated with `token`) a new name, checked as `register` checks one. Boards and podiums
    /// read names when they are shown; this instance knows the new name at once, the others once their remembered
    /// player expires (`KnownPlayers.lifetime`).
    public func rename(_ player: Player, token: PlayerToken, to name: String) async throws -> Player {
        try PackageDocument.checkText(name, path: "$.name", name: "name")
        let name = ReadableName.normalized(name)
        guard let renamed = try await environment.store().renamePlayer(id: player.id, name: name) else {
            throw PlayerError.unknownToken
        }
        environment.knownPlayers.remember(renamed, tokenHash: token.hash)
        return renamed
    }
}

/// Players this process has recently authenticated, by their token's hash, so that most requests of a play skip the
/// store's lookup. A player is never deleted or given another token; a rename made on another instance is seen here
/// once the remembered player is `lifetime` old. Bounded: past `capacity` entries it starts again empty.
public final class KnownPlayers: Sendable {
    private let players = Mutex<[Data: (player: Player, at: Duration)]>([:])
    /// The tokens found good (a hash each: no token is kept), each for a day since it was last looked up in the store:
    /// they get through a lockout of their address. An active player is looked up again every `lifetime`.
    private let vouched: ExpiringMap<Data, Bool>
    let capacity: Int
    public let lifetime: Duration
    /// How long a token found good gets through a lockout of its address.
    public static let vouchLifetime: Duration = .seconds(24 * 3600)
    private let now: @Sendable () -> Duration

    public init(
        capacity: Int = 100_000, lifetime: Duration = .seconds(60),
        now: @escaping @Sendable () -> Duration = KnownPlayers.sinceStart
    ) {
        self.capacity = capacity
        self.lifetime = lifetime
        self.now = now
        vouched = ExpiringMap(lifetime: Self.vouchLifetime, capacity: capacity)
    }

    private static let start = ContinuousClock.now
    @Sendable public static func sinceStart() -> Duration { ContinuousClock.now - start }

    public func player(tokenHash: Data) -> Player? {
        let now = now()
        return players.withLock { players in
            guard let known = players[tokenHash] else { return nil }
            guard now - known.at < lifetime else {
                players[tokenHash] = nil
                return nil
            }
            return known.player
        }
    }

    public func remember(_ player: Player, tokenHash: Data) {
        let now = now()
        players.withLock { players in
            if players.count >= capacity { players.removeAll(keepingCapacity: true) }
            players[tokenHash] = (player, now)
        }
        vouched.set(true, for: tokenHash, at: now)
    }

    public func vouches(forTokenHash tokenHash: Data) -> Bool {
        vouched.value(for: tokenHash, at: now()) != nil
    }
}

/// Why a player cannot be made or known.
public enum PlayerError: Error, Equatable {
    /// No player has this token (or it is not a token at all).
    case unknownToken
    /// No link code like this one is waiting: never given, expired, or used already.
    case unknownLinkCode
}
