import Foundation
import Testing
import UQuizTestSupport

/// A sandbox pointed at a fake TMDB with a key the sandbox knows.
func onlineSandbox(_ server: FakeServerProcess, key: String = "test-key-123") throws -> Sandbox {
    let sandbox = try Sandbox()
    sandbox.environment["UQUIZ_TMDB_API_URL"] = server.apiURL
    sandbox.environment["UQUIZ_TMDB_IMAGE_URL"] = server.imageURL
    sandbox.environment["TMDB_API_KEY"] = key
    sandbox.environment["XDG_CACHE_HOME"] = sandbox.path("cache")
    return sandbox
}

func jsonObject(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
}

@Suite("uquiz search and posters")
struct SearchCommandTests {
    @Test func withoutCredentialsTheCatalogAnswersInBothLanguages() throws {
        let sandbox = try Sandbox()
        let korean = try sandbox.run(["search", "스토리", "--language", "ko"])
        #expect(korean.status == 0, "\(korean.stderr)")
        #expect(korean.stdout.contains("862  토이 스토리  Toy Story"))
        #expect(korean.stderrLines.last == "offline: results from the local catalog (no TMDB credentials (set TMDB_API_KEY or TMDB_READ_ACCESS_TOKEN))")
        let short = try sandbox.run(["search", "괴물", "--language", "ko", "--json"])
        let shortResults = try jsonObject(short.stdout)["results"] as! [[String: Any]]
        #expect(shortResults.map { $0["title"] as! String } == ["괴물"], "two-letter Korean queries work too")
        let english = try sandbox.run(["search", "metro", "--json"])
        let output = try jsonObject(english.stdout)
        #expect(output["source"] as? String == "catalog")
        #expect((output["results"] as! [[String: Any]]).first?["title"] as? String == "Metropolis")
        let substring = try sandbox.run(["search", "ception", "--json", "--language", "en"])
        #expect((try jsonObject(substring.stdout)["results"] as! [[String: Any]]).first?["id"] as? Int == 27205)
        let nothing = try sandbox.run(["search", "zzzzqqq"])
        #expect(nothing.stdout == "No movies match \"zzzzqqq\".\n")
    }

    @Test func onlineResultsJoinTheCatalogForLaterOfflineSearches() throws {
        let server = try FakeServerProcess(["--api-key", "test-key-123"])
        let sandbox = try onlineSandbox(server)
        let offlineBefore = try sandbox.run(["search", "Toy Story 2", "--offline", "--json"])
        #expect((try jsonObject(offlineBefore.stdout)["results"] as! [Any]).isEmpty)
        let online = try sandbox.run(["search", "toy", "--json"])
        #expect(online.status == 0, "\(online.stderr)")
        let output = try jsonObject(online.stdout)
        #expect(output["source"] as? String == "tmdb")
        #expect(output["offlineReason"] is NSNull)
        #expect((output["results"] as! [[String: Any]]).map { $0["id"] as! Int } == [862, 863])
        let offlineAfter = try sandbox.run(["search", "Toy Story 2", "--offline", "--json"])
        #expect((try jsonObject(offlineAfter.stdout)["results"] as! [[String: Any]]).first?["id"] as? Int == 863)
        // The second identical search is answered from the HTTP cache.
        try sandbox.run(["search", "toy"])
        #expect(server.requests.count == 1)
    }

