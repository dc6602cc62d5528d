import Foundation
internal import GRDB
import PosterGrid
import QuizCore

/// A guest player of the server, as the store knows it (never its token).
public struct Player: Hashable, Sendable {
    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// Who can find a published package: anyone browsing (`public`), or only whoever has its share code (`unlisted`).
public enum Visibility: String, CaseIterable, Sendable, Codable {
    case `public`
    case unlisted
}

/// A published package's metadata: what anyone may read about it without playing it. It carries no quiz, so no title of
/// a film, TMDB id, poster path or area can leak through it.
public struct PublishedPackage: Hashable, Sendable {
    public var id: Int64
    public var shareCode: String
    public var title: String
    public var maker: String
    public var level: Level
    public var language: QuizLanguage
    public var quizCount: Int
    public var plays: Int
    /// ISO 8601 in UTC, as stored.
    public var createdAt: String
    public var visibility: Visibility
    /// `nil` for the bundled seed packages, which nobody owns.
    public var ownerId: Int64?

    public init(
        id: Int64, shareCode: String, title: String, maker: String, level: Level, language: QuizLanguage, quizCount: Int,
        plays: Int, createdAt: String, visibility: Visibility, ownerId: Int64?
    ) {
        self.id = id
        self.shareCode = shareCode
        self.title = title
        self.maker = maker
        self.level = level
        self.language = language
        self.quizCount = quizCount
        self.plays = plays
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

extension AppDatabase {
    /// Adds a player known by the SHA-256 of its token.
    public func insertPlayer(name: String, tokenHash: Data, at date: Date) throws -> Player {
        try write { db in
            var record = PlayerRecord(id: nil, name: name, tokenHash: tokenHash, createdAt: Self.timestamp(date))
            try record.insert(db)
            return Player(id: record.id!, name: name)
        }
    }

    /// The player whose token has this SHA-256, if any.
    public func player(tokenHash: Data) throws -> Player? {
        try read { db in
            try PlayerRecord.filter(Column("tokenHash") == tokenHash).fetchOne(db).map { Player(id: $0.id!, name: $0.name) }
        }
    }

    /// Saves a new package and its publication in one transaction, under a share code chosen inside it (as
    /// `insertChoosingShareCode` does): either both are stored or neither.
    public func insertPublished(
        _ package: QuizPackage, owner: Int64, visibility: Visibility, newCode: () -> ShareCode
    ) throws -> (id: Int64, shareCode: ShareCode) {
        try write { db in
            let saved = try Self.insertChoosingShareCode(package, newCode: newCode, in: db)
            try PublicationRecord(packageId: saved.id, ownerId: owner, visibility: visibility.rawValue).insert(db)
            return saved
        }
    }

    /// A published package (public or unlisted) or a seed package by its share code; `nil` for any other package,
    /// including one the CLI made in the same file and never published.
    public func publishedPackage(shareCode: ShareCode) throws -> PublishedPackage? {
        try read { db in
            try Row.fetchOne(
                db, sql: Self.publishedSelect + " WHERE p.shareCode = ? AND (p.origin = 'seed' OR pub.packageId IS NOT NULL)",
                arguments: [shareCode.value]
            ).map(Self.published)
        }
    }

    /// Public packages (published public, or seed), newest first (then highest id), after `position` when given.
    public func publicPackages(
        level: Level?, language: QuizLanguage?, after position: BrowsePosition?, limit: Int
    ) throws -> [PublishedPackage] {
        try read { db in
            var conditions = ["(p.origin = 'seed' OR pub.visibility = 'public')"]
            var arguments: StatementArguments = []
            if let level {
                conditions.append("p.level = ?")
                arguments += [level.rawValue]
            }
            if let language {
                conditions.append("p.language = ?")
                arguments += [language.rawValue]
            }
            if let position {
                conditions.append("(p.createdAt < ? OR (p.createdAt = ? AND p.id < ?))")
                arguments += [position.createdAt, position.createdAt, position.id]
            }
            arguments += [limit]
            return try Row.fetchAll(
                db,
                sql: Self.publishedSelect + " WHERE " + conditions.joined(separator: " AND ")
                    + " ORDER BY p.createdAt DESC, p.id DESC LIMIT ?",
                arguments: arguments
            ).map(Self.published)
        }
    }

    /// Whether the database answers a query: what the server's readiness is.
    public func answers() -> Bool {
        (try? read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }

    private static let publishedSelect = """
        SELECT p.id, p.shareCode, p.title, p.maker, p.level, p.language, p.createdAt, p.origin,
               pub.visibility, pub.ownerId,
               (SELECT COUNT(*) FROM quiz q WHERE q.packageId = p.id) AS quizCount,
               (SELECT COUNT(*) FROM play WHERE play.packageId = p.id) AS plays
        FROM package p LEFT JOIN publication pub ON pub.packageId = p.id
        """

    private static func published(_ row: Row) throws -> PublishedPackage {
        let visibility: String? = row["visibility"]
        return PublishedPackage(
            id: row["id"], shareCode: row["shareCode"], title: row["title"], maker: row["maker"],
            level: try decodeEnum(row["level"]), language: try decodeEnum(row["language"]), quizCount: row["quizCount"],
            plays: row["plays"], createdAt: row["createdAt"],
            visibility: try visibility.map { try decodeEnum($0) } ?? .public, ownerId: row["ownerId"])
    }
}
