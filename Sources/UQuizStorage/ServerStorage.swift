import Foundation
import QuizCore

// The server's storage is asynchronous: a request waiting for the database suspends and leaves its thread to the
// others (Swift's cooperative pool has one thread per core), and every call ends by the store's deadline, failing
// with `StoreError.unavailable` when the database does not answer in time.

/// The catalog, packages and posters as the server reads them: the server's half of what `CatalogStorage` gives the
/// CLI.
public protocol ServerCatalogStorage: Sendable {
    func package(id: Int64) async throws -> QuizPackage
    /// The stored ids of a package's quizzes, in the package's order.
    func quizIDs(packageId: Int64) async throws -> [Int64]
    /// Merges what a source says into the catalog and returns the movies as stored.
    @discardableResult func upsertMovies(_ movies: [CatalogMovie]) async throws -> [CatalogMovie]
    func catalogMovie(key: String) async throws -> CatalogMovie?
    func catalogMovies(keys: [String]) async throws -> [String: CatalogMovie]
    func allCatalogMovies() async throws -> [CatalogMovie]
    /// Up to `limit` catalog movies after the one `after` names (`nil`: from the first), in the store's own order, and
    /// where the next page starts (`nil`: this was the last): the whole catalog read in calls that each end quickly,
    /// however large it grew.
    func catalogPage(after: Int64?, limit: Int) async throws -> (movies: [CatalogMovie], next: Int64?)
    func searchCatalog(_ query: String, language: QuizLanguage, limit: Int) async throws -> [CatalogMovie]
    /// A poster image kept in the database (bundled with the seed, or uploaded) by its file name.
    func bundledPoster(fileName: String) async throws -> Data?
    func replacePoster(quizId: Int64, with posterPath: String) async throws
}

/// The storage the sharing use cases (players, publishing, browsing) need beyond the catalog: players known by their
/// token's hash, who owns a published package and who may find it, browsing from a position, and uploaded posters.
/// `SQLiteServerStore` (SQLite) and `PostgresQuizStore` (PostgreSQL) implement it.
public protocol SharingStorage: ServerCatalogStorage, OpenPlayStorage, RateLimitStorage, StoreClock {
    func insertPlayer(name: String, tokenHash: Data, at date: Date) async throws -> Player
    func player(tokenHash: Data) async throws -> Player?
    /// Gives the player a new name (boards read names when they are shown, so they follow); `nil` when no player `id`.
    func renamePlayer(id: Int64, name: String) async throws -> Player?
    /// Keeps a one-time code (its SHA-256) that lets another device become player `playerId` until `expiresAt`.
    func insertLinkCode(codeHash: Data, playerId: Int64, expiresAt: Date) async throws
    /// Spends a code: when it is kept and not expired at `date`, it is removed and `tokenHash` becomes one more token of
    /// its player, who is returned; `nil` otherwise (unknown, expired or spent: the same answer).
    func redeemLinkCode(codeHash: Data, at date: Date, tokenHash: Data) async throws -> Player?
    /// Saves the package and its publication in one transaction, under its share code or, when that is taken, the
    /// first free one of `otherCodes`, chosen inside it.
    func insertPublished(
        _ package: QuizPackage, owner: Int64, visibility: Visibility, otherCodes: [ShareCode]
    ) async throws -> (id: Int64, shareCode: ShareCode)
    /// A published (public or unlisted) or seed package; `nil` for a code nobody may read.
    func publishedPackage(shareCode: ShareCode) async throws -> PublishedPackage?
    /// The packages `playerId` published (public, unlisted and hidden alike), newest first, after `position`.
    func ownedPackages(playerId: Int64, after position: BrowsePosition?, limit: Int) async throws -> [PublishedPackage]
    /// Public and seed packages, newest first, after `position`.
    func publicPackages(_ filter: BrowseFilter, after position: BrowsePosition?, limit: Int) async throws -> [PublishedPackage]
    /// Public and seed packages, most plays first, after `position`.
    func popularPackages(_ filter: BrowseFilter, after position: PopularPosition?, limit: Int) async throws -> [PublishedPackage]
    /// Changes a published package, keeping its share code; replacing its quizzes is refused once it has plays.
    func updatePublished(packageId: Int64, _ update: PublishedUpdate, visibility: Visibility?) async throws
    /// Keeps a poster image under a name unless one is there; returns whether it was new.
    @discardableResult func storePosterImage(fileName: String, jpeg: Data, attribution: String) async throws -> Bool
    /// Keeps a player's uploaded poster (one transaction): `.existing` when an image has that name already (the same
    /// bytes), `.overQuota` when the player's uploads would hold more than `quotaBytes` with it, else `.stored`.
    func storeUpload(
        fileName: String, jpeg: Data, attribution: String, owner: Int64, at date: Date, quotaBytes: Int
    ) async throws -> UploadStored
    /// Removes uploaded posters stored before `date` that no quiz uses; returns their names.
    func deleteUnusedUploads(storedBefore date: Date) async throws -> [String]
    @discardableResult func deletePackages(ids: [Int64]) async throws -> [String]
    /// Whether the store answers a trivial query now.
    func answers() async -> Bool