    @Test func badCredentialsAreOneLineAndChangeNothing() throws {
        let server = try FakeServerProcess(["--api-key", "right-key"])
        let sandbox = try onlineSandbox(server, key: "wrong-key")
        try sandbox.run(["list"])
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.defaultDatabase))
        let result = try sandbox.run(["search", "toy"])
        #expect(result.status == 1)
        #expect(result.stderrLines == [
            "Error: TMDB refused the credentials (HTTP 401, code 7: Invalid API key: You must be granted a valid key.); check TMDB_READ_ACCESS_TOKEN or TMDB_API_KEY"
        ])
        #expect(result.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.defaultDatabase)) == before)
    }

    @Test(arguments: [
        ["--fault", "/3/search;status=503"], ["--fault", "/3/search;status=502"], ["--fault", "/3/search;status=429"],
    ])
    func anUnavailableServerFallsBackToTheCatalogAndSaysWhy(fault: [String]) throws {
        let server = try FakeServerProcess(fault)
        let sandbox = try onlineSandbox(server)
        sandbox.environment["UQUIZ_TMDB_RETRY_BASE_DELAY_SECONDS"] = "0.01"
        let result = try sandbox.run(["search", "metropolis", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try jsonObject(result.stdout)
        #expect(output["source"] as? String == "catalog")
        #expect((output["offlineReason"] as? String)?.hasPrefix("TMDB") == true)
        #expect((output["results"] as! [[String: Any]]).first?["title"] as? String == "Metropolis")
        #expect(server.requests.count == (fault[1].contains("429") ? 3 : 3), "retried up to three tries")
    }

    @Test func nothingListeningFallsBackToo() throws {
        let sandbox = try Sandbox()
        sandbox.environment["UQUIZ_TMDB_API_URL"] = "http://127.0.0.1:\(closedLocalPort())/3"
        sandbox.environment["TMDB_API_KEY"] = "k"
        let result = try sandbox.run(["search", "metropolis"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("offline: results from the local catalog (cannot reach 127.0.0.1:"))
        #expect(result.stdout.contains("Metropolis"))
    }

    @Test(arguments: [
        (["--fault", "/3/search;delay-ms=3000"], "did not answer within 0.3 s"),
        (["--fault", "/3/search;close"], "the connection to 127.0.0.1"),
        (["--fault", "/3/search;truncate"], "the connection to 127.0.0.1"),
    ])
    func timeoutsAndBrokenConnectionsAreRetriedThenFallBack(fault: [String], reason: String) throws {
        let server = try FakeServerProcess(fault)
        let sandbox = try onlineSandbox(server)
        sandbox.environment["UQUIZ_TMDB_TIMEOUT_SECONDS"] = "0.3"
        sandbox.environment["UQUIZ_TMDB_RETRY_BASE_DELAY_SECONDS"] = "0.01"
        let result = try sandbox.run(["search", "metropolis", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try jsonObject(result.stdout)
        #expect((output["offlineReason"] as? String)?.contains(reason) == true, "\(output["offlineReason"] ?? "")")
        #expect(server.requests.count == 3, "a timeout or a broken connection is retried")
    }

    @Test func anOversizedBodyOrAnUnknownHostFallsBackSayingWhy() throws {
        let server = try FakeServerProcess(["--fault", "/3/search;huge=6000000"])
        let huge = try onlineSandbox(server).run(["search", "metropolis", "--json"])
        #expect(huge.status == 0, "\(huge.stderr)")
        #expect((try jsonObject(huge.stdout)["offlineReason"] as? String)?.contains("sent more than 4194304 bytes") == true)
        #expect(server.requests.count == 1, "an oversized body is not retried")

        let sandbox = try Sandbox()
        sandbox.environment["UQUIZ_TMDB_API_URL"] = "http://no-such-host.invalid/3"
        sandbox.environment["TMDB_API_KEY"] = "k"
        let unknown = try sandbox.run(["search", "metropolis", "--json"])
        #expect(unknown.status == 0)
        #expect((try jsonObject(unknown.stdout)["offlineReason"] as? String)?.hasPrefix("cannot reach no-such-host.invalid") == true)
    }

    @Test func aMalformedAnswerIsAnErrorNamingTheEndpoint() throws {
        let server = try FakeServerProcess(["--fault", "/3/search;malformed"])
        let sandbox = try onlineSandbox(server)
        try sandbox.run(["list"])
        let result = try sandbox.run(["search", "toy"])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["Error: TMDB's answer from /search/movie was not understood (not JSON); try again later"])
    }

    @Test func postersListsTheChoicesBestVotedFirst() throws {
        let server = try FakeServerProcess()
        let sandbox = try onlineSandbox(server)
        let table = try sandbox.run(["posters", "27205", "--language", "ko"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        try #require(lines.count == 4)
        #expect(lines[1].hasPrefix("en    2000x3000  5.8 (40)  /4i1I0cvwYhUTVbU5Qe6HbD1audF.jpg"))
        #expect(lines[3].hasPrefix("none"))
        let json = try sandbox.run(["posters", "27205", "--json", "--language", "en"])
        let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        #expect(rows.map { $0["filePath"] as! String } == ["/4i1I0cvwYhUTVbU5Qe6HbD1audF.jpg", "/textless-inception.jpg"])
        #expect(rows[1]["language"] is NSNull)
        let missing = try sandbox.run(["posters", "4242"])
        #expect(missing.status == 1)
        #expect(missing.stderrLines.first?.hasPrefix("Error: TMDB has nothing at /movie/4242/images (HTTP 404, code 34") == true)
        let noKey = try Sandbox().run(["posters", "27205"])
        #expect(noKey.status == 64)
    }

    @Test func badSearchFlagsAreUsageErrors() throws {
        let sandbox = try Sandbox()
        for arguments in [["search", "toy", "--page", "0"], ["search", "toy", "--page", "501"], ["search", " "],
                          ["search", "toy", "--year", "19"], ["search", "toy", "--language", "fr"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 64, "\(arguments)")
        }
    }

    @Test func controlCharactersInNetworkTitlesAreShownEscaped() throws {
        let catalog = """
            [{"id": 1, "original_title": "Evil\\u001b]0;pwned\\u0007", "titles": {"en": "Bad\\u001b[31mTitle\\u202e"},
              "release_date": "2001-01-01", "genre_ids": [], "posters": [], "alternative_titles": [], "overview": ""}]
            """
        let sandbox = try Sandbox()
        let file = sandbox.path("catalog.json")
        try Data(catalog.utf8).write(to: URL(fileURLWithPath: file))
        let server = try FakeServerProcess(["--catalog", file])
        let online = try onlineSandbox(server)
        let result = try online.run(["search", "bad"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.unicodeScalars.contains { [0x1B, 0x07, 0x202E].contains($0.value) })
        #expect(result.stdout.contains("Bad\\u{1B}[31mTitle\\u{202E}"))
        #expect(result.stdout.contains("Evil\\u{1B}]0;pwned\\u{7}"))
    }

    @Test func theKeyNeverAppearsInOutputLogsTheDatabaseOrTheCache() throws {
        let key = "PLANTED-KEY-7f3a9c"
        let server = try FakeServerProcess(["--api-key", key, "--fault", "/3/movie/4242;status=500"])
        let sandbox = try onlineSandbox(server, key: key)
        sandbox.environment["UQUIZ_TMDB_RETRY_BASE_DELAY_SECONDS"] = "0.01"
        var transcripts: [String] = []
        for arguments in [
            ["search", "toy", "--verbose"], ["search", "toy", "--verbose"], ["search", "inter", "--json", "--verbose"],
            ["posters", "27205", "--verbose"], ["posters", "4242", "--verbose"], ["config", "--verbose"],
            ["config", "--json"],
        ] {
            let result = try sandbox.run(arguments)
            transcripts.append(result.stdout + result.stderr)
        }
        let wrong = try onlineSandbox(server, key: key + "-wrong")
        let denied = try wrong.run(["search", "toy", "--verbose"])
        transcripts.append(denied.stdout + denied.stderr)
        #expect(transcripts.joined().contains("api_key=REDACTED"), "the verbose log shows the redacted URL")
        for transcript in transcripts { #expect(!transcript.contains(key)) }
        var files = [sandbox.defaultDatabase]
        if let cached = FileManager.default.enumerator(atPath: sandbox.path("cache")) {
            files += cached.compactMap { $0 as? String }.map { sandbox.path("cache/\($0)") }
        }
        #expect(files.count > 2, "the database and some cache entries were written")
        for file in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data(key.utf8)) == nil, "\(file)")
        }
        for suffix in ["-wal", "-shm"] {
            if let bytes = FileManager.default.contents(atPath: sandbox.defaultDatabase + suffix) {
                #expect(bytes.range(of: Data(key.utf8)) == nil)
            }
        }
    }
}
