import Foundation
import QuizCore
import UQuizStorage

/// Players, publishing and browsing, as AppDatabase's Publishing.swift.
extension PostgresQuizStore {
    public func insertPlayer(name: String, tokenHash: Data, at date: Date) async throws -> Player {
        try await write { session in
            let row = try await session.one(
                "INSERT INTO player (name, token_hash, created_at) VALUES ($1, $2, $3) RETURNING id",
                [.text(name), .bytes(tokenHash), .text(Self.timestamp(date))])!
            return Player(id: try row.int64("id"), name: name)
        }
    }

    public func player(tokenHash: Data) async throws -> Player? {
        try await read { session in
            try await session.one(
                """
                SELECT id, name, EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = player.id) AS banned
                FROM player
                WHERE token_hash = $1 OR id = (SELECT player_id FROM player_token WHERE token_hash = $1)
                """, [.bytes(tokenHash)]
            ).map { Player(id: try $0.int64("id"), name: try $0.string("name"), banned: try $0.bool("banned")) }
        }
    }

    public func insertLinkCode(codeHash: Data, playerId: Int64, expiresAt: Date) async throws {
        let now = Self.timestamp(Date())
        try await write { session in
            // Spent and expired codes go as new ones come: the table holds the last minutes' codes only.
            try await session.execute("DELETE FROM link_code WHERE expires_at <= $1", [.text(now)])
            try await session.execute(
                "INSERT INTO link_code (code_hash, player_id, expires_at) VALUES ($1, $2, $3)",
                [.bytes(codeHash), .int(playerId), .text(Self.timestamp(expiresAt))])
        }
    }

    public func redeemLinkCode(codeHash: Data, at date: Date, tokenHash: Data) async throws -> Player? {
        let at = Self.timestamp(date)
        return try await write { session in
            // Deleted as it is read: two devices spending one code at once, one gets it.
            guard
                let playerId = try await session.one(
                    "DELETE FROM link_code WHERE code_hash = $1 AND expires_at > $2 RETURNING player_id",
                    [.bytes(codeHash), .text(at)])?.int64("player_id")
            else { return nil }
            try await session.execute(
                "INSERT INTO player_token (token_hash, player_id, created_at) VALUES ($1, $2, $3)",
                [.bytes(tokenHash), .int(playerId), .text(at)])
            return try await session.one(
                """
                SELECT id, name, EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = player.id) AS banned
                FROM player WHERE id = $1
                """, [.int(playerId)]
            ).map { Player(id: try $0.int64("id"), name: try $0.string("name"), banned: try $0.bool("banned")) }
        }
    }

    public func renamePlayer(id: Int64, name: String) async throws -> Player? {
        try await write { session in
            try await session.one("UPDATE player SET name = $1 WHERE id = $2 RETURNING id", [.text(name), .int(id)])
                .map { _ in Player(id: id, name: name) }
        }
    }

    /// Saves the package and its publication in one transaction, under the package's share code or, when that is
    /// taken, the first free one of `otherCodes`, chosen inside it.
    public func insertPublished(
        _ package: QuizPackage, owner: Int64, visibility: Visibility, otherCodes: [ShareCode]
    ) async throws -> (id: Int64, shareCode: ShareCode) {
        try await write { session in
            let saved = try await Self.insertChoosingShareCode(package, otherCodes: otherCodes, in: session)
            try await session.execute(
                "INSERT INTO publication (package_id, owner_id, visibility) VALUES ($1, $2, $3)",
                [.int(saved.id), .int(owner), .text(visibility.rawValue)])
            return saved
        }
    }

    /// A published (public or unlisted) or seed package; `nil` for a code nobody may read.
    public func publishedPackage(shareCode: ShareCode) async throws -> PublishedPackage? {
        try await read { session in
            try await session.one(PublishedByShareCode(values: [.text(shareCode.value)])).map(Self.published)
        }
    }

    /// A page of a maker's packages, newest first, after `position`: the page is chosen before its packages are read
    /// in full, as AppDatabase's `ownedPackages` does.
    public func ownedPackages(playerId: Int64, after position: BrowsePosition?, limit: Int) async throws -> [PublishedPackage] {
        let query = Self.ownedPageQuery(playerId: playerId, after: position, limit: limit)
        return try await read { session in try await session.query(query.sql, query.values).map(Self.published) }
    }

