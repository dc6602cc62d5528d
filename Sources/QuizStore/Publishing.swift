import Foundation
import UQuizStorage
internal import GRDB
import PosterGrid
import QuizCore


/// Players, publications and browsing: what `SQLiteServerStore` runs for the server, each inside the transaction it
/// is handed.
extension AppDatabase {
    /// Adds a player known by the SHA-256 of its token.
    static func insertPlayer(name: String, tokenHash: Data, at date: Date, in db: Database) throws -> Player {
        var record = PlayerRecord(id: nil, name: name, tokenHash: tokenHash, createdAt: timestamp(date))
        try record.insert(db)
        return Player(id: record.id!, name: name)
    }

    /// The player whose token has this SHA-256, if any.
    static func player(tokenHash: Data, in db: Database) throws -> Player? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT id, name, EXISTS (SELECT 1 FROM bannedPlayer b WHERE b.playerId = player.id) AS banned
                    FROM player
                    WHERE tokenHash = ? OR id = (SELECT playerId FROM playerToken WHERE tokenHash = ?)
                    """),
            arguments: [tokenHash, tokenHash]
        ).map { Player(id: $0["id"], name: $0["name"], banned: $0["banned"]) }
    }

    static func insertLinkCode(codeHash: Data, playerId: Int64, expiresAt: Date, in db: Database) throws {
        // Spent and expired codes go as new ones come: the table holds the last minutes' codes only.
        try db.execute(sql: "DELETE FROM linkCode WHERE expiresAt <= ?", arguments: [timestamp(Date())])
        try db.execute(
            sql: "INSERT INTO linkCode (codeHash, playerId, expiresAt) VALUES (?, ?, ?)",
            arguments: [codeHash, playerId, timestamp(expiresAt)])
    }

    static func redeemLinkCode(codeHash: Data, at date: Date, tokenHash: Data, in db: Database) throws -> Player? {
        guard
            let playerId = try Int64.fetchOne(
                db, sql: "SELECT playerId FROM linkCode WHERE codeHash = ? AND expiresAt > ?",
                arguments: [codeHash, timestamp(date)])
        else { return nil }
        try db.execute(sql: "DELETE FROM linkCode WHERE codeHash = ?", arguments: [codeHash])
        try db.execute(
            sql: "INSERT INTO playerToken (tokenHash, playerId, createdAt) VALUES (?, ?, ?)",
            arguments: [tokenHash, playerId, timestamp(date)])
        return try player(tokenHash: tokenHash, in: db)
    }

    static func renamePlayer(id: Int64, name: String, in db: Database) throws -> Player? {
        try db.execute(sql: "UPDATE player SET name = ? WHERE id = ?", arguments: [name, id])
        return db.changesCount == 1 ? Player(id: id, name: name) : nil
    }

    /// Saves a new package and its publication, under the package's share code or, when that is taken, the first free
    /// one of `otherCodes` (as `insertChoosingShareCode` chooses): inside one transaction, both are stored or neither.
    static func insertPublished(
        _ package: QuizPackage, owner: Int64, visibility: Visibility, otherCodes: [ShareCode], in db: Database
    ) throws -> (id: Int64, shareCode: ShareCode) {
        var codes = otherCodes.makeIterator()
        let saved = try insertChoosingShareCode(package, in: db) { codes.next() }
        try PublicationRecord(packageId: saved.id, ownerId: owner, visibility: visibility.rawValue).insert(db)
        return saved
    }

    /// A published package (public or unlisted) or a seed package by its share code; `nil` for any other package,
    /// including one the CLI made in the same file and never published.
    static func publishedPackage(shareCode: ShareCode, in db: Database) throws -> PublishedPackage? {
        try Row.fetchOne(db.cachedStatement(sql: publishedByShareCode), arguments: [shareCode.value]).map(published)
    }

    static let publishedByShareCode =
        publishedSelect + " WHERE p.shareCode = ? AND (p.origin = 'seed' OR pub.packageId IS NOT NULL)"

    /// A page of the packages `playerId` published, newest first, after `position`. The page's packages are chosen
    /// first and only they are read in full: a maker's whole list is walked for its order, never for its counts.
    static func ownedPackages(
        playerId: Int64, after position: BrowsePosition?, limit: Int, in db: Database
    ) throws -> [PublishedPackage] {
        let query = ownedPageQuery(playerId: playerId, after: position, limit: limit)
        return try Row.fetchAll(db, sql: query.sql, arguments: query.arguments).map(published)
    }

    static func ownedPageQuery(
        playerId: Int64, after position: BrowsePosition?, limit: Int
    ) -> (sql: String, arguments: StatementArguments) {
        var start = ""
        var arguments: StatementArguments = [playerId]
        if let position {
            start = " AND (o.createdAt, o.id) < (?, ?)"
            arguments += [position.createdAt, position.id]
        }
        arguments += [limit]
        let sql = publishedSelect + """
             WHERE p.id IN (SELECT o.id FROM publication mine INDEXED BY publication_on_ownerId
                            JOIN package o ON o.id = mine.packageId
                            WHERE mine.ownerId = ?\(start) ORDER BY o.createdAt DESC, o.id DESC LIMIT ?)
             ORDER BY p.createdAt DESC, p.id DESC
            """
        return (sql, arguments)
    }

    /// Public packages (published public, or seed), newest first (then highest id), after `position` when given.
    static func publicPackages(
        _ filter: BrowseFilter, after position: BrowsePosition?, limit: Int, in db: Database
    ) throws -> [PublishedPackage] {
        let query = pageQuery(filter, .newest(after: position), limit: limit, search: try titleSearch(filter, in: db))
        return try Row.fetchAll(db, sql: query.sql, arguments: query.arguments).map(published)
    }

    /// Public packages (published public, or seed), most plays first (then highest id), after `position` when given.
    /// The order is read from the kept play counts' index, so a page costs what it shows (and the packages it passes
    /// over that the filter leaves out), however many packages and plays there are.
    static func popularPackages(
        _ filter: BrowseFilter, after position: PopularPosition?, limit: Int, in db: Database
    ) throws -> [PublishedPackage] {
        let query = pageQuery(filter, .popular(after: position), limit: limit, search: try titleSearch(filter, in: db))
        return try Row.fetchAll(db, sql: query.sql, arguments: query.arguments).map(published)
    }

    /// The order of a page of public packages and where it starts.
    enum PageOrder {
        case newest(after: BrowsePosition?)
        case popular(after: PopularPosition?)
    }

    /// A page of public packages in `order`, through the index that holds that order: its keyset, greatest first, is
    /// compared as a row value, which SQLite seeks to in the index (an OR of the comparisons scans it).
    static func pageQuery(
        _ filter: BrowseFilter, _ order: PageOrder, limit: Int, search: TitleSearch = .none
    ) -> (sql: String, arguments: StatementArguments) {
        var (conditions, arguments) = publicConditions(filter, search: search)
        let keyset: (String, String)
        let select: String
        let start: StatementArguments?
        switch order {
        case .newest(let position):
            keyset = ("p.createdAt", "p.id")
            select = publishedSelect(walking: search.walksTheOrder ? "package_on_createdAt_id" : nil)
            start = position.map { [$0.createdAt, $0.id] }
        case .popular(let position):
            keyset = ("t.plays", "t.packageId")
            select = publishedSelect(tallyWalking: search.walksTheOrder ? "packageTally_on_plays" : nil)
            start = position.map { [$0.plays, $0.id] }
        }
        if let start {
            conditions.append("(\(keyset.0), \(keyset.1)) < (?, ?)")
            arguments += start
        }
        arguments += [limit]
        return (
            select + " WHERE " + conditions.joined(separator: " AND ")
                + " ORDER BY \(keyset.0) DESC, \(keyset.1) DESC LIMIT ?",
            arguments
        )
    }

    /// Changes a published package, keeping its id, share code, creation time and owner. A `whole` update replaces its
    /// quizzes (as an edit does) only while no play of it is stored: once one is, the ranked plays and the leaderboard
    /// were judged on these quizzes, and `StoreError.packagePlayed` refuses it, checked inside the transaction so a
    /// play stored meanwhile cannot slip past. `visibility` is changed when given.
    static func updatePublished(
        packageId: Int64, _ update: PublishedUpdate, visibility: Visibility?, in db: Database
    ) throws {
        guard let current = try fetchPackage(id: packageId, in: db) else {
            throw StoreError.packageNotFound("\(packageId)")
        }
        switch update {
        case .whole(var package):
            let plays = try Int.fetchOne(
                db, sql: "SELECT plays FROM packageTally WHERE packageId = ?", arguments: [packageId]) ?? 0
            guard plays == 0 else { throw StoreError.packagePlayed(plays: plays) }
            let open = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM openPlay WHERE packageId = ?", arguments: [packageId])!
            guard open == 0 else { throw StoreError.packageInPlay(openPlays: open) }
            package.shareCode = current.shareCode
            package.createdAt = current.createdAt
            package.origin = current.origin
            package.seedId = current.seedId
            try Self.update(packageId: packageId, to: package, keepAttemptedQuizzes: false, in: db)
        case let .titleAndMaker(title, maker):
            var package = current
            package.title = title
            package.maker = maker
            try checkStorable(package)
            try db.execute(
                sql: "UPDATE package SET title = ?, maker = ? WHERE id = ?", arguments: [title, maker, packageId])
        }
        if let visibility {
            try db.execute(
                sql: "UPDATE publication SET visibility = ? WHERE packageId = ?",
                arguments: [visibility.rawValue, packageId])
        }
    }

    /// Keeps a JPEG among the database's poster images under `fileName`, unless one is there already under that name
    /// (names of uploads are their content's hash, so the same name is the same image).
    /// - Returns: whether it was new.
    static func storePosterImage(fileName: String, jpeg: Data, attribution: String, in db: Database) throws -> Bool {
        guard try !PosterImageRecord.exists(db, key: fileName) else { return false }
        try PosterImageRecord(fileName: fileName, jpeg: jpeg, attribution: attribution).insert(db)
        return true
    }

    static func storeUpload(
        fileName: String, jpeg: Data, attribution: String, owner: Int64, at date: Date, quotaBytes: Int, in db: Database
    ) throws -> UploadStored {
        guard try !PosterImageRecord.exists(db, key: fileName) else { return .existing }
        let held = try Int.fetchOne(
            db, sql: "SELECT COALESCE(SUM(LENGTH(jpeg)), 0) FROM posterImage WHERE ownerId = ?", arguments: [owner]) ?? 0
        guard held + jpeg.count <= quotaBytes else { return .overQuota(heldBytes: held) }
        try db.execute(
            sql: "INSERT INTO posterImage (fileName, jpeg, attribution, ownerId, storedAt) VALUES (?, ?, ?, ?, ?)",
            arguments: [fileName, jpeg, attribution, owner, timestamp(date)])
        return .stored
    }

    static func deleteUnusedUploads(storedBefore date: Date, in db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                DELETE FROM posterImage
                WHERE storedAt IS NOT NULL AND storedAt < ?
                  AND NOT EXISTS (SELECT 1 FROM quiz WHERE quiz.posterSource = 'bundled' AND quiz.posterPath = posterImage.fileName)
                  AND NOT EXISTS (SELECT 1 FROM movie WHERE movie.bundledPoster = posterImage.fileName)
                  AND NOT EXISTS (SELECT 1 FROM draft WHERE instr(draft.document, posterImage.fileName) > 0)
                RETURNING fileName
                """,
            arguments: [timestamp(date)])
    }

    /// How a page finds the packages whose title or maker holds a text of three characters or more, through the
    /// trigram index: a rare text's few packages by their ids (then put in order), a common text's by walking the
    /// page's order and keeping those among its matches, which come soon. Either way a page costs about what it shows,
    /// where putting a common word's thousands of matches in order took 50 ms with 50,000 packages.
    enum TitleSearch {
        case none
        case among(ids: [Int64])
        case common(phrase: String)

        /// At most this many matches are put in order.
        static let orderedMatches = 200

        var walksTheOrder: Bool {
            if case .common = self { true } else { false }
        }
    }

    static func titleSearch(_ filter: BrowseFilter, in db: Database) throws -> TitleSearch {
        guard let text = filter.text, text.count >= 3 else { return .none }
        let phrase = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let ids = try Int64.fetchAll(
            db, sql: "SELECT rowid FROM packageSearch WHERE packageSearch MATCH ? LIMIT ?",
            arguments: [phrase, TitleSearch.orderedMatches + 1])
        return ids.count > TitleSearch.orderedMatches ? .common(phrase: phrase) : .among(ids: ids)
    }

    /// The conditions of a public package matching `filter` (its text found as `search` says), over `package p LEFT
    /// JOIN publication pub`.
    private static func publicConditions(
        _ filter: BrowseFilter, search: TitleSearch
    ) -> ([String], StatementArguments) {
        var (conditions, arguments) = conditions(level: filter.level, language: filter.language)
        conditions.insert("(p.origin = 'seed' OR pub.visibility = 'public')", at: 0)
        conditions.insert("NOT EXISTS (SELECT 1 FROM hiddenPackage h WHERE h.packageId = p.id)", at: 1)
        if filter.postersHeldOnly {
            conditions.append("NOT EXISTS (SELECT 1 FROM quiz q WHERE q.packageId = p.id AND q.posterSource <> 'bundled')")
        }
        switch search {
        case .among(let ids):
            conditions.append("p.id IN (" + (ids.isEmpty ? "NULL" : ids.map { _ in "?" }.joined(separator: ",")) + ")")
            arguments += StatementArguments(ids)
        case .common(let phrase):
            conditions.append("p.id IN (SELECT rowid FROM packageSearch WHERE packageSearch MATCH ?)")
            arguments += [phrase]
        case .none:
            break
        }
        if let text = filter.text, text.count < 3 {
            // One or two characters, which trigrams cannot find: the user's % and _ are matched as themselves.
            let pattern = "%" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
            conditions.append("(p.title LIKE ? ESCAPE '\\' OR p.maker LIKE ? ESCAPE '\\')")
            arguments += [pattern, pattern]
        }
        return (conditions, arguments)
    }

    private static let publishedSelect = publishedSelect()

    /// The columns of a `PublishedPackage`; with an index named, SQLite walks packages (or their kept counts) in its
    /// order rather than choosing for itself.
    private static func publishedSelect(walking index: String? = nil, tallyWalking tallyIndex: String? = nil) -> String {
        """
        SELECT p.id, p.shareCode, p.title, p.maker, p.level, p.language, p.createdAt, p.origin,
               pub.visibility, pub.ownerId,
               (SELECT COUNT(*) FROM quiz q WHERE q.packageId = p.id) AS quizCount,
               t.plays, t.serverAttempts, t.serverSolves,
               (SELECT reason FROM hiddenPackage h WHERE h.packageId = p.id) AS hidden
        FROM packageTally t\(tallyIndex.map { " INDEXED BY \($0)" } ?? "")
        JOIN package p\(index.map { " INDEXED BY \($0)" } ?? "") ON p.id = t.packageId
        LEFT JOIN publication pub ON pub.packageId = p.id
        """
    }

    private static func published(_ row: Row) throws -> PublishedPackage {
        let visibility: String? = row["visibility"]
        return PublishedPackage(
            id: row["id"], shareCode: row["shareCode"], title: row["title"], maker: row["maker"],
            level: try decodeEnum(row["level"]), language: try decodeEnum(row["language"]), quizCount: row["quizCount"],
            plays: row["plays"], serverAttempts: row["serverAttempts"], serverSolves: row["serverSolves"],
            createdAt: row["createdAt"],
            visibility: try visibility.map { try decodeEnum($0) } ?? .public, ownerId: row["ownerId"],
            hidden: (row["hidden"] as String?).flatMap(HiddenReason.init(rawValue:)))
    }
}
