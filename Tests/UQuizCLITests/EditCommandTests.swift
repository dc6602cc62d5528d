import Foundation
import GRDB
import Testing

@Suite("uquiz edit")
struct EditCommandTests {
    /// A user package of three expert quizzes, and its share code.
    func package(in sandbox: Sandbox) throws -> String {
        let created = try sandbox.run([
            "create", "--title", "Edit me", "--level", "beginner", "--json",
            "--quiz", "movie=27205 areas=20:20,40:30,60:10,10:40", "--quiz", "movie=862 areas=30:25", "--quiz", "movie=19 areas=50:10",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        return try jsonObject(created.stdout)["shareCode"] as! String
    }

    func shown(_ sandbox: Sandbox, _ code: String) throws -> [String: Any] {
        try jsonObject(try sandbox.run(["show", code, "--json"]).stdout)
    }

    @Test func titleMakerLevelAndAQuizsAreas() throws {
        let sandbox = try Sandbox()
        let code = try package(in: sandbox)
        let result = try sandbox.run(["edit", code, "--title", "Edited", "--maker", "ara", "--quiz", "1", "--areas", "12:30,40:12"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Saved 3 changes to \"Edited\" (\(code)).\n")
        #expect(try sandbox.run(["edit", code, "--level", "expert"]).status == 0)
        let package = try shown(sandbox, code)
        #expect(package["title"] as? String == "Edited")
        #expect(package["maker"] as? String == "ara")
        #expect(package["level"] as? String == "expert")
        #expect((package["quizzes"] as! [[String: Any]])[0]["areas"] as? [[Int]] == [[12, 30], [40, 12]])
    }

    @Test func loweringALevelBelowAQuizsAreasIsRefusedNamingTheQuiz() throws {
        let sandbox = try Sandbox()
        let code = try package(in: sandbox)
        let result = try sandbox.run(["edit", code, "--level", "expert"])
        #expect(result.status == 64)
        #expect(result.stderrLines == [
            "Error: --level: quiz 1 (Inception) has 4 areas but expert allows 3; give it fewer areas first"
        ])
        #expect(try shown(sandbox, code)["level"] as? String == "beginner", "nothing saved")
        let overlap = try sandbox.run(["edit", code, "--quiz", "2", "--areas", "30:25,31:26"])
        #expect(overlap.stderrLines == ["Error: --areas: quiz 2: r31 c26 overlaps area 1 (centred on r30 c25): areas may not share cells"])
        let noQuiz = try sandbox.run(["edit", code, "--quiz", "9", "--remove"])
        #expect(noQuiz.stderrLines == ["Error: --quiz: there is no quiz 9: the package has 3"])
        #expect(try sandbox.run(["edit", code, "--areas", "30:25"]).status == 64)
        #expect(try sandbox.run(["edit", code]).status == 64)
    }

    @Test func movingAndRemovingQuizzesKeepsTheAttemptsOfThoseThatStay() throws {
        let sandbox = try Sandbox()
        let code = try package(in: sandbox)
        let queue = try DatabaseQueue(path: sandbox.defaultDatabase)
        try queue.write { db in
            for title in ["Inception", "Metropolis"] {
                try db.execute(
                    sql: """
                        INSERT INTO attempt (quizId, player, startedAt, correct, seconds, stageReached)
                        SELECT quiz.id, 'p', '2026-11-22T00:00:00Z', 1, 5, 2 FROM quiz JOIN package ON package.id = quiz.packageId
                        WHERE package.shareCode = ? AND quiz.title = ?
                        """, arguments: [code, title])
            }
        }
        try queue.close()
        #expect(try sandbox.run(["edit", code, "--quiz", "3", "--move-to", "1"]).status == 0)
        #expect((try shown(sandbox, code)["quizzes"] as! [[String: Any]]).map { $0["title"] as! String }
            == ["Metropolis", "Inception", "Toy Story"])
        #expect(try sandbox.run(["edit", code, "--quiz", "2", "--remove"]).status == 0)
        #expect((try shown(sandbox, code)["quizzes"] as! [[String: Any]]).map { $0["title"] as! String } == ["Metropolis", "Toy Story"])
        let reopened = try DatabaseQueue(path: sandbox.defaultDatabase)
        let attempts = try reopened.read { db in
            try String.fetchAll(db, sql: "SELECT quiz.title FROM attempt JOIN quiz ON quiz.id = attempt.quizId")
        }
        #expect(attempts == ["Metropolis"], "the removed quiz's attempt went with it; the moved one kept its own")
        let integrity = try reopened.read { try String.fetchAll($0, sql: "PRAGMA foreign_key_check") }
        #expect(integrity.isEmpty)
    }

    @Test func theLastQuizCannotBeRemoved() throws {
        let sandbox = try Sandbox()
        let created = try sandbox.run(["create", "--title", "Solo", "--level", "expert", "--quiz", "movie=19 areas=30:25", "--json"])
        let code = try jsonObject(created.stdout)["shareCode"] as! String
        let result = try sandbox.run(["edit", code, "--quiz", "1", "--remove"])
        #expect(result.stderrLines == ["Error: --remove: quiz 1 is the only one: delete the package instead"])
    }

    @Test func areasShownByShowCanBePastedIntoEditAndOneQuizIsOneQuiz() throws {
        let sandbox = try Sandbox()
        let shown = try sandbox.run(["show", "en-silent"]).stdout
        #expect(shown.contains("maker "), "no 'by Created by'")
        let line = try #require(shown.split(separator: "\n").first { $0.contains("areas ") })
        let areas = String(line[line.range(of: "areas ")!.upperBound...])
        #expect(areas.range(of: #"^\d+:\d+(,\d+:\d+)*$"#, options: .regularExpression) != nil, "row:column, as --areas reads: \(areas)")
        let edited = try sandbox.run(["edit", "en-silent", "--quiz", "1", "--areas", areas])
        #expect(edited.status == 0, "\(edited.stderr)")
        let created = try sandbox.run(["create", "--title", "One", "--level", "expert", "--quiz", "movie=19 areas=30:25", "--json"])
        let code = try #require((try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])?["shareCode"] as? String)
        let one = try sandbox.run(["show", code]).stdout
        #expect(one.contains("· 1 quiz") && !one.contains("1 quizzes"))
    }

    @Test func aNewPosterMustBeOneASolverCanSee() throws {
        let offline = try Sandbox()
        try offline.run(["list"])
        let refused = try offline.run(["edit", "en-expert", "--quiz", "1", "--poster", "/nope.jpg"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("Error: --poster: the poster cannot be shown: "), "\(refused.stderr)")
        #expect(!(try offline.run(["show", "en-expert", "--json"]).stdout.contains("/nope.jpg")), "nothing changed")

        let server = try seedServer()
        let online = try onlineSandbox(server)
        let missing = try online.run(["edit", "en-expert", "--quiz", "1", "--poster", "/nope.jpg"])
        #expect(missing.status == 1, "the image server has no such poster")
        let show = try JSONSerialization.jsonObject(with: Data(try online.run(["show", "en-expert", "--json"]).stdout.utf8)) as! [String: Any]
        let second = ((show["quizzes"] as! [[String: Any]])[1]["posterPath"] as! String)
        let saved = try online.run(["edit", "en-expert", "--quiz", "1", "--poster", second])
        #expect(saved.status == 0, "a poster the server has is saved: \(saved.stderr)")
    }
}