    static func ownedPageQuery(playerId: Int64, after position: BrowsePosition?, limit: Int) -> (sql: String, values: [Bind]) {
        var values: [Bind] = [.int(playerId)]
        var start = ""
        if let position {
            start = " AND (o.created_at COLLATE \"C\", o.id) < ($2, $3)"
            values += [.text(position.createdAt), .int(position.id)]
        }
        values.append(.int(limit))
        // The maker's packages are found through the owner's index first (a materialized CTE, each one's creation time
        // by its key), then put in order: left to itself the planner walks every package newest first looking for the
        // maker's, as far as their oldest, or hashes every package to join them.
        let order = "created_at COLLATE \"C\" DESC"
        let sql = """
            WITH mine AS MATERIALIZED (
                SELECT owned.package_id AS id, (SELECT o.created_at FROM package o WHERE o.id = owned.package_id) AS created_at
                FROM publication owned WHERE owned.owner_id = $1)
            """ + Self.publishedSelect + """
             WHERE p.id IN (SELECT o.id FROM mine o WHERE true\(start) ORDER BY o.\(order), o.id DESC LIMIT $\(values.count))
             ORDER BY p.\(order), p.id DESC
            """
        return (sql, values)
    }

    /// Public and seed packages, newest first (then highest id), after `position`.
    public func publicPackages(
        _ filter: BrowseFilter, after position: BrowsePosition?, limit: Int
    ) async throws -> [PublishedPackage] {
        let query = Self.pageQuery(filter, .newest(after: position), limit: limit)
        return try await read { session in try await session.query(query.sql, query.values).map(Self.published) }
    }

    /// Public and seed packages, most plays first (then highest id), after `position`: read in the order of the kept
    /// play counts' index, as AppDatabase's `popularPackages` is.
    public func popularPackages(
        _ filter: BrowseFilter, after position: PopularPosition?, limit: Int
    ) async throws -> [PublishedPackage] {
        let query = Self.pageQuery(filter, .popular(after: position), limit: limit)
        return try await read { session in try await session.query(query.sql, query.values).map(Self.published) }
    }

    /// The order of a page of public packages and where it starts.
    enum PageOrder {
        case newest(after: BrowsePosition?)
        case popular(after: PopularPosition?)
    }

    /// A page of public packages in `order`: its keyset, greatest first, compared as a row value, which the index of
    /// that order (`package_on_created_at_c`, `package_tally_on_plays`) seeks to.
    static func pageQuery(_ filter: BrowseFilter, _ order: PageOrder, limit: Int) -> (sql: String, values: [Bind]) {
        var (conditions, values) = publicConditions(filter)
        let keyset: (String, String)
        let start: [Bind]?
        switch order {
        case .newest(let position):
            keyset = ("p.created_at COLLATE \"C\"", "p.id")
            start = position.map { [.text($0.createdAt), .int($0.id)] }
        case .popular(let position):
            keyset = ("t.plays", "t.package_id")
            start = position.map { [.int($0.plays), .int($0.id)] }
        }
        if let start {
            conditions.append("(\(keyset.0), \(keyset.1)) < ($\(values.count + 1), $\(values.count + 2))")
            values += start
        }
        values.append(.int(limit))
        return (
            publishedSelect + " WHERE " + conditions.joined(separator: " AND ")
                + " ORDER BY \(keyset.0) DESC, \(keyset.1) DESC LIMIT $\(values.count)",
            values
        )
    }

