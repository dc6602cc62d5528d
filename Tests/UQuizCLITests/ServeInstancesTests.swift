import Foundation
import Testing
import UQuizTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Two real `uquiz serve` processes on one database, requests alternating between them, one killed with SIGKILL in the
/// middle of a play: the other carries the play on, and nothing is lost.
@Suite("Several uquiz serve processes on one database")
struct ServeInstancesTests {
    let serve = ServeCommandTests()

    func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// Plays a one-quiz package across instances A and B of `database`, killing B mid-play.
    func playAcrossInstances(database: String, home: Sandbox) throws {
        let a = try ServeCommandTests.RunningServer(sandbox: home, database: database)
        let b = try ServeCommandTests.RunningServer(sandbox: home, database: database)
        let (_, code) = try serve.publishOneQuiz(on: a)
        let player = try serve.curl([
            "--header", "Content-Type: application/json", "--data", "{\"name\": \"Solver\"}", b.baseURL + "/v1/players",
        ])
        let token = try #require(json(player.body)["token"] as? String)
        let auth = ["--header", "Authorization: Bearer \(token)", "--header", "Content-Type: application/json"]

        let started = try serve.curl(auth + ["--request", "POST", b.baseURL + "/v1/packages/\(code)/plays"])
        #expect(started.status == 201, "\(started.body)")
        let id = try #require(json(started.body)["id"] as? String)

        // The quiz starts after the server's interlude (3 s): A is asked until it says so.
        let deadline = Date().addingTimeInterval(20)
        var status = ""
        while Date() < deadline {
            let view = try serve.curl(auth + [a.baseURL + "/v1/plays/\(id)"])
            status = ((json(view.body)["quizzes"] as? [[String: Any]])?.first?["status"] as? String) ?? ""
            if status == "playing" { break }
            usleep(100_000)
        }
        #expect(status == "playing", "a play started on B is seen playing on A")

        let wrong = try serve.curl(auth + ["--data", "{\"quiz\": 1, \"text\": \"Cars\"}", a.baseURL + "/v1/plays/\(id)/guesses"])
        #expect(wrong.status == 200 && json(wrong.body)["judgement"] as? String != "accepted", "\(wrong.body)")
        let hint = try serve.curl(auth + ["--data", "{\"quiz\": 1}", b.baseURL + "/v1/plays/\(id)/hints"])
        #expect(hint.status == 200, "\(hint.body)")

        kill(b.process.processIdentifier, SIGKILL)
        b.process.waitUntilExit()

        let right = try serve.curl(auth + ["--data", "{\"quiz\": 1, \"text\": \"Metropolis\"}", a.baseURL + "/v1/plays/\(id)/guesses"])
        #expect(right.status == 200 && json(right.body)["judgement"] as? String == "accepted", "\(right.body)")
        // The answer says what the guess changed: the play's totals and the quiz it ended (the play's only one).
        let change = json(right.body)
        #expect(change["finished"] as? Bool == true && change["ranked"] as? Bool == true)
        let quiz = (change["quizzes"] as? [[String: Any]])?.first ?? [:]
        let result = quiz["result"] as? [String: Any] ?? [:]
        #expect(result["hintsUsed"] as? Int == 1, "the hint asked on B before it died counts: \(quiz)")

        let board = try serve.curl([a.baseURL + "/v1/packages/\(code)/leaderboard"])
        #expect(board.status == 200 && board.body.contains("\"Solver\""), "\(board.body)")
        #expect(a.terminate() == 0)
    }

    /// On a fresh PostgreSQL database the two instances start at once: one migrates and seeds, the other waits for it.
    @Test func onPostgreSQLAPlaySurvivesTheInstanceItStartedOn() throws {
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        try playAcrossInstances(database: cluster.url, home: try Sandbox())
        #expect(try cluster.value("SELECT COUNT(*) FROM open_play") == "0")
        #expect(try cluster.value("SELECT COUNT(*) FROM play WHERE ranked") == "1")
    }

