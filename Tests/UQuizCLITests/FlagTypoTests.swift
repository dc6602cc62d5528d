import Foundation
import Testing

/// Misspelled flags and commands get argument-parser's own "Did you mean", never a misleading complaint.
@Suite("Typos in flags and commands")
struct FlagTypoTests {
    @Test(arguments: [
        (["create", "--levle", "expert", "--title", "x", "--quiz", "movie=19 areas=30:25"], "Unknown option '--levle'. Did you mean '--level'?"),
        (["edit", "9", "--titel", "foo"], "Unknown option '--titel'. Did you mean '--title'?"),
        (["slove"], "unknown command 'slove'. Did you mean 'solve'?"),
        (["list", "--limit", "-1"], "Error: --limit must be 1 or more"),
    ])
    func typosAreNamed(arguments: [String], message: String) throws {
        let result = try Sandbox().run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func levelsAndLanguagesAreReadInAnyCase() throws {
        let result = try Sandbox().run(["list", "--level", "Expert", "--language", "EN", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        #expect(rows.map { $0["shareCode"] as? String } .count == 1)
        #expect(rows.allSatisfy { $0["level"] as? String == "expert" && $0["language"] as? String == "en" })
    }

    @Test func createReadsTheLevelInAnyCaseToo() throws {
        let sandbox = try Sandbox()
        let made = try sandbox.run(["create", "--title", "Cased", "--level", "Expert", "--quiz", "movie=19 areas=30:25,15:15,50:35", "--json"])
        #expect(made.status == 0, "\(made.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(try sandbox.run(["list", "--mine", "--json"]).stdout.utf8)) as! [[String: Any]]
        #expect(rows.map { $0["level"] as? String } == ["expert"])
    }

    @Test func aFlagRuleBrokenIsOneLine() throws {
        let result = try Sandbox().run(["create", "--title", "x"])
        #expect(result.status == 64)
        #expect(result.stderr == "Error: --title, --level and at least one --quiz are needed (or --from FILE, or a terminal)\n")
    }
}
