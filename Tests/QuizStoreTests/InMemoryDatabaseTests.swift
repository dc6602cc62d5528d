import Foundation
import GRDB
import QuizCore
import Testing

@testable import QuizStore
import UQuizStorage

@Suite("A database in memory")
struct InMemoryDatabaseTests {
    @Test func itIsMigratedEmptyAndSound() throws {
        let database = try AppDatabase.inMemory()
        #expect(database.isInMemory && database.path == AppDatabase.inMemoryPath)
        let status = try database.seedStatus()
        #expect(status.schemaMigrations == AppDatabase.knownMigrations.count)
        #expect(status.seedPackages == 0 && status.userPackages == 0 && status.movies == 0)
        #expect(try database.integrityProblems().isEmpty)
        #expect(try database.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == true)
    }

    @Test func eachOneIsItsOwn() throws {
        let first = try AppDatabase.inMemory()
        let second = try AppDatabase.inMemory()
        try first.insert(userPackage())
        #expect(try first.packages().total == 1)
        #expect(try second.packages().total == 0)
    }

    @Test func aResetHasNoFileToBackUpAndSaysSo() throws {
        let database = try seededInMemoryDatabase()
        try database.insert(userPackage())
        let before = try dump(database)
        #expect(throws: StoreError.inMemory(operation: "reset the database")) {
            try database.reset(from: repositorySeed)
        }
        #expect(try dump(database) == before)
    }

    @Test func theInMemoryNameIsNotAcceptedAsAFile() throws {
        let refused = StoreError.cannotCreate(
            path: ":memory:", reason: "it is SQLite's name for a database in memory, not a file")
        #expect(throws: refused) { try AppDatabase(existingAt: ":memory:") }
        #expect(throws: refused) { try AppDatabase.openOrSeed(at: ":memory:", seedBundle: { repositorySeed }) }
        // The seed would otherwise be copied to a file of that name in the working directory.
        #expect(!FileManager.default.fileExists(atPath: ":memory:"))
    }
}
