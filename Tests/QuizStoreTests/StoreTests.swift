import Foundation
import UQuizTestSupport
import GRDB
import PosterGrid
import QuizCore
import Testing

@testable import QuizStore
import UQuizStorage

@Suite("Opening, migrating and first-run seeding")
struct OpeningTests {
    @Test func anEmptyFileIsMigratedToTheCurrentSchema() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("empty.sqlite")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let database = try AppDatabase(existingAt: path)
        let status = try database.seedStatus()
        #expect(status.schemaMigrations == AppDatabase.knownMigrations.count)
        #expect(status.seedPackages == 0)
        #expect(try database.packages().total == 0)
        let journal = try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
    }

    @Test func firstRunInstallsTheBundleAndLaterRunsDoNotTouchIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("nested/data/uquiz.sqlite")
        let (database, seeded) = try AppDatabase.openOrSeed(at: path, seedBundle: { repositorySeed })
        #expect(seeded)
        let page = try database.packages()
        #expect(page.total == 8)
        #expect(Set(page.rows.map(\.language)) == [.ko, .en])
        #expect(try database.integrityProblems().isEmpty)
        let status = try database.seedStatus()
        #expect(status.databaseBundleVersion == (try repositorySeed.version()))
        #expect(status.schemaMigrations == AppDatabase.knownMigrations.count)
        // No temporary copy is left beside the database.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("nested/data"))
        #expect(!names.contains { $0.contains("seeding") })

        var asked = false
        let (_, seededAgain) = try AppDatabase.openOrSeed(at: path, seedBundle: {
            asked = true
            return repositorySeed
        })
        #expect(!seededAgain)
        #expect(!asked, "an existing database never consults the bundle")
    }

    @Test func seedContentMeetsTheBrief() throws {
        let folder = try TemporaryFolder()
        let database = try seededDatabase(in: folder)
        let rows = try database.packages().rows
        #expect(rows.filter { $0.language == .ko }.map(\.level).sorted() == [.beginner, .beginner, .intermediate, .expert])
        #expect(rows.filter { $0.language == .en }.map(\.level).sorted() == [.beginner, .beginner, .intermediate, .expert])
        var tmdbMovies = Set<Int>()
        for row in rows {
            let package = try database.package(id: row.id)
            let rules = LevelRules.standard[package.level]
            for quiz in package.quizzes {
                #expect(quiz.areas.count == rules.areaCount, "\(package.title): \(quiz.title)")
                _ = try AreaSelection(geometry: quiz.geometry, limit: rules.areaCount, centres: quiz.areas)
                if let id = quiz.tmdbId { tmdbMovies.insert(id) }
            }
            if package.seedId?.hasSuffix("silent") == true {
                #expect(package.quizzes.allSatisfy { $0.posterSource == .bundled })
            }
        }
        #expect(tmdbMovies.count >= 30, "at least 30 distinct real movies with a TMDB id")
        let posters = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM posterImage") }
        #expect(posters == 25)
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndLeftAlone() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("uquiz.sqlite")
        let garbage = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notADatabase(path: path)) {
            try AppDatabase.openOrSeed(at: path, seedBundle: { repositorySeed })
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func aDatabaseFromANewerSchemaIsRefusedAndLeftAlone() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("uquiz.sqlite")
        do {
            let database = try seededDatabase(in: folder)
            try database.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-from-the-future')") }
        }
        // As a newer uquiz might leave it: not in WAL mode.
        try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.newerSchema(path: path, unknownMigrations: ["v99-from-the-future"])) {
            try AppDatabase(existingAt: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "not a byte written")
    }

    @Test func aMissingBundleOnFirstRunCreatesNothing() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data/uquiz.sqlite")
        let missing = StoreError.seedBundleNotFound(searched: ["/nowhere"])
        #expect(throws: missing) {
            try AppDatabase.openOrSeed(at: path, seedBundle: { throw missing })
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aCorruptBundleNeverBecomesTheDatabase() throws {
        let folder = try TemporaryFolder()
        let bundleFolder = folder.url.appendingPathComponent("BadSeed")
        try FileManager.default.createDirectory(at: bundleFolder, withIntermediateDirectories: true)
        // The first 4 KiB of a real bundle: a valid header whose pages are missing.
        let real = try Data(contentsOf: repositorySeed.databaseURL)
        try real.prefix(4096).write(to: bundleFolder.appendingPathComponent(SeedBundle.databaseFileName))
        let path = folder.path("uquiz.sqlite")
        #expect(throws: StoreError.self) {
            try AppDatabase.openOrSeed(at: path, seedBundle: { SeedBundle(directory: bundleFolder) })
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["BadSeed"])
    }

    @Test func aFolderThatCannotBeCreatedIsAClearError() throws {
        let folder = try TemporaryFolder()
        let blocker = folder.path("file")
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
        let path = blocker + "/data/uquiz.sqlite"
        #expect {
            try AppDatabase.openOrSeed(at: path, seedBundle: { repositorySeed })
        } throws: { error in
            guard case StoreError.cannotCreate(let failed, _) = error else { return false }
            return failed.hasPrefix(blocker)
        }
    }

    @Test func bundleIsFoundFromABuildFolderAndFromAnInstallPrefix() throws {
        let folder = try TemporaryFolder()
        let checkout = folder.url.appendingPathComponent("checkout")
        let seed = checkout.appendingPathComponent("Seed")
        let binary = checkout.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/uquiz")
        try FileManager.default.createDirectory(at: seed, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: seed.appendingPathComponent(SeedBundle.databaseFileName).path, contents: Data())
        #expect(try SeedBundle.locate(override: nil, executable: binary).directory.path == seed.path)

        let prefix = folder.url.appendingPathComponent("prefix")
        let shared = prefix.appendingPathComponent("share/uquiz/seed")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: shared.appendingPathComponent(SeedBundle.databaseFileName).path, contents: Data())
        let installed = prefix.appendingPathComponent("bin/uquiz")
        #expect(try SeedBundle.locate(override: nil, executable: installed).directory.path == shared.path)

        #expect(try SeedBundle.locate(override: seed.path, executable: installed).directory.path == seed.path)
        #expect(throws: StoreError.seedBundleNotFound(searched: ["UQUIZ_SEED=/nowhere"])) {
            try SeedBundle.locate(override: "/nowhere", executable: installed)
        }
    }
}

