import Foundation
import Testing
import UQuizTestSupport

/// Reports through the real `uquiz serve`, and `uquiz admin` on its database while it runs: what players and a
/// moderator see.
@Suite("Reports and moderation end to end", .serialized)
struct ModerationTests {
    typealias Server = ServeFaultTests.Server

    static func newPlayer(_ name: String, on server: Server, from address: String) throws -> (id: Int, token: String) {
        let made = try server.request(
            "POST", "/v1/players", headers: ["Content-Type": "application/json"], body: ServeFaultTests.json(["name": name]),
            from: address)
        guard made.status == 201, let token = made.json["token"] as? String, let id = made.json["id"] as? Int else {
            throw ServeFaultTests.Failure("no player: \(made.status) \(made.text)")
        }
        return (id, token)
    }

    /// A report of package `code` by `token`, sent from `address` (a loopback address: its /24 is the network the
    /// server counts it under).
    static func report(
        _ code: String, by token: String, on server: Server, from address: String = "127.0.0.1", _ body: [String: Any]
    ) throws -> ServeFaultTests.Reply {
        try server.request(
            "POST", "/v1/packages/\(code)/reports",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"], body: ServeFaultTests.json(body),
            from: address)
    }

    /// The status `GET /v1/packages/CODE` answers once it is `expected` (the server keeps a package's answer for a
    /// second), or the last one seen within 10 s.
    static func packageStatus(_ code: String, on server: Server, becomes expected: Int) throws -> Int {
        var status = 0
        for _ in 0..<100 {
            status = try server.request("GET", "/v1/packages/\(code)").status
            if status == expected { break }
            usleep(100_000)
        }
        return status
    }

    /// A one-quiz package published by `token`; its share code.
    static func publishOneQuiz(by token: String, on server: Server) throws -> String {
        let spec = #"{"format": 1, "title": "Reported", "level": "beginner", "language": "en", "quizzes": [{"movie": 19, "areas": [[35, 9], [24, 38], [53, 26]]}]}"#
        let published = try server.request(
            "POST", "/v1/packages", headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
            body: Data(spec.utf8), from: "127.0.0.6")
        guard published.status == 201, let code = published.json["shareCode"] as? String else {
            throw ServeFaultTests.Failure("not published: \(published.status) \(published.text)")
        }
        return code
    }

    /// Five guests made a moment ago from one address report a package and the bundled one the daily may draw from:
    /// with the defaults, neither is hidden.
    @Test func fiveFreshGuestsHideNothing() throws {
        let server = try Server()
        let maker = try Self.newPlayer("Maker", on: server, from: "127.0.0.6")
        let code = try Self.publishOneQuiz(by: maker.token, on: server)
        for index in 0..<5 {
            let guest = try Self.newPlayer("Guest\(index)", on: server, from: "127.0.0.7")
            for target in [code, "FE7NWW"] {
                let filed = try Self.report(target, by: guest.token, on: server, ["reason": "spam"])
                #expect(filed.status == 201 && filed.json["hidden"] as? Bool == false, "\(filed.status) \(filed.text)")
            }
        }
        for target in [code, "FE7NWW"] {
            #expect(try server.request("GET", "/v1/packages/\(target)").status == 200, "\(target) is still there")
        }
        #expect(server.stop() == 0)
    }

    /// Today (UTC) as the server writes a date.
    static func today() -> String {
        let format = DateFormatter()
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd"
        return format.string(from: Date())
    }

