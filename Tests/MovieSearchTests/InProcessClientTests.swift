import Foundation
import QuizCore
import Synchronization
import Testing

@testable import MovieSearch

/// Collects the client's `--verbose` lines.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
}

private let apiURL = "https://api.example.test/3"
private let imageURL = "https://images.example.test/t/p"

private func makeClient(
    _ transport: InMemoryTransport, credentials: TMDBSettings.Credentials? = nil, clock: TestClock = TestClock(),
    log: LogLines? = nil
) -> TMDBClient {
    TMDBClient(
        settings: TMDBSettings(apiURL: apiURL, imageURL: imageURL, credentials: credentials), transport: transport,
        cache: nil, clock: clock.clock, log: log?.sink)
}

private let toySearch = InMemoryTransport.json(200, """
    {"page": 1, "total_pages": 1, "total_results": 2, "results": [
      {"id": 862, "title": "Toy Story", "original_title": "Toy Story", "release_date": "1995-10-30",
       "poster_path": "/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg", "genre_ids": [16, 35]},
      {"id": 863, "title": "Toy Story 2", "original_title": "Toy Story 2", "release_date": "", "poster_path": null}
    ]}
    """)
private let unavailable = InMemoryTransport.json(503, #"{"status_code": 11, "status_message": "Internal error"}"#)
private let jpeg = HTTPReply(status: 200, headers: ["content-type": "image/jpeg"], body: Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2]))

@Suite("TMDB client over an in-memory transport")
struct InProcessClientTests {
    @Test func aSearchDecodesItsResultsFromOneRequest() async throws {
        let transport = InMemoryTransport(["/3/search/movie": [.success(toySearch)]])
        let page = try await makeClient(transport).search("toy story", language: .en)
        #expect(page.results.map(\.title) == ["Toy Story", "Toy Story 2"])
        #expect(page.results.map(\.releaseYear) == ["1995", nil])
        #expect(page.results[0].posterPath == "/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg" && page.results[1].posterPath == nil)
        #expect(page.results[0].genreIds == [16, 35])
        #expect(transport.requests.map(\.url) == [
            apiURL + "/search/movie?include_adult=false&language=en-US&page=1&query=toy%20story"
        ])
        #expect(transport.requests[0].headers == [HTTPHeader("Accept", "application/json")])
    }

    @Test func aServiceUnavailableIsRetriedOnTheInjectedClock() async throws {
        let transport = InMemoryTransport(["/3/search/movie": [.success(unavailable), .success(toySearch)]])
        let clock = TestClock()
        let page = try await makeClient(transport, clock: clock).search("toy", language: .en)
        #expect(page.results.count == 2)
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0] == transport.requests[1], "the retry sends the same request")
        // Jitter fixed at 0.5: 0.75 of the 500 ms base delay, slept on the test clock, not in real time.
        #expect(clock.sleeps == [.milliseconds(375)])
    }

    @Test func unauthorizedIsTheCredentialsErrorAndIsNotRetried() async throws {
        let refused = InMemoryTransport.json(
            401, #"{"status_code": 7, "status_message": "Invalid API key: You must be granted a valid key.", "success": false}"#)
        let transport = InMemoryTransport(["/3/movie/27205": [.success(refused), .success(toySearch)]])
        let clock = TestClock()
        let client = makeClient(transport, credentials: .apiKey("wrong"), clock: clock)
        await #expect {
            try await client.movie(id: 27205, language: .en)
        } throws: { error in
            guard case MovieSearchError.http(401, "/movie/27205", 7, let message?, nil) = error else { return false }
            return message.hasPrefix("Invalid API key")
                && (error as! MovieSearchError).localizedDescription.hasPrefix("TMDB refused the credentials")
        }
        #expect(transport.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test(arguments: [
        TMDBSettings.Credentials.apiKey("sekritkey123"), TMDBSettings.Credentials.readAccessToken("tok.secret.456"),
    ])
    func credentialsTravelOnTheWireButNeverReachTheLog(credentials: TMDBSettings.Credentials) async throws {
        let secret: String
        switch credentials {
        case let .apiKey(key): secret = key
        case let .readAccessToken(token): secret = token
        }
        let brokenConnection = TransportError.connectionLost(host: "api.example.test", detail: "connection reset")
        let transport = InMemoryTransport([
            "/3/search/movie": [.failure(brokenConnection), .success(unavailable), .success(toySearch)]
        ])
        let log = LogLines()
        _ = try await makeClient(transport, credentials: credentials, log: log).search("toy", language: .en)

        let wire = transport.requests.map { request in
            ([request.url] + request.headers.map { "\($0.name): \($0.value)" }).joined(separator: "\n")
        }
        #expect(wire.count == 3)
        #expect(wire.allSatisfy { $0.contains(secret) }, "every attempt is authenticated")
        #expect(log.all.filter { $0.hasPrefix("GET ") }.count == 3)
        #expect(log.all.filter { $0.hasPrefix("retrying ") }.count == 2)
        for line in log.all { #expect(!line.contains(secret), "\(line)") }
    }

    @Test func postersDownloadTogetherAndOnlyRetryableFailuresGoAgain() async throws {
        let transport = InMemoryTransport([
            "/t/p/w342/a.jpg": [.success(jpeg)],
            "/t/p/w342/gone.jpg": [.success(InMemoryTransport.json(404, #"{"status_code": 34}"#))],
            "/t/p/w342/busy.jpg": [.success(unavailable), .success(jpeg)],
        ])
        let clock = TestClock()
        let progress = Mutex<[Int]>([])
        let results = await makeClient(transport, clock: clock).downloadPosters(["/a.jpg", "/gone.jpg", "/busy.jpg"], size: "w342") {
            done in progress.withLock { $0.append(done) }
        }
        #expect(try results[0].get() == jpeg.body)
        #expect(results[1] == .failure(.http(status: 404, endpoint: "/w342/gone.jpg", tmdbCode: 34, message: nil, retryAfter: nil)))
        #expect(try results[2].get() == jpeg.body)
        #expect(transport.requests.map(\.url) == [
            imageURL + "/w342/a.jpg", imageURL + "/w342/gone.jpg", imageURL + "/w342/busy.jpg", imageURL + "/w342/busy.jpg",
        ])
        #expect(clock.sleeps.count == 1)
        #expect(progress.withLock { $0 } == [1, 2, 3, 1], "each round counts its own transfers")
    }
}
