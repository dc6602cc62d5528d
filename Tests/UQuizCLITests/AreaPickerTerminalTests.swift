import Foundation
import Testing
import UQuizTestSupport

/// The full-screen area picker of `uquiz create`, driven through a pseudo-terminal like a maker at a keyboard.
@Suite("The area picker on a terminal")
struct AreaPickerTerminalTests {
    func start(
        _ sandbox: Sandbox, term: String = "xterm-256color", arguments: [String] = ["create", "--seed", "5"]
    ) throws -> PseudoTerminalSession {
        try sandbox.run(["list"])
        var environment = sandbox.environment
        environment["TERM"] = term
        environment["COLORTERM"] = "truecolor"
        let session = try PseudoTerminalSession(binary: uquizBinary, arguments: arguments, environment: environment)
        session.resize(rows: 45, columns: 100)
        return session
    }

    /// Title, maker, level expert, then Metropolis (one bundled poster: no chooser).
    func answerUpToTheMovie(_ session: PseudoTerminalSession, title: String) {
        #expect(session.waitFor("Package title: "))
        session.send(title)
        #expect(session.waitFor("Your name as maker"))
        session.send("mina")
        #expect(session.waitFor("Level:"))
        session.send("expert")
        #expect(session.waitFor("Quiz 1:"))
        session.send("metropolis")
        #expect(session.waitFor("1) Metropolis (1927)"))
        session.send("1")
    }

