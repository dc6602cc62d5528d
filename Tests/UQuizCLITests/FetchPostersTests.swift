import Foundation
import PosterGrid
import QuizCore
import QuizStore
import UQuizStorage
import Testing
import UQuizTestSupport

func seedServer(_ extra: [String] = []) throws -> FakeServerProcess {
    try FakeServerProcess(
        ["--seed", repositoryRoot.appendingPathComponent("Seed/seed.json").path,
         "--posters", repositoryRoot.appendingPathComponent("Seed/posters").path,
         // The seed's TMDB posters are not among the bundled ones: one stands in for them all.
         "--stand-in-poster", repositoryRoot.appendingPathComponent("Seed/posters/metropolis-1927.jpg").path] + extra)
}

@Suite("uquiz fetch-posters")
struct FetchPostersTests {
    @Test func downloadsMissingPostersOnceAndThenServesThemFromTheCache() throws {
        let server = try seedServer()
        let sandbox = try onlineSandbox(server)
        let first = try sandbox.run(["fetch-posters", "en-beginner"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "6 posters (w342): 6 downloaded, 0 replaced, 0 already cached, 0 failed.\n")
        let posterFiles = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("cache/uquiz/posters/w342"))
        #expect(posterFiles.count == 6)
        #expect(!posterFiles.contains { $0.hasPrefix(".") }, "no temporary files left")
        let imageRequests = server.requests.filter { $0.contains("/t/p/") }.count
        #expect(imageRequests == 6)

        let second = try sandbox.run(["fetch-posters", "RKKNB4"])
        #expect(second.stdout == "6 posters (w342): 0 downloaded, 0 replaced, 6 already cached, 0 failed.\n")
        #expect(server.requests.filter { $0.contains("/t/p/") }.count == imageRequests)
        let silent = try sandbox.run(["fetch-posters", "en-silent"])
        #expect(silent.stdout == "No TMDB posters to fetch: these packages use bundled posters.\n")
    }

    @Test func aPosterTMDBNoLongerHasIsReplacedAndTheQuizUpdated() throws {
        let server = try FakeServerProcess()
        let sandbox = try onlineSandbox(server)
        try sandbox.run(["list"])
        let database = try AppDatabase(existingAt: sandbox.defaultDatabase)
        try database.insert(QuizPackage(
            shareCode: ShareCode("PQRST2")!, seedId: nil, origin: .user, title: "Old posters", maker: "me", level: .expert,
            language: .en, createdAt: "2026-11-22T00:00:00Z",
            quizzes: [Quiz(
                tmdbId: 27205, catalogKey: "tmdb-27205", title: "Inception", originalTitle: "Inception",
                releaseDate: "2010-07-15", genreIds: [], posterPath: "/removed-long-ago.jpg", posterSource: .tmdb,
                geometry: .standard, areas: [Cell(row: 30, column: 25)])]))
        let result = try sandbox.run(["fetch-posters", "PQRST2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("replaced  Inception: /removed-long-ago.jpg → /4i1I0cvwYhUTVbU5Qe6HbD1audF.jpg"))
        let shown = try jsonObject(try sandbox.run(["show", "PQRST2", "--json"]).stdout)
        #expect((shown["quizzes"] as! [[String: Any]])[0]["posterPath"] as? String == "/4i1I0cvwYhUTVbU5Qe6HbD1audF.jpg")
    }

    @Test func aBodyThatIsNotAJPEGIsAFailureAndIsNotCached() throws {
        let server = try seedServer(["--fault", "/t/p/;status=200;content-type=text/html"])
        let sandbox = try onlineSandbox(server)
        let result = try sandbox.run(["fetch-posters", "en-expert"])
        #expect(result.status == 1)
        #expect(result.stderrLines.last?.hasPrefix("Error: 5 posters could not be fetched (first: ") == true)
        #expect(result.stderrLines.last?.contains("not a JPEG") == true)
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.path("cache/uquiz/posters/w342"))) ?? []
        #expect(cached.isEmpty)
    }

    @Test func noNetworkIsAClearFailure() throws {
        let sandbox = try Sandbox()
        sandbox.environment["UQUIZ_TMDB_IMAGE_URL"] = "http://127.0.0.1:\(closedLocalPort())/t/p"
        try sandbox.run(["list"])
        let result = try sandbox.run(["fetch-posters", "en-expert"])
        #expect(result.status == 1)
        #expect(result.stderrLines.last?.contains("cannot reach 127.0.0.1:") == true)
    }
}
