import Foundation
import Testing
import UQuizTestSupport

@Suite("Poster paths through the binary")
struct PosterPathCommandTests {
    @Test func aPosterPathThatIsNotAFileNameIsRefusedByEditAndCreate() throws {
        let sandbox = try Sandbox()
        let created = try sandbox.run(["create", "--title", "Mine", "--level", "expert", "--json", "--quiz", "movie=19 areas=20:20"])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try jsonObject(created.stdout)["shareCode"] as! String
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.defaultDatabase))
        let edit = try sandbox.run(["edit", code, "--quiz", "1", "--poster", "../../../../../etc/passwd"])
        #expect(edit.status == 64, "a rule an edit breaks is a usage error, as for --areas")
        #expect(edit.stderrLines.count == 1)
        #expect(edit.stderrLines.first?.contains("a TMDB poster path is / and a file name") == true, "\(edit.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.defaultDatabase)) == before)
        let create = try sandbox.run(["create", "--title", "Bad", "--level", "expert", "--quiz", "movie=19 areas=20:20 poster=/.."])
        #expect(create.status != 0)
        #expect(create.stderrLines.last?.contains("a poster is a TMDB path (/ and a file name) or the name of a stored poster image") == true, "\(create.stderr)")
    }

    @Test func aPosterImageTheDatabaseHoldsIsNamedWithoutTheSlash() throws {
        let sandbox = try Sandbox()
        let missing = try sandbox.run(
            ["create", "--title", "Mine", "--level", "expert", "--quiz", "movie=19 areas=20:20 poster=nothing-here.jpg"])
        #expect(missing.status == 1)
        #expect(missing.stderrLines.last == "Error: quiz 1: no poster image nothing-here.jpg in this database; name a TMDB path (/...jpg)")
        let bundled = try sandbox.run(
            ["create", "--title", "Mine", "--level", "expert", "--json", "--quiz", "movie=19 areas=20:20 poster=earth-1930.jpg"])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(bundled.stdout.contains("earth-1930.jpg") && bundled.stdout.contains("bundled"), "\(bundled.stdout)")
    }
}
