import Foundation
import UQuizTestSupport
import Testing

@testable import QuizStore
import UQuizStorage

@Suite("An empty database file")
struct EmptyFileTests {
    @Test func isSeededLikeAMissingOne() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("uquiz.sqlite")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let (database, seeded) = try AppDatabase.openOrSeed(at: path, seedBundle: { repositorySeed })
        #expect(seeded)
        #expect(try database.packages().total == 8)
        let again = try AppDatabase.openOrSeed(at: path, seedBundle: { Issue.record("not asked again"); return repositorySeed })
        #expect(!again.seeded)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("seeding") }.isEmpty)
    }

    @Test func aMissingBundleLeavesTheEmptyFileAsItWas() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("uquiz.sqlite")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        #expect(throws: (any Error).self) {
            try AppDatabase.openOrSeed(at: path, seedBundle: { throw StoreError.io(path: "bundle", detail: "missing") })
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    }
}
