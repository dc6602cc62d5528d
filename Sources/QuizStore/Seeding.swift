import Foundation
import UQuizStorage
internal import GRDB
import PosterGrid
import QuizCore

/// First run: puts a copy of the bundle at the database path so that a crash or kill at any moment leaves either no
/// database or a complete one.
enum SeedInstaller {
    /// - Returns: `true` if this call installed the copy, `false` if another process did so first.
    /// - Parameter replacingEmpty: `path` is an empty file (see `isEmptyDatabaseFile`) to be replaced by the copy.
    static func install(bundle: SeedBundle, at path: String, replacingEmpty: Bool = false) throws -> Bool {
        let destination = URL(fileURLWithPath: path)
        let directory = destination.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotCreate(path: directory.path, reason: Self.reason(error))
        }
        removeStaleTemporaries(for: destination)
        let data: Data
        do {
            data = try Data(contentsOf: bundle.databaseURL)
        } catch {
            throw StoreError.seedBundleCorrupt(path: bundle.databaseURL.path, detail: "cannot read it")
        }
        let temporary = directory.appendingPathComponent(
            "\(temporaryPrefix(for: destination))\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        do {
            // A copy cut short (a full disk) must not stay behind, nor be taken for a database.
            try FileSystem.writeNewFileSynced(data, to: temporary)
            try verifyBundleCopy(at: temporary, bundlePath: bundle.databaseURL.path)
            if replacingEmpty && !setAsideEmptyFile(at: path, aside: temporary + "-empty") {
                // It is no longer the empty file: another process seeded it meanwhile, and that database is used.
                unlink(temporary)
                return false
            }
            // link() rather than rename(): two first runs racing must not replace a database the other has begun using.
            return try FileSystem.linkIfAbsent(temporary: temporary, destination: path)
        } catch StoreError.diskFull {
            unlink(temporary)
            throw StoreError.diskFull(path: path)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// A bundle that is not a complete uquiz database must never become the user's database.
    private static func verifyBundleCopy(at path: String, bundlePath: String) throws {
        do {
            let queue = try DatabaseQueue(path: path, configuration: AppDatabase.configuration(readonly: true))
            let (check, version) = try queue.read { db in
                (
                    try String.fetchOne(db, sql: "PRAGMA quick_check"),
                    try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'bundleVersion'")
                )
            }
            try queue.close()
            guard check == "ok" else { throw StoreError.seedBundleCorrupt(path: bundlePath, detail: check ?? "check failed") }
            guard version != nil else { throw StoreError.seedBundleCorrupt(path: bundlePath, detail: "no bundle version") }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.seedBundleCorrupt(path: bundlePath, detail: SeedBundle.describe(error))
        }
    }

    /// A 0-byte regular file with no write-ahead log holding pages: what `touch` or a tool that died before writing
    /// leaves, never a uquiz database (one always has its header on disk).
    static func isEmptyDatabaseFile(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 else { return false }
        var wal = stat()
        return lstat(path + "-wal", &wal) != 0 || wal.st_size == 0
    }

    /// Moves the empty file at `path` out of the way, atomically, unless another process replaced it meanwhile (then
    /// its file is put back). - Returns: whether the empty file is gone and `path` is free for the seed.
    private static func setAsideEmptyFile(at path: String, aside: String) -> Bool {
        var before = stat()
        guard lstat(path, &before) == 0, before.st_size == 0 else { return false }
        guard rename(path, aside) == 0 else { return errno == ENOENT }
        var after = stat()
        if lstat(aside, &after) == 0, after.st_ino == before.st_ino, after.st_size == 0 {
            unlink(aside)
            return true
        }
        _ = link(aside, path)
        unlink(aside)
        return false
    }

    static func temporaryPrefix(for destination: URL) -> String {
        ".\(destination.lastPathComponent).seeding-"
    }

    /// Removes copies left by first runs that were killed (their process is gone); a live one may still be copying.
    static func removeStaleTemporaries(for destination: URL) {
        let directory = destination.deletingLastPathComponent()
        let prefix = temporaryPrefix(for: destination)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
            if let pid = pid_t(pidText), !FileSystem.isProcessAlive(pid) {
                unlink(directory.appendingPathComponent(name).path)
            }
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError {
            switch cocoa.code {
            case .fileWriteNoPermission: return "permission denied"
            case .fileWriteVolumeReadOnly: return "read-only file system"
            case .fileWriteOutOfSpace: return "no space left on device"
            default: break
            }
        }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        return (error as NSError).localizedDescription
    }
}


extension AppDatabase {
    public func seedStatus() throws -> SeedStatus {
        try read { db in
            let applied = try Schema.migrator.appliedMigrations(db)
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            return SeedStatus(
                databasePath: path,
                schemaVersion: applied.last ?? "none",
                schemaMigrations: applied.count,
                databaseBundleVersion: try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'bundleVersion'"),
                seedPackages: try count("SELECT COUNT(*) FROM package WHERE origin = 'seed'"),
                userPackages: try count("SELECT COUNT(*) FROM package WHERE origin = 'user'"),
                quizzes: try count("SELECT COUNT(*) FROM quiz"),
                movies: try count("SELECT COUNT(*) FROM movie"),
                attempts: try count("SELECT COUNT(*) FROM attempt")
            )
        }
    }

