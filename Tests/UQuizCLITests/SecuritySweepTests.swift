import Foundation
import Testing
import UQuizTestSupport

@Suite("Reliability: secrets and hostile text")
struct SecuritySweepTests {
    @Test(arguments: ["TMDB_READ_ACCESS_TOKEN", "TMDB_API_KEY"])
    func aPlantedSecretNeverLeavesThroughAnyCommand(variable: String) throws {
        let secret = "PLANTED-\(variable)-7c1e"
        let server = try FakeServerProcess(["--api-key", secret, "--seed", repositoryRoot.appendingPathComponent("Seed/seed.json").path])
        let sandbox = try Sandbox()
        sandbox.environment["UQUIZ_TMDB_API_URL"] = server.apiURL
        sandbox.environment["UQUIZ_TMDB_IMAGE_URL"] = server.imageURL
        sandbox.environment[variable] = secret
        sandbox.environment["XDG_CACHE_HOME"] = sandbox.path("cache")
        sandbox.environment["UQUIZ_TMDB_RETRY_BASE_DELAY_SECONDS"] = "0.01"
        var transcript = ""
        @discardableResult
        func run(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
            let result = try sandbox.run(arguments + ["--verbose"], extraEnvironment: environment)
            transcript += result.stdout + result.stderr
            return result
        }
        try run(["list"])
        try run(["show", "en-silent"])
        try run(["search", "toy"])
        try run(["search", "inter", "--json"])
        try run(["posters", "27205"])
        let created = try run(["create", "--title", "'); DROP TABLE package; --", "--level", "expert", "--json", "--quiz", "movie=27205 areas=30:25"])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try jsonObject(created.stdout)["shareCode"] as! String
        try run(["fetch-posters", code])
        try run(["solve", code, "--json", "--time-scale", "0.01"])
        try run(["stats"])
        try run(["export", code, "-o", sandbox.path("out.json")])
        try run(["edit", code, "--title", "renamed"])
        try run(["config"])
        try run(["config", "--json"])
        try run(["seed", "status"])
        // Failures too: refused credentials, a missing movie, a missing poster's re-resolution.
        try run(["search", "toy"], environment: [variable: secret + "-wrong"])
        try run(["posters", "4242"])
        try run(["create", "--title", "x", "--level", "expert", "--quiz", "movie=999999 areas=30:25"])
        try run(["delete", code, "--yes"])
        #expect(transcript.contains("REDACTED") || variable == "TMDB_READ_ACCESS_TOKEN", "verbose URLs are shown redacted")
        #expect(!transcript.contains(secret), "the secret never reaches output or logs")
        let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(!transcript.contains(encoded), "nor its percent-encoded form, as a URL carries it")

        // Nor any file uquiz wrote: the database (with its WAL), the caches, the export.
        var files = [sandbox.defaultDatabase, sandbox.defaultDatabase + "-wal", sandbox.defaultDatabase + "-shm", sandbox.path("out.json")]
        if let cached = FileManager.default.enumerator(atPath: sandbox.path("cache")) {
            files += cached.compactMap { $0 as? String }.map { sandbox.path("cache/\($0)") }
        }
        var checked = 0
        for file in files {
            guard let bytes = FileManager.default.contents(atPath: file) else { continue }
            checked += 1
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file)")
        }
        #expect(checked >= 4)
    }

    /// A credential inside the configured URL itself: an `api_key` the client appends after a `#` the URL ends in (a
    /// fragment, where a parser finds no query), and a `user:password@` in the authority.
    @Test(arguments: ["fragment", "userinfo"])
    func aSecretInTheConfiguredURLIsRedactedWhereverTheURLIsShown(kind: String) throws {
        let secret = "PLANTEDURL\(kind)51f0"  // alphanumeric: sent as typed, so a leak shows as typed
        let server = try FakeServerProcess(["--seed", repositoryRoot.appendingPathComponent("Seed/seed.json").path])
        let sandbox = try Sandbox()
        sandbox.environment["XDG_CACHE_HOME"] = sandbox.path("cache")
        sandbox.environment["UQUIZ_TMDB_RETRY_BASE_DELAY_SECONDS"] = "0.01"
        let authority = "127.0.0.1:\(server.port)"
        switch kind {
        case "fragment":
            sandbox.environment["UQUIZ_TMDB_API_URL"] = "http://\(authority)/3#"
            sandbox.environment["UQUIZ_TMDB_IMAGE_URL"] = server.imageURL
            sandbox.environment["TMDB_API_KEY"] = secret
        default:
            sandbox.environment["UQUIZ_TMDB_API_URL"] = "http://uquiz:\(secret)@\(authority)/3"
            sandbox.environment["UQUIZ_TMDB_IMAGE_URL"] = "http://uquiz:\(secret)@\(authority)/t/p"
            sandbox.environment["TMDB_API_KEY"] = "any"
        }
        var transcript = ""
        for arguments in [
            ["search", "toy", "--verbose"], ["search", "inter", "--json", "--verbose"], ["posters", "27205", "--verbose"],
            ["fetch-posters", "en-expert", "--verbose"], ["config"], ["config", "--json"], ["config", "--verbose"],
        ] {
            let result = try sandbox.run(arguments)
            transcript += result.stdout + result.stderr
        }
        #expect(transcript.contains("REDACTED"), "the URLs are shown, redacted")
        #expect(!transcript.contains(secret), "the secret never reaches output or logs")
        var files: [String] = []
        if let cached = FileManager.default.enumerator(atPath: sandbox.path("cache")) {
            files += cached.compactMap { $0 as? String }.map { sandbox.path("cache/\($0)") }
        }
        for file in files {
            guard let bytes = FileManager.default.contents(atPath: file) else { continue }
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file)")
        }
    }

    @Test func hostileTitlesAreStoredAsTextAndShownEscaped() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run([
            "create", "--title", "'); DROP TABLE package; --", "--level", "expert", "--quiz", "movie=19 areas=30:25",
        ])
        #expect(result.status == 0)
        let list = try sandbox.run(["list", "--mine"])
        #expect(list.stdout.contains("'); DROP TABLE package; --"))
        #expect(try packageCount(sandbox) == 9, "the seed's 8 and this one: nothing was dropped")
        // Control characters are refused in titles a maker types (they only arrive from the network, shown escaped).
        let control = try sandbox.run(["create", "--title", "bad\u{1B}[2J", "--level", "expert", "--quiz", "movie=19 areas=30:25"])
        #expect(control.status == 64)
    }
}