    /// Reporters with standing whose reports come from one network (a /24) count once toward hiding a package, and
    /// the moderator sees which network each came from.
    @Test func reportsFromOneNetworkCountOnce() throws {
        let server = try Server(["--hide-after-reports", "2", "--reporter-min-age-hours", "0", "--reporter-min-plays", "0"])
        let maker = try Self.newPlayer("Maker", on: server, from: "127.0.0.6")
        let code = try Self.publishOneQuiz(by: maker.token, on: server)
        for (name, address) in [("Ann", "127.0.5.1"), ("Bob", "127.0.5.2")] {
            let reporter = try Self.newPlayer(name, on: server, from: address)
            let filed = try Self.report(code, by: reporter.token, on: server, from: address, ["reason": "spam"])
            #expect(filed.status == 201 && filed.json["hidden"] as? Bool == false, "\(name): \(filed.text)")
        }
        let cid = try Self.newPlayer("Cid", on: server, from: "127.0.6.1")
        let third = try Self.report(code, by: cid.token, on: server, from: "127.0.6.1", ["reason": "spam"])
        #expect(third.status == 201 && third.json["hidden"] as? Bool == true, "a second network: \(third.text)")
        let reports = try server.sandbox.run(["admin", "reports", "--db", server.sandbox.path("server.sqlite")])
        let row = reports.stdout.split(separator: "\n").first { $0.contains("package \(code)") }.map(String.init) ?? ""
        #expect(row.contains(" 3 ") && row.contains(" 2 "), "3 reports from 2 networks: \(reports.stdout)")
        #expect(reports.stdout.contains("Bob (#") && reports.stdout.contains("from 127.0.5.0/24, spam"), "\(reports.stdout)")
        let json = try server.sandbox.run(["admin", "reports", "--json", "--db", server.sandbox.path("server.sqlite")])
        let targets = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        let groups = (targets?.first?["reports"] as? [[String: Any]])?.compactMap { $0["reporterGroup"] as? String }
        #expect(groups == ["127.0.6.0/24", "127.0.5.0/24", "127.0.5.0/24"], "\(json.stdout)")
        #expect(server.stop() == 0)
    }

