import Foundation
import Testing
import UQuizTestSupport

@Suite("uquiz export and import")
struct SharingTests {
    /// A package made in one sandbox, exported to a file.
    func exported() throws -> (sandbox: Sandbox, file: String, package: [String: Any]) {
        let sandbox = try Sandbox()
        let created = try sandbox.run([
            "create", "--title", "To share 🎬", "--level", "intermediate", "--maker", "jun", "--json",
            "--quiz", "movie=27205 areas=20:20,40:30,60:10", "--quiz", "movie=496243 areas=30:25",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let package = try jsonObject(created.stdout)
        let file = sandbox.path("share.json")
        let export = try sandbox.run(["export", package["shareCode"] as! String, "-o", file])
        #expect(export.status == 0, "\(export.stderr)")
        return (sandbox, file, package)
    }

    func withoutId(_ package: [String: Any]) -> NSDictionary {
        var copy = package
        copy.removeValue(forKey: "id")
        return copy as NSDictionary
    }

    @Test func aPackageRoundTripsIntoAFreshDatabase() throws {
        let (origin, file, original) = try exported()
        let friend = try Sandbox()
        let imported = try withExtendedLifetime(origin) { try friend.run(["import", file]) }
        #expect(imported.status == 0, "\(imported.stderr)")
        let code = original["shareCode"] as! String
        #expect(imported.stdout.contains(" \(code) \"To share 🎬\", 2 quizzes"))
        let shown = try jsonObject(try friend.run(["show", code, "--json"]).stdout)
        #expect(withoutId(shown) == withoutId(original))
        // The movies' facts came along: the friend's catalog can judge and search them offline.
        let search = try friend.run(["search", "Parasite", "--offline", "--json"])
        #expect((try jsonObject(search.stdout)["results"] as! [[String: Any]]).first?["id"] as? Int == 496243)
    }

    @Test func importingTheSamePackageTwiceIsRefusedUnlessAsCopy() throws {
        let (origin, file, original) = try exported()
        defer { withExtendedLifetime(origin) {} }
        let friend = try Sandbox()
        try friend.run(["import", file])
        let before = try packageCount(friend)
        let again = try friend.run(["import", file])
        #expect(again.status == 1)
        #expect(again.stderrLines.last?.hasPrefix("Error: package \(original["shareCode"] as! String) is already here (id 9); nothing imported") == true)
        #expect(try packageCount(friend) == before)
        let copy = try friend.run(["import", file, "--as-copy"])
        #expect(copy.status == 0)
        #expect(copy.stdout.contains("(a copy of \(original["shareCode"] as! String))"))
        #expect(try packageCount(friend) == before + 1)
    }

    @Test func badFilesAreRefusedWholeWithTheirJSONPath() throws {
        let (sandbox, file, _) = try exported()
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        func variant(_ change: (inout [String: Any]) -> Void) throws -> String {
            var copy = document
            change(&copy)
            return String(decoding: try JSONSerialization.data(withJSONObject: copy), as: UTF8.self)
        }
        func editQuiz(_ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) -> Void {
            { doc in
                var packages = doc["packages"] as! [[String: Any]]
                var quizzes = packages[0]["quizzes"] as! [[String: Any]]
                change(&quizzes[0])
                packages[0]["quizzes"] = quizzes
                doc["packages"] = packages
            }
        }
        let cases: [(String, String)] = [
            ("[1, 2", "$: not JSON (or cut short)"),
            (String(text.prefix(text.count / 2)), "$: not JSON (or cut short)"),
            (try variant { $0["format"] = 7 }, "$.format: format 7 is newer than this uquiz understands (1); upgrade uquiz"),
            (try variant { $0["kind"] = "something-else" }, "$.kind: \"something-else\" is not a uquiz export"),
            (try variant(editQuiz { $0["areas"] = [[20, 20], [22, 22]] }),
             "$.packages[0].quizzes[0].areas[1]: r22 c22 overlaps area 1 (centred on r20 c20): areas may not share cells"),
            (try variant(editQuiz { $0["areas"] = [[20, 20], [40, 30], [60, 10], [10, 40], [65, 40]] }),
             "$.packages[0].quizzes[0].areas[4]: r65 c40 would be one area too many: the level allows only 4"),
            (try variant(editQuiz { $0["title"] = String(repeating: "x", count: 201) }),
             "$.packages[0].quizzes[0].title: the title has 201 characters: at most 200"),
            (try variant(editQuiz { $0["grid"] = ["columns": 50, "rows": 75, "areaSize": 4, "margin": 2] }),
             "$.packages[0].quizzes[0].grid: area size 4 is invalid: it must be a positive odd number so that an area has a centre cell"),
            (try variant { doc in doc["packages"] = (doc["packages"] as! [Any]) + (doc["packages"] as! [Any]) },
             "$.packages[1].shareCode: \(((document["packages"] as! [[String: Any]])[0]["shareCode"] as! String)) is also package 1 of this file"),
            (try variant(editQuiz { $0["posterSource"] = "bundled"; $0["posterPath"] = "nope.jpg" }), ""),
        ]
        let friend = try Sandbox()
        try friend.run(["list"])
        let before = try Data(contentsOf: URL(fileURLWithPath: friend.defaultDatabase))
        for (index, (content, message)) in cases.enumerated() {
            let path = sandbox.path("bad\(index).json")
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            let result = try friend.run(["import", path])
            #expect(result.status == 1, "case \(index)")
            if message.isEmpty {
                #expect(result.stderrLines == [
                    "Error: the bundled poster nope.jpg is not in this database; run `uquiz seed merge` first; nothing imported"
                ], "case \(index)")
            } else {
                #expect(result.stderrLines == ["Error: \(path): \(message); nothing imported"], "case \(index)")
            }
        }
        let huge = sandbox.path("huge.json")
        _ = FileManager.default.createFile(atPath: huge, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let result = try friend.run(["import", huge])
        #expect(result.stderrLines == ["Error: \(huge) is 100 MB: an export is at most 20 MB; nothing imported"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: friend.defaultDatabase)) == before, "nothing written")
    }

    @Test func exportingToStandardOutputAndBundledPackages() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["export", "en-silent"])
        #expect(result.status == 0)
        let document = try jsonObject(result.stdout)
        #expect(document["format"] as? Int == 1)
        let quizzes = (document["packages"] as! [[String: Any]])[0]["quizzes"] as! [[String: Any]]
        #expect(quizzes.count == 25)
        #expect(quizzes.allSatisfy { $0["posterSource"] as? String == "bundled" })
        #expect(!result.stdout.contains("\"id\""), "no local ids")
        let missing = try sandbox.run(["export", "NOPE22"])
        #expect(missing.status == 1)
    }
}
