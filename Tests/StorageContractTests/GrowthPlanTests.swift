import Foundation
import QuizCore
@testable import PostgresStore
@testable import QuizStore
import Testing
import UQuizStorage

/// On a database grown as a busy server's is (a reduced Benchmarks/growth run: 2,000 packages and 20,000 plays, 5,000
/// of them of one package), the reads a request makes go through the indexes meant for them, so that their cost
/// follows what they return. Plans, not timings: BENCHMARKS.md has the figures at full size.
@Suite struct GrowthPlanTests {
    static let benchmarks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Benchmarks")
    /// packages, makers, players, plays, hot plays, warm packages, warm plays, heavy player's plays, daily days.
    static let sizes = "2000, 200, 2000, 20000, 5000, 3, 1000, 500, 30"

    /// Each read's plan must name its index; none may sort what it reads (a temporary B-tree, a Sort node) or read a
    /// whole table of plays or attempts.
    static let expectedIndexes: [String: (sqlite: String, postgres: String)] = [
        "package by share code": ("sqlite_autoindex_package_1", "package_share_code_key"),
        "newest page": ("package_on_createdAt_id", "package_on_created_at_c"),
        "newest page after a cursor": ("package_on_createdAt_id", "package_on_created_at_c"),
        "popular page": ("packageTally_on_plays", "package_tally_on_plays"),
        "popular page after a cursor": ("packageTally_on_plays", "package_tally_on_plays"),
        "leaderboard scores": ("sqlite_autoindex_leaderboardScore_1", "leaderboard_score_pkey"),
        "leaderboard top": ("play_board", "play_board"),
        "leaderboard own play": ("play_ranked_once", "play_ranked_once"),
        "leaderboard same score faster": ("play_board", "play_board"),
    ]

    @Test func sqlitePlansUseTheirIndexes() async throws {
        let database = try AppDatabase.inMemory()
        _ = try database.mergeSeed(from: repositorySeed)
        let script = try String(contentsOf: Self.benchmarks.appendingPathComponent("growth-sqlite.sql"), encoding: .utf8)
        try database.executeScriptForTesting(
            """
            CREATE TEMP TABLE growthSize (packages INTEGER, makers INTEGER, players INTEGER, plays INTEGER,
                hotPlays INTEGER, warmPackages INTEGER, warmPlays INTEGER, heavyPlayerPlays INTEGER, dailyDays INTEGER);
            INSERT INTO growthSize VALUES (\(Self.sizes));
            """ + script + "\nANALYZE;")
        let store = SQLiteServerStore(database: database, deadline: testDeadline)
        let hot = try #require(try await store.popularPackages(BrowseFilter(), after: nil, limit: 1).first)
        #expect(hot.plays >= 5000, "the hot package comes first")
        #expect(try await inspecting(store).tallyMismatchesForTesting() == [])
        let plans = try await inspecting(store).queryPlansForTesting(packageId: hot.id)
        for (name, indexes) in Self.expectedIndexes {
            let plan = try #require(plans[name], "no plan for \(name)")
            #expect(plan.contains(indexes.sqlite), "\(name) does not use \(indexes.sqlite):\n\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(name) sorts:\n\(plan)")
            #expect(!plan.split(separator: "\n").contains { $0.hasPrefix("SCAN play") || $0.hasPrefix("SCAN attempt") },
                "\(name) reads every play:\n\(plan)")
        }
        // A maker's page sorts the maker's own packages (found by the owner's index), never every package.
        let makers = try #require(plans["a maker's page"])
        #expect(makers.contains("publication_on_ownerId") && !makers.contains("SCAN p ")
            && !makers.contains("package_on_createdAt_id"), "a maker's page:\n\(makers)")
        // A common word walks the page's order and keeps the trigram index's matches (a rare one's few matches are
        // read by id and put in order).
        for (name, index) in [
            ("title search, a common word", "package_on_createdAt_id"),
            ("title search, a common word, popular", "packageTally_on_plays"),
        ] {
            let plan = try #require(plans[name])
            #expect(plan.contains(index) && plan.contains("packageSearch VIRTUAL TABLE INDEX") && !plan.contains("TEMP B-TREE"),
                "\(name):\n\(plan)")
        }
    }

    @Test func postgresPlansUseTheirIndexes() async throws {
        try await FreshPostgresDatabase.with { database in
            try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline, migrating: false) { store in
                #expect(try await store.prepare(seedContent: { try repositorySeed.content() }))
                let script = try String(contentsOf: Self.benchmarks.appendingPathComponent("growth-postgres.sql"), encoding: .utf8)
                try await Self.psql(
                    url: database.url,
                    script: """
                        CREATE TEMP TABLE growth_size (packages integer, makers integer, players integer, plays integer,
                            hot_plays integer, warm_packages integer, warm_plays integer, heavy_player_plays integer,
                            daily_days integer);
                        INSERT INTO growth_size VALUES (\(Self.sizes));
                        """ + script)
                let hot = try #require(try await store.popularPackages(BrowseFilter(), after: nil, limit: 1).first)
                #expect(hot.plays >= 5000, "the hot package comes first")
                #expect(try await store.tallyMismatchesForTesting() == [])
                let plans = try await store.queryPlansForTesting(packageId: hot.id)
                for (name, indexes) in Self.expectedIndexes {
                    let plan = try #require(plans[name], "no plan for \(name)")
                    #expect(plan.contains(indexes.postgres), "\(name) does not use \(indexes.postgres):\n\(plan)")
                    #expect(!plan.contains("Sort"), "\(name) sorts:\n\(plan)")
                    #expect(!plan.contains("Seq Scan on play ") && !plan.contains("Seq Scan on attempt "),
                        "\(name) reads every play:\n\(plan)")
                }
                let makers = try #require(plans["a maker's page"])
                #expect(makers.contains("publication_on_owner_id") && !makers.contains("Seq Scan on package ")
                    && !makers.contains("package_on_created_at_c"),
                    "a maker's page:\n\(makers)")
                let search = try #require(plans["title search"])
                #expect(search.contains("package_title_trgm") || search.contains("package_on_created_at_c"),
                    "the search scans and sorts titles:\n\(search)")
            }
        }
    }

    /// Runs a script through psql (from PostgreSQL's own packages, as .ci/postgres uses its tools), stopping at the
    /// first error; waits for it without holding a thread.
    static func psql(url: String, script: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-psql-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scriptFile = folder.appendingPathComponent("script.sql")
        let errorFile = folder.appendingPathComponent("errors.txt")
        try Data(script.utf8).write(to: scriptFile)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", scriptFile.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorFile)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        #expect(status == 0, "psql: \((try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")")
    }
}
