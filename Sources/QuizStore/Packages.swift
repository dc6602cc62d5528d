import Foundation
import UQuizStorage
internal import GRDB
import PosterGrid
import QuizCore


extension AppDatabase {
    /// The conditions on `package p` of a level and a language, each when given: for `list` and for browsing.
    static func conditions(level: Level?, language: QuizLanguage?) -> ([String], StatementArguments) {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let level {
            conditions.append("p.level = ?")
            arguments += [level.rawValue]
        }
        if let language {
            conditions.append("p.language = ?")
            arguments += [language.rawValue]
        }
        return (conditions, arguments)
    }

    /// The packages matching `filter`, oldest first, at most `limit` of them (all when `nil`).
    public func packages(matching filter: PackageFilter = .init(), limit: Int? = nil) throws -> PackageListPage {
        try read { db in
            var (conditions, arguments) = Self.conditions(level: filter.level, language: filter.language)
            if let origin = filter.origin {
                conditions.append("p.origin = ?")
                arguments += [origin.rawValue]
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM package p \(whereClause)", arguments: arguments) ?? 0
            var rowArguments = arguments
            var limitClause = ""
            if let limit {
                limitClause = "LIMIT ?"
                rowArguments += [limit]
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT p.id, p.shareCode, p.title, p.level, p.language, p.maker, p.origin, p.createdAt,
                           (SELECT COUNT(*) FROM quiz q WHERE q.packageId = p.id) AS quizCount,
                           (SELECT MAX(score) FROM play WHERE play.packageId = p.id) AS bestScore
                    FROM package p \(whereClause)
                    ORDER BY p.id
                    \(limitClause)
                    """,
                arguments: rowArguments
            )
            var summaries = try rows.map(Self.summary)
            let ids = summaries.map(\.id)
            if !ids.isEmpty {
                var copies: [Int64: [String: String]] = [:]
                for copy in try Row.fetchAll(
                    db, sql: "SELECT packageId, server, shareCode FROM serverCopy WHERE packageId IN (\(ids.map { _ in "?" }.joined(separator: ",")))",
                    arguments: StatementArguments(ids))
                {
                    copies[copy["packageId"], default: [:]][copy["server"]] = copy["shareCode"]
                }
                for index in summaries.indices { summaries[index].serverCodes = copies[summaries[index].id] ?? [:] }
            }
            return PackageListPage(rows: summaries, total: total)
        }
    }

    public func serverCopy(packageId: Int64, server: String) throws -> String? {
        try read { db in
            try String.fetchOne(
                db, sql: "SELECT shareCode FROM serverCopy WHERE packageId = ? AND server = ?", arguments: [packageId, server])
        }
    }

    public func recordServerCopy(packageId: Int64, server: String, shareCode: String, at date: Date) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO serverCopy (packageId, server, shareCode, publishedAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT (packageId, server) DO UPDATE SET shareCode = excluded.shareCode,
                        publishedAt = excluded.publishedAt
                    """,
                arguments: [packageId, server, shareCode, Self.timestamp(date)])
        }
    }

    private static func summary(_ row: Row) throws -> PackageSummary {
        PackageSummary(
            id: row["id"], shareCode: row["shareCode"], title: row["title"],
            level: try decodeEnum(row["level"]), language: try decodeEnum(row["language"]), maker: row["maker"],
            origin: try decodeEnum(row["origin"]), quizCount: row["quizCount"], bestScore: row["bestScore"],
            createdAt: row["createdAt"]
        )
    }

    /// Finds a package by numeric id, share code or seed id (`en-silent`).
    public func packageID(for reference: String) throws -> Int64 {
        try read { db in try Self.packageID(for: reference, in: db) }
    }

    static func packageID(for reference: String, in db: Database) throws -> Int64 {
        var candidates: Set<Int64> = []
        if let id = Int64(reference), try PackageRecord.exists(db, key: id) { candidates.insert(id) }
        if let code = ShareCode(reference),
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM package WHERE shareCode = ?", arguments: [code.value])
        {
            candidates.insert(id)
        }
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM package WHERE seedId = ?", arguments: [reference]) {
            candidates.insert(id)
        }
        guard let id = candidates.first else { throw StoreError.packageNotFound(reference) }
        guard candidates.count == 1 else { throw StoreError.ambiguousReference(reference) }
        return id
    }

    public func package(id: Int64) throws -> QuizPackage {
        try read { db in try Self.package(id: id, in: db) }
    }

    static func package(id: Int64, in db: Database) throws -> QuizPackage {
        guard let package = try fetchPackage(id: id, in: db) else { throw StoreError.packageNotFound("\(id)") }
        return package
    }

