import Dispatch
import Foundation
import GRDB
import QuizStore
import UQuizStorage
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Whole-database checks after concurrency and crashes: SQLite's own checks, and no half-made package or attempt.
func assertWhole(_ path: String, _ context: String) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.read { db in
        #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"], "\(context)")
        #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty, "\(context)")
        let emptyPackages = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM package WHERE id NOT IN (SELECT packageId FROM quiz)")
        #expect(emptyPackages == 0, "\(context): a package without quizzes")
        let bareQuizzes = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM quiz WHERE id NOT IN (SELECT quizId FROM area)")
        #expect(bareQuizzes == 0, "\(context): a quiz without areas")
        let gaps = try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM quiz q WHERE (SELECT COUNT(*) FROM area a WHERE a.quizId = q.id) != (SELECT MAX(stage) FROM area a WHERE a.quizId = q.id)")
        #expect(gaps == 0, "\(context): areas with missing stages")
    }
    try queue.close()
}

@Suite("Reliability: many processes and kill -9", .serialized)
struct ReliabilityTests {
    @Test func eightWritersAndFourReadersShareOneDatabase() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let failures = Failures()
        onThreads(12) { worker in
            for round in 0..<(worker < 8 ? 50 : 10) {
                let arguments: [String] =
                    worker < 8
                    ? ["create", "--title", "w\(worker)-\(round)", "--level", "expert", "--quiz", "movie=19 areas=\(10 + round % 50):25"]
                    : worker % 2 == 0
                        ? ["list", "--all", "--json"]
                        : ["solve", "en-expert", "--json", "--quiz", "1", "--time-scale", "0.005"]
                do {
                    let result = try sandbox.run(arguments)
                    if result.status != 0 { failures.add("\(arguments.prefix(3)): \(result.stderr)") }
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        #expect(!failures.all.contains { $0.contains("locked") })
        let list = try JSONSerialization.jsonObject(with: Data(try sandbox.run(["list", "--mine", "--all", "--json"]).stdout.utf8)) as! [[String: Any]]
        #expect(list.count == 400)
        #expect(Set(list.map { $0["title"] as! String }).count == 400)
        try assertWhole(sandbox.defaultDatabase, "after concurrency")
    }

    /// A database from an older uquiz, opened by several new ones at the same moment: each reads "v2 not applied" before
    /// any has applied it, so all but one lose the race to apply it; every one must still answer.
    @Test func processesUpgradingOneOldDatabaseTogetherAllSucceed() throws {
        for round in 0..<8 {
            let sandbox = try Sandbox()
            try sandbox.run(["list"])
            // Back to the schema of the first release: no catalog search table, v2 not recorded.
            let queue = try DatabaseQueue(path: sandbox.defaultDatabase)
            try queue.write { db in
                try db.execute(sql: "DROP TABLE movieSearch; DELETE FROM grdb_migrations WHERE identifier = 'v2-catalog-search'")
            }
            try queue.close()
            let results = Results<Result<RunResult, any Error>>()
            onThreads(6) { index in
                results.add(index, Result { try sandbox.run(["search", "스토리", "--offline", "--json"]) })
            }
            for (index, result) in results.all {
                let run = try result.get()
                #expect(run.status == 0, "round \(round), process \(index): \(run.stderr)")
                #expect(run.stdout.contains("\"id\" : 862"), "round \(round), process \(index) found Toy Story")
            }
            try assertWhole(sandbox.defaultDatabase, "after upgrading together")
            let applied = try DatabaseQueue(path: sandbox.defaultDatabase).read {
                try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            }
            #expect(applied == AppDatabase.knownMigrations.sorted(), "every migration applied, v2 among them")
        }
    }

    /// Starts a command in a fresh sandbox, kills it with SIGKILL at a moment within `window` seconds, and checks the
    /// database is whole either way and the next command works.
    func killTrials(
        _ name: String, count suiteCount: Int = 16, window: Double = 0.032, sandbox makeSandbox: () throws -> Sandbox = { try Sandbox() },
        prepare: (Sandbox) throws -> [String], check: (Sandbox, Int) throws -> Void = { _, _ in }
    ) throws {
        let count = KillTrials.count(suiteCount)
        for trial in 0..<count {
            let sandbox = try makeSandbox()
            try sandbox.run(["list"])
            let arguments = try prepare(sandbox)
            let process = try sandbox.launch(arguments)
            KillTrials.waitForMoment(trial: trial, of: count, within: window)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try assertWhole(sandbox.defaultDatabase, "\(name) trial \(trial)")
            try check(sandbox, trial)
            let next = try sandbox.run(["list", "--all", "--json"])
            #expect(next.status == 0, "\(name) trial \(trial): the next command works")
        }
    }

    /// The files of a sandbox's poster cache, by name (hidden ones too).
    func cachedPosters(_ sandbox: Sandbox) throws -> [String: Data] {
        let folder = sandbox.path("cache/uquiz/posters/w342")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return try Dictionary(uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) })
    }