@Suite("The committed seed database")
struct SeedBuildTests {
    @Test func committedDatabaseIsExactlyWhatTheSourceBuilds() throws {
        let folder = try TemporaryFolder()
        let first = URL(fileURLWithPath: folder.path("first.sqlite"))
        let second = URL(fileURLWithPath: folder.path("second.sqlite"))
        try SeedBuilder.build(bundle: repositorySeed, output: first)
        try SeedBuilder.build(bundle: repositorySeed, output: second)
        let built = try Data(contentsOf: first)
        #expect(built == (try Data(contentsOf: second)), "two builds of one source differ")
        #expect(
            built == (try Data(contentsOf: repositorySeed.databaseURL)),
            "Seed/uquiz-seed.sqlite does not match Seed/seed.json: run `swift run uquiz seed build` and commit it")
    }

    @Test func invalidSourcesNameThePlaceAndTheRule() throws {
        let detail = try seedBuildFailure { source in
            var packages = source["packages"] as! [[String: Any]]
            var quizzes = packages[0]["quizzes"] as! [[String: Any]]
            quizzes[0]["areas"] = [[2, 30]]
            packages[0]["quizzes"] = quizzes
            source["packages"] = packages
        }
        #expect(detail?.contains("$.packages[0].quizzes[0].areas[0]: r2 c30 is outside the margin") == true, "\(detail ?? "")")
    }

    @Test func aSourcesGridIsCheckedWhenItIsRead() throws {
        let detail = try seedBuildFailure { source in
            source["grid"] = ["columns": 50, "rows": 75, "areaSize": 4, "margin": 2]
        }
        #expect(detail == "area size 4 is invalid: it must be a positive odd number so that an area has a centre cell at $.grid")
    }

    /// Builds the seed from the repository's source changed by `edit`: the build's refusal (`nil` if it built), and
    /// that it wrote nothing.
    private func seedBuildFailure(_ edit: (inout [String: Any]) -> Void) throws -> String? {
        let folder = try TemporaryFolder()
        let bundleFolder = folder.url.appendingPathComponent("Seed")
        try FileManager.default.createDirectory(at: bundleFolder, withIntermediateDirectories: true)
        var source = try JSONSerialization.jsonObject(with: Data(contentsOf: repositorySeed.sourceURL)) as! [String: Any]
        edit(&source)
        try JSONSerialization.data(withJSONObject: source).write(to: bundleFolder.appendingPathComponent("seed.json"))
        let output = URL(fileURLWithPath: folder.path("out.sqlite"))
        defer { #expect(!FileManager.default.fileExists(atPath: output.path)) }
        do {
            try SeedBuilder.build(bundle: SeedBundle(directory: bundleFolder), output: output)
            return nil
        } catch let StoreError.seedSourceInvalid(_, detail) {
            return detail
        }
    }
}

