import Foundation
import Testing
@testable import UQuizCLI
import UQuizTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The real `uquiz serve` on 127.0.0.1: it seeds its own database, says where it listens, answers HTTP, and stops
/// cleanly on SIGTERM.
@Suite("uquiz serve, end to end")
struct ServeCommandTests {
    /// A running `uquiz serve --port 0` and the address it printed.
    final class RunningServer {
        let process = Process()
        let baseURL: String

        init(sandbox: Sandbox, database: String, options: [String] = []) throws {
            process.executableURL = uquizBinary
            process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", database] + options
            process.environment = sandbox.environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // The first line says the server is bound; reading it is the wait (it ends early if the process dies).
            var line = Data()
            while true {
                guard let byte = output.fileHandleForReading.readData(ofLength: 1).first else {
                    throw ServeTestError.exitedBeforeListening
                }
                if byte == UInt8(ascii: "\n") { break }
                line.append(byte)
            }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("listening on http://127.0.0.1:"), let port = Int(text.split(separator: ":").last ?? ""),
                port > 0
            else { throw ServeTestError.unexpectedFirstLine(text) }
            baseURL = "http://127.0.0.1:\(port)"
        }

        /// Stops the server the way a supervisor does and returns its exit status. A server that has not stopped after
        /// 60 s (a request that never ends holds its graceful stop) is killed, and the status says so (SIGKILL): the
        /// test fails instead of holding one of Swift's cooperative threads, and with it the rest of the suite.
        func terminate() -> Int32 {
            stop(with: SIGTERM, killedAfter: 60)
        }

        /// Sends `signal`, then SIGKILL if the server still runs `seconds` later; the exit status, 128 + the signal for
        /// a server a signal ended.
        @discardableResult
        private func stop(with signal: Int32, killedAfter seconds: Double) -> Int32 {
            kill(process.processIdentifier, signal)
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        }

        deinit {
            if process.isRunning { stop(with: SIGINT, killedAfter: 10) }
        }
    }

    enum ServeTestError: Error {
        case exitedBeforeListening
        case unexpectedFirstLine(String)
    }

    /// One request with curl: the status and the body.
    func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error", "--max-time", "30", "--write-out", "\n%{http_code}"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// A user of their own, logged in to `server` as `name`.
    func loggedIn(to server: RunningServer, as name: String) throws -> Sandbox {
        let user = try Sandbox()
        let login = try user.run(["login", "--server", server.baseURL, "--name", name])
        #expect(login.status == 0, "\(login.stderr)")
        return user
    }

    /// A maker who made a one-quiz package (Metropolis, expert: 3 stages) and published it; its code on the server.
    func publishOneQuiz(on server: RunningServer) throws -> (maker: Sandbox, code: String) {
        let maker = try loggedIn(to: server, as: "Maker")
        #expect(try maker.run(["create", "--title", "One", "--level", "expert", "--quiz", "movie=19 areas=30:25,15:15,50:35"]).status == 0)
        let published = try maker.run(["publish", "9", "--json"])
        let code = try #require((try JSONSerialization.jsonObject(with: Data(published.stdout.utf8)) as? [String: String])?["shareCode"])
        return (maker, code)
    }

