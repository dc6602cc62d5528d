import Foundation
import GRDB
import PosterGrid
import QuizCore
import Testing

@testable import QuizStore
import UQuizStorage

@Suite("Nothing is stored that its own export could not restore")
struct StorableTests {
    @Test(arguments: [
        ("maker", "package.maker: the maker contains control characters"),
        ("title", "package.title: the title has 10000 Unicode scalars: at most 1000"),
        ("quiz title", "package.quizzes[0].movie.titles.en: the title is empty"),
        ("alias", "package.quizzes[0].movie.aliases[0]: the alias contains control characters"),
    ])
    func aPackageItsExportWouldRefuseIsRefusedOnTheWayIn(field: String, problem: String) throws {
        let database = try AppDatabase.inMemory()
        var package = userPackage()
        switch field {
        case "maker": package.maker = "evil\u{1B}]52;c;ZXZpbA==\u{07}"
        case "title": package.title = String(repeating: "t", count: 10_000)
        case "quiz title": package.quizzes[0].title = "  "
        default: package.quizzes[0].aliases = ["bad\u{1B}[2J"]
        }
        #expect(throws: StoreError.refused(detail: problem)) { try database.insert(package) }
        #expect(throws: StoreError.refused(detail: problem)) {
            try database.insertChoosingShareCode(package, newCode: { ShareCode("ZZZZZ2")! })
        }
        #expect(throws: StoreError.refused(detail: problem)) {
            try database.importPackages([package], movies: [], asCopy: false, newCode: { ShareCode("ZZZZZ2")! })
        }
        let id = try database.insert(userPackage())
        #expect(throws: StoreError.refused(detail: problem)) { try database.saveEdit(packageId: id, edited: package) }
        #expect(try database.packages().total == 1)
        #expect(try database.package(id: id) == { var stored = userPackage(); stored.id = id; return stored }())
    }

    @Test func aPlayerNameIsHeldToTheTextRule() throws {
        let database = try AppDatabase.inMemory()
        let id = try database.insert(userPackage())
        #expect(throws: StoreError.refused(detail: "player: the player name contains control characters")) {
            try database.recordPlay(
                packageId: id, player: "bad\u{1B}[2J", startedAt: Date(), finishedAt: Date(), score: 0, attempts: [])
        }
        #expect(try database.stats(packageId: nil, player: nil).plays == 0)
    }
}