@Suite("Queries, deletion, merge and reset")
struct StoreOperationTests {
    @Test func packagesAreFoundByIdShareCodeOrSeedId() throws {
        let database = try seededInMemoryDatabase()
        let silent = try database.packages(matching: PackageFilter(language: .en)).rows.first { $0.title == "Silent Classics" }!
        #expect(try database.packageID(for: String(silent.id)) == silent.id)
        #expect(try database.packageID(for: silent.shareCode.lowercased()) == silent.id)
        #expect(try database.packageID(for: "en-silent") == silent.id)
        #expect(throws: StoreError.packageNotFound("nope")) { try database.packageID(for: "nope") }
        #expect(throws: StoreError.packageNotFound("999")) { try database.packageID(for: "999") }
    }

    @Test func filtersAndLimits() throws {
        let database = try seededInMemoryDatabase()
        try database.insert(userPackage())
        #expect(try database.packages(matching: PackageFilter(origin: .user)).rows.map(\.title) == ["My movies"])
        let beginners = try database.packages(matching: PackageFilter(level: .beginner, language: .ko))
        #expect(beginners.total == 2)
        let limited = try database.packages(limit: 3)
        #expect(limited.rows.count == 3)
        #expect(limited.total == 9)
    }

    @Test func aStoredPackageReadsBackAsSaved() throws {
        let database = try seededInMemoryDatabase()
        let package = userPackage()
        let id = try database.insert(package)
        var stored = try database.package(id: id)
        #expect(stored.id == id)
        stored.id = nil
        #expect(stored == package)
    }

    @Test func quotesInTitlesAreStoredAsText() throws {
        let database = try seededInMemoryDatabase()
        let id = try database.insert(userPackage(title: "'); DROP TABLE package; --"))
        #expect(try database.package(id: id).title == "'); DROP TABLE package; --")
        #expect(try database.packages().total == 9)
    }

