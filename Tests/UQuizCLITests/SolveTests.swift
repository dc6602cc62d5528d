import Foundation
import GRDB
import PosterGrid
import QuizCore
import Testing
import UQuizRules
import UQuizTestSupport

@testable import UQuizCLI

/// Lines typed at given instants, read as `--plain` reads them, on the scripted clock.
func ScriptedSource(_ script: [(Double, String)]) -> ScriptedInput {
    ScriptedInput(script.map { ($0.0, TypedLine.action(for: $0.1)) })
}

@Suite("uquiz solve")
struct SolveTests {
    func metropolisRound() -> SolveRound {
        let quiz = Quiz(
            tmdbId: 19, catalogKey: "tmdb-19", title: "Metropolis", originalTitle: "Metropolis", releaseDate: "1927-01-10",
            genreIds: [], posterPath: "metropolis-1927.jpg", posterSource: .bundled, geometry: .standard,
            areas: [Cell(row: 35, column: 9), Cell(row: 24, column: 38), Cell(row: 53, column: 26), Cell(row: 66, column: 14), Cell(row: 7, column: 22)])
        return SolveRound(quiz: quiz, judge: AnswerJudge(acceptedTitles: ["Metropolis", "메트로폴리스"], otherMovieTitles: ["Nosferatu"]), number: 1)
    }