    // Plays judged by the server, leaderboards, the daily quiz
    /// Records a finished server play; returns whether it is the player's ranked play of the package: no daily play,
    /// no `unrankedReason`, and no ranked play of the package by the player yet.
    func recordServerPlay(_ play: FinishedServerPlay) async throws -> Bool
    /// Whether the player owns the package; has finished a play with an attempt at one of `quizIds` (or at a quiz on
    /// the same movie, in any package), or was shown the answer of one of `alsoShown` (quizzes ended in the player's
    /// plays still open) that is one of them or on the same movie; or sat in a live room, on the package or on a package
    /// with a quiz on one of their movies, when it ended a quiz.
    func answersShown(playerId: Int64, packageId: Int64, quizIds: [Int64], alsoShown: [Int64]) async throws -> AnswersShown
    /// Notes that a live room on the package named a quiz's answer to these players.
    func recordAnswersShown(playerIds: [Int64], packageId: Int64) async throws
    func serverPlay(publicId: String) async throws -> StoredServerPlay?
    func leaderboard(packageId: Int64, limit: Int, playerId: Int64?) async throws -> RankedPlays
    func quizSolveStats(packageId: Int64) async throws -> [QuizSolveStats]
    /// The daily quiz of a UTC day in a language, chosen (by `pick`, numbered by `number` from the language's first
    /// day) on the first ask and fixed from then on. `among` says which of the language's quizzes it is drawn from
    /// (quizzes not drawn yet first).
    func daily(
        day: String, language: QuizLanguage, chosenAt: Date, among: DailyCandidates,
        number: @Sendable (String?) -> Int, pick: @Sendable ([Int64]) -> Int
    ) async throws -> DailyChoice?
    func dailyChoice(day: String, language: QuizLanguage) async throws -> DailyChoice?
    /// The daily quizzes of `language` chosen before `day`, newest first, at most `limit`.
    func dailyArchive(language: QuizLanguage, before day: String, limit: Int) async throws -> [DailyChoice]
    func dailyResults(playerId: Int64) async throws -> [(day: String, solved: Bool)]
    func dailyPlayId(playerId: Int64, day: String) async throws -> String?
    /// The player's latest `limit` finished server plays, newest first.
    func playerPlays(playerId: Int64, limit: Int) async throws -> [PlayerPlayRow]
    func playerPlayTotals(playerId: Int64) async throws -> PlayerPlayTotals
}