    @Test func deletingRemovesQuizzesAreasAndAttemptsTogether() throws {
        let database = try seededInMemoryDatabase()
        let id = try database.packageID(for: "en-expert")
        try database.write { db in
            let quizId = try Int64.fetchOne(db, sql: "SELECT id FROM quiz WHERE packageId = ? LIMIT 1", arguments: [id])!
            try db.execute(
                sql: """
                    INSERT INTO attempt (quizId, player, startedAt, correct, seconds, stageReached)
                    VALUES (?, 'p', '2026-11-22T00:00:00Z', 1, 4.5, 2)
                    """, arguments: [quizId])
        }
        let titles = try database.deletePackages(ids: [id])
        #expect(titles == ["Only Movie Experts Can Answer This"])
        let leftovers = try database.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM quiz WHERE packageId = ?)
                         + (SELECT COUNT(*) FROM area WHERE quizId NOT IN (SELECT id FROM quiz))
                         + (SELECT COUNT(*) FROM attempt)
                    """, arguments: [id])
        }
        #expect(leftovers == 0)
        #expect(try database.integrityProblems().isEmpty)
    }

    @Test func deletingAnUnknownIdDeletesNothing() throws {
        let database = try seededInMemoryDatabase()
        let before = try dump(database)
        #expect(throws: StoreError.packageNotFound("4242")) { try database.deletePackages(ids: [1, 4242]) }
        #expect(try dump(database) == before)
    }

    @Test func mergeRestoresAndUpdatesSeedPackagesButNeverTouchesUserDataOrAttempts() throws {
        let folder = try TemporaryFolder()
        let database = try seededDatabase(in: folder)
        let userId = try database.insert(userPackage())
        let silentId = try database.packageID(for: "en-silent")
        let koExpert = try database.packageID(for: "ko-expert")
        let (attemptQuiz, droppedQuiz) = try database.write { db in
            try db.execute(sql: "UPDATE package SET title = 'Renamed' WHERE id = ?", arguments: [silentId])
            let quizzes = try Int64.fetchAll(
                db, sql: "SELECT id FROM quiz WHERE packageId = ? ORDER BY position", arguments: [silentId])
            try db.execute(sql: "UPDATE area SET centreRow = 40 WHERE quizId = ? AND stage = 1", arguments: [quizzes[0]])
            try db.execute(
                sql: """
                    INSERT INTO attempt (quizId, player, startedAt, correct, seconds, stageReached)
                    VALUES (?, 'p', '2026-11-22T00:00:00Z', 1, 3.0, 1)
                    """, arguments: [quizzes[0]])
            return (quizzes[0], quizzes[1])
        }
        try database.write { db in
            // A quiz the bundle does not have (a stand-in for one a newer bundle dropped) but with no attempts.
            try db.execute(sql: "UPDATE quiz SET catalogKey = 'gone' WHERE id = ?", arguments: [droppedQuiz])
        }
        try database.deletePackages(ids: [koExpert])

        let report = try database.mergeSeed(from: repositorySeed)
        #expect(report.added == ["ko-expert"])
        #expect(report.updated == ["en-silent"])
        #expect(report.unchanged.count == 6)

        let fresh = try TemporaryFolder()
        let reference = try seededDatabase(in: fresh)
        var merged = try database.package(id: silentId)
        var original = try reference.package(id: try reference.packageID(for: "en-silent"))
        merged.id = nil
        original.id = nil
        #expect(merged == original)
        #expect(try database.package(id: userId).title == "My movies")
        let attempts = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM attempt WHERE quizId = ?", arguments: [attemptQuiz]) }
        #expect(attempts == 1, "the attempt survives and still points at its quiz")
        #expect(try database.integrityProblems().isEmpty)

        let again = try database.mergeSeed(from: repositorySeed)
        #expect(again.added.isEmpty && again.updated.isEmpty && again.unchanged.count == 8)
    }

    @Test func resetKeepsABackupAndRestoresTheBundle() throws {
        let folder = try TemporaryFolder()
        let database = try seededDatabase(in: folder)
        try database.insert(userPackage())
        try database.deletePackages(ids: [try database.packageID(for: "ko-beginner")])
        let before = try dump(database.path)

        let backup = try database.reset(from: repositorySeed, now: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(backup.hasSuffix("uquiz-backup-20261118T110640Z.sqlite"))
        #expect(try dump(backup) == before, "the backup holds exactly the old content")
        let page = try database.packages()
        #expect(page.total == 8)
        #expect(!page.rows.contains { $0.origin == .user })
        #expect(try database.integrityProblems().isEmpty)
        // Reopening (as the next command would) sees the reset database, still in WAL mode.
        let reopened = try AppDatabase(existingAt: database.path)
        #expect(try reopened.packages().total == 8)
        let journal = try reopened.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
    }
}
