import Foundation
import GRDB
import Testing

/// Text from a file or the database that reaches an error line or a log line is escaped where it meets the terminal.
@Suite("Hostile text in errors and logs")
struct HostileTextTests {
    /// An OSC 52 clipboard write, an OSC 8 link and a screen clear.
    static let hostile = "\u{1B}]52;c;aGk=\u{07}\u{1B}]8;;http://x\u{07}\u{1B}[2J"

    func expectNoControlCharacters(_ text: String, _ comment: Comment) {
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, comment)
    }

    @Test func aSpecOrExportQuotingHostileValuesGetsEscapedErrorLines() throws {
        let sandbox = try Sandbox()
        let spec = sandbox.path("spec.json")
        let specJSON: [String: Any] = ["format": 1, "title": "t", "level": Self.hostile, "quizzes": [["movie": 19, "areas": [[30, 25]]]]]
        try JSONSerialization.data(withJSONObject: specJSON).write(to: URL(fileURLWithPath: spec))
        let created = try sandbox.run(["create", "--from", spec])
        #expect(created.status == 1)
        #expect(created.stderr.contains("\\u{1B}]52;c;aGk=\\u{7}"), "quoted, escaped: \(created.stderr)")
        expectNoControlCharacters(created.stderr, "create --from")

        let export = sandbox.path("export.json")
        try sandbox.run(["export", "en-silent", "-o", export])
        var document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export))) as! [String: Any]
        var packages = document["packages"] as! [[String: Any]]
        packages[0]["level"] = Self.hostile
        document["packages"] = packages
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: export))
        let imported = try sandbox.run(["import", export, "--as-copy"])
        #expect(imported.status == 1)
        expectNoControlCharacters(imported.stderr, "import")
    }

    @Test func aCraftedShareCodeInTheDatabaseIsEscapedInTheCorruptionError() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let queue = try DatabaseQueue(path: sandbox.defaultDatabase)
        try queue.write { db in
            try db.execute(sql: "UPDATE package SET shareCode = ? WHERE seedId = 'en-silent'", arguments: [Self.hostile])
        }
        try queue.close()
        let shown = try sandbox.run(["show", "en-silent"])
        #expect(shown.status == 1)
        #expect(shown.stderr.contains("\\u{1B}[2J"), "\(shown.stderr)")
        expectNoControlCharacters(shown.stderr, "show")
        let stats = try sandbox.run(["solve", "en-silent", "--plain", "--quiz", "1", "--time-scale", "0.01"])
        expectNoControlCharacters(stats.stderr + stats.stdout, "solve")
    }
}