    @Test func servesAFreshlySeededDatabaseAndStopsCleanlyOnSIGTERM() throws {
        let sandbox = try Sandbox()
        let database = sandbox.path("server/uquiz.sqlite")
        try FileManager.default.createDirectory(
            atPath: sandbox.path("server"), withIntermediateDirectories: true)
        let server = try RunningServer(sandbox: sandbox, database: database)
        #expect(FileManager.default.fileExists(atPath: database), "seeded from the bundle before listening")

        let health = try curl([server.baseURL + "/healthz"])
        #expect(health.status == 200)
        let player = try curl([
            "--header", "Content-Type: application/json", "--data", "{\"name\": \"Ada\"}", server.baseURL + "/v1/players",
        ])
        #expect(player.status == 201)
        let made = try JSONSerialization.jsonObject(with: Data(player.body.utf8)) as? [String: Any]
        #expect(made?["name"] as? String == "Ada")
        #expect((made?["token"] as? String)?.count == 43)
        let seed = try curl([server.baseURL + "/v1/packages/FE7NWW"])
        #expect(seed.status == 200 && seed.body.contains("\"shareCode\":\"FE7NWW\""))
        // The web player's files are found beside the checkout the binary was built in (Web/).
        let page = try curl([server.baseURL + "/p/FE7NWW"])
        #expect(page.status == 200 && page.body.contains("<script type=\"module\" src=\"/assets/"), "\(page.body.prefix(300))")
        // HEAD as GET without the body, over a real connection.
        let head = try curl(["--head", server.baseURL + "/p/FE7NWW"])
        #expect(head.status == 200 && head.body.lowercased().contains("content-length: \(page.body.utf8.count)"), "\(head.body)")
        #expect(!head.body.contains("<script"), "no body")

        #expect(server.terminate() == 0, "a graceful shutdown exits 0")
    }