    @Test func killedPosterDownloadsLeaveOnlyWholePosters() throws {
        let server = try seedServer()
        // Whole posters, from one uninterrupted fetch.
        let reference = try onlineSandbox(server)
        let fetch = ["fetch-posters", "en-beginner", "en-intermediate", "en-expert"]
        #expect(try reference.run(fetch).status == 0)
        let whole = try cachedPosters(reference)
        var outcomes = [0, 0, 0]
        var partials = 0
        #expect(whole.count == 17 && !whole.keys.contains { $0.hasPrefix(".") }, "\(whole.keys.sorted())")
        try killTrials("fetch-posters", window: 0.12, sandbox: { try onlineSandbox(server) }) { _ in
            fetch
        } check: { sandbox, trial in
            let killed = try cachedPosters(sandbox)
            for (name, data) in killed where !name.hasPrefix(".") {
                #expect(data == whole[name], "fetch-posters trial \(trial): \(name) is whole")
            }
            let posters = killed.keys.filter { !$0.hasPrefix(".") }.count
            outcomes[posters == 0 ? 0 : posters < whole.count ? 1 : 2] += 1
            partials += killed.keys.filter { $0.hasPrefix(".") }.count
            // The next fetch completes the cache and removes any partial file the killed one left.
            let next = try sandbox.run(fetch)
            #expect(next.status == 0, "fetch-posters trial \(trial): \(next.stderr)")
            #expect(try cachedPosters(sandbox) == whole, "fetch-posters trial \(trial): every poster whole, nothing else")
        }
        print("killed poster fetches: \(outcomes[0]) before any poster, \(outcomes[1]) midway, \(outcomes[2]) after all; \(partials) partial files left and removed by the next fetch")
    }

    @Test func killedCreatesImportsMergesResetsAndSolvesLeaveWholeDatabases() throws {
        try killTrials("create", count: 16) { _ in
            ["create", "--title", "k", "--level", "beginner", "--auto-areas", "--seed", "1",
             "--quiz", "movie=19", "--quiz", "movie=653", "--quiz", "movie=234", "--quiz", "movie=643", "--quiz", "movie=962"]
        }
        try killTrials("import", count: 16) { sandbox in
            let export = sandbox.path("all.json")
            try sandbox.run(["export", "en-silent", "ko-silent", "en-expert", "-o", export])
            try sandbox.run(["delete", "en-silent", "ko-silent", "en-expert", "--yes"])
            return ["import", export]
        } check: { sandbox, trial in
            let count = (try JSONSerialization.jsonObject(with: Data(try sandbox.run(["list", "--all", "--json"]).stdout.utf8)) as! [Any]).count
            #expect(count == 5 || count == 8, "import trial \(trial): all or nothing, found \(count)")
        }
        try killTrials("merge", count: 16) { sandbox in
            try sandbox.run(["delete", "en-silent", "ko-beginner", "--yes"])
            return ["seed", "merge"]
        } check: { sandbox, trial in
            let count = (try JSONSerialization.jsonObject(with: Data(try sandbox.run(["list", "--all", "--json"]).stdout.utf8)) as! [Any]).count
            #expect(count == 6 || count == 8, "merge trial \(trial): all or nothing, found \(count)")
        }
        try killTrials("reset", count: 16) { sandbox in
            try sandbox.run(["create", "--title", "mine", "--level", "expert", "--quiz", "movie=19 areas=30:25"])
            return ["seed", "reset", "--yes"]
        } check: { sandbox, trial in
            let mine = try sandbox.run(["list", "--mine", "--json"]).stdout
            let count = (try JSONSerialization.jsonObject(with: Data(mine.utf8)) as! [Any]).count
            #expect(count == 0 || count == 1, "reset trial \(trial)")
        }
        try killTrials("solve", count: 16) { _ in
            ["solve", "en-silent", "--json", "--time-scale", "0.002"]
        } check: { sandbox, trial in
            let queue = try DatabaseQueue(path: sandbox.defaultDatabase)
            let incomplete = try queue.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attempt WHERE player = '' OR seconds < 0 OR stageReached < 1")
            }
            #expect(incomplete == 0, "solve trial \(trial)")
            try queue.close()
        }
    }
}

