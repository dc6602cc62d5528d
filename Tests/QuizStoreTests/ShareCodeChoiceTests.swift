import Foundation
import GRDB
import QuizCore
import Testing

@testable import QuizStore
import UQuizStorage

/// Hands out the given codes in order, counting how many were asked for; past the end it repeats the last one.
final class ShareCodeSequence {
    private let codes: [ShareCode]
    private(set) var drawn = 0

    init(_ codes: String...) {
        self.codes = codes.map { ShareCode($0)! }
    }

    func next() -> ShareCode {
        defer { drawn += 1 }
        return codes[min(drawn, codes.count - 1)]
    }
}

@Suite("Share codes chosen inside the write transaction")
struct ShareCodeChoiceTests {
    @Test func aTakenCodeIsReplacedByTheNextFreeOne() throws {
        let database = try AppDatabase.inMemory()
        try database.insert(userPackage(title: "First", code: "MYPKG2"))
        let codes = ShareCodeSequence("MYPKG2", "FRESH3")
        let (id, code) = try database.insertChoosingShareCode(userPackage(title: "Second", code: "MYPKG2"), newCode: codes.next)
        #expect(code == ShareCode("FRESH3"))
        #expect(codes.drawn == 2)
        #expect(try database.package(id: id).shareCode == ShareCode("FRESH3"))
        #expect(try database.package(id: id).title == "Second")
        #expect(try database.packages().total == 2)
        #expect(try database.integrityProblems().isEmpty)
    }

    @Test func aFreeCodeIsKeptWithoutDrawing() throws {
        let database = try AppDatabase.inMemory()
        let codes = ShareCodeSequence("FRESH3")
        let (id, code) = try database.insertChoosingShareCode(userPackage(code: "MYPKG2"), newCode: codes.next)
        #expect(code == ShareCode("MYPKG2") && codes.drawn == 0)
        #expect(try database.package(id: id).shareCode == ShareCode("MYPKG2"))
    }

    @Test func aGeneratorThatAlwaysCollidesEndsInTheTypedErrorWithNothingWritten() throws {
        let database = try seededInMemoryDatabase()
        try database.insert(userPackage(code: "MYPKG2"))
        let before = try dump(database)
        let codes = ShareCodeSequence("MYPKG2")
        #expect(throws: StoreError.noFreeShareCode(tries: AppDatabase.shareCodeTries)) {
            try database.insertChoosingShareCode(userPackage(title: "Doomed", code: "MYPKG2"), newCode: codes.next)
        }
        #expect(codes.drawn == AppDatabase.shareCodeTries - 1, "the package's own code is the first try")
        #expect(try dump(database) == before)
    }

    @Test func anyOtherConstraintFailsAtOnceWithoutDrawingCodes() throws {
        let database = try AppDatabase.inMemory()
        var seeded = userPackage(code: "MYPKG2")
        seeded.seedId = "en-mine"
        try database.insert(seeded)
        var sameSeed = userPackage(title: "Same seed id", code: "QTHER2")
        sameSeed.seedId = "en-mine"
        let before = try dump(database)
        let codes = ShareCodeSequence("FRESH3")
        #expect {
            try database.insertChoosingShareCode(sameSeed, newCode: codes.next)
        } throws: { error in
            guard case StoreError.io(_, let detail) = error else { return false }
            return detail.contains("package.seedId")
        }
        #expect(codes.drawn == 0)
        #expect(try dump(database) == before)
    }

    @Test func anImportAsACopyDrawsUntilAFreeCode() throws {
        let database = try AppDatabase.inMemory()
        try database.insert(userPackage(title: "Here", code: "MYPKG2"))
        try database.insert(userPackage(title: "Also here", code: "TAKEN2"))
        let codes = ShareCodeSequence("TAKEN2", "FRESH3")
        let saved = try database.importPackages(
            [userPackage(title: "Imported", code: "MYPKG2")], movies: [], asCopy: true, newCode: codes.next)
        #expect(saved.map(\.shareCode) == [ShareCode("FRESH3")])
        #expect(codes.drawn == 2)
        #expect(try database.package(id: saved[0].id).title == "Imported")
        #expect(throws: StoreError.alreadyImported(code: "MYPKG2", id: 1)) {
            try database.importPackages(
                [userPackage(title: "Imported", code: "MYPKG2")], movies: [], asCopy: false, newCode: codes.next)
        }
    }
}
