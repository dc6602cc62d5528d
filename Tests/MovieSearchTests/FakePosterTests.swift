import Foundation
import Testing
import UQuizTestSupport

@testable import MovieSearch

/// fake-tmdb serves the posters it holds under their own names and no other picture for a movie unless asked to: a
/// demo never shows one movie's poster as another's.
@Suite("fake-tmdb's posters")
struct FakePosterTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let seed = Self.repository.appendingPathComponent("Seed/seed.json").path
    let folder = Self.repository.appendingPathComponent("Seed/posters")
    /// Toy Story's TMDB poster path in the seed: not among the bundled posters.
    let tmdbPath = "/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg"

    func get(_ url: String) async throws -> HTTPReply {
        try await CurlTransport(options: .init(userAgent: "uquiz/test", totalTimeout: 30)).send(HTTPRequest(url: url))
    }

    @Test func aHeldPosterIsServedByItsNameAndAMovieWithoutOneIs404() async throws {
        let server = try FakeServerProcess(["--seed", seed, "--posters", folder.path])
        let held = try await get("\(server.imageURL)/w342/metropolis-1927.jpg")
        let file = try Data(contentsOf: folder.appendingPathComponent("metropolis-1927.jpg"))
        #expect(held.status == 200 && held.body == file)
        #expect(try await get("\(server.imageURL)/w342\(tmdbPath)").status == 404, "not another movie's poster")
        #expect(try await get("\(server.imageURL)/w342/no-such-file.jpg").status == 404)
    }

    @Test func aStandInIsServedOnlyWhenAskedForAndOnlyForTheCatalogsPosters() async throws {
        let standIn = folder.appendingPathComponent("nosferatu-1922.jpg")
        let server = try FakeServerProcess(["--seed", seed, "--posters", folder.path, "--stand-in-poster", standIn.path])
        let stoodIn = try await get("\(server.imageURL)/w342\(tmdbPath)")
        let file = try Data(contentsOf: standIn)
        #expect(stoodIn.status == 200 && stoodIn.body == file)
        let held = try await get("\(server.imageURL)/w342/metropolis-1927.jpg")
        #expect(held.body != stoodIn.body, "a held one is itself")
        #expect(try await get("\(server.imageURL)/w342/no-such-file.jpg").status == 404)
    }
}
