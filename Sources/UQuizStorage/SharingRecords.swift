import Foundation
import PosterGrid
import QuizCore

/// A guest player of the server, as the store knows it (never its token).
public struct Player: Hashable, Sendable {
    public var id: Int64
    public var name: String
    /// Banned by a moderator: the player may read, and nothing else.
    public var banned: Bool

    public init(id: Int64, name: String, banned: Bool = false) {
        self.id = id
        self.name = name
        self.banned = banned
    }
}

/// Who can find a published package: anyone browsing (`public`), or only whoever has its share code (`unlisted`).
public enum Visibility: String, CaseIterable, Sendable, Codable {
    case `public`
    case unlisted
}

/// A published package's metadata: what anyone may read about it without playing it. It carries no quiz, so no title of
/// a film, TMDB id, poster path or area can leak through it.
/// Which public packages a browsing page shows: a level, a language, text in the title or the maker; `nil` for any.
public struct BrowseFilter: Hashable, Sendable {
    public var level: Level?
    public var language: QuizLanguage?
    public var text: String?
    /// Only packages whose every poster the store holds (bundled or uploaded): what a server that cannot reach TMDB
    /// can show.
    public var postersHeldOnly: Bool

    public init(level: Level? = nil, language: QuizLanguage? = nil, text: String? = nil, postersHeldOnly: Bool = false) {
        self.level = level
        self.language = language
        self.text = text
        self.postersHeldOnly = postersHeldOnly
    }
}

public struct PublishedPackage: Hashable, Sendable {
    public var id: Int64
    public var shareCode: String
    public var title: String
    public var maker: String
    public var level: Level
    public var language: QuizLanguage
    public var quizCount: Int
    public var plays: Int
    /// Quizzes played in plays the server judged (a quiz of a package's play, or a daily play of one of its quizzes),
    /// and how many of those were solved: the package's solve rate. The CLI's own plays on the same file do not count.
    public var serverAttempts: Int
    public var serverSolves: Int
    /// ISO 8601 in UTC, as stored.
    public var createdAt: String
    public var visibility: Visibility
    /// `nil` for the bundled seed packages, which nobody owns.
    public var ownerId: Int64?
    /// Why the package is hidden from everyone (its page says it was removed, no play of it starts), if it is.
    public var hidden: HiddenReason?

    public init(
        id: Int64, shareCode: String, title: String, maker: String, level: Level, language: QuizLanguage, quizCount: Int,
        plays: Int, serverAttempts: Int = 0, serverSolves: Int = 0, createdAt: String, visibility: Visibility,
        ownerId: Int64?, hidden: HiddenReason? = nil
    ) {
        self.hidden = hidden
        self.id = id
        self.shareCode = shareCode
        self.title = title
        self.maker = maker
        self.level = level
        self.language = language
        self.quizCount = quizCount
        self.plays = plays
        self.serverAttempts = serverAttempts
        self.serverSolves = serverSolves
        self.createdAt = createdAt
        self.visibility = visibility
        self.ownerId = ownerId
    }
}

/// Where a page of browsing starts: just after the package with this creation time and id, newest first. Packages
/// inserted later sort before it, so paging on never repeats or skips one.
public struct BrowsePosition: Hashable, Sendable {
    public var createdAt: String
    public var id: Int64

    public init(createdAt: String, id: Int64) {
        self.createdAt = createdAt
        self.id = id
    }
}

/// Where a page of browsing by popularity starts: just after the package with this many plays and this id, most plays
/// first (then highest id). A keyset, not a snapshot: paging on never repeats or skips a package whose play count stays
/// the same, whatever is published meanwhile (a new package has no plays and the highest id, so it sorts first among
/// the packages without plays: it shows on a later page while the pages are still among packages with plays, on none
/// once they are past it). A package whose play count changes while someone pages may cross the position, and be seen
/// twice or not at all: ordering by a count that moves, only a snapshot would avoid that, and none is kept.
public struct PopularPosition: Hashable, Sendable {
    public var plays: Int
    public var id: Int64

    public init(plays: Int, id: Int64) {
        self.plays = plays
        self.id = id
    }
}

/// What a package update may change: everything, or, once it has plays, only what does not touch how it plays.
public enum PublishedUpdate: Sendable {
    /// Title, maker, level, language and quizzes: refused with `StoreError.packagePlayed` once the package has plays.
    case whole(QuizPackage)
    /// Title and maker only: the quizzes, level and language that plays were judged on stay.
    case titleAndMaker(title: String, maker: String)
}

/// What became of an upload (`SharingStorage.storeUpload`).
public enum UploadStored: Equatable, Sendable {
    case stored
    /// The same image was kept already.
    case existing
    /// Refused: the player's uploads hold `heldBytes` already.
    case overQuota(heldBytes: Int)
}