/// Runs `body` on `count` threads at once and waits for all. Not `DispatchQueue.concurrentPerform`: it runs only as
/// many iterations at a time as there are cores, and these workers spend their time waiting for a child process.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

/// Results collected from concurrent workers, by worker.
final class Results<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [(Int, Value)] = []

    func add(_ index: Int, _ value: Value) { lock.withLock { list.append((index, value)) } }
    var all: [(Int, Value)] { lock.withLock { list.sorted { $0.0 < $1.0 } } }
}

/// Failures collected from concurrent workers.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}

@Suite("Reliability: a full disk")
struct DiskFullTests {
    /// Runs uquiz with a file size limit (SIGXFSZ ignored, so writes fail with EFBIG), as a full disk fails them.
    func runLimited(_ sandbox: Sandbox, kilobytes: Int, _ arguments: [String]) throws -> RunResult {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = sandbox.path("limited.sh")
        try Data("trap '' XFSZ; ulimit -f \(kilobytes); exec '\(uquizBinary.path)' \(quoted)\n".utf8)
            .write(to: URL(fileURLWithPath: script))
        return try sandbox.runThrough("/bin/bash", [script])
    }

    @Test func aWriteThatDoesNotFitChangesNothingAndSaysWhatToDo() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.defaultDatabase))
        let result = try runLimited(sandbox, kilobytes: 2, ["create", "--title", "full", "--level", "expert", "--quiz", "movie=19 areas=30:25"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: cannot write \(sandbox.defaultDatabase): the disk is full or a file size limit was reached; free some space and try again (nothing was changed)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.defaultDatabase)) == before)
        try assertWhole(sandbox.defaultDatabase, "after a full disk")
        #expect(try sandbox.run(["create", "--title", "fits", "--level", "expert", "--quiz", "movie=19 areas=30:25"]).status == 0)
    }

    @Test func aFirstRunThatDoesNotFitLeavesNoDatabase() throws {
        let sandbox = try Sandbox()
        let result = try runLimited(sandbox, kilobytes: 64, ["list"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: cannot write \(sandbox.defaultDatabase): the disk is full or a file size limit was reached; free some space and try again (nothing was changed)\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultDatabase))
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.path("data/uquiz"))) ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(try sandbox.run(["list"]).status == 0, "the next run seeds normally")
    }
}

@Suite("Reliability: a read-only data folder")
struct ReadOnlyTests {
    /// Runs uquiz as a user who cannot write `folder`: `nobody` through setpriv when the suite runs as root (root writes
    /// anywhere), the current user otherwise.
    func runLocked(_ sandbox: Sandbox, _ arguments: [String]) throws -> RunResult {
        guard getuid() == 0 else { return try sandbox.run(arguments) }
        return try sandbox.runThrough(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", uquizBinary.path] + arguments)
    }

    @Test func aFolderNobodyMayWriteIsAClearErrorAndNothingIsCreatedOrChanged() throws {
        let sandbox = try Sandbox()
        let locked = sandbox.path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Seed/uquiz-seed.sqlite").path, toPath: locked + "/uquiz.sqlite")
        // Readable and searchable by everyone, writable by no one but root.
        for path in [sandbox.home.path, locked] { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: locked + "/uquiz.sqlite")
        if getuid() != 0 { try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked) }
        let before = try Data(contentsOf: URL(fileURLWithPath: locked + "/uquiz.sqlite"))

        let existing = try runLocked(sandbox, ["list", "--db", locked + "/uquiz.sqlite"])
        #expect(existing.status == 1)
        #expect(existing.stderr == "Error: database \(locked)/uquiz.sqlite or its folder is read-only; make it writable or pass another --db\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: locked + "/uquiz.sqlite")) == before)

        let fresh = try runLocked(sandbox, ["list", "--db", locked + "/new/uquiz.sqlite"])
        #expect(fresh.status == 1)
        #expect(fresh.stderr == "Error: cannot create \(locked)/new: permission denied; choose a writable place with --db or UQUIZ_DB\n")
        #expect(!FileManager.default.fileExists(atPath: locked + "/new"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked) == ["uquiz.sqlite"], "no -wal, -shm or temporary files")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked)
    }
}
