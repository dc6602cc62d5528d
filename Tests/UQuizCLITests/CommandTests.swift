import Foundation
import GRDB
import QuizStore
import UQuizStorage
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("uquiz end to end")
struct CommandTests {
    @Test func firstListCreatesTheDatabaseFromTheSeedAndShowsEightPackages() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["list"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("created \(sandbox.defaultDatabase) from the seed bundle (8 packages)"))
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 9)
        #expect(lines[0].hasPrefix("ID  CODE"))
        #expect(result.stdout.contains("너무 유명해서 다 아는 영화!"))
        #expect(result.stdout.contains("Silent Classics"))
        #expect(!result.stdout.contains("\u{1B}"), "no colour when standard output is not a terminal")
        #expect(FileManager.default.fileExists(atPath: sandbox.defaultDatabase))

        // Columns line up by display width although Korean titles take two columns a character.
        let levelColumn = lines.map { line -> Int in
            let prefix = line[..<line.range(of: ["LEVEL", "beginner", "intermediate", "expert"].first { line.contains($0) }!)!.lowerBound]
            return displayWidth(prefix)
        }
        #expect(Set(levelColumn).count == 1, "LEVEL column starts at \(levelColumn)")

        let second = try sandbox.run(["list"])
        #expect(second.status == 0)
        #expect(second.stderr.isEmpty, "later runs do not seed again")
    }

    @Test func listJSONIsAStableDocumentedArray() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["list", "--json"])
        #expect(result.status == 0)
        let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        #expect(rows.count == 8)
        let keys: Set = [
            "id", "shareCode", "title", "level", "language", "maker", "origin", "quizCount", "bestScore", "createdAt", "serverCodes",
        ]
        for row in rows { #expect(Set(row.keys) == keys) }
        #expect(rows.allSatisfy { ($0["serverCodes"] as? [String: String])?.isEmpty == true }, "never published")
        #expect(rows.allSatisfy { $0["bestScore"] is NSNull })
        let filtered = try sandbox.run(["list", "--json", "--language", "en", "--level", "expert"])
        let expert = try JSONSerialization.jsonObject(with: Data(filtered.stdout.utf8)) as! [[String: Any]]
        #expect(expert.map { $0["title"] as! String } == ["Only Movie Experts Can Answer This"])
        let mine = try sandbox.run(["list", "--mine"])
        #expect(mine.stdout == "You have made no packages yet.\n")
    }

    @Test func listLimitsLongListsAndSaysHowManyMore() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["list", "--limit", "3"])
        #expect(result.stdout.split(separator: "\n").count == 5)
        #expect(result.stdout.contains("… 5 more; use --limit N or --all to see them"))
    }

    @Test func showDrawsEachQuizsAreas() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["show", "en-silent"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Silent Classics\n"))
        #expect(result.stdout.contains("1. Metropolis (1927)"))
        #expect(result.stdout.contains("bundled poster metropolis-1927.jpg"))
        // Metropolis's stage 1 is centred on row 35, column 9: in the map (2 columns and 4 rows a character) its block
        // covers characters 3...5 of map rows 8 and 9.
        let section = result.stdout.components(separatedBy: "\n\n")[1].split(separator: "\n")
        let map = section.dropFirst(2).map { $0.dropFirst(3) }
        #expect(map.count == 19)
        #expect(map.allSatisfy { $0.count == 25 })
        #expect(map[8] == "···111···················")
        #expect(map[9] == "···111···················")
        for stage in 1...5 { #expect(map.contains { $0.contains(Character(String(stage))) }) }

        let json = try sandbox.run(["show", "FE7NWW", "--json"])
        let package = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(package["seedId"] as? String == "en-silent")
        let quizzes = package["quizzes"] as! [[String: Any]]
        #expect(quizzes.count == 25)
        #expect(quizzes[0]["areas"] as? [[Int]] == [[35, 9], [24, 38], [53, 26], [66, 14], [7, 22]])
        #expect(quizzes.contains { $0["tmdbId"] is NSNull }, "absent facts are null, not missing")
    }

    @Test func unknownIdsAndBadFlagsAreOneLineErrorsWithTheRightExitCode() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let unknown = try sandbox.run(["show", "ZZZZZZ"])
        #expect(unknown.status == 1)
        #expect(unknown.stderrLines == ["Error: no package \"ZZZZZZ\"; `uquiz list` shows ids and share codes"])

        let badLevel = try sandbox.run(["list", "--level", "hard"])
        #expect(badLevel.status == 64)
        #expect(badLevel.stderr.contains("hard"))

        let badLimit = try sandbox.run(["list", "--limit", "0"])
        #expect(badLimit.status == 64)
        #expect(badLimit.stderr.contains("--limit must be 1 or more"))

        let noCommand = try sandbox.run(["frobnicate"])
        #expect(noCommand.status == 64)
    }

    @Test func deleteAsksUnlessYesAndMergeBringsSeedPackagesBack() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let refused = try sandbox.run(["delete", "en-expert"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("pass --yes"))
        #expect(try sandbox.run(["list", "--json"]).stdout.contains("Only Movie Experts"))

        let unknown = try sandbox.run(["delete", "en-expert", "NOPE99", "--yes"])
        #expect(unknown.status == 1)
        #expect(try sandbox.run(["list", "--json"]).stdout.contains("Only Movie Experts"), "all or nothing")

        let deleted = try sandbox.run(["delete", "en-expert", "ko-expert", "--yes"])
        #expect(deleted.status == 0)
        #expect(deleted.stdout == "Deleted 2 packages.\n")
        #expect(try sandbox.run(["list"]).stdout.split(separator: "\n").count == 7)

        let merge = try sandbox.run(["seed", "merge", "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(merge.stdout.utf8)) as! [String: Any]
        #expect(Set(report["added"] as! [String]) == ["en-expert", "ko-expert"])
        #expect((report["unchanged"] as! [String]).count == 6)
        #expect(try sandbox.run(["list"]).stdout.split(separator: "\n").count == 9)
    }

    /// A bundled package the user edited stays as they made it through a seed merge, and merge says so; the others are
    /// still brought up to date.
    @Test func seedMergeKeepsTheUsersEditsToABundledPackage() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run(["edit", "en-silent", "--title", "My silent night"]).status == 0)
        let merge = try sandbox.run(["seed", "merge"])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout.contains(", 1 kept as you edited them."))
        #expect(merge.stdout.contains("  kept     en-silent (edited by you; uquiz seed reset restores the bundle's)"))
        let shown = try sandbox.run(["show", "en-silent", "--json"])
        let package = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        #expect(package?["title"] as? String == "My silent night")
        let again = try JSONSerialization.jsonObject(with: Data(try sandbox.run(["seed", "merge", "--json"]).stdout.utf8)) as? [String: Any]
        #expect(again?["keptEdited"] as? [String] == ["en-silent"] && (again?["unchanged"] as? [String])?.count == 7)
    }

    @Test func seedStatusAndResetWithBackup() throws {
        let sandbox = try Sandbox()
        let status = try sandbox.run(["seed", "status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as! [String: Any]
        let database = report["database"] as! [String: Any]
        #expect(database["seedPackages"] as? Int == 8)
        #expect(database["schemaVersion"] as? String == AppDatabase.knownMigrations.last)
        #expect(report["bundleVersion"] as? String == database["databaseBundleVersion"] as? String)

        try sandbox.run(["delete", "1", "--yes"])
        let reset = try sandbox.run(["seed", "reset", "--yes"])
        #expect(reset.status == 0, "\(reset.stderr)")
        let backupName = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("data/uquiz"))
            .first { $0.hasPrefix("uquiz-backup-") }
        #expect(backupName != nil)
        #expect(reset.stdout.contains(backupName ?? "?"))
        #expect(try sandbox.run(["list"]).stdout.split(separator: "\n").count == 9)
        let backup = try DatabaseQueue(path: sandbox.path("data/uquiz/\(backupName!)"))
        #expect(try backup.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM package") } == 7)
    }

    @Test func databasePathComesFromFlagThenEnvironmentThenXDG() throws {
        let sandbox = try Sandbox()
        let fromEnvironment = sandbox.path("env/db.sqlite")
        let fromFlag = sandbox.path("flag/db.sqlite")
        try sandbox.run(["list"], extraEnvironment: ["UQUIZ_DB": fromEnvironment])
        #expect(FileManager.default.fileExists(atPath: fromEnvironment))
        try sandbox.run(["list", "--db", fromFlag], extraEnvironment: ["UQUIZ_DB": fromEnvironment])
        #expect(FileManager.default.fileExists(atPath: fromFlag))
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultDatabase))
    }

    @Test func brokenDatabasesAreRefusedInOneLineAndLeftUntouched() throws {
        let sandbox = try Sandbox()
        let garbagePath = sandbox.path("garbage.sqlite")
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: garbagePath))
        let notADatabase = try sandbox.run(["list", "--db", garbagePath])
        #expect(notADatabase.status == 1)
        #expect(notADatabase.stderrLines.count == 1)
        #expect(notADatabase.stderr.contains("is not a uquiz database"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: garbagePath)) == garbage)

        try sandbox.run(["list"])
        let queue = try DatabaseQueue(path: sandbox.defaultDatabase)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-future')") }
        try queue.close()
        let newer = try sandbox.run(["list"])
        #expect(newer.status == 1)
        #expect(newer.stderrLines == ["Error: database \(sandbox.defaultDatabase) was written by a newer uquiz (schema v99-future); upgrade uquiz"])
    }

    @Test func aMissingSeedBundleOnFirstRunCreatesNoFile() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["list"], extraEnvironment: ["UQUIZ_SEED": sandbox.path("no-such-seed")])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("seed bundle not found"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("data")))
    }

    @Test func configShowsEachValueAndItsSource() throws {
        let sandbox = try Sandbox()
        let configFolder = sandbox.path("config/uquiz")
        try FileManager.default.createDirectory(atPath: configFolder, withIntermediateDirectories: true)
        try Data(#"{"grid": {"columns": 40}}"#.utf8).write(to: URL(fileURLWithPath: configFolder + "/config.json"))
        let result = try sandbox.run(["config", "--json"], extraEnvironment: ["UQUIZ_LEVELS_EXPERT_AREAS": "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        func entry(_ key: String) -> [String: Any] { entries.first { $0["key"] as? String == key }! }
        #expect(entry("levels.expert.areas")["value"] as? String == "2")
        #expect(entry("levels.expert.areas")["source"] as? String == "environment")
        #expect(entry("grid.columns")["value"] as? String == "40")
        #expect(entry("grid.columns")["source"] as? String == configFolder + "/config.json")
        #expect(entry("grid.rows")["source"] as? String == repositoryRoot.appendingPathComponent("Config/uquiz.json").path)
        #expect(entry("db")["value"] as? String == sandbox.defaultDatabase)

        let badValue = try sandbox.run(["config"], extraEnvironment: ["UQUIZ_GRID_ROWS": "many"])
        #expect(badValue.status == 1)
        #expect(badValue.stderrLines == ["Error: UQUIZ_GRID_ROWS must be a whole number"])

        let unplayable = try sandbox.run(["config"], extraEnvironment: ["UQUIZ_GRID_AREA_SIZE": "4"])
        #expect(unplayable.status == 1)
        #expect(unplayable.stderrLines == [
            "Error: configured grid is invalid: area size 4 is invalid: it must be a positive odd number so that an area has a centre cell"
        ])

        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: configFolder + "/config.json"))
        let badFile = try sandbox.run(["list"])
        #expect(badFile.status == 1)
        #expect(badFile.stderrLines.count == 1)
        #expect(badFile.stderr.contains("config file \(configFolder)/config.json is not valid JSON"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultDatabase), "nothing is created on a config error")
    }

    @Test func controlCharactersInStoredTitlesNeverReachTheTerminal() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let queue = try DatabaseQueue(path: sandbox.defaultDatabase)
        try queue.write { db in
            try db.execute(
                sql: "UPDATE package SET title = ? WHERE seedId = 'en-expert'",
                arguments: ["Evil\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}title"])
        }
        try queue.close()
        for arguments in [["list"], ["show", "en-expert"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 0)
            let forbidden = result.stdout.unicodeScalars.filter {
                $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E
            }
            #expect(forbidden.isEmpty, "\(arguments)")
            #expect(result.stdout.contains("Evil\\u{1B}]0;pwned\\u{7}"))
        }
    }

    @Test func verboseLogsSourcesAndTheDatabaseToStandardError() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["list", "--json", "--verbose"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("configuration sources, strongest first: flag, environment, "))
        #expect(result.stderr.contains("database \(sandbox.defaultDatabase)"))
        #expect(result.stderr.contains("first run: installing the seed bundle from \(repositoryRoot.path)/Seed"))
        #expect((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [Any]).count == 8, "stdout stays JSON")
        let quiet = try sandbox.run(["list"])
        #expect(quiet.stderr.isEmpty)
    }

    @Test func helpExplainsEveryCommand() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.run(["--help"])
        #expect(help.status == 0)
        for command in ["list", "show", "delete", "seed", "config"] { #expect(help.stdout.contains("  \(command)")) }
        let seedHelp = try sandbox.run(["seed", "--help"])
        for command in ["status", "merge", "reset", "build"] { #expect(seedHelp.stdout.contains(command)) }
    }
}