    @Test func eventsComeInOrderAtTheirScheduledTimes() {
        let loop = SolveLoop(rounds: [metropolisRound()], levels: .standard, level: .beginner, timeScale: 1)
        let source = ScriptedSource([(3.0, "nosferatu"), (5.5, "?"), (7.2, "metropolis")])
        var lines: [String] = []
        let printer = JSONSolvePrinter(timeScale: 1) { lines.append($0) }
        let results = loop.run(input: source, observer: printer, finished: { _, _ in })
        #expect(lines == [
            #"{"at_ms":0,"event":"quiz_start","quiz":1,"stages":5}"#,
            #"{"at_ms":0,"event":"stage","quiz":1,"scheduled_ms":0,"stage":1}"#,
            #"{"at_ms":2000,"event":"stage","quiz":1,"scheduled_ms":2000,"stage":2}"#,
            #"{"at_ms":3000,"event":"guess","guess":"nosferatu","quiz":1,"reason":"that is the title of another movie (\"Nosferatu\")","verdict":"rejected"}"#,
            #"{"at_ms":4000,"event":"stage","quiz":1,"scheduled_ms":4000,"stage":3}"#,
            #"{"at_ms":5500,"event":"hint","hint":"M_________","quiz":1}"#,
            #"{"at_ms":6000,"event":"stage","quiz":1,"scheduled_ms":6000,"stage":4}"#,
            #"{"at_ms":7200,"event":"guess","guess":"metropolis","quiz":1,"verdict":"accepted"}"#,
            #"{"event":"quiz_end","hints":1,"outcome":"solved","quiz":1,"score":92,"seconds":7.2,"stage_reached":4,"title":"Metropolis"}"#,
        ])
        #expect(results.map(\.score) == [92], "(100 + 1 hidden stage x 20 + 12.8 of 20 s x 100) / 2 for the hint")
        #expect(ShareLine.text(code: ShareCode("FE7NWW")!, results: results) == "UQuiz FE7NWW 1/1 🟨 92 pts")
    }

    @Test func silenceRunsThePosterToTheEndAndThePlainLinesSayIt() {
        let loop = SolveLoop(rounds: [metropolisRound()], levels: .standard, level: .beginner, timeScale: 0.5)
        var lines: [String] = []
        let printer = PlainSolvePrinter(total: 1, timeScale: 0.5) { lines.append($0) }
        let results = loop.run(input: ScriptedSource([]), observer: printer, finished: { _, _ in })
        #expect(lines == [
            "[  0.00s] quiz 1/1 begins: 5 areas to reveal", "[  0.00s] area 1 revealed", "[  2.00s] area 2 revealed",
            "[  4.00s] area 3 revealed", "[  6.00s] area 4 revealed", "[  8.00s] area 5 revealed", "[ 20.00s] time is up",
            "missed: it was Metropolis",
        ], "times are quiz seconds whatever the scale")
        #expect(results == [QuizResult(outcome: .missed, seconds: 20, stageReached: 5, hintsUsed: 0, score: 0)])
    }

    @Test func theBinaryPlaysAPackageFastRecordsAttemptsAndTheBestScore() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let input = sandbox.path("guesses.txt")
        try Data("metropolis\n/skip\n".utf8).write(to: URL(fileURLWithPath: input))
        let result = try sandbox.runWithInput(["solve", "en-silent", "--json", "--time-scale", "0.01", "--player", "kim"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let ends = events.filter { $0["event"] as? String == "quiz_end" }
        #expect(ends.count == 25)
        #expect(ends[0]["outcome"] as? String == "solved")
        #expect(ends[1]["outcome"] as? String == "skipped")
        #expect(ends.dropFirst(2).allSatisfy { $0["outcome"] as? String == "missed" })
        for stage in events where stage["event"] as? String == "stage" {
            #expect((stage["at_ms"] as! Int) >= (stage["scheduled_ms"] as! Int), "never revealed early")
        }
        let summary = events.last!
        #expect(summary["event"] as? String == "summary")
        #expect(summary["solved"] as? Int == 1 && summary["total"] as? Int == 25)
        #expect((summary["share"] as? String)?.hasPrefix("UQuiz FE7NWW 1/25 🟩🟥🟥") == true)

        let queue = try DatabaseQueue(path: sandbox.defaultDatabase)
        let (attempts, players, score) = try queue.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attempt")!,
             try String.fetchAll(db, sql: "SELECT DISTINCT player FROM attempt"),
             try Int.fetchOne(db, sql: "SELECT score FROM play WHERE finishedAt IS NOT NULL"))
        }
        #expect(attempts == 25)
        #expect(players == ["kim"])
        #expect(score == summary["score"] as? Int)
        let list = try JSONSerialization.jsonObject(with: Data(try sandbox.run(["list", "--json"]).stdout.utf8)) as! [[String: Any]]
        #expect(list.first { $0["shareCode"] as? String == "FE7NWW" }?["bestScore"] as? Int == score)
    }

    @Test func ctrlCStopsAPlainPlayPrintsTheSummaryAndRecordsWhatWasPlayed() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let output = sandbox.path("plain.txt")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let input = Pipe()
        let process = Process()
        process.executableURL = uquizBinary
        process.arguments = ["solve", "en-silent", "--plain", "--time-scale", "0.05", "--player", "quitter"]
        process.environment = sandbox.environment
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("/skip\n".utf8))
        let text = { String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self) }
        let deadline = Date().addingTimeInterval(30)
        while !text().contains("quiz 2/25 begins") && Date() < deadline { usleep(20_000) }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + SIGINT)
        #expect(text().contains("skipped: it was Metropolis"))
        #expect(text().hasSuffix("0 of 1 solved, 0 points (stopped after 1 of 25)\nUQuiz FE7NWW 0/1 🟥 0 pts\n"))
        let queue = try DatabaseQueue(path: sandbox.defaultDatabase)
        let (attempts, unscored) = try queue.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attempt WHERE player = 'quitter'")!,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM play WHERE player = 'quitter' AND score IS NULL")!)
        }
        #expect(attempts == 1 && unscored == 1, "recorded as what it was: one quiz, no score")
    }

    @Test func aPlayThatCannotBeRecordedLeavesNoTrace() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        // A real SQLite failure in the middle of recording: the play row goes in, its first attempt is refused.
        let queue = try DatabaseQueue(path: sandbox.defaultDatabase)
        try queue.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON attempt BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        let input = sandbox.path("guess.txt")
        try Data("metropolis\n".utf8).write(to: URL(fileURLWithPath: input))
        let result = try sandbox.runWithInput(["solve", "en-silent", "--quiz", "1", "--plain", "--time-scale", "0.01"], input: input)
        #expect(result.status == 1)
        #expect(result.stdout.contains("1 of 1 solved"), "the player still sees how it went")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        let rows = try queue.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM play")!, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attempt")!)
        }
        #expect(rows == (0, 0), "a failed solve leaves the database as it was")
    }

    @Test func withoutATerminalOrAModeSolveShowsWhatThereIsToPlay() throws {
        let result = try Sandbox().run(["solve"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Silent Classics"))
        #expect(result.stdout.hasSuffix("No terminal to play on: run `uquiz solve` in a terminal, or play from a script with --plain or --json.\n"))
    }

    @Test func badSolveFlags() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run(["solve", "--plain", "--json"]).status == 64)
        #expect(try sandbox.run(["solve", "--time-scale", "0"]).status == 64)
        #expect(try sandbox.run(["solve", "--seed", "3"]).status == 64)
        let noQuiz = try sandbox.run(["solve", "en-expert", "--quiz", "9", "--plain"])
        #expect(noQuiz.status == 64)
        #expect(noQuiz.stderrLines.last == "Error: there is no quiz 9: the package has 5")
    }
}
