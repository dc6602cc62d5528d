import Foundation
import Testing

@Suite("uquiz judge end to end")
struct JudgeCommandTests {
    @Test func anAcceptedGuessPrintsOneLineAndExitsZeroWithoutADatabase() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["judge", "--title", "Inception", "Incpetion"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "accepted: matches \"Inception\" within 1 typo\n")
        #expect(result.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("data")), "judging needs no database")

        let exact = try sandbox.run(["judge", "--title", "Inception", "  INCEPTION! "])
        #expect(exact.status == 0)
        #expect(exact.stdout == "accepted: matches \"Inception\" exactly\n")

        let twoTypos = try sandbox.run(["judge", "--title", "Interstellar", "Intrestelar"])
        #expect(twoTypos.stdout == "accepted: matches \"Interstellar\" within 2 typos\n")
    }

    @Test func theOriginalTitleAndAliasesAreAcceptedToo() throws {
        let sandbox = try Sandbox()
        let titles = ["--title", "기생충", "--original", "Gisaengchung", "--alias", "Parasite", "--alias", "PARASITE (2019)"]
        let alias = try sandbox.run(["judge"] + titles + ["parasite"])
        #expect(alias.status == 0)
        #expect(alias.stdout == "accepted: matches \"Parasite\" exactly\n")
        let original = try sandbox.run(["judge"] + titles + ["Gisaengchung"])
        #expect(original.stdout == "accepted: matches \"Gisaengchung\" exactly\n")
        let decomposed = try sandbox.run(["judge"] + titles + ["기생충".decomposedStringWithCanonicalMapping])
        #expect(decomposed.status == 0)
        #expect(decomposed.stdout == "accepted: matches \"기생충\" exactly\n")
        let sequel = try sandbox.run(["judge", "--title", "Rocky II", "rocky 2"])
        #expect(sequel.stdout == "accepted: matches \"Rocky II\" exactly\n")
    }

    @Test func rejectedGuessesSayWhyAndExitOne() throws {
        let sandbox = try Sandbox()
        let cases: [([String], String)] = [
            (["--title", "Toy Story", "Toy Story 2"], "rejected: digits differ from \"Toy Story\""),
            (["--title", "범죄도시 2", "범죄도시"], "rejected: digits differ from \"범죄도시 2\""),
            (
                ["--title", "Toy Story", "--other-movie", "Toy Story 2", "--other-movie", "Toy Story 3", "toy story 2"],
                "rejected: that is the title of another movie (\"Toy Story 2\")"
            ),
            (["--title", "Aliens", "--other-movie", "Alien", "Alien"], "rejected: that is the title of another movie (\"Alien\")"),
            (["--title", "Inception", "Dunkirk"], "rejected: too far from every accepted title"),
            (["--title", "Rocky", "Rokcy"], "rejected: too far from every accepted title"),
            (["--title", "Inception", ""], "rejected: empty guess"),
            (["--title", "Inception", " !? "], "rejected: empty guess"),
        ]
        for (arguments, line) in cases {
            let result = try sandbox.run(["judge"] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stdout == line + "\n", "\(arguments)")
            #expect(result.stderr.isEmpty, "\(arguments)")
        }
    }

    @Test func jsonHasTheDocumentedKeysWithNullsForARejection() throws {
        let sandbox = try Sandbox()
        let accepted = try sandbox.run(["judge", "--json", "--title", "Amélie", "--alias", "Amelie", "Amelei"])
        #expect(accepted.status == 0)
        let acceptedObject = try JSONSerialization.jsonObject(with: Data(accepted.stdout.utf8)) as! [String: Any]
        #expect(Set(acceptedObject.keys) == ["accepted", "reason", "matchedTitle", "distance"])
        #expect(acceptedObject["accepted"] as? Bool == true)
        #expect(acceptedObject["matchedTitle"] as? String == "Amélie")
        #expect(acceptedObject["distance"] as? Int == 1)
        #expect(acceptedObject["reason"] as? String == "matches \"Amélie\" within 1 typo")

        let rejected = try sandbox.run(["judge", "--title", "Toy Story", "Toy Story 2", "--json"])
        #expect(rejected.status == 1)
        let rejectedObject = try JSONSerialization.jsonObject(with: Data(rejected.stdout.utf8)) as! [String: Any]
        #expect(Set(rejectedObject.keys) == ["accepted", "reason", "matchedTitle", "distance"])
        #expect(rejectedObject["accepted"] as? Bool == false)
        #expect(rejectedObject["reason"] as? String == "digits differ from \"Toy Story\"")
        #expect(rejectedObject["matchedTitle"] is NSNull)
        #expect(rejectedObject["distance"] is NSNull)
    }

    @Test func badUsageExitsSixtyFour() throws {
        let sandbox = try Sandbox()
        let noTitle = try sandbox.run(["judge", "Inception"])
        #expect(noTitle.status == 64)
        #expect(noTitle.stderr.contains("--title"))
        #expect(noTitle.stdout.isEmpty)

        for title in ["", "   ", "!!!"] {
            let empty = try sandbox.run(["judge", "--title", title, "Inception"])
            #expect(empty.status == 64, "--title \"\(title)\"")
            #expect(empty.stderr.hasPrefix("Error: --title must contain a letter or a digit\n"))
            #expect(empty.stdout.isEmpty)
        }

        let noGuess = try sandbox.run(["judge", "--title", "Inception"])
        #expect(noGuess.status == 64)
        let unknownFlag = try sandbox.run(["judge", "--title", "Inception", "--hint", "Inception"])
        #expect(unknownFlag.status == 64)
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("data")))
    }

    @Test func titlesCannotDriveTheTerminal() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["judge", "--title", "Evil\u{1B}[31m Twin", "evil 31m twin"])
        #expect(result.status == 0)
        #expect(result.stdout == "accepted: matches \"Evil\\u{1B}[31m Twin\" exactly\n")
    }

    @Test func helpListsJudge() throws {
        let result = try Sandbox().run(["--help"])
        #expect(result.stdout.contains("judge"))
    }
}