@Suite("First run under kills and races")
struct FirstRunRobustnessTests {
    /// A kill -9 at any moment of the first run leaves no database or a complete one, and the next run works.
    @Test func killedFirstRunsLeaveNoDatabaseOrACompleteOne() throws {
        var outcomes = (none: 0, complete: 0)
        let trials = KillTrials.count(24)
        for trial in 0..<trials {
            let sandbox = try Sandbox()
            let process = try sandbox.launch(["list"])
            KillTrials.waitForMoment(trial: trial, of: trials, within: 0.036)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if FileManager.default.fileExists(atPath: sandbox.defaultDatabase) {
                let database = try AppDatabase(existingAt: sandbox.defaultDatabase)
                #expect(try database.integrityProblems().isEmpty, "trial \(trial)")
                #expect(try database.packages().total == 8, "trial \(trial)")
                outcomes.complete += 1
            } else {
                outcomes.none += 1
            }
            let next = try sandbox.run(["list", "--json"])
            #expect(next.status == 0, "trial \(trial): \(next.stderr)")
            let rows = try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as! [Any]
            #expect(rows.count == 8, "trial \(trial)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("data/uquiz"))
                .filter { $0.contains("seeding") }
            #expect(leftovers.isEmpty, "trial \(trial): the next run removes a killed run's temporary copy")
        }
        #expect(outcomes.none + outcomes.complete == trials)
        print("killed first runs: \(outcomes.none) left no database, \(outcomes.complete) a complete one")
    }

    @Test func concurrentFirstRunsSeedOnce() throws {
        let sandbox = try Sandbox()
        let processes = try (0..<6).map { _ in try sandbox.launch(["list"]) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let database = try AppDatabase(existingAt: sandbox.defaultDatabase)
        #expect(try database.packages().total == 8)
        #expect(try database.integrityProblems().isEmpty)
    }
}