    /// Deletes packages with their quizzes, areas, plays and attempts, all or none.
    /// - Returns: the deleted packages' titles, in the order given.
    @discardableResult
    public func deletePackages(ids: [Int64]) throws -> [String] {
        try write { db in try Self.deletePackages(ids: ids, in: db) }
    }

    static func deletePackages(ids: [Int64], in db: Database) throws -> [String] {
        try ids.map { id in
            guard let record = try PackageRecord.fetchOne(db, key: id) else {
                throw StoreError.packageNotFound("\(id)")
            }
            try record.delete(db)
            return record.title
        }
    }

    /// Replaces a stored package's fields and quizzes with `edited` in one transaction; quizzes that stay keep their
    /// rows and attempts, removed ones go with theirs.
    public func saveEdit(packageId: Int64, edited: QuizPackage) throws {
        try write { db in
            guard try PackageRecord.exists(db, key: packageId) else { throw StoreError.packageNotFound("\(packageId)") }
            try Self.update(packageId: packageId, to: edited, keepAttemptedQuizzes: false, in: db)
            try db.execute(sql: "UPDATE package SET userEdited = 1 WHERE id = ?", arguments: [packageId])
        }
    }

    /// Saves a whole package in one transaction; used by the seed builder, `create` and `import`.
    @discardableResult
    public func insert(_ package: QuizPackage) throws -> Int64 {
        try write { db in try Self.insert(package, in: db) }
    }

    /// How many share codes `insertChoosingShareCode` tries before it gives up. With 30^6 codes a collision is rare, so
    /// running out means the generator keeps repeating itself, not bad luck.
    public static let shareCodeTries = ShareCode.triesPerNewPackage

    /// Saves a new package in one transaction under a share code no stored package has: the package's own code, or when
    /// the UNIQUE constraint refuses it, the next one from `newCode`, for at most `shareCodeTries` codes in all. The
    /// choice happens inside the write transaction, so no other writer can take the code between the check and the
    /// insert. Any other error ends the transaction with nothing written.
    /// - Returns: the new package's id and the share code it got.
    /// - Throws: `StoreError.noFreeShareCode` when every code tried was taken; nothing is written then.
    public func insertChoosingShareCode(
        _ package: QuizPackage, newCode: () -> ShareCode
    ) throws -> (id: Int64, shareCode: ShareCode) {
        try write { db in try Self.insertChoosingShareCode(package, newCode: newCode, in: db) }
    }

    /// `insertChoosingShareCode` inside a transaction, drawing at most `shareCodeTries` codes in all.
    static func insertChoosingShareCode(
        _ package: QuizPackage, newCode: () -> ShareCode, in db: Database
    ) throws -> (id: Int64, shareCode: ShareCode) {
        var drawn = 1
        return try insertChoosingShareCode(package, in: db) {
            guard drawn < shareCodeTries else { return nil }
            drawn += 1
            return newCode()
        }
    }

    /// Inserts the package under its own share code or, each time the UNIQUE constraint refuses one, under the next
    /// from `nextCode`, until `nextCode` has none left (`StoreError.noFreeShareCode`). Inside a transaction, so that no
    /// other writer can take the code between the check and the insert.
    static func insertChoosingShareCode(
        _ package: QuizPackage, in db: Database, nextCode: () -> ShareCode?
    ) throws -> (id: Int64, shareCode: ShareCode) {
        var package = package
        var tries = 1
        while true {
            do {
                var id: Int64 = 0
                // A savepoint, so that a refused code leaves nothing of this package behind before the next try.
                try db.inSavepoint {
                    id = try insert(package, in: db)
                    return .commit
                }
                return (id, package.shareCode)
            } catch let error as DatabaseError where isShareCodeCollision(error) {
                guard let next = nextCode() else { throw StoreError.noFreeShareCode(tries: tries) }
                package.shareCode = next
                tries += 1
            }
        }
    }

    private static func isShareCodeCollision(_ error: DatabaseError) -> Bool {
        error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            && error.message?.contains("package.shareCode") == true
    }

    // MARK: - Mapping between records and the domain model

    /// The one check on the way in of every package written (insert and update): nothing is stored that its own export
    /// would carry and an import refuse, so every package can be restored from its export.
    static func checkStorable(_ package: QuizPackage) throws {
        do {
            try ExportDocument.checkStorable(package)
        } catch {
            throw StoreError.refused(detail: error.description)
        }
    }