    @Test func reportsHideAPackageAndAModeratorRestoresItAndBansAPlayer() throws {
        // Every reporter counts here, however new (the default asks a day's age and a finished play).
        let server = try Server(["--hide-after-reports", "2", "--reporter-min-age-hours", "0", "--reporter-min-plays", "0"])
        let database = server.sandbox.path("server.sqlite")
        let maker = try Self.newPlayer("Maker", on: server, from: "127.0.0.6")
        let code = try Self.publishOneQuiz(by: maker.token, on: server)
        let ann = try Self.newPlayer("Ann", on: server, from: "127.0.0.2")
        let bob = try Self.newPlayer("Bob", on: server, from: "127.0.0.3")
        let cid = try Self.newPlayer("Cid", on: server, from: "127.0.0.4")

        // Reports: one per player; the second player's hides the package (2 is the threshold here).
        let first = try Self.report(
            code.lowercased(), by: ann.token, on: server, from: "127.0.2.1", ["reason": "spam", "text": "the same film ten times"])
        #expect(first.status == 201 && first.json["hidden"] as? Bool == false, "\(first.status) \(first.text)")
        let again = try Self.report("\(code)", by: ann.token, on: server, ["reason": "offensive"])
        #expect(again.status == 409 && again.errorCode == "conflict", "\(again.text)")
        let unknownReason = try Self.report("\(code)", by: bob.token, on: server, ["reason": "boring"])
        #expect(unknownReason.status == 400, "\(unknownReason.text)")
        // Dee is playing it when it is hidden.
        let dee = try Self.newPlayer("Dee", on: server, from: "127.0.0.5")
        let playing = try server.request("POST", "/v1/packages/\(code)/plays", headers: ["Authorization": "Bearer \(dee.token)"])
        let playId = try #require(playing.json["id"] as? String, "\(playing.text)")
        let second = try Self.report("\(code)", by: bob.token, on: server, from: "127.0.3.1", ["reason": "offensive"])
        #expect(second.status == 201 && second.json["hidden"] as? Bool == true, "\(second.text)")
        // A play under way goes on as it would: it is read, and its quiz, once started, is played.
        let auth = ["Authorization": "Bearer \(dee.token)", "Content-Type": "application/json"]
        let during = try server.request("GET", "/v1/plays/\(playId)", headers: auth)
        #expect(during.status == 200, "\(during.text)")
        let startsIn = ((during.json["quizzes"] as? [[String: Any]])?.first?["startsInMs"] as? Int) ?? 0
        Thread.sleep(forTimeInterval: Double(startsIn + 100) / 1000)  // waits for the quiz the server scheduled
        let skipped = try server.request("POST", "/v1/plays/\(playId)/skips", headers: auth, body: Data(#"{"quiz":1}"#.utf8))
        #expect(skipped.status == 200, "\(skipped.text)")
        #expect(try Self.packageStatus("\(code)", on: server, becomes: 410) == 410)
        let removed = try server.request("GET", "/v1/packages/\(code)")
        #expect(removed.errorCode == "removed" && removed.text.contains("removed by this server's moderators"), "\(removed.text)")
        let listed = try server.request("GET", "/v1/packages?limit=50")
        #expect(!listed.text.contains("\(code)"), "off the list")
        let start = try server.request(
            "POST", "/v1/packages/\(code)/plays", headers: ["Authorization": "Bearer \(ann.token)"])
        #expect(start.status == 410, "no play starts on it: \(start.status) \(start.text)")

        // The moderator's view, while the server runs.
        let moderator = ["USER": "mod"]
        let reports = try server.sandbox.run(["admin", "reports", "--db", database], extraEnvironment: moderator)
        #expect(reports.status == 0, "\(reports.stderr)")
        let row = reports.stdout.split(separator: "\n").first { $0.contains("package \(code)") }.map(String.init) ?? ""
        #expect(row.contains("offensive 1, ") && row.contains("spam 1") && row.contains(" 2 ") && row.contains("reports"), "\(reports.stdout)")
        #expect(reports.stdout.contains(
            "package \(code): Ann (#\(ann.id)), a player since \(Self.today()) ") && reports.stdout.contains(
            ", 0 plays, from 127.0.2.0/24, spam: the same film ten times"), "\(reports.stdout)")
        let json = try server.sandbox.run(["admin", "reports", "--json", "--db", database])
        let targets = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(targets?.first?["code"] as? String == code && (targets?.first?["reports"] as? [Any])?.count == 2)

        let restored = try server.sandbox.run(
            ["admin", "restore", code.lowercased(), "--reason", "the reports were a prank", "--db", database],
            extraEnvironment: moderator)
        #expect(restored.status == 0 && restored.stdout == "Restored package \(code).\n", "\(restored.stdout)\(restored.stderr)")
        #expect(try Self.packageStatus("\(code)", on: server, becomes: 200) == 200)

        // A ban: the player may read, not write. (An instance that authenticated the player within the last minute
        // knows them from memory until then: Cid has not been seen yet.)
        let ban = try server.sandbox.run(
            ["admin", "ban", "\(cid.id)", "--reason", "flooding reports", "--db", database], extraEnvironment: moderator)
        #expect(ban.status == 0 && ban.stdout == "Banned player #\(cid.id) (Cid); 0 packages of theirs hidden.\n", "\(ban.stdout)\(ban.stderr)")
        let refused = try Self.report("\(code)", by: cid.token, on: server, ["reason": "spam"])
        #expect(refused.status == 403 && refused.errorCode == "banned", "\(refused.status) \(refused.text)")
        let me = try server.request("GET", "/v1/players/me", headers: ["Authorization": "Bearer \(cid.token)"])
        #expect(me.status == 200, "reading is allowed: \(me.text)")

        let actions = try server.sandbox.run(["admin", "actions", "--db", database])
        let lines = actions.stdout.split(separator: "\n").dropFirst().map(String.init)
        #expect(lines.count == 3, "\(actions.stdout)")
        #expect(lines.first?.contains("ban") == true && lines.first?.contains("uquiz admin (mod)") == true
            && lines.first?.contains("flooding reports") == true, "\(actions.stdout)")
        #expect(lines.last?.contains("hide") == true && lines.last?.contains("server") == true, "\(actions.stdout)")

        // Refusals are one line and change nothing.
        let unknown = try server.sandbox.run(["admin", "hide", "NOPE22", "--reason", "x", "--db", database])
        #expect(unknown.status == 1 && unknown.stdout.isEmpty, "\(unknown)")
        #expect(unknown.stderr.split(separator: "\n").count == 1 && unknown.stderr.contains("no package NOPE22"), "\(unknown.stderr)")
        let noReason = try server.sandbox.run(["admin", "hide", "\(code)", "--db", database])
        #expect(noReason.status != 0 && noReason.stderr.contains("--reason"), "\(noReason.stderr)")
        let blank = try server.sandbox.run(["admin", "ban", "\(ann.id)", "--reason", "  ", "--db", database])
        #expect(blank.status == 1 && blank.stderr.contains("give a reason"), "\(blank.stderr)")
        #expect(try server.sandbox.run(["admin", "actions", "--db", database]).stdout.split(separator: "\n").count == 4)
        #expect(server.stop() == 0)
    }
}