    /// Adds the bundle's seed packages that are missing and brings changed ones up to date, matched by seed id, in one
    /// transaction. User-made packages are never touched, nor bundled ones the user edited, and neither are attempts: a
    /// quiz the bundle dropped is kept while attempts refer to it.
    public func mergeSeed(from bundle: SeedBundle) throws -> MergeReport {
        let bundleQueue = try bundle.open()
        let (version, posters, movies, seedPackages) = try mappingErrors(path: bundle.databaseURL.path) {
            try bundleQueue.read { db in
                (
                    try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'bundleVersion'") ?? "unknown",
                    try PosterImageRecord.fetchAll(db),
                    try Catalog.fetchAll(in: db),
                    try Int64.fetchAll(db, sql: "SELECT id FROM package WHERE origin = 'seed' ORDER BY id").compactMap {
                        try Self.fetchPackage(id: $0, in: db)
                    }
                )
            }
        }
        return try write { db in
            var report = MergeReport(bundleVersion: version)
            for poster in posters { try poster.upsert(db) }
            // A seed movie this catalog holds under another key (matched by TMDB id) joins that row; quizzes follow it.
            var storedKeys: [String: String] = [:]
            for movie in movies {
                storedKeys[movie.catalogKey] = try Catalog.merge(movie, from: .authority, in: db).catalogKey
            }
            for var seedPackage in seedPackages {
                seedPackage.id = nil
                for index in seedPackage.quizzes.indices {
                    guard let key = seedPackage.quizzes[index].catalogKey, let stored = storedKeys[key] else { continue }
                    seedPackage.quizzes[index].catalogKey = stored
                }
                guard let seedId = seedPackage.seedId else { continue }
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM package WHERE seedId = ?", arguments: [seedId])
                else {
                    _ = try Self.insert(seedPackage, in: db)
                    report.added.append(seedId)
                    continue
                }
                var current = try Self.fetchPackage(id: id, in: db)!
                current.id = nil
                let userEdited = try Bool.fetchOne(db, sql: "SELECT userEdited FROM package WHERE id = ?", arguments: [id])
                if current == seedPackage {
                    report.unchanged.append(seedId)
                } else if userEdited == true {
                    report.keptEdited.append(seedId)
                } else {
                    try Self.update(packageId: id, to: seedPackage, keepAttemptedQuizzes: true, in: db)
                    report.updated.append(seedId)
                }
            }
            try MetaRecord(key: "bundleVersion", value: version).upsert(db)
            return report
        }
    }

