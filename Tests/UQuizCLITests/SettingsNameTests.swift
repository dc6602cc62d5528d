import Foundation
import Testing
import UQuizTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 13, item 14, through the binary.
@Suite("Names from settings keep the rules every text keeps")
struct SettingsNameTests {
    @Test(arguments: [("escape", "evil\u{1B}]52;c;ZXZpbA==\u{07}"), ("long", String(repeating: "m", count: 10_000))])
    func aMakerNameFromTheEnvironmentIsCheckedLikeAnyText(label: String, name: String) throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let result = try sandbox.run(
            ["create", "--title", "Named", "--level", "expert", "--quiz", "movie=19 areas=30:25"],
            extraEnvironment: ["UQUIZ_MAKER": name])
        #expect(result.status != 0, "\(label)")
        #expect(result.stderrLines.count == 1, "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains("UQUIZ_MAKER"), "\(result.stderr.prefix(300))")
        #expect(!result.stderr.contains("\u{1B}"), "the name is not echoed raw")
        #expect(result.stderr.utf8.count < 400, "the name is not echoed whole")
        #expect(try packageCount(sandbox) == 8, "nothing stored")
    }

    @Test func aPlayerNameIsCheckedLikeAnyText() throws {
        let sandbox = try Sandbox()
        let input = sandbox.path("skip.txt")
        try Data("/skip\n".utf8).write(to: URL(fileURLWithPath: input))
        let fromEnvironment = try sandbox.run(
            ["solve", "en-silent", "--quiz", "1", "--plain", "--time-scale", "0.01"],
            extraEnvironment: ["UQUIZ_PLAYER": "bad\u{1B}[2J"])
        #expect(fromEnvironment.status != 0)
        #expect(fromEnvironment.stderr.contains("UQUIZ_PLAYER"), "\(fromEnvironment.stderr)")
        let fromFlag = try sandbox.runWithInput(
            ["solve", "en-silent", "--quiz", "1", "--plain", "--time-scale", "0.01", "--player", String(repeating: "p", count: 10_000)],
            input: input)
        #expect(fromFlag.status != 0)
        #expect(fromFlag.stderr.contains("--player"), "\(fromFlag.stderr.prefix(300))")
        let stats = try jsonObject(try sandbox.run(["stats", "--json"]).stdout)
        #expect(stats["attempts"] as? Int == 0, "nothing recorded: \(stats)")
    }

    /// With USER unset or empty (cron, containers) the maker is still "your user name", from the password database.
    @Test func anEmptyUSERFallsBackToTheAccountName() throws {
        let sandbox = try Sandbox()
        let account = try #require(getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } })
        let made = try sandbox.run(
            ["create", "--title", "Named", "--level", "expert", "--quiz", "movie=19 areas=30:25"], extraEnvironment: ["USER": ""])
        #expect(made.status == 0, "\(made.stderr)")
        let shown = try jsonObject(try sandbox.run(["show", "9", "--json"]).stdout)
        #expect(shown["maker"] as? String == account)
    }
}