/// Plays being played, kept where every server instance sees them (see `OpenPlayRecord`), so that any instance can
/// take any request of a play. Every method is one transaction.
public protocol OpenPlayStorage: Sendable {
    /// Inserts a new open play. Refused with `OpenPlayRefusal.full` when `maxOpen` plays are open, `.dailyOpen` when
    /// the player has an open play of the same daily day, `.packageOpen` when (not a daily play) the player has an open
    /// play of the same package, `.outdatedPlan` when the package's quizzes with areas, in
    /// order (or, for a daily play, the one quiz), are no longer `record.quizIds`. The package's row is locked while
    /// this is checked, as `updatePublished` locks it, so a play never starts on quizzes being replaced.
    func insertOpenPlay(_ record: OpenPlayRecord, maxOpen: Int) async throws
    /// Locks the open play `id` against every other writer (every instance), hands it to `change`, and saves what
    /// `change` says in the same transaction: `.keep` stores the record's events; `.finish` removes the open play and
    /// records the finished one as `recordServerPlay` does, returning whether it is ranked. `nil` when no play `id` is
    /// open. What `change` throws rolls the transaction back and is rethrown. `change` must not call the store: it runs
    /// inside the store's transaction (a second call would wait for the connection it holds).
    func updateOpenPlay<T: Sendable>(
        id: String, _ change: @escaping @Sendable (OpenPlayRecord) throws -> (T, OpenPlayChange)
    ) async throws -> (value: T, ranked: Bool?)?
    /// Stores `kept`, which is `seen` with events appended, as the open play `seen.id` if the stored play still has
    /// just `seen`'s events: one statement and no lock, for a change judged on a read. A play's events only grow while
    /// it is open, so an equal count means nothing happened since `seen` was read. `false` when something did or the
    /// play is no longer open: the change is then judged again under `updateOpenPlay`'s lock.
    func appendOpenPlayEvents(_ seen: OpenPlayRecord, giving kept: OpenPlayRecord) async throws -> Bool
    /// The open play `id`, unlocked: for reading only.
    func openPlay(id: String) async throws -> OpenPlayRecord?
    /// The player's open plays (at most `limit`), unlocked: for reading only.
    func openPlays(playerId: Int64, limit: Int) async throws -> [OpenPlayRecord]
    /// The id of the player's open play of the daily quiz of `day`, if any.
    func openDailyPlayId(playerId: Int64, day: String) async throws -> String?
    /// Open plays of a package (of every package when `nil`).
    func openPlayCount(packageId: Int64?) async throws -> Int
    /// Ids of open plays whose `endsByMicros` is before `micros`, the oldest first, at most `limit`: plays nobody asked
    /// about since their time ran out, for a sweep to record.
    func overdueOpenPlays(before micros: Int64, limit: Int) async throws -> [String]
}

/// Token buckets kept in the store, so that a limit holds across server instances.
public protocol RateLimitStorage: Sendable {
    /// Takes one token from bucket `key` (holding at most `burst`, refilled by one every `intervalMicros`) at `nowMicros`
    /// on the shared clock, in one atomic step. `nil` when taken, else microseconds until a token is there.
    func takeToken(key: String, burst: Int, intervalMicros: Int64, nowMicros: Int64) async throws -> Int64?
    /// Forgets buckets untouched since `micros` (they would be full again anyway).
    func forgetBuckets(untouchedSince micros: Int64) async throws
}

/// The store's own clock: with several instances, time is the database server's, not any one instance's.
public protocol StoreClock: Sendable {
    /// Microseconds since 1970-01-01 UTC by the database server's clock.
    func databaseMicros() async throws -> Int64
}

/// Where the final results of live rooms are kept: one row per player and room, written once at a room's end.
public protocol RoomResultStorage: Sendable {
    /// All the rows of one room in one transaction, when `instance` is `nil` (a room in no directory) or holds the room
    /// in the room directory; `false`, and nothing stored, when another instance holds it now (this one stalled past
    /// its lease and the room was taken over: its results are the new holder's to store).
    func insertRoomResults(_ rows: [RoomResultRow], heldBy instance: String?) async throws -> Bool
    /// The player's latest `limit` room results, newest first.
    func roomResults(playerId: Int64, limit: Int) async throws -> [RoomResultRow]
    /// The player's room results added up.
    func roomStats(playerId: Int64) async throws -> RoomStats
}

