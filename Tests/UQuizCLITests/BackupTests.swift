import Foundation
import QuizCore
import QuizStore
import Synchronization
import Testing
import UQuizStorage

/// `uquiz admin backup` of the database a running `uquiz serve` holds while another connection keeps recording
/// finished plays, and `uquiz admin restore-backup` of that copy into a new database.
@Suite("Online backup and restore", .serialized)
struct BackupTests {
    @Test func aBackupUnderWritesRestoresEveryPlayFinishedBeforeIt() async throws {
        let server = try ServeFaultTests.Server()
        let database = server.sandbox.path("server.sqlite")
        let store = try SQLiteServerStore.open(path: database, deadline: .forTests)
        let package = try #require(try await store.publishedPackage(shareCode: ShareCode("FE7NWW")!))
        let quizzes = try await store.quizIDs(packageId: package.id)
        let recorded = Mutex<[String]>([])
        let stop = Atomic(false)

        // A steady write load: a new player and a finished play of theirs, one after another, until told to stop.
        let writer = Task {
            var count = 0
            while !stop.load(ordering: .relaxed) {
                count += 1
                let player = try await store.insertPlayer(name: "Load \(count)", tokenHash: Data("load-\(count)".utf8), at: Date())
                let id = "backup-load-\(count)"
                _ = try await store.recordServerPlay(FinishedServerPlay(
                    publicId: id, packageId: package.id, player: player, startedAt: Date(), finishedAt: Date(), score: 100,
                    elapsedSeconds: 20, dailyDay: nil,
                    attempts: quizzes.map {
                        PlayAttempt(
                            quizId: $0, endedAt: Date(),
                            result: QuizResult(outcome: .solved, seconds: 1, stageReached: 1, hintsUsed: 0, score: 4))
                    }))
                recorded.withLock { $0.append(id) }
            }
        }
        // Some plays are in before the backup begins; the load goes on while it runs.
        for _ in 0..<3000 where recorded.withLock({ $0.count }) < 20 { try await Task.sleep(for: .milliseconds(10)) }
        let before = Set(recorded.withLock { $0 })
        #expect(before.count >= 20, "the load is under way")
        let backup = try server.sandbox.run(["admin", "backup", server.sandbox.path("copy.sqlite"), "--json", "--db", database])
        let during = recorded.withLock { $0.count }
        stop.store(true, ordering: .relaxed)
        try await writer.value
        #expect(backup.status == 0, "\(backup.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(backup.stdout.utf8)) as? [String: Any]
        #expect((summary?["plays"] as? Int ?? 0) >= before.count && summary?["packages"] as? Int == 8, "\(backup.stdout)")
        #expect(recorded.withLock { $0.count } > before.count, "the load went on around the backup (\(during) recorded by its end)")

        let restored = server.sandbox.path("restored.sqlite")
        let restore = try server.sandbox.run(["admin", "restore-backup", server.sandbox.path("copy.sqlite"), "--db", restored])
        #expect(restore.status == 0 && restore.stdout.hasPrefix("Restored "), "\(restore.stdout)\(restore.stderr)")
        let copy = try AppDatabase(existingAt: restored)
        #expect(try copy.integrityProblems().isEmpty)
        let restoredStore = SQLiteServerStore(database: copy, deadline: .forTests)
        for id in before.sorted() {
            #expect(try await restoredStore.serverPlay(publicId: id) != nil, "\(id), finished before the backup, is in it")
        }
        #expect(server.stop() == 0)

        // Nothing is ever overwritten, and PostgreSQL is pg_dump's.
        let again = try server.sandbox.run(["admin", "backup", server.sandbox.path("copy.sqlite"), "--db", database])
        #expect(again.status == 1 && again.stderr.contains("already exists"), "\(again.stderr)")
        let into = try server.sandbox.run(["admin", "restore-backup", server.sandbox.path("copy.sqlite"), "--db", database])
        #expect(into.status == 1 && into.stderr.contains("already exists"), "\(into.stderr)")
        let postgres = try server.sandbox.run(["admin", "backup", "x.dump", "--db", "postgres://u:secret@127.0.0.1:9/db"])
        #expect(postgres.status == 1 && postgres.stderr.contains("pg_dump") && !postgres.stderr.contains("secret"), "\(postgres.stderr)")
    }
}
