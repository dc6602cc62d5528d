import Foundation
import Testing
import UQuizTestSupport

@Suite("An empty database file")
struct EmptyDatabaseTests {
    @Test func anEmptyDatabaseFileIsSeededLikeAMissingOne() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("data/uquiz"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: sandbox.defaultDatabase, contents: Data())
        let list = try sandbox.run(["list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any]
        #expect(rows?.count == 8, "\(list.stdout)")

        let other = try Sandbox()
        let path = other.path("empty.sqlite")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let input = other.path("answers.txt")
        try Data("/skip\n/skip\n/skip\n/skip\n/skip\n".utf8).write(to: URL(fileURLWithPath: input))
        let solve = try other.runWithInput(["solve", "en-expert", "--db", path, "--plain", "--time-scale", "0.01"], input: input)
        #expect(solve.status == 0, "\(solve.stderr)")
    }
}