/// Which server instance holds each open room, shared by every instance on one store: a room lives in the memory of
/// the instance that holds it, and the others forward its requests and sockets there (UQuizServer's RoomForwarding).
/// Its primary key makes a room code unique across instances.
///
/// A holder keeps its rooms' checkpoints here and renews a lease on them; a room whose lease has ended (its holder
/// stopped and handed it over, or died) is taken over by another instance from its checkpoint. Lease instants are
/// microseconds on the servers' shared clock.
public protocol RoomDirectoryStorage: Sendable {
    /// Records that room `code`, hosted by player `host`, lives on `instance` (its base URL), leased until `leaseUntil`
    /// (so that a holder dying before its first renewal leaves no room nobody takes over); `false` when the code is
    /// taken.
    func claimRoomCode(_ code: String, instance: String, host: Int64?, at date: Date, leaseUntil: Int64?) async throws -> Bool
    /// Notes that room `code` has reached its podium: it no longer counts among its host's rooms.
    func markRoomFinished(_ code: String) async throws
    /// The rooms `host` hosts that have not finished, on instances other than `instance`.
    func hostedRoomCount(host: Int64, notOn instance: String) async throws -> Int
    /// Who holds room `code`, `nil` when no instance does.
    func roomHolder(code: String) async throws -> RoomHolder?
    /// Forgets room `code` if `instance` holds it.
    func releaseRoomCode(_ code: String, instance: String) async throws
    /// Keeps `checkpoint` for room `code` while `instance` holds it; `false` when it does not (any more).
    func saveRoomCheckpoint(_ code: String, instance: String, checkpoint: Data) async throws -> Bool
    /// Extends the lease of every room `instance` holds to `until`; the codes of the rooms it holds.
    func renewRoomLeases(instance: String, until: Int64) async throws -> [String]
    /// Ends the leases of `instance`'s rooms, for another instance to take them over (it stops, or starts again after
    /// dying); its rooms without a checkpoint cannot be carried on and are forgotten.
    func endRoomLeases(instance: String) async throws
    /// Rooms whose lease ended before `now`, the longest ended first, at most `limit`.
    func roomsWithEndedLeases(now: Int64, limit: Int) async throws -> [String]
    /// Takes room `code` over for `instance` with a lease until `leaseUntil`, if its lease ended before `now`: its
    /// checkpoint. `nil` when another instance holds it (or took it first); a room whose lease ended with no checkpoint
    /// is forgotten.
    func takeOverRoom(_ code: String, instance: String, leaseUntil: Int64, now: Int64) async throws -> Data?
}

extension RoomResultStorage {
    /// A room's rows stored whoever holds it (tests of the results alone).
    public func insertRoomResults(_ rows: [RoomResultRow]) async throws {
        _ = try await insertRoomResults(rows, heldBy: nil)
    }
}

extension RoomDirectoryStorage {
    /// A room whose host is not counted (tests of the directory alone).
    public func claimRoomCode(_ code: String, instance: String, at date: Date) async throws -> Bool {
        try await claimRoomCode(code, instance: instance, host: nil, at: date, leaseUntil: nil)
    }
}

/// Who holds a room: an instance's base URL, and when its lease ends (`nil` until first renewed).
public struct RoomHolder: Sendable, Equatable {
    public var instance: String
    public var leaseUntil: Int64?

    public init(instance: String, leaseUntil: Int64?) {
        self.instance = instance
        self.leaseUntil = leaseUntil
    }

    /// Whether another instance may take the room over at `now`.
    public func leaseEnded(at now: Int64) -> Bool { leaseUntil.map { $0 < now } ?? false }
}

extension RoomDirectoryStorage {
    /// The base URL of the instance holding room `code`, `nil` when none does.
    public func roomInstance(code: String) async throws -> String? { try await roomHolder(code: code)?.instance }
}

/// What a store keeps of live rooms.
public typealias RoomStorage = RoomResultStorage & RoomDirectoryStorage

/// Everything `uquiz serve` stores: sharing, plays, limits, the clock and live rooms, and the feed of package changes. Each server store (SQLite,
/// PostgreSQL) implements all of it, so no capability is discovered at run time.
public protocol ServerStorage: SharingStorage, RoomResultStorage, RoomDirectoryStorage, PackageChangeFeed, ModerationStorage,
    DraftStorage {}