    static func insert(_ package: QuizPackage, in db: Database) throws -> Int64 {
        try checkStorable(package)
        var record = PackageRecord(
            id: nil, shareCode: package.shareCode.value, seedId: package.seedId, origin: package.origin.rawValue,
            title: package.title, maker: package.maker, level: package.level.rawValue,
            language: package.language.rawValue, createdAt: package.createdAt
        )
        try record.insert(db)
        let packageId = record.id!
        for (position, quiz) in package.quizzes.enumerated() {
            try insert(quiz, packageId: packageId, position: position, in: db)
        }
        return packageId
    }

    static func insert(_ quiz: Quiz, packageId: Int64, position: Int, in db: Database) throws {
        var record = QuizRecord(
            id: nil, packageId: packageId, position: position, catalogKey: quiz.catalogKey, tmdbId: quiz.tmdbId,
            title: quiz.title, originalTitle: quiz.originalTitle, releaseDate: quiz.releaseDate,
            genreIds: encodeGenreIds(quiz.genreIds), posterPath: quiz.posterPath,
            posterSource: quiz.posterSource.rawValue, gridColumns: quiz.geometry.columns, gridRows: quiz.geometry.rows,
            gridAreaSize: quiz.geometry.areaSize, gridMargin: quiz.geometry.margin
        )
        try record.insert(db)
        try insertAreas(quiz.areas, quizId: record.id!, in: db)
        try replaceAliases(of: record.id!, with: quiz.aliases, in: db)
    }

    /// The quiz's own aliases become exactly `aliases`.
    static func replaceAliases(of quizId: Int64, with aliases: [String], in db: Database) throws {
        try QuizAliasRecord.filter(Column("quizId") == quizId).deleteAll(db)
        for title in Aliases.merged([], aliases) {
            var alias = QuizAliasRecord(id: nil, quizId: quizId, title: title)
            try alias.insert(db)
        }
    }

    static func insertAreas(_ areas: [Cell], quizId: Int64, in db: Database) throws {
        for (index, cell) in areas.enumerated() {
            var area = AreaRecord(id: nil, quizId: quizId, stage: index + 1, centreRow: cell.row, centreColumn: cell.column)
            try area.insert(db)
        }
    }

    static func fetchPackage(id: Int64, in db: Database) throws -> QuizPackage? {
        guard let record = try PackageRecord.fetchOne(db, key: id) else { return nil }
        let quizRecords = try QuizRecord.filter(Column("packageId") == id).order(Column("position")).fetchAll(db)
        let quizzes = try quizRecords.map { try quiz(from: $0, in: db) }
        guard let shareCode = ShareCode(record.shareCode) else {
            throw StoreError.corrupt(path: db.description, detail: "package \(id) has share code \"\(record.shareCode)\"")
        }
        return QuizPackage(
            id: record.id, shareCode: shareCode, seedId: record.seedId, origin: try decodeEnum(record.origin),
            title: record.title, maker: record.maker, level: try decodeEnum(record.level),
            language: try decodeEnum(record.language), createdAt: record.createdAt, quizzes: quizzes
        )
    }

    static func quiz(from record: QuizRecord, in db: Database) throws -> Quiz {
        let areas = try AreaRecord.filter(Column("quizId") == record.id!).order(Column("stage")).fetchAll(db)
        let aliases = try QuizAliasRecord.filter(Column("quizId") == record.id!).order(Column("id")).fetchAll(db)
        let geometry: GridGeometry
        do {
            geometry = try GridGeometry(
                columns: record.gridColumns, rows: record.gridRows, areaSize: record.gridAreaSize,
                margin: record.gridMargin
            )
        } catch {
            throw StoreError.corrupt(path: db.description, detail: "quiz \(record.id!): \(error)")
        }
        return Quiz(
            tmdbId: record.tmdbId, catalogKey: record.catalogKey, title: record.title,
            originalTitle: record.originalTitle, releaseDate: record.releaseDate,
            genreIds: decodeGenreIds(record.genreIds), posterPath: record.posterPath,
            posterSource: try decodeEnum(record.posterSource), geometry: geometry,
            areas: areas.map { Cell(row: $0.centreRow, column: $0.centreColumn) }, aliases: aliases.map(\.title)
        )
    }

    static func encodeGenreIds(_ ids: [Int]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    static func decodeGenreIds(_ text: String) -> [Int] {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
    }

    static func decodeEnum<E: RawRepresentable>(_ raw: String) throws -> E where E.RawValue == String {
        guard let value = E(rawValue: raw) else {
            throw StoreError.corrupt(path: "database", detail: "unexpected \(E.self) value \"\(raw)\"")
        }
        return value
    }
}
