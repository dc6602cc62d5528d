import Foundation
import Testing
import UQuizTestSupport

@testable import UQuizCLI

@Suite("The full-screen player")
struct TerminalPlayerTests {
    func start(_ sandbox: Sandbox, _ arguments: [String]) throws -> PseudoTerminalSession {
        try sandbox.run(["list"])
        var environment = sandbox.environment
        environment["TERM"] = "xterm-256color"
        environment["COLORTERM"] = "truecolor"
        let session = try PseudoTerminalSession(binary: uquizBinary, arguments: arguments, environment: environment)
        session.resize(rows: 45, columns: 100)
        return session
    }

    @Test func aWholeQuizWithAWrongGuessAPauseAResizeAndKoreanTyping() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox, ["solve", "en-silent", "--quiz", "1", "--time-scale", "0.5", "--player", "pty"])
        #expect(session.waitFor("\u{1B}[?1049h"), "the alternate screen")
        #expect(session.waitFor("quiz 1/1"))
        #expect(session.waitFor("▀"), "the poster is drawn in half blocks")
        #expect(session.transcript.contains("\u{1B}[38;2;"), "in 24-bit colour")
        session.type("nosferatu\n")
        #expect(session.waitFor("\"nosferatu\" is wrong (that is the title of another movie (\"Nosferatu\"))"))
        session.type("\u{1B}")
        #expect(session.waitFor("Paused: the poster is hidden and the clock stopped"))
        session.type("x")
        session.resize(rows: 30, columns: 70)
        session.type("메트로폴리스x")
        session.type("\u{7F}")
        #expect(session.waitFor(" > 메트로폴리스"), "Backspace removed one character, not one byte")
        session.type("\n")
        #expect(session.waitFor("✓ Metropolis (1927)! +"))
        #expect(session.waitFor("points at stage "), "the stage reached, with the title, year and points")
        #expect(session.waitFor("any key: the summary"), "the solved poster stays until a key")
        session.type(" ")
        let exit = session.waitForExit()
        #expect(exit.status == 0)
        let transcript = session.transcript
        #expect(transcript.contains("UQuiz FE7NWW 1/1 🟩 "), "the share line")
        #expect(transcript.contains("1 of 1 solved"))
        let leave = transcript.range(of: "\u{1B}[?1049l", options: .backwards)
        let summary = transcript.range(of: "1 of 1 solved")
        #expect(leave != nil && summary != nil && leave!.lowerBound < summary!.lowerBound, "the terminal is restored before the summary")
        let stats = try jsonObject(try sandbox.run(["stats", "--json", "--player", "pty"]).stdout)
        #expect(stats["correct"] as? Int == 1)
        #expect(!transcript.contains("\u{07}"), "no bell unless asked for")
    }

    /// The line player's commands typed in the full-screen one: `?` and Enter keeps the hint up (an empty line is no
    /// guess), `/skip` and Enter skips.
    @Test func questionMarkAndSlashSkipWorkAsInTheLinePlayer() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox, ["solve", "en-silent", "--quiz", "1", "--player", "pty"])
        #expect(session.waitFor("quiz 1/1"))
        session.type("?")
        #expect(session.waitFor("Hint: "))
        session.type("\n/skip\n")
        #expect(session.waitFor("Skipped: it was Metropolis"))
        session.type(" ")
        #expect(session.waitForExit().status == 0)
        #expect(!session.transcript.contains("empty guess") && !session.transcript.contains("\"/skip\" is wrong"))
        #expect(session.transcript.contains("0 of 1 solved"))
    }

    /// `--sound` rings the terminal's bell once for a wrong guess, once for a right one, twice when time is up; the
    /// `sound` setting does the same, and never in --plain or --json lines.
    @Test func theBellRingsForWrongRightAndTimeUpOnlyWhenAskedFor() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox, ["solve", "en-silent", "--quiz", "1", "--time-scale", "0.5", "--player", "pty", "--sound"])
        #expect(session.waitFor("quiz 1/1"))
        session.type("sunrise\n")
        #expect(session.waitFor("\"sunrise\" is wrong"))
        #expect(session.waitFor("\u{07}"), "a wrong guess rings")
        session.type("metropolis\n")
        #expect(session.waitFor("✓ Metropolis (1927)! +"))
        #expect(session.waitFor("\u{07}", occurrence: 2), "a right guess rings")
        session.type(" ")
        #expect(session.waitForExit().status == 0)
        #expect(session.transcript.filter { $0 == "\u{07}" }.count == 2)

        var environment = sandbox.environment
        environment["TERM"] = "xterm-256color"
        environment["UQUIZ_SOUND"] = "on"
        let bySetting = try PseudoTerminalSession(
            binary: uquizBinary, arguments: ["solve", "en-silent", "--quiz", "1", "--time-scale", "0.1", "--player", "pty"],
            environment: environment)
        bySetting.resize(rows: 45, columns: 100)
        #expect(bySetting.waitFor("Time is up: it was Metropolis", timeout: 60))
        #expect(bySetting.waitFor("\u{07}\u{07}"), "time up rings twice, by the sound setting")
        bySetting.type(" ")
        #expect(bySetting.waitForExit().status == 0)

        let plain = try sandbox.run(["solve", "en-silent", "--quiz", "1", "--plain", "--sound"])
        #expect(plain.status == 64 && plain.stderr.contains("--sound rings in the full-screen player only"), "\(plain.stderr)")
        let lines = try sandbox.run(
            ["solve", "en-silent", "--quiz", "1", "--plain", "--time-scale", "0.05"], extraEnvironment: ["UQUIZ_SOUND": "on"])
        #expect(lines.stdout.contains("quiz 1"), "\(lines.stdout)")
        #expect(!lines.stdout.contains("\u{07}"), "the setting never rings in --plain lines")
        let refused = try sandbox.run(["solve", "en-silent", "--quiz", "1", "--plain"], extraEnvironment: ["UQUIZ_SOUND": "loud"])
        #expect(refused.status != 0 && refused.stderr.contains("sound \"loud\""), "\(refused.stderr)")
    }

    /// A terminal too small to play on stops the clock until it grows; the quiz then goes on where it was. At a 0.4 s quiz a running clock would be out long before the resize.
    @Test func aTooSmallTerminalStopsTheClockUntilItGrows() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox, ["solve", "en-silent", "--quiz", "1", "--time-scale", "0.02", "--player", "pty"])
        session.resize(rows: 8, columns: 40)
        #expect(session.waitFor("terminal too small (needs 30x10):"))
        #expect(session.waitFor("clock waits"), "said whole, wrapped to the width")
        session.resize(rows: 30, columns: 80)
        #expect(session.waitFor("quiz 1/1 · stage 1/5"), "the game is back, still at its first stage")
        session.type("Metropolis\n")
        #expect(session.waitFor("✓ Metropolis (1927)! +"), "the time was not up")
        session.type(" ")
        #expect(session.waitForExit().status == 0)
    }

    /// When the time is up the header says 0.0 s, even at a time scale where the last redraw came a moment before.
    @Test func theHeaderReachesZeroWhenTheTimeIsUp() throws {
        let sandbox = try Sandbox()
        let session = try start(sandbox, ["solve", "en-silent", "--quiz", "1", "--time-scale", "0.2", "--player", "pty"])
        #expect(session.waitFor("Time is up: it was Metropolis", timeout: 60))
        let transcript = session.transcript
        let end = try #require(transcript.range(of: "Time is up"))
        let header = try #require(transcript.range(of: "quiz 1/1 · stage", options: .backwards, range: transcript.startIndex..<end.lowerBound))
        #expect(transcript[header.lowerBound..<end.lowerBound].contains("pts ·  0.0 s"))
        session.type(" ")
        #expect(session.waitForExit().status == 0)
    }

    @Test func postersThatAreNotCachedAreDownloadedTogetherBeforeTheFirstQuiz() throws {
        let server = try seedServer()
        let sandbox = try onlineSandbox(server)
        let session = try start(sandbox, ["solve", "en-expert", "--time-scale", "0.5"])
        #expect(session.waitFor("Downloading 5 posters…"))
        #expect(session.waitFor("quiz 1/5"))
        #expect(session.waitFor("▀"), "the downloaded poster is drawn")
        #expect(server.requests.filter { $0.contains("/t/p/w342/") }.count == 5, "all five before the first quiz")
        session.interrupt()
        _ = session.waitForExit()
        let cached = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("cache/uquiz/posters/w342"))
        #expect(cached.count == 5)
        let again = try start(sandbox, ["solve", "en-expert", "--quiz", "2", "--time-scale", "0.5", "--offline"])
        #expect(again.waitFor("▀"), "--offline plays the cached poster")
        #expect(!again.transcript.contains("Downloading"), "the second play needs no network")
        #expect(server.requests.filter { $0.contains("/t/p/w342/") }.count == 5)
        again.interrupt()
        _ = again.waitForExit()
    }

    @Test func offlineDownloadsNothingAndSaysWhyAPosterIsMissing() throws {
        let server = try seedServer()
        let sandbox = try onlineSandbox(server)
        let session = try start(sandbox, ["solve", "en-expert", "--quiz", "1", "--time-scale", "0.5", "--offline"])
        #expect(session.waitFor("No poster: it is not cached and --offline was given (uquiz fetch-posters caches it)."))
        session.type("\t")
        #expect(session.waitFor("Skipped: it was"))
        session.type(" ")
        #expect(session.waitForExit().status == 0)
        #expect(!session.transcript.contains("Downloading"))
        #expect(server.requests.isEmpty, "not one request")
    }

    @Test func sigtermSighupAndSigquitRestoreTheTerminalToo() throws {
        for signalNumber in [SIGTERM, SIGHUP, SIGQUIT] {
            let sandbox = try Sandbox()
            let session = try start(sandbox, ["solve", "en-silent", "--time-scale", "0.5"])
            #expect(session.waitFor("quiz 1/25"))
            kill(session.process.processIdentifier, signalNumber)
            let exit = session.waitForExit()
            #expect(exit.reason == .uncaughtSignal && exit.status == signalNumber, "dies of signal \(signalNumber)")
            #expect(session.transcript.hasSuffix("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"), "signal \(signalNumber): main screen back")
        }
    }

    @Test func aDumbTerminalGetsTheLineByLineGame() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        var environment = sandbox.environment
        environment["TERM"] = "dumb"
        let session = try PseudoTerminalSession(
            binary: uquizBinary, arguments: ["solve", "en-silent", "--quiz", "1", "--time-scale", "0.5"], environment: environment)
        #expect(session.waitFor("quiz 1/1 begins: 5 areas to reveal"))
        session.type("metropolis\n")
        #expect(session.waitFor("solved: Metropolis"))
        #expect(session.waitForExit().status == 0)
        #expect(!session.transcript.contains("\u{1B}["), "no cursor addressing, no colours, no alternate screen")
    }

    @Test func noColorDrawsThePosterInShadesWithoutColourCodes() throws {
        let sandbox = try Sandbox()
        sandbox.environment["NO_COLOR"] = "1"
        let session = try start(sandbox, ["solve", "en-silent", "--quiz", "1", "--time-scale", "0.5"])
        #expect(session.waitFor("quiz 1/1"))
        session.type("metropolis\n")
        #expect(session.waitFor("any key: the summary"))
        session.type(" ")
        #expect(session.waitForExit().status == 0)
        let transcript = session.transcript
        #expect(["░", "▒", "▓", "█"].contains { transcript.contains($0) }, "the poster is drawn in shades")
        #expect(!["\u{1B}[38;2;", "\u{1B}[38;5;", "\u{1B}[48;2;", "\u{1B}[48;5;"].contains { transcript.contains($0) }, "no colour codes")
    }

    @Test func ctrlCStopsThePlayRestoresTheTerminalAndRecordsWhatWasPlayed() throws {
        let sandbox = try Sandbox()
        // No package named: a menu by id, and a share code (any case) or an id picks one; an unknown one is said.
        try sandbox.run(["delete", "ko-beginner", "--yes"])
        try sandbox.run(["seed", "merge"])
        let session = try start(sandbox, ["solve", "--time-scale", "0.5", "--player", "quitter"])
        #expect(session.waitFor("* 8. Silent Classics (beginner, 25 quizzes, FE7NWW)"))
        #expect(session.waitFor(" 9. 너무 유명해서 다 아는 영화! (beginner, 12 quizzes,"), "ids, not places: the merged package is 9")
        #expect(session.waitFor("Package to play (id or code) [8]: "))
        session.type("99\n")
        #expect(session.waitFor("✗ no package \"99\": type an id or a share code from the list"))
        session.type("fe7nww\n")
        #expect(session.waitFor("quiz 1/25"))
        session.type("\t")
        #expect(session.waitFor("any key: the next quiz"))
        #expect(!session.transcript.contains("quiz 2/25"), "the next quiz waits for the player")
        session.type(" ")
        #expect(session.waitFor("quiz 2/25"))
        session.interrupt()
        let exit = session.waitForExit()
        #expect(exit.reason == .exit && exit.status == 128 + SIGINT, "stopped, and the shell learns it was Ctrl-C")
        let transcript = session.transcript
        let leave = transcript.range(of: "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l", options: .backwards)
        let summary = transcript.range(of: "0 of 1 solved, 0 points (stopped after 1 of 25)")
        #expect(leave != nil && summary != nil && leave!.lowerBound < summary!.lowerBound, "main screen back, then the summary")
        #expect(transcript.contains("UQuiz FE7NWW 0/1 🟥"))
        let stats = try jsonObject(try sandbox.run(["stats", "--json", "--player", "quitter"]).stdout)
        #expect(stats["attempts"] as? Int == 1, "the skipped quiz is recorded")
        let list = try JSONSerialization.jsonObject(with: Data(try sandbox.run(["list", "--json"]).stdout.utf8)) as! [[String: Any]]
        #expect(list.first { $0["shareCode"] as? String == "FE7NWW" }?["bestScore"] is NSNull, "a stopped play is no best score")
    }

    @Test(arguments: [
        ([0x61, 0x0D], [TerminalPlayer.Key.text("a"), .enter]),
        ([0xEB, 0xA9, 0x94, 0x7F], [.text("메"), .backspace]),
        ([0x1B], [.escape]),
        ([0x1B, 0x5B, 0x41, 0x09], [.up, .tab]),
        ([0x1B, 0x4F, 0x42], [.down]),
        ([0x1B, 0x5B, 0x31, 0x3B, 0x32, 0x41], [.other]),
        ([0x1B, 0x4F, 0x50], [.other]),
        ([0x03, 0x3F], [.other, .text("?")]),
    ] as [([UInt8], [TerminalPlayer.Key])])
    func keysAreReadAsTyped(bytes: [UInt8], keys: [TerminalPlayer.Key]) {
        #expect(TerminalPlayer.keys(in: bytes) == keys)
    }

    @Test func aGuessLineAsksOnceForWhatIsTypedAndSendsTheChosenTitle() {
        var line = GuessLine(tabLine: "/skip")
        _ = line.take(Array("m".utf8))
        #expect(line.wantsSuggestions == nil, "one letter")
        _ = line.take(Array("et".utf8))
        #expect(line.wantsSuggestions == "met")
        let titles = [GuessLine.Suggestion(title: "Metropolis", shown: "Metropolis (1927)"),
                      GuessLine.Suggestion(title: "Metro", shown: "Metro (1997)")]
        line.suggested(titles, for: "met")
        #expect(line.wantsSuggestions == nil, "asked already")
        #expect(line.suggestionLine == "↑↓ then Enter: Metropolis (1927) · Metro (1997)")
        _ = line.take([0x1B, 0x5B, 0x41])
        #expect(line.suggestionLine == "↑↓ then Enter: Metropolis (1927) · [Metro (1997)]", "up from none is the last")
        _ = line.take([0x1B, 0x5B, 0x42])
        #expect(line.chosen == 0, "down wraps to the first")
        _ = line.take([0x0D])
        #expect(line.next() == "Metropolis" && line.typed.isEmpty && line.suggestionLine == nil)

        _ = line.take(Array("metro\r".utf8))
        #expect(line.next() == "metro", "Enter with none chosen sends what is typed")
        _ = line.take(Array("/sk".utf8))
        #expect(line.wantsSuggestions == nil, "a command is not a title")
        _ = line.take([0x7F, 0x7F, 0x7F])
        _ = line.take(Array("old answer".utf8))
        line.suggested(titles, for: "another text")
        #expect(line.suggestionLine == nil, "an answer for text no longer typed is not shown")
        line.suggested(nil, for: "old answer")
        _ = line.take(Array("s".utf8))
        #expect(line.wantsSuggestions == nil, "a server that suggests nothing is not asked again")
    }
}