    /// `uquiz admin` on a PostgreSQL URL (run by uquiz-net, which links postgres-nio): on a fresh database it migrates
    /// and seeds like the server, and a package it hides is removed for a server on the same database at once. The
    /// URL's password is never printed.
    @Test func onPostgreSQLAModeratorHidesAPackageAServerStopsShowing() throws {
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        let home = try Sandbox()
        let hidden = try home.run(["admin", "hide", "fe7nww", "--reason", "checked on PostgreSQL", "--db", cluster.url])
        #expect(hidden.status == 0 && hidden.stdout == "Hid package FE7NWW: its link now says it was removed.\n", "\(hidden.stderr)")
        let reports = try home.run(["admin", "reports", "--db", cluster.url])
        #expect(reports.status == 0 && reports.stdout == "No reports.\n", "\(reports.stdout)\(reports.stderr)")
        let actions = try home.run(["admin", "actions", "--json", "--db", cluster.url])
        let list = try JSONSerialization.jsonObject(with: Data(actions.stdout.utf8)) as? [[String: Any]]
        #expect(list?.first?["kind"] as? String == "hide" && list?.first?["reason"] as? String == "checked on PostgreSQL")
        let server = try ServeCommandTests.RunningServer(sandbox: home, database: cluster.url)
        let removed = try serve.curl([server.baseURL + "/v1/packages/FE7NWW"])
        #expect(removed.status == 410 && removed.body.contains("\"removed\""), "\(removed.body)")
        #expect(server.terminate() == 0)
        if let password = URLComponents(string: cluster.url)?.password {
            for output in [hidden.stdout, hidden.stderr, reports.stderr, actions.stdout] { #expect(!output.contains(password)) }
        }
    }

    @Test func onSQLiteAPlaySurvivesTheInstanceItStartedOn() throws {
        let home = try Sandbox()
        try playAcrossInstances(database: home.path("server.sqlite"), home: home)
    }

    /// A package renamed through one instance is answered renamed by the other at once, although the other had just
    /// kept the package's metadata (for a second): the rename's commit reaches it through PostgreSQL's NOTIFY. The
    /// wait is bounded below the kept answers' second, so a server that only let them expire fails.
    @Test func onPostgreSQLARenameOnOneInstanceIsSeenOnTheOtherAtOnce() throws {
        let cluster = try PrivateCluster()
        defer { cluster.stop() }
        let home = try Sandbox()
        let a = try ServeCommandTests.RunningServer(sandbox: home, database: cluster.url)
        let b = try ServeCommandTests.RunningServer(sandbox: home, database: cluster.url)
        let player = try serve.curl([
            "--header", "Content-Type: application/json", "--data", "{\"name\": \"Maker\"}", a.baseURL + "/v1/players",
        ])
        let token = try #require(json(player.body)["token"] as? String)
        let auth = ["--header", "Authorization: Bearer \(token)", "--header", "Content-Type: application/json"]
        func spec(_ title: String) -> String {
            """
            {"format": 1, "title": "\(title)", "level": "expert", "language": "en",
             "quizzes": [{"movie": 862, "areas": [[38, 12], [20, 41], [57, 41]]}]}
            """
        }
        let published = try serve.curl(auth + ["--data", spec("Before"), a.baseURL + "/v1/packages"])
        let code = try #require(json(published.body)["shareCode"] as? String, "\(published.body)")
        #expect(json(try serve.curl([b.baseURL + "/v1/packages/\(code)"]).body)["title"] as? String == "Before")

        let renamed = try serve.curl(auth + ["--request", "PUT", "--data", spec("After"), a.baseURL + "/v1/packages/\(code)"])
        #expect(renamed.status == 200, "\(renamed.body)")
        let answered = Date()
        var title = ""
        while Date().timeIntervalSince(answered) < 0.5, title != "After" {
            title = json(try serve.curl([b.baseURL + "/v1/packages/\(code)"]).body)["title"] as? String ?? ""
        }
        #expect(title == "After", "instance B still answered \(title) 0.5 s after the rename on A")
        #expect(a.terminate() == 0)
        #expect(b.terminate() == 0)
    }

    /// A PostgreSQL URL is for `uquiz serve`; the other commands say so. A server that cannot be reached stops the
    /// server at once, naming it without the password.
    @Test func aPostgresURLIsForServeAndItsPasswordIsNeverShown() throws {
        let home = try Sandbox()
        let url = "postgres://uquiz:hunter2secret@127.0.0.1:1/uquiz"
        let list = try home.run(["list", "--db", url])
        #expect(list.status == 1)
        #expect(list.stderr.contains("only `uquiz serve` uses"), "\(list.stderr)")
        #expect(!list.stderr.contains("hunter2secret"))

        let started = Date()
        let serve = try home.run(["serve", "--port", "0", "--db", url], extraEnvironment: ["UQUIZ_DB": url])
        #expect(serve.status == 1 && serve.stdout.isEmpty, "never listening: \(serve.stderr)")
        #expect(serve.stderr.contains("postgres://uquiz@127.0.0.1:1/uquiz"), "\(serve.stderr)")
        #expect(!serve.stderr.contains("hunter2secret") && !serve.stdout.contains("hunter2secret"))
        #expect(Date().timeIntervalSince(started) < 10, "an unreachable database fails fast")
    }
}
