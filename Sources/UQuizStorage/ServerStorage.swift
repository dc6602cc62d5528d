import Foundation
import QuizCore

/// The storage the sharing use cases (players, publishing, browsing) need beyond `QuizStorage`: players known by their
/// token's hash, who owns a published package and who may find it, browsing from a position, and uploaded posters.
/// `AppDatabase` (SQLite) and `PostgresQuizStore` (PostgreSQL) implement it.
public protocol SharingStorage: CatalogStorage, OpenPlayStorage, RateLimitStorage, StoreClock {
    func insertPlayer(name: String, tokenHash: Data, at date: Date) throws -> Player
    func player(tokenHash: Data) throws -> Player?
    /// Saves the package and its publication in one transaction, under a share code chosen inside it.
    func insertPublished(
        _ package: QuizPackage, owner: Int64, visibility: Visibility, newCode: () -> ShareCode
    ) throws -> (id: Int64, shareCode: ShareCode)
    /// A published (public or unlisted) or seed package; `nil` for a code nobody may read.
    func publishedPackage(shareCode: ShareCode) throws -> PublishedPackage?
    /// Public and seed packages, newest first, after `position`.
    func publicPackages(_ filter: BrowseFilter, after position: BrowsePosition?, limit: Int) throws -> [PublishedPackage]
    /// Public and seed packages, most plays first, after `position`.
    func popularPackages(_ filter: BrowseFilter, after position: PopularPosition?, limit: Int) throws -> [PublishedPackage]
    /// Changes a published package, keeping its share code; replacing its quizzes is refused once it has plays.
    func updatePublished(packageId: Int64, _ update: PublishedUpdate, visibility: Visibility?) throws
    /// Keeps a poster image under a name unless one is there; returns whether it was new.
    @discardableResult func storePosterImage(fileName: String, jpeg: Data, attribution: String) throws -> Bool
    @discardableResult func deletePackages(ids: [Int64]) throws -> [String]
    /// Whether the store answers a trivial query now.
    func answers() -> Bool

    // Plays judged by the server, leaderboards, the daily quiz
    /// Records a finished server play; returns whether it is the player's ranked play of the package.
    func recordServerPlay(
        publicId: String, packageId: Int64, player: Player, startedAt: Date, finishedAt: Date, score: Int,
        elapsedSeconds: Double, dailyDay: String?, attempts: [PlayAttempt]
    ) throws -> Bool
    func serverPlay(publicId: String) throws -> StoredServerPlay?
    func leaderboard(packageId: Int64, limit: Int, playerId: Int64?) throws -> Leaderboard
    func quizSolveStats(packageId: Int64) throws -> [QuizSolveStats]
    /// The daily quiz of a UTC day, chosen (by `pick`, numbered by `number`) on the first ask and fixed from then on.
    func daily(day: String, chosenAt: Date, number: (String?) -> Int, pick: ([Int64]) -> Int) throws -> DailyChoice?
    func dailyChoice(day: String) throws -> DailyChoice?
    func dailyResults(playerId: Int64) throws -> [(day: String, solved: Bool)]
    func dailyPlayId(playerId: Int64, day: String) throws -> String?
}

/// Plays being played, kept where every server instance sees them (see `OpenPlayRecord`), so that any instance can
/// take any request of a play. Every method is one transaction.
public protocol OpenPlayStorage: Sendable {
    /// Inserts a new open play. Refused with `OpenPlayRefusal.full` when `maxOpen` plays are open, `.dailyOpen` when
    /// the player has an open play of the same daily day, `.outdatedPlan` when the package's quizzes with areas, in
    /// order (or, for a daily play, the one quiz), are no longer `record.quizIds`. The package's row is locked while
    /// this is checked, as `updatePublished` locks it, so a play never starts on quizzes being replaced.
    func insertOpenPlay(_ record: OpenPlayRecord, maxOpen: Int) throws
    /// Locks the open play `id` against every other writer (every instance), hands it to `change`, and saves what
    /// `change` says in the same transaction: `.keep` stores the record's events; `.finish` removes the open play and
    /// records the finished one as `recordServerPlay` does, returning whether it is ranked. `nil` when no play `id` is
    /// open. What `change` throws rolls the transaction back and is rethrown. `change` must not call the store: it runs
    /// inside the store's transaction (a second call would wait for the connection it holds).
    func updateOpenPlay<T>(
        id: String, _ change: (OpenPlayRecord) throws -> (T, OpenPlayChange)
    ) throws -> (value: T, ranked: Bool?)?
    /// The open play `id`, unlocked: for reading only.
    func openPlay(id: String) throws -> OpenPlayRecord?
    /// The id of the player's open play of the daily quiz of `day`, if any.
    func openDailyPlayId(playerId: Int64, day: String) throws -> String?
    /// Open plays of a package (of every package when `nil`).
    func openPlayCount(packageId: Int64?) throws -> Int
    /// Ids of open plays whose `endsByMicros` is before `micros`, the oldest first, at most `limit`: plays nobody asked
    /// about since their time ran out, for a sweep to record.
    func overdueOpenPlays(before micros: Int64, limit: Int) throws -> [String]
}

/// Token buckets kept in the store, so that a limit holds across server instances.
public protocol RateLimitStorage: Sendable {
    /// Takes one token from bucket `key` (holding at most `burst`, refilled by one every `intervalMicros`) at `nowMicros`
    /// on the shared clock, in one atomic step. `nil` when taken, else microseconds until a token is there.
    func takeToken(key: String, burst: Int, intervalMicros: Int64, nowMicros: Int64) throws -> Int64?
    /// Forgets buckets untouched since `micros` (they would be full again anyway).
    func forgetBuckets(untouchedSince micros: Int64) throws
}

/// The store's own clock: with several instances, time is the database server's, not any one instance's.
public protocol StoreClock: Sendable {
    /// Microseconds since 1970-01-01 UTC by the database server's clock.
    func databaseMicros() throws -> Int64
}

/// Where the final results of live rooms are kept: one row per player and room, written once at a room's end.
public protocol RoomResultStorage: Sendable {
    /// All the rows of one room in one transaction.
    func insertRoomResults(_ rows: [RoomResultRow]) throws
    /// The player's room results, newest first.
    func roomResults(playerId: Int64) throws -> [RoomResultRow]
    /// The player's room results added up.
    func roomStats(playerId: Int64) throws -> RoomStats
}

/// Which server instance holds each open room, shared by every instance on one store: a room lives in the memory of
/// the instance that opened it, and the others forward its requests and sockets there (UQuizServer's RoomForwarding).
/// Its primary key makes a room code unique across instances.
public protocol RoomDirectoryStorage: Sendable {
    /// Records that room `code` lives on `instance` (its base URL); `false` when the code is taken.
    func claimRoomCode(_ code: String, instance: String, at date: Date) throws -> Bool
    /// The base URL of the instance holding room `code`, `nil` when none does.
    func roomInstance(code: String) throws -> String?
    /// Forgets room `code` if `instance` holds it.
    func releaseRoomCode(_ code: String, instance: String) throws
    /// Forgets every room of `instance` (when it starts: rooms it held before went with its memory).
    func releaseRoomCodes(instance: String) throws
}

/// What a store keeps of live rooms.
public typealias RoomStorage = RoomResultStorage & RoomDirectoryStorage

/// Everything `uquiz serve` stores: sharing, plays, limits, the clock and live rooms. Each server store (SQLite,
/// PostgreSQL) implements all of it, so no capability is discovered at run time.
public protocol ServerStorage: SharingStorage, RoomResultStorage, RoomDirectoryStorage {}