    /// Rewrites a stored package to match `package`, keeping the rows (and so the attempts) of quizzes it still has,
    /// matched by movie. A quiz `package` no longer has is deleted with its attempts, unless `keepAttemptedQuizzes`
    /// (a seed merge must not lose anyone's attempts) keeps it at the end.
    static func update(packageId: Int64, to package: QuizPackage, keepAttemptedQuizzes: Bool, in db: Database) throws {
        try checkStorable(package)
        try db.execute(
            sql: """
                UPDATE package SET shareCode = ?, title = ?, maker = ?, level = ?, language = ?, createdAt = ?
                WHERE id = ?
                """,
            arguments: [
                package.shareCode.value, package.title, package.maker, package.level.rawValue,
                package.language.rawValue, package.createdAt, packageId,
            ]
        )
        let existing = try QuizRecord.filter(Column("packageId") == packageId).fetchAll(db)
        // Move every position out of the way first: (packageId, position) is unique.
        try db.execute(sql: "UPDATE quiz SET position = -1 - position WHERE packageId = ?", arguments: [packageId])
        var kept: Set<Int64> = []
        for (position, quiz) in package.quizzes.enumerated() {
            guard var record = existing.first(where: { $0.catalogKey != nil && $0.catalogKey == quiz.catalogKey }) else {
                try insert(quiz, packageId: packageId, position: position, in: db)
                continue
            }
            kept.insert(record.id!)
            record.position = position
            record.tmdbId = quiz.tmdbId
            record.title = quiz.title
            record.originalTitle = quiz.originalTitle
            record.releaseDate = quiz.releaseDate
            record.genreIds = encodeGenreIds(quiz.genreIds)
            record.posterPath = quiz.posterPath
            record.posterSource = quiz.posterSource.rawValue
            record.gridColumns = quiz.geometry.columns
            record.gridRows = quiz.geometry.rows
            record.gridAreaSize = quiz.geometry.areaSize
            record.gridMargin = quiz.geometry.margin
            try record.update(db)
            try AreaRecord.filter(Column("quizId") == record.id!).deleteAll(db)
            try insertAreas(quiz.areas, quizId: record.id!, in: db)
            try replaceAliases(of: record.id!, with: quiz.aliases, in: db)
        }
        var nextPosition = package.quizzes.count
        for record in existing where !kept.contains(record.id!) {
            let attempts = try AttemptRecord.filter(Column("quizId") == record.id!).fetchCount(db)
            if attempts == 0 || !keepAttemptedQuizzes {
                try record.delete(db)
            } else {
                try db.execute(sql: "UPDATE quiz SET position = ? WHERE id = ?", arguments: [nextPosition, record.id!])
                nextPosition += 1
            }
        }
    }

    /// Replaces the whole database with the bundle's content after saving a timestamped copy of it beside the file.
    ///
    /// Both steps go through SQLite's backup API, so other processes see the old database or the new one, and a kill
    /// at any moment leaves a complete database.
    /// - Returns: the path of the backup.
    public func reset(from bundle: SeedBundle, now: Date = Date()) throws -> String {
        guard !isInMemory else { throw StoreError.inMemory(operation: "reset the database") }
        let bundleQueue = try bundle.open()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let url = URL(fileURLWithPath: path)
        let backupPath = url.deletingLastPathComponent().appendingPathComponent(
            "\(url.deletingPathExtension().lastPathComponent)-backup-\(formatter.string(from: now)).sqlite"
        ).path
        guard !FileManager.default.fileExists(atPath: backupPath) else {
            throw StoreError.io(path: backupPath, detail: "a backup with this name exists already; try again in a second")
        }
        try mappingErrors(path: backupPath) {
            let backup = try DatabaseQueue(path: backupPath)
            try writer.backup(to: backup)
            try backup.close()
        }
        try mappingErrors(path: path) {
            try bundleQueue.backup(to: writer)
            if try !writer.read(Schema.migrator.hasCompletedMigrations) { try Schema.migrator.migrate(writer) }
        }
        return backupPath
    }
}
