import Foundation
import Testing
@testable import UQuizCLI

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
        #expect(stats["solvedAtStage"] as? [[String: Int]] == [["stage": 1, "solved": 5]])
        let text = try sandbox.run(["stats"])
        #expect(text.stdout.contains("2 plays, 5 of 10 quizzes solved (50%)"))
        #expect(text.stdout.contains("answers come at stage 1.0 on average") && text.stdout.contains("The stage answers come at"))
        // The charts at a narrow and a wide terminal: the five solves all at stage 1, the package at 50%.
        var packageBars: [Int] = []
        for columns in [40, 120] {
            let drawn = try sandbox.run(["stats"], extraEnvironment: ["COLUMNS": "\(columns)", "TERM": "xterm"]).stdout
            let lines = drawn.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.contains("█") }.allSatisfy { TextWidth.of($0) <= columns }, "\(drawn)")
            let stage = try #require(lines.first { $0.hasPrefix("  stage 1 ") }, "\(drawn)")
            #expect(stage.hasSuffix(" 5") && stage.contains("█"))
            let package = try #require(lines.first { $0.contains("50% of 10") }, "\(drawn)")
            packageBars.append(package.filter { $0 == "█" }.count)
        }
        #expect(packageBars[0] >= 4 && packageBars[1] >= 2 * packageBars[0], "the bar grows with the terminal: \(packageBars)")
        let plain = try sandbox.run(["stats"], extraEnvironment: ["COLUMNS": "40", "TERM": "dumb"]).stdout
        #expect(!plain.contains { "█▏▎▍▌▋▊▉".contains($0) } && plain.contains("  stage 1 ###"), "\(plain)")
        #expect(try sandbox.run(["stats"], extraEnvironment: ["NO_COLOR": "1"]).stdout.contains("#"), "NO_COLOR too")
        let onePackage = try jsonObject(try sandbox.run(["stats", "en-beginner", "--json"]).stdout)
        #expect(onePackage["attempts"] as? Int == 0)
    }
}
