import Foundation
import QuizStore
import Testing
import UQuizStorage

/// The server's SQLite store checkpoints its write-ahead log from a thread of its own, not in a request's commit.
@Suite struct WALCheckpointTests {
    /// A write reaches the database file itself (what a copy of the file alone, without its log, holds) with no other
    /// write after it: no commit of the server's checkpoints under 20,000 pages of log, so the store's own thread did.
    @Test func aWriteReachesTheDatabaseFileWithNoCommitCheckpointing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-checkpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("server.sqlite").path
        _ = try AppDatabase.openOrSeed(at: path, seedBundle: { repositorySeed })
        let store = try SQLiteServerStore.open(path: path, deadline: .forTests)
        let hash = Data("checkpointed \(UUID())".utf8)
        _ = try await store.insertPlayer(name: "Checkpointed", tokenHash: hash, at: Date())

        var found = false
        let giveUp = ContinuousClock.now + .seconds(30)
        var copies = 0
        while !found, ContinuousClock.now < giveUp {
            copies += 1
            let copy = folder.appendingPathComponent("copy-\(copies).sqlite").path
            // A copy made while a checkpoint writes the file may be torn: it is then only not found yet.
            if (try? FileManager.default.copyItem(atPath: path, toPath: copy)) != nil,
                let copied = try? SQLiteServerStore.open(path: copy, deadline: .forTests)
            {
                found = (try? await copied.player(tokenHash: hash)) != nil
            }
            if !found { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(found, "the player never reached the database file in \(copies) copies")
    }
}