    /// A web folder named with --web must be one: the server says so and does not start.
    @Test func aNamedWebFolderWithoutThePageStopsTheServerBeforeListening() throws {
        let sandbox = try Sandbox()
        let empty = sandbox.path("empty-web")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let result = try sandbox.run(["serve", "--port", "0", "--db", sandbox.path("server.sqlite"), "--web", empty])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "never said it listens")
        #expect(result.stderr.contains("\(empty) is not a web player folder (it has no readable index.html)"), "\(result.stderr)")
    }

    /// Publishing a package again updates the copy published before (same code) until it is played; `--as-new` makes
    /// another; a copy deleted on the server is published anew. `list` shows the server's code beside the local one.
    /// A link code made on one device moves its player to another: `uquiz login --code` saves a token of that same
    /// player (the first device keeps its own), and the code works once.
    @Test func aLinkCodeMakesThisMachineTheSamePlayer() throws {
        let home = try Sandbox()
        let server = try RunningServer(sandbox: home, database: home.path("server.sqlite"))
        let made = try curl(["--header", "Content-Type: application/json", "--data", "{\"name\": \"Ann\"}", server.baseURL + "/v1/players"])
        let first = try jsonObject(made.body)
        let token = try #require(first["token"] as? String)
        let auth = ["--header", "Authorization: Bearer \(token)"]
        let link = try curl(auth + ["--request", "POST", server.baseURL + "/v1/players/me/link-codes"])
        #expect(link.status == 201, "\(link.body)")
        let code = try #require(try jsonObject(link.body)["code"] as? String)
        #expect(code.count == 9 && code.dropFirst(4).first == "-", "\(code)")

        let laptop = try Sandbox()
        let login = try laptop.run(["login", "--server", server.baseURL, "--code", code.lowercased()])
        #expect(login.status == 0 && login.stdout.contains(" as Ann;"), "\(login.stdout)\(login.stderr)")
        let config = try jsonObject(try String(contentsOfFile: laptop.path("config/uquiz/config.json"), encoding: .utf8))
        let saved = try #require((config["server"] as? [String: Any])?["token"] as? String)
        #expect(saved != token, "this machine has a token of its own")
        let me = try curl(["--header", "Authorization: Bearer \(saved)", server.baseURL + "/v1/players/me"])
        #expect(try jsonObject(me.body)["id"] as? Int == first["id"] as? Int, "the same player")
        #expect(try curl(auth + [server.baseURL + "/v1/players/me"]).status == 200, "the first device keeps its token")

        let again = try Sandbox().run(["login", "--server", server.baseURL, "--code", code])
        #expect(again.status == 1 && again.stderrLines.count == 1 && again.stderr.contains("no such link code"), "\(again.stderr)")

        // A terminal makes a code too, for a third device.
        let fromTerminal = try laptop.run(["link-code", "--json"])
        let answer = try jsonObject(fromTerminal.stdout)
        let second = try #require(answer["code"] as? String, "\(fromTerminal.stdout)\(fromTerminal.stderr)")
        #expect(answer["expiresInSeconds"] as? Int == 600)
        let desktop = try Sandbox()
        #expect(try desktop.run(["login", "--server", server.baseURL, "--code", second]).status == 0)
        let third = try jsonObject(try String(contentsOfFile: desktop.path("config/uquiz/config.json"), encoding: .utf8))
        let thirdToken = try #require((third["server"] as? [String: Any])?["token"] as? String)
        let thirdMe = try curl(["--header", "Authorization: Bearer \(thirdToken)", server.baseURL + "/v1/players/me"])
        #expect(try jsonObject(thirdMe.body)["id"] as? Int == first["id"] as? Int)
        let plain = try laptop.run(["link-code"])
        #expect(plain.status == 0 && plain.stdout.contains("within 10 minutes (it works once)"), "\(plain.stdout)")
        #expect(server.terminate() == 0)
    }

    @Test func publishingAgainUpdatesTheSameCopyUntilItIsPlayed() throws {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"))
        let maker = try loggedIn(to: server, as: "Maker")
        #expect(try maker.run(["create", "--title", "Mine", "--level", "expert", "--quiz", "movie=19 areas=30:25,15:15,50:35"]).status == 0)
        func publish(_ extra: [String] = []) throws -> (status: Int32, json: [String: String], stderr: String) {
            let run = try maker.run(["publish", "9", "--json"] + extra)
            return (run.status, (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: String]) ?? [:], run.stderr)
        }
        let first = try publish()
        #expect(first.status == 0 && first.json["outcome"] == "published", "\(first.stderr)")
        let code = try #require(first.json["shareCode"])
        #expect(first.json["link"] == "\(server.baseURL)/p/\(code)")
        let listed = try maker.run(["list", "--mine", "--json"])
        let row = try #require((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])?.first)
        #expect((row["serverCodes"] as? [String: String]) == [server.baseURL: code], "\(listed.stdout)")
        let table = try maker.run(["list", "--mine"])
        #expect(table.stdout.contains("ON SERVERS") && table.stdout.contains(code), "\(table.stdout)")

        // Again: the same copy, changed in place (the new title shows under the same code).
        #expect(try maker.run(["edit", "9", "--title", "Mine, renamed"]).status == 0)
        let again = try maker.run(["publish", "9"])
        #expect(again.status == 0 && again.stdout.contains("Updated \"Mine, renamed\" on \(server.baseURL): still \(code)"), "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("Share: \(server.baseURL)/p/\(code)"))
        #expect(try curl([server.baseURL + "/v1/packages/\(code)"]).body.contains("\"title\":\"Mine, renamed\""))

        // Once someone plays it, its quizzes stay: the update is refused and says how to go on; nothing changes.
        let player = try curl(["--header", "Content-Type: application/json", "--data", "{\"name\": \"Bo\"}", server.baseURL + "/v1/players"])
        let token = try #require((try JSONSerialization.jsonObject(with: Data(player.body.utf8)) as? [String: Any])?["token"] as? String)
        #expect(try curl(["--request", "POST", "--header", "Authorization: Bearer \(token)", server.baseURL + "/v1/packages/\(code)/plays"]).status == 201)
        #expect(try maker.run(["edit", "9", "--quiz", "1", "--areas", "30:25,15:15,50:30"]).status == 0)
        let refused = try publish()
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the copy \(code) has been played") && refused.stderr.contains("--as-new"), "\(refused.stderr)")
        let asNew = try publish(["--as-new"])
        #expect(asNew.status == 0 && asNew.json["outcome"] == "published")
        let second = try #require(asNew.json["shareCode"])
        #expect(second != code)

        // The maker deletes that copy on the server: publishing again makes a new one and says so.
        let config = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: maker.path("config/uquiz/config.json")))) as? [String: Any]
        let makerToken = try #require((config?["server"] as? [String: String])?["token"])
        #expect(try curl(["--request", "DELETE", "--header", "Authorization: Bearer \(makerToken)", server.baseURL + "/v1/packages/\(second)"]).status == 204)
        let anew = try maker.run(["publish", "9"])
        #expect(anew.status == 0 && anew.stdout.contains("The copy published before is gone from \(server.baseURL)"), "\(anew.stdout)\(anew.stderr)")
        let third = try #require(try maker.run(["list", "--mine"]).stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(third != code && third != second && anew.stdout.contains("as \(third)"), "\(anew.stdout)")
    }

    /// A maker logs in, publishes a package of theirs and finds it by browsing, all through the real CLI against the
    /// real server; the token reaches only the user's config file (mode 0600), never the output.
    @Test func loginPublishAndBrowseThroughTheCLI() throws {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"))
        let maker = try Sandbox()

        let notLoggedIn = try maker.run(["publish", "1", "--server", server.baseURL])
        #expect(notLoggedIn.status == 1)
        #expect(notLoggedIn.stderr.contains("not logged in to \(server.baseURL): run uquiz login --server"))

        let login = try maker.run(["login", "--server", server.baseURL + "/", "--name", "Ada"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Logged in to \(server.baseURL) as Ada"))
        let configPath = maker.path("config/uquiz/config.json")
        let config = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: configPath))) as? [String: Any]
        let saved = config?["server"] as? [String: String]
        #expect(saved?["url"] == server.baseURL)
        let token = try #require(saved?["token"])
        #expect(token.count == 43)
        let mode = try FileManager.default.attributesOfItem(atPath: configPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let published = try maker.run(["publish", "X9QFGV", "--json"])
        #expect(published.status == 0, "\(published.stderr)")
        let code = try #require(
            (try JSONSerialization.jsonObject(with: Data(published.stdout.utf8)) as? [String: String])?["shareCode"])
        #expect(code != "X9QFGV", "the server gives the package a code of its own")
        let unlisted = try maker.run(["publish", "1", "--unlisted"])
        #expect(unlisted.status == 0 && unlisted.stdout.contains("(unlisted)"))

        // Two to a page: without TMDB's image server (no network here) only the packages with posters the server holds
        // are listed, the two bundled ones of the seed and the copy just published.
        let browse = try Sandbox().run(["browse", "--server", server.baseURL, "--limit", "2"])
        #expect(browse.status == 0, "\(browse.stderr)")
        let rows = browse.stdout.split(separator: "\n")
        #expect(rows.first?.hasPrefix("CODE") == true)
        #expect(rows.dropFirst().first?.hasPrefix(code) == true, "the newest first: \(browse.stdout)")
        #expect(rows.last?.hasPrefix("More: uquiz browse --cursor ") == true)
        #expect(!browse.stdout.contains("너무 유명해서"), "the unlisted package is not listed")
        let found = try Sandbox().run(["browse", "--server", server.baseURL, "--search", "무성", "--limit", "1"])
        #expect(found.stdout.split(separator: "\n").dropFirst().first?.contains("무성영화 고전") == true, "\(found.stdout)")
        #expect(found.stdout.contains("More: uquiz browse --search '무성' --cursor "), "the seed's and the copy published above: the next page keeps the search")
        #expect(rows.first?.hasSuffix("RATE") == true, "\(browse.stdout)")
        #expect(rows.dropFirst().first?.hasSuffix("-") == true, "no plays yet: no solve rate")
        let popular = try Sandbox().run(["browse", "--server", server.baseURL, "--sort", "popular", "--limit", "1", "--json"])
        #expect(popular.status == 0, "\(popular.stderr)")
        let page = try #require(try JSONSerialization.jsonObject(with: Data(popular.stdout.utf8)) as? [String: Any])
        #expect((page["packages"] as? [Any])?.count == 1)
        let next = try #require(page["nextCursor"] as? String)
        let more = try Sandbox().run(["browse", "--server", server.baseURL, "--sort", "popular", "--limit", "1", "--cursor", next])
        #expect(more.status == 0 && more.stdout.contains("More: uquiz browse --sort popular --cursor "), "\(more.stdout)")

        for output in [login, published, unlisted, browse] {
            #expect(!output.stdout.contains(token) && !output.stderr.contains(token), "the token is never printed")
        }
        let shown = try maker.run(["config"])
        #expect(!shown.stdout.contains(token) && shown.stdout.contains("(set, hidden)"))
        #expect(server.terminate() == 0)
    }

    /// What the server says is wrong reaches the user in one line with its status; an address that is no server, and
    /// one where nothing listens, each say so.
    @Test func serverRefusalsAndUnreachableServersAreOneLine() throws {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"))
        let user = try Sandbox()
        let forged = try user.run(
            ["publish", "1", "--server", server.baseURL], extraEnvironment: ["UQUIZ_SERVER_URL": server.baseURL, "UQUIZ_SERVER_TOKEN": "forged"])
        #expect(forged.status == 1)
        // The first command of this user seeds their own database (publish reads the package from it) and says so.
        #expect(forged.stderrLines.last == "Error: the server refused (HTTP 401): the bearer token is not one this server gave out")

        let badCursor = try user.run(["browse", "--server", server.baseURL, "--cursor", "nonsense"])
        #expect(badCursor.stderrLines == ["Error: the server refused (HTTP 400): cursor: not a cursor this server gave out"])

        let nobody = try user.run(["browse", "--server", "http://127.0.0.1:\(closedLocalPort())"])
        #expect(nobody.status == 1)
        #expect(nobody.stderrLines.count == 1 && nobody.stderr.contains("did not answer: cannot reach 127.0.0.1"))

        let notServer = try user.run(["browse", "--server", "gopher://example"])
        #expect(notServer.stderrLines == ["Error: \"gopher://example\" is not a server address: use http://HOST:PORT or https://HOST"])
        #expect(server.terminate() == 0)
    }

    /// A play on the real server, without waiting on its clock: the play starts with its first quiz waiting (so its
    /// poster is refused and no answer is out), another player may not read it, and the leaderboard answers.
    @Test func aPlayOnTheRealServerGivesNothingBeforeItsTime() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("server"), withIntermediateDirectories: true)
        let server = try RunningServer(sandbox: sandbox, database: sandbox.path("server/uquiz.sqlite"))
        func token(_ name: String) throws -> String {
            let made = try curl([
                "--header", "Content-Type: application/json", "--data", "{\"name\": \"\(name)\"}",
                server.baseURL + "/v1/players",
            ])
            return (try JSONSerialization.jsonObject(with: Data(made.body.utf8)) as? [String: Any])?["token"] as? String ?? ""
        }
        let ada = try token("Ada")
        let bo = try token("Bo")
        let started = try curl(["--request", "POST", "--header", "Authorization: Bearer \(ada)", server.baseURL + "/v1/packages/FE7NWW/plays"])
        #expect(started.status == 201)
        let play = try JSONSerialization.jsonObject(with: Data(started.body.utf8)) as? [String: Any]
        let id = try #require(play?["id"] as? String)
        let quizzes = play?["quizzes"] as? [[String: Any]] ?? []
        #expect(quizzes.first?["status"] as? String == "waiting" && quizzes.count == 25)
        #expect(!started.body.contains("Metropolis"), "the first quiz's answer is not out")
        let poster = try curl(["--header", "Authorization: Bearer \(ada)", server.baseURL + "/v1/plays/\(id)/quizzes/2/poster"])
        #expect(poster.status == 409, "quiz 2 has not started")
        #expect(try curl(["--header", "Authorization: Bearer \(bo)", server.baseURL + "/v1/plays/\(id)"]).status == 403)
        #expect(try curl([server.baseURL + "/v1/plays/\(id)"]).status == 401)
        let board = try curl([server.baseURL + "/v1/packages/FE7NWW/leaderboard"])
        #expect(board.status == 200 && board.body.contains("\"rankedPlays\":0"))
        #expect(server.terminate() == 0)
    }

    /// A maker publishes a one-quiz package; a player solves it on the server through the real CLI, gets the server's
    /// score and share line, and finds themselves on its leaderboard; the daily quiz is there to see.
    @Test func solveOnTheServerThenTheLeaderboardAndTheDaily() throws {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"))
        let (maker, code) = try publishOneQuiz(on: server)
        let player = try loggedIn(to: server, as: "Solver")
        let input = player.path("guesses.txt")
        // Typed before the quiz starts (the server starts it 3 s after the play): held until it does.
        try Data("Nosferatu\nMetropolis\n".utf8).write(to: URL(fileURLWithPath: input))
        let solved = try player.runWithInput(["solve", code, "--server", server.baseURL], input: input)
        #expect(solved.status == 0, "\(solved.stderr)")
        let lines = solved.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "quiz 1/1 · 3 stages · 20 s: type the title")
        #expect(lines.contains("  \"Nosferatu\": wrong (that is another movie's title)"))
        #expect(lines.contains { $0.hasPrefix("🟩 Metropolis (1927): solved in ") })
        #expect(lines.contains { $0.hasPrefix("1 of 1 solved, ") && $0.hasSuffix(" points, ranked") }, "\(lines)")
        #expect(lines.last?.hasPrefix("UQuiz \(code) 1/1 🟩 ") == true)

        let board = try player.run(["leaderboard", code])
        #expect(board.stdout.contains("\(code): 1 ranked play"))
        #expect(board.stdout.contains("You: #1 with "))
        let makersView = try maker.run(["leaderboard", code])
        #expect(makersView.stdout.contains("QUIZ  ATTEMPTS  SOLVED  RATE  AVG STAGE"), "the maker sees each quiz")
        #expect(!board.stdout.contains("AVG STAGE"), "others do not")
        // The charts at 40 and 120 columns: the one ranked play in its score bin, marked for its player; for the
        // maker the quiz solved by its one attempt, at the stage the server recorded.
        let json = try jsonObject(try maker.run(["leaderboard", code, "--json"]).stdout)
        let stage = try #require((json["quizzes"] as? [[String: Any]])?.first?["solvedAtStage"] as? [[String: Int]])
        let solvedAt = try #require(stage.first { $0["solved"] == 1 }?["stage"])
        for columns in [40, 120] {
            let mine = try player.run(["leaderboard", code], extraEnvironment: ["COLUMNS": "\(columns)"]).stdout
            let theirs = try maker.run(["leaderboard", code], extraEnvironment: ["COLUMNS": "\(columns)"]).stdout
            for text in [mine, theirs] {
                let bars = text.split(separator: "\n").filter { $0.contains("█") }
                #expect(!bars.isEmpty && bars.allSatisfy { TextWidth.of(String($0)) <= columns }, "\(text)")
            }
            #expect(mine.contains("Scores of the ranked plays") && mine.contains(" 1 ← you"), "\(mine)")
            #expect(!mine.contains("Solve rate per quiz"), "only the maker sees how each quiz fares")
            #expect(theirs.contains("Solve rate per quiz") && theirs.contains("  quiz 1 "), "\(theirs)")
            #expect(theirs.contains("100% (1 of 1), hint 0") || theirs.contains("50% (1 of 2), hint 0"), "\(theirs)")
            let stageLine = try #require(theirs.split(separator: "\n").first { $0.hasPrefix("  stage \(solvedAt) ") }, "\(theirs)")
            #expect(stageLine.hasSuffix(" 1") && stageLine.contains("█"))
        }
        let dumb = try maker.run(["leaderboard", code], extraEnvironment: ["TERM": "dumb", "COLUMNS": "40"]).stdout
        #expect(dumb.contains("Solve rate per quiz") && !dumb.contains("█") && dumb.contains("#"), "\(dumb)")

        let again = try player.runWithInput(["solve", code, "--server", server.baseURL, "--json"], input: input)
        let summary = try #require(again.stdout.split(separator: "\n").last, "\(again.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any]
        #expect(object?["event"] as? String == "summary" && object?["ranked"] as? Bool == false, "a replay is not ranked")

        let daily = try player.run(["daily"])
        #expect(daily.status == 0 && daily.stdout.hasPrefix("UQuiz daily #1 ("), "\(daily.stdout)\(daily.stderr)")
        #expect(daily.stdout.contains("Your streak: 0 (best 0); not played today: uquiz daily --play"))
        let korean = try player.run(["daily", "--language", "ko"])
        #expect(korean.status == 0 && korean.stdout.hasPrefix("UQuiz daily #1 (") && korean.stdout.contains(", ko): quiz"), "\(korean.stdout)")
        let archive = try player.run(["daily", "--archive", "--language", "en"])
        #expect(archive.status == 0 && archive.stdout == "No past daily quiz in en yet.\n", "\(archive.stdout)\(archive.stderr)")
        let refused = try player.run(["daily", "--day", "2026-01-01"])
        #expect(refused.status != 0 && refused.stderr.contains("--day plays a past day: add --play"), "\(refused.stderr)")
        #expect(server.terminate() == 0)
    }

    /// A one-quiz package published on a new server (started with `options`), played by a new player in the
    /// full-screen player on a pseudo-terminal of `columns`. The server's and the player's folders go with `homes`.
    private func fullScreenPlay(
        options: [String] = [], player name: String, columns: Int
    ) throws -> (homes: [Sandbox], server: RunningServer, session: PseudoTerminalSession, code: String) {
        let serverHome = try Sandbox()
        let server = try RunningServer(sandbox: serverHome, database: serverHome.path("server.sqlite"), options: options)
        let (_, code) = try publishOneQuiz(on: server)
        let player = try loggedIn(to: server, as: name)
        var environment = player.environment
        environment["TERM"] = "xterm-256color"
        let session = try PseudoTerminalSession(
            binary: uquizBinary, arguments: ["solve", code, "--server", server.baseURL], environment: environment)
        session.resize(rows: 40, columns: columns)
        return ([serverHome, player], server, session, code)
    }

    /// Titles the server suggests while a guess is typed, chosen with the arrows: the chosen one is the guess.
    @Test func suggestedTitlesArePickedWithTheArrowsInTheFullScreenPlayer() throws {
        let (homes, server, session, _) = try fullScreenPlay(options: ["--suggest-min-titles", "10"], player: "Typist", columns: 120)
        defer { withExtendedLifetime(homes) {} }
        #expect(session.waitFor("quiz 1/1 · stage 1/3 · 0 pts"))
        session.type("nosfe")
        #expect(session.waitFor("↑↓ then Enter: Nosferatu (1922)"), "suggested once typing pauses")
        session.type("\u{1B}[B")
        #expect(session.waitFor("[Nosferatu (1922)]"), "the down arrow chooses it")
        session.type("\r")
        #expect(session.waitFor("\"Nosferatu\" is wrong (that is another movie's title)"), "sent as typed text is")
        session.type("metrop")
        #expect(session.waitFor("↑↓ then Enter: Metropolis (1927)"))
        session.type("\u{1B}[A\r")
        #expect(session.waitFor("✓ Metropolis (1927)! +"))
        #expect(session.waitForExit().status == 0)
        #expect(server.terminate() == 0)
    }

    /// On a terminal, a play on the server runs in the full-screen player: the server's stage poster drawn in half
    /// blocks under the header, a guess typed and judged there, the answer shown, the summary left in the terminal.
    @Test func solveOnTheServerInTheFullScreenPlayer() throws {
        let (homes, server, session, code) = try fullScreenPlay(player: "Solver", columns: 100)
        defer { withExtendedLifetime(homes) {} }
        #expect(session.waitFor("\u{1B}[?1049h"), "the alternate screen")
        #expect(session.waitFor("quiz 1/1 · stage 1/3 · 0 pts"))
        #expect(session.waitFor("▀"), "the server's stage poster in half blocks")
        session.type("Nosferatu\n")
        #expect(session.waitFor("\"Nosferatu\" is wrong (that is another movie's title)"))
        session.type("Metropolis\n")
        #expect(session.waitFor("✓ Metropolis (1927)! +"))
        let exit = session.waitForExit()
        #expect(exit.status == 0)
        let transcript = session.transcript
        let leave = transcript.range(of: "\u{1B}[?1049l", options: .backwards)
        let summary = transcript.range(of: "1 of 1 solved")
        #expect(leave != nil && summary != nil && leave!.lowerBound < summary!.lowerBound, "the summary after the screen is restored")
        #expect(transcript.contains("UQuiz \(code) 1/1 🟩 "))
        #expect(server.terminate() == 0)
    }
}
