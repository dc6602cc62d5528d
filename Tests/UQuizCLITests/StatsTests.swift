import Foundation
import Testing

@Suite("uquiz stats")
struct StatsTests {
    @Test func attemptsAddUpToRatesStreaksAndTheHardestQuizzes() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run(["stats"]).stdout == "No attempts in this computer's store yet: play with `uquiz solve`. Plays judged by a server are kept there: `uquiz leaderboard CODE` and `uquiz daily` show yours.\n")
        // Two plays of the expert package (5 quizzes): first solves quizzes 1 and 2, second solves 1, 2 and 3.
        let show = try jsonObject(try sandbox.run(["show", "en-expert", "--json"]).stdout)
        let actual = (show["quizzes"] as! [[String: Any]]).map { $0["title"] as! String }
        try #require(actual.count == 5, "\(actual)")
        for solved in [2, 3] {
            let input = sandbox.path("play\(solved).txt")
            let lines = actual.enumerated().map { $0.offset < solved ? $0.element : "/skip" }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
            let play = try sandbox.runWithInput(["solve", "en-expert", "--plain", "--time-scale", "0.01"], input: input)
            #expect(play.status == 0, "\(play.stderr)")
        }
        let stats = try jsonObject(try sandbox.run(["stats", "--json"]).stdout)
        #expect(stats["plays"] as? Int == 2)
        #expect(stats["attempts"] as? Int == 10)
        #expect(stats["correct"] as? Int == 5)
        #expect(stats["bestStreak"] as? Int == 3, "quizzes 1-3 of the second play")
        #expect(stats["currentStreak"] as? Int == 0, "it ended on skips")
        #expect(stats["averageStage"] as? Double == 1, "every answer came at the first area")
        let hardest = stats["hardest"] as! [[String: Any]]
        #expect(hardest.first?["correct"] as? Int == 0)
        #expect(hardest.map { $0["position"] as! Int }.prefix(2) == [4, 5])
        let text = try sandbox.run(["stats"])
        #expect(text.stdout.contains("2 plays, 5 of 10 quizzes solved (50%)"))
        #expect(text.stdout.contains("██████████░░░░░░░░░░  50% of 10"))
        let onePackage = try jsonObject(try sandbox.run(["stats", "en-beginner", "--json"]).stdout)
        #expect(onePackage["attempts"] as? Int == 0)
    }
}