    /// Changes a published package in one transaction, keeping its id, share code, creation time and owner. The
    /// package's row is locked first (as `insertOpenPlay` locks it), so no play starts or is stored past the checks:
    /// a `whole` update is refused with `packagePlayed` once a play is stored and with `packageInPlay` while plays of
    /// it are open.
    public func updatePublished(packageId: Int64, _ update: PublishedUpdate, visibility: Visibility?) async throws {
        try await write { session in
            guard try await session.one("SELECT id FROM package WHERE id = $1 FOR UPDATE", [.int(packageId)]) != nil,
                let current = try await Self.fetchPackage(id: packageId, in: session)
            else { throw StoreError.packageNotFound("\(packageId)") }
            switch update {
            case .whole(var package):
                let plays = try await session.one(
                    "SELECT plays AS n FROM package_tally WHERE package_id = $1", [.int(packageId)])?.int("n") ?? 0
                guard plays == 0 else { throw StoreError.packagePlayed(plays: plays) }
                let open = try await session.one(
                    "SELECT COUNT(*) AS n FROM open_play WHERE package_id = $1", [.int(packageId)])!.int("n")
                guard open == 0 else { throw StoreError.packageInPlay(openPlays: open) }
                package.shareCode = current.shareCode
                package.createdAt = current.createdAt
                package.origin = current.origin
                package.seedId = current.seedId
                try await Self.update(packageId: packageId, to: package, in: session)
            case let .titleAndMaker(title, maker):
                var package = current
                package.title = title
                package.maker = maker
                try Self.checkStorable(package)
                try await session.execute(
                    "UPDATE package SET title = $1, maker = $2 WHERE id = $3", [.text(title), .text(maker), .int(packageId)])
            }
            if let visibility {
                try await session.execute(
                    "UPDATE publication SET visibility = $1 WHERE package_id = $2",
                    [.text(visibility.rawValue), .int(packageId)])
            }
            try await Self.notifyChange(packageId: packageId, shareCode: current.shareCode, in: session)
        }
    }

    private static func publicConditions(_ filter: BrowseFilter) -> ([String], [Bind]) {
        var conditions = [
            "(p.origin = 'seed' OR pub.visibility = 'public')",
            "NOT EXISTS (SELECT 1 FROM hidden_package h WHERE h.package_id = p.id)",
        ]
        var values: [Bind] = []
        if filter.postersHeldOnly {
            conditions.append("NOT EXISTS (SELECT 1 FROM quiz q WHERE q.package_id = p.id AND q.poster_source <> 'bundled')")
        }
        if let level = filter.level {
            values.append(.text(level.rawValue))
            conditions.append("p.level = $\(values.count)")
        }
        if let language = filter.language {
            values.append(.text(language.rawValue))
            conditions.append("p.language = $\(values.count)")
        }
        if let text = filter.text {
            // A substring of the title or the maker, in any case; the user's % and _ are matched as themselves.
            let pattern = "%" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
            values.append(.text(pattern))
            conditions.append("(p.title ILIKE $\(values.count) ESCAPE '\\' OR p.maker ILIKE $\(values.count) ESCAPE '\\')")
        }
        return (conditions, values)
    }

    static let publishedSelect = """
        SELECT p.id, p.share_code, p.title, p.maker, p.level, p.language, p.created_at, p.origin,
               pub.visibility, pub.owner_id,
               (SELECT COUNT(*) FROM quiz q WHERE q.package_id = p.id) AS quiz_count,
               t.plays, t.server_attempts, t.server_solves,
               (SELECT reason FROM hidden_package h WHERE h.package_id = p.id) AS hidden
        FROM package_tally t JOIN package p ON p.id = t.package_id LEFT JOIN publication pub ON pub.package_id = p.id
        """

    private static func published(_ row: Row) throws -> PublishedPackage {
        PublishedPackage(
            id: try row.int64("id"), shareCode: try row.string("share_code"), title: try row.string("title"),
            maker: try row.string("maker"), level: try decodeEnum(try row.string("level")),
            language: try decodeEnum(try row.string("language")), quizCount: try row.int("quiz_count"),
            plays: try row.int("plays"), serverAttempts: try row.int("server_attempts"),
            serverSolves: try row.int("server_solves"), createdAt: try row.string("created_at"),
            visibility: try row.stringOrNil("visibility").map { try decodeEnum($0) } ?? .public,
            ownerId: try row.int64OrNil("owner_id"),
            hidden: try row.stringOrNil("hidden").flatMap(HiddenReason.init(rawValue:)))
    }
}

/// The package a play starts on, or a page shows, by its share code.
struct PublishedByShareCode: PreparedSQL {
    static var sql: String {
        PostgresQuizStore.publishedSelect + " WHERE p.share_code = $1 AND (p.origin = 'seed' OR pub.package_id IS NOT NULL)"
    }
    var values: [Bind]
}
