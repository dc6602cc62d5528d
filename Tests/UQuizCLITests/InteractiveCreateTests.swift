import Foundation
import Testing
import UQuizTestSupport

@Suite("uquiz create on a terminal")
struct InteractiveCreateTests {
    func start(_ sandbox: Sandbox) throws -> PseudoTerminalSession {
        try sandbox.run(["list"])  // seed first, so the session's output starts with the prompts
        return try PseudoTerminalSession(binary: uquizBinary, arguments: ["create", "--seed", "5"], environment: sandbox.environment)
    }

    @Test func aMakerBuildsAPackageStepByStepWithMistakesUndoAndAuto() throws {
        let sandbox = try Sandbox()
        sandbox.environment["USER"] = "tester"
        let session = try start(sandbox)
        #expect(session.waitFor("Package title: "))
        session.send("")
        #expect(session.waitFor("the title is empty"))
        session.send("Pty night")
        #expect(session.waitFor("Your name as maker [tester]: "))
        session.send("mina")
        #expect(session.waitFor("Level:"))
        session.send("exp")
        #expect(session.waitFor("Quiz 1:"))
        session.send("metropolis")
        #expect(session.waitFor("1) Metropolis (1927)"))
        session.send("5")
        #expect(session.waitFor("✗ \"5\" is not one of 1-1"), "a bad pick is said, not dropped")
        session.send("1")
        #expect(session.waitFor("Area 1 of up to 3"))
        session.send("2:30")
        #expect(session.waitFor("r2 c30 is outside the margin"))
        session.send("30:25")
        #expect(session.waitFor("Area 2 of up to 3"))
        session.send("31:26")
        #expect(session.waitFor("r31 c26 overlaps area 1 (centred on r30 c25)"))
        session.send("undo")
        #expect(session.waitFor("Area 1 of up to 3", occurrence: 2))
        session.send("auto")
        #expect(session.waitFor("All 3 areas placed"))
        session.send("done")
        #expect(session.waitFor("added Metropolis"))
        #expect(session.waitFor("Quiz 2:"))
        // Back to quiz 1: its areas are loaded; replace them with two typed ones.
        session.send("areas 1")
        #expect(session.waitFor("quiz 1: Metropolis"))
        #expect(session.waitFor("All 3 areas placed", occurrence: 2))
        session.send("clear")
        #expect(session.waitFor("Area 1 of up to 3", occurrence: 3))
        session.send("r20 c20")
        #expect(session.waitFor("Area 2 of up to 3", occurrence: 3))
        session.send("3020")
        #expect(session.waitFor("Area 3 of up to 3"))
        session.send("done")
        #expect(session.waitFor("Quiz 2:", occurrence: 2))
        session.send("done")
        #expect(session.waitFor("Save \"Pty night\" with 1 quiz? [Y/n]: "))
        session.send("y")
        #expect(session.waitFor("Created package 9"))
        #expect(session.waitForExit().status == 0)
        // The labelled grid was drawn with the placed areas.
        #expect(session.transcript.contains("      0    10   20   30   40"))

        let mine = try JSONSerialization.jsonObject(with: Data(try sandbox.run(["list", "--mine", "--json"]).stdout.utf8)) as! [[String: Any]]
        #expect(mine.map { $0["title"] as! String } == ["Pty night"])
        #expect(mine.first?["maker"] as? String == "mina")
        let shown = try jsonObject(try sandbox.run(["show", mine[0]["shareCode"] as! String, "--json"]).stdout)
        #expect((shown["quizzes"] as! [[String: Any]])[0]["areas"] as? [[Int]] == [[20, 20], [60, 20]])
        // The maker is remembered, in a file only the user can read.
        let configPath = sandbox.path("config/uquiz/config.json")
        let config = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: configPath))) as! [String: Any]
        #expect(config["maker"] as? String == "mina")
        let mode = try FileManager.default.attributesOfItem(atPath: configPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func ctrlCAtAnyPointSavesNothing() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox)
        #expect(session.waitFor("Package title: "))
        session.send("Never saved")
        #expect(session.waitFor("maker"))
        session.send("")
        #expect(session.waitFor("Level:"))
        session.send("")
        #expect(session.waitFor("Quiz 1:"))
        session.send("nosferatu")
        #expect(session.waitFor("Pick 1-"))
        session.send("1")
        #expect(session.waitFor("Area 1 of up to 5"))
        session.interrupt()
        let exit = session.waitForExit()
        #expect(exit.reason == .uncaughtSignal)
        #expect(exit.status == SIGINT)
        let mine = try sandbox.run(["list", "--mine"])
        #expect(mine.stdout == "You have made no packages yet.\n")
    }

    @Test func endOfInputSavesNothingAndSaysSo() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox)
        #expect(session.waitFor("Package title: "))
        session.send("Half done")
        #expect(session.waitFor("maker"))
        session.sendEndOfInput()
        let exit = session.waitForExit()
        #expect(exit.status == 1)
        #expect(session.transcript.contains("Error: input ended; nothing was saved"))
        #expect(try sandbox.run(["list", "--mine"]).stdout == "You have made no packages yet.\n")
    }

    @Test func withoutATerminalTheFlagsAreRequired() throws {
        let result = try Sandbox().run(["create"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--title, --level and at least one --quiz are needed (or --from FILE, or a terminal)"))
    }
}