    @Test func keysAndAClickPlaceAreasOnThePosterARefusalSaysWhyUndoPreviewAndSave() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox)
        answerUpToTheMovie(session, title: "Seen night")
        #expect(session.waitFor("\u{1B}[?1049h"), "the alternate screen")
        #expect(session.waitFor("Areas for Metropolis · up to 3"))
        #expect(session.waitFor("▀"), "the poster in half blocks")
        #expect(session.transcript.contains("\u{1B}[38;2;"), "in 24-bit colour")
        session.type(" ")
        #expect(session.waitFor("placed area 1 at r37 c25"))
        session.type("KKHH ")
        #expect(session.waitFor("placed area 2 at r27 c15"))
        session.type("HHH ")
        #expect(session.waitFor("✗ r27 c0 is outside the margin"), "refused with the rule")
        // A click on the character that shows r60 c30: the 50 x 75 poster is drawn from column 26, line 3.
        session.type("\u{1B}[<0;56;33M\u{1B}[<0;56;33m")
        #expect(session.waitFor("placed area 3 at r60 c30"))
        session.type("u")
        #expect(session.waitFor("undid area 3 (r60 c30)"))
        session.type("\u{1B}[<0;56;33M")
        #expect(session.waitFor("placed area 3 at r60 c30", occurrence: 2))
        session.type("p")
        #expect(session.waitFor("Preview of Metropolis: stage 1/3, as a solver sees it"))
        session.type("x")
        #expect(session.waitFor("that was the reveal a solver sees; the areas are unchanged"), "a key returns to the picker")
        session.type("\r")
        #expect(session.waitFor("\u{1B}[?1049l"), "the terminal is given back")
        #expect(session.waitFor("areas 37:25,27:15,60:30"))
        #expect(session.waitFor("added Metropolis"))
        #expect(session.waitFor("Quiz 2:"))
        session.send("preview")
        #expect(session.waitFor("1. Metropolis — areas 37:25,27:15,60:30"))
        #expect(session.waitFor("Preview of quiz 1/1, Metropolis: stage 1/3"), "the creator's preview plays on screen")
        session.type("\u{1B}")
        #expect(session.waitFor("Quiz 2:", occurrence: 2))
        session.send("done")
        #expect(session.waitFor("[Y/n]: "))
        session.send("y")
        #expect(session.waitForExit().status == 0)
        #expect(session.transcript.contains("Created package 9"))
        let shown = try jsonObject(try sandbox.run(["show", "9", "--json"]).stdout)
        #expect((shown["quizzes"] as! [[String: Any]])[0]["areas"] as? [[Int]] == [[37, 25], [27, 15], [60, 30]])
    }

    @Test func quittingThePickerAddsNothingASmallTerminalIsToldAndDoneNeedsAnArea() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox)
        answerUpToTheMovie(session, title: "Never made")
        #expect(session.waitFor("Areas for Metropolis"))
        session.resize(rows: 12, columns: 40)
        #expect(session.waitFor("terminal too small (needs 40x16)"))
        session.resize(rows: 30, columns: 80)
        #expect(
            session.waitFor("\u{1B}[30;1H\u{1B}[2K space place/remove · Enter done · q quit · ? help · arrows/hjkl move"),
            "redrawn at 80 columns, its last line the keys that fit whole")
        session.type("\r")
        #expect(session.waitFor("✗ a quiz needs at least 1 area"), "done is refused with the reason, not silently")
        session.type("q")
        #expect(session.waitFor("no areas placed: Metropolis was not added"))
        #expect(session.waitFor("Quiz 1:", occurrence: 2))
        session.send("done")
        #expect(session.waitFor("add at least one quiz first"))
        session.interrupt()
        _ = session.waitForExit()
        #expect(try sandbox.run(["list", "--mine"]).stdout == "You have made no packages yet.\n")
    }

    @Test func aDumbTerminalKeepsTheTypedPrompts() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox, term: "dumb")
        answerUpToTheMovie(session, title: "Typed")
        #expect(session.waitFor("Area 1 of up to 3"))
        #expect(!session.transcript.contains("\u{1B}[?1049h"))
        session.interrupt()
        _ = session.waitForExit()
    }

    @Test func aMovieWithSeveralPostersIsChosenOnScreenThenItsAreasPlaced() throws {
        let server = try FakeServerProcess([
            "--stand-in-poster", repositoryRoot.appendingPathComponent("Seed/posters/metropolis-1927.jpg").path])
        let sandbox = try onlineSandbox(server)
        let session = try start(sandbox)
        #expect(session.waitFor("Package title: "))
        session.send("Dreams")
        #expect(session.waitFor("Your name as maker"))
        session.send("mina")
        #expect(session.waitFor("Level:"))
        session.send("beginner")
        #expect(session.waitFor("Quiz 1:"))
        session.send("inception")
        #expect(session.waitFor("1) Inception (2010)"))
        session.send("1")
        #expect(session.waitFor("Posters of Inception: 1 of 2"))
        #expect(session.waitFor("▀"), "the poster itself")
        session.type("\u{1B}[C")
        #expect(session.waitFor("Posters of Inception: 2 of 2"))
        #expect(session.waitFor("2) no text"))
        session.type("\r")
        #expect(session.waitFor("poster /textless-inception.jpg"))
        #expect(session.waitFor("Areas for Inception · up to 5"))
        session.type("a")
        #expect(session.waitFor("added 5 automatic areas"))
        session.type("d")
        #expect(session.waitFor("added Inception"))
        session.send("done")
        #expect(session.waitFor("[Y/n]: "))
        session.send("")
        #expect(session.waitForExit().status == 0)
        #expect(session.transcript.contains("Created package 9"))
        let quiz = (try jsonObject(try sandbox.run(["show", "9", "--json"]).stdout)["quizzes"] as! [[String: Any]])[0]
        #expect(quiz["posterPath"] as? String == "/textless-inception.jpg")
        #expect((quiz["areas"] as? [[Int]])?.count == 5)
    }

    @Test func editQuizNOnATerminalMovesAQuizsAreasOnItsPoster() throws {
        let sandbox = try Sandbox()
        let before = try jsonObject(try sandbox.run(["show", "en-silent", "--json"]).stdout)
        let areas = (before["quizzes"] as! [[String: Any]])[0]["areas"] as! [[Int]]
        let session = try start(sandbox, arguments: ["edit", "en-silent", "--quiz", "1"])
        #expect(session.waitFor("Areas for "))
        #expect(session.waitFor("areas \(areas.count)/5"), "the quiz's own areas, loaded")
        session.type("u")
        #expect(session.waitFor("undid area \(areas.count)"))
        session.type("\r")
        // The last words before the exit: read once everything the program wrote is in.
        #expect(session.waitForExit().status == 0)
        #expect(session.transcript.contains("Saved the areas of quiz 1"))
        let after = try jsonObject(try sandbox.run(["show", "en-silent", "--json"]).stdout)
        #expect((after["quizzes"] as! [[String: Any]])[0]["areas"] as? [[Int]] == Array(areas.dropLast()))

        let quitter = try start(sandbox, arguments: ["edit", "en-silent", "--quiz", "1"])
        #expect(quitter.waitFor("Areas for "))
        quitter.type("cq")
        #expect(quitter.waitForExit().status == 0)
        #expect(quitter.transcript.contains("Nothing changed."))
        let unchanged = try jsonObject(try sandbox.run(["show", "en-silent", "--json"]).stdout)
        #expect((unchanged["quizzes"] as! [[String: Any]])[0]["areas"] as? [[Int]] == Array(areas.dropLast()))
    }

    @Test func ctrlCInThePickerGivesTheTerminalBackAndSavesNothing() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox)
        answerUpToTheMovie(session, title: "Interrupted")
        #expect(session.waitFor("Areas for Metropolis"))
        session.type(" ")
        #expect(session.waitFor("placed area 1"))
        session.interrupt()
        let exit = session.waitForExit()
        #expect(exit.reason == .uncaughtSignal && exit.status == SIGINT)
        let transcript = session.transcript
        let entered = transcript.range(of: "\u{1B}[?1049h", options: .backwards)
        let left = transcript.range(of: "\u{1B}[?1000l\u{1B}[?1006l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l", options: .backwards)
        #expect(entered != nil && left != nil && entered!.lowerBound < left!.lowerBound, "mouse off, cursor shown, main screen")
        #expect(try sandbox.run(["list", "--mine"]).stdout == "You have made no packages yet.\n")
    }
}
