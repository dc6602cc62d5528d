import Foundation
import QuizCore
import Testing
import UQuizTestSupport

@testable import MovieSearch

/// A clock that only moves when the client sleeps (or a test advances it), and records every sleep.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var elapsed: Duration = .zero
    private var wall = Date(timeIntervalSince1970: 1_795_000_000)
    private(set) var sleeps: [Duration] = []

    var clock: ClientClock {
        ClientClock(
            now: { self.lock.withLock { self.elapsed } },
            sleep: { duration in
                self.lock.withLock {
                    self.sleeps.append(duration)
                    self.elapsed += duration
                    self.wall += Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
                }
            },
            wallTime: { self.lock.withLock { self.wall } },
            random: { 0.5 })
    }

    func advanceWall(seconds: Double) { lock.withLock { wall += seconds } }
}

func makeClient(
    _ server: FakeServerProcess, credentials: TMDBSettings.Credentials? = .apiKey("sekrit-key"), cache: HTTPCache? = nil,
    clock: TestClock = TestClock()
) -> TMDBClient {
    TMDBClient(
        settings: TMDBSettings(apiURL: server.apiURL, imageURL: server.imageURL, credentials: credentials),
        transport: CurlTransport(options: .init(userAgent: "uquiz/test", connectTimeout: 2, totalTimeout: 3)),
        cache: cache, clock: clock.clock)
}

@Suite("TMDB client against fake-tmdb")
struct TMDBClientTests {
    @Test func searchesInBothLanguagesWithSortedQueryItems() async throws {
        let server = try FakeServerProcess(["--api-key", "sekrit-key"])
        let client = makeClient(server)
        let english = try await client.search("toy", language: .en)
        #expect(english.results.map(\.title) == ["Toy Story", "Toy Story 2"])
        #expect(english.results[0].posterPath == "/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg")
        let korean = try await client.search("기생충", language: .ko, year: 2019)
        #expect(korean.results.map(\.title) == ["기생충"])
        #expect(korean.results.first?.originalTitle == "기생충")
        let lines = server.requests
        #expect(lines[0].hasPrefix("GET /3/search/movie?include_adult=false&language=en-US&page=1&query=toy&api_key=REDACTED"))
        #expect(lines[1].contains("language=ko-KR&page=1&query=기생충&year=2019"), "the server logs the decoded query")
    }

    @Test func bearerTokensTravelInAHeader() async throws {
        let server = try FakeServerProcess(["--api-key", "tok-123"])
        let client = makeClient(server, credentials: .readAccessToken("tok-123"))
        #expect(try await client.movie(id: 27205, language: .en).summary.title == "Inception")
        #expect(server.requests.last?.contains("authorization=REDACTED") == true)
        #expect(server.requests.last?.contains("api_key") == false)
    }

    @Test func postersAlternativeTitlesAndImageSizes() async throws {
        let server = try FakeServerProcess()
        let client = makeClient(server, credentials: nil)
        let posters = try await client.posters(movieID: 27205, language: .ko)
        #expect(posters.map(\.language) == ["en", "ko", nil])
        #expect(server.requests.last?.contains("include_image_language=en,ko,null") == true)
        await #expect(try client.alternativeTitles(movieID: 27205) == ["Origen", "Début"])
        let sizes = try await client.imageConfiguration()
        #expect(sizes.posterSize(atLeast: 342) == "w342")
        #expect(sizes.posterSize(atLeast: 154) == "w154")
        #expect(sizes.posterSize(atLeast: 600) == "w780")
        let older = ImageConfiguration(posterSizes: ["w92", "w154", "w185", "w342", "w500", "original"])
        #expect(older.posterSize(atLeast: 600) == "original", "older servers lack w780")
        #expect(client.posterURL(path: "/abc.jpg", size: "w342") == server.imageURL + "/w342/abc.jpg")
    }

    @Test func unauthorizedAndNotFoundAreNeverRetried() async throws {
        let server = try FakeServerProcess(["--api-key", "right"])
        let clock = TestClock()
        let client = makeClient(server, credentials: .apiKey("wrong"), clock: clock)
        await #expect(throws: MovieSearchError.http(
            status: 401, endpoint: "/search/movie", tmdbCode: 7,
            message: "Invalid API key: You must be granted a valid key.", retryAfter: nil)) {
            try await client.search("toy", language: .en)
        }
        let authorized = makeClient(server, credentials: .apiKey("right"), clock: clock)
        await #expect {
            try await authorized.movie(id: 999_999, language: .en)
        } throws: { error in
            guard case MovieSearchError.http(404, "/movie/999999", 34, _, _) = error else { return false }
            return true
        }
        #expect(server.requests.count == 2)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func serverErrorsAreRetriedWithBackoffThenSucceed() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;status=503;times=2"])
        let clock = TestClock()
        let client = makeClient(server, credentials: nil, clock: clock)
        #expect(try await client.search("toy", language: .en).results.count == 2)
        #expect(server.requests.count == 3)
        // Jitter fixed at 0.5: 0.75 of 500 ms, then 0.75 of 1 s.
        #expect(clock.sleeps == [.milliseconds(375), .milliseconds(750)])
    }

    @Test func retriesStopAfterThreeTries() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;status=500"])
        let clock = TestClock()
        let client = makeClient(server, credentials: nil, clock: clock)
        await #expect {
            try await client.search("toy", language: .en)
        } throws: { error in
            (error as? MovieSearchError)?.localizedDescription.hasPrefix("TMDB failed at /search/movie (HTTP 500, code 11") == true
        }
        #expect(server.requests.count == 3)
        #expect(clock.sleeps.count == 2)
    }

    @Test func rateLimitedRequestsWaitForRetryAfter() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;status=429;retry-after=2;times=1"])
        let clock = TestClock()
        let client = makeClient(server, credentials: nil, clock: clock)
        #expect(try await client.search("toy", language: .en).results.count == 2)
        #expect(clock.sleeps == [.seconds(2)])
    }

    @Test func aRetryAfterBeyondTheBudgetFailsAtOnceSayingHowLong() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;status=429;retry-after=30"])
        let clock = TestClock()
        let client = makeClient(server, credentials: nil, clock: clock)
        await #expect {
            try await client.search("toy", language: .en)
        } throws: { error in
            (error as? MovieSearchError)?.localizedDescription.hasSuffix("try again in 30 s") == true
        }
        #expect(server.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func lostConnectionsAreRetried() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;truncate;times=1"])
        let clock = TestClock()
        let client = makeClient(server, credentials: nil, clock: clock)
        #expect(try await client.search("toy", language: .en).results.count == 2)
        #expect(clock.sleeps.count == 1)
    }

    @Test func malformedAndWronglyTypedBodiesNameTheEndpoint() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;malformed", "--fault", "/3/configuration;content-type=text/html"])
        let client = makeClient(server, credentials: nil)
        await #expect {
            try await client.search("toy", language: .en)
        } throws: { error in
            guard case MovieSearchError.malformed(let endpoint, let detail) = error else { return false }
            return endpoint == "/search/movie" && detail == "not JSON"
        }
        await #expect {
            try await client.imageConfiguration()
        } throws: { error in
            guard case MovieSearchError.malformed("/configuration", let detail) = error else { return false }
            return detail.contains("images")
        }
    }

    @Test func validationErrorsCarryTMDBsList() async throws {
        let server = try FakeServerProcess()
        let client = makeClient(server, credentials: nil)
        await #expect(throws: MovieSearchError.self) { try await client.search("", language: .en) }
        await #expect {
            try await client.search("", language: .en)
        } throws: { error in
            (error as? MovieSearchError)?.localizedDescription.contains("query must be provided") == true
        }
        await #expect(throws: MovieSearchError.invalidRequest("page 501 is out of range: TMDB pages are 1...500")) {
            try await client.search("toy", language: .en, page: 501)
        }
    }

    @Test func repeatedSearchesComeFromTheCacheThenRevalidateWithETag() async throws {
        let server = try FakeServerProcess(["--api-key", "sekrit-key"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = TestClock()
        let client = makeClient(server, cache: HTTPCache(directory: folder), clock: clock)
        let first = try await client.search("toy", language: .en)
        await #expect(try client.search("toy", language: .en) == first)
        #expect(server.requests.count == 1, "a repeated search costs no request")

        clock.advanceWall(seconds: 601)  // TMDB's max-age for search is 600 s
        await #expect(try client.search("toy", language: .en) == first)
        #expect(server.requests.count == 2)
        #expect(server.requests[1].contains("if-none-match="), "a stale entry is revalidated, not refetched")
        await #expect(try client.search("toy", language: .en) == first)
        #expect(server.requests.count == 2, "a 304 refreshes the entry")

        // The key is never part of the cache.
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("sekrit-key"))
            #expect(!name.contains("sekrit"))
        }
    }

    @Test func theRateLimitKeepsUnderFortyPerSecond() async {
        let limiter = RequestPacer(limit: 40, window: .seconds(1))
        let clock = TestClock()
        var stamps: [Duration] = []
        for _ in 0..<100 {
            await limiter.acquire(clock: clock.clock)
            stamps.append(clock.clock.now())
        }
        for (index, stamp) in stamps.enumerated() where index >= 40 {
            #expect(stamp - stamps[index - 40] >= .seconds(1), "request \(index)")
        }
        #expect(clock.sleeps.count >= 2)
    }
}

@Suite("Tolerant decoding of real TMDB shapes")
struct TMDBDecodingTests {
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(type, from: Data(json.utf8))
    }

    @Test func absentValuesCollectionsAndExtraFields() async throws {
        let page = try decode(SearchPageWire.self, """
            {"page": 1, "total_pages": 1, "total_results": 4, "unexpected": {"x": 1}, "results": [
              {"id": 1, "title": "A", "original_title": "A", "release_date": "", "poster_path": null, "genre_ids": [18]},
              {"id": 2, "title": "B", "release_date": "2001-01-01", "poster_path": ""},
              {"id": 3, "name": "A Collection", "poster_path": "/c.jpg", "media_type": "collection"},
              {"title": "no id at all"},
              {"id": 5, "title": "E", "original_title": "É", "release_date": null, "genre_ids": [], "video": false}
            ]}
            """)
        let results = page.results.elements.map(\.summary)
        #expect(results.map(\.id) == [1, 2, 3, 5], "an entry without an id is skipped, not fatal")
        #expect(results[0].releaseDate == nil && results[0].posterPath == nil)
        #expect(results[1].posterPath == nil && results[1].genreIds == [] && results[1].originalTitle == "B")
        #expect(results[2].title == "A Collection" && results[2].posterPath == "/c.jpg")
        #expect(results[3].originalTitle == "É" && results[3].releaseYear == nil)
    }

    @Test func postersKeepTheirLanguageAndTextlessOnesHaveNone() async throws {
        let images = try decode(ImagesWire.self, """
            {"id": 1, "posters": [
              {"file_path": "/a.jpg", "iso_639_1": "ko", "width": 2000, "height": 3000, "vote_average": 5.3, "vote_count": 4},
              {"file_path": "/b.jpg", "iso_639_1": null, "width": 1000, "height": 1500},
              {"iso_639_1": "en"}
            ], "backdrops": []}
            """)
        let posters = images.posters?.elements ?? []
        #expect(posters.map(\.filePath) == ["/a.jpg", "/b.jpg"])
        #expect(posters.map(\.iso6391) == ["ko", nil])
    }

    @Test func errorBodiesWithAndWithoutSuccessAndValidationLists() async throws {
        let withSuccess = try decode(ErrorWire.self, #"{"success": false, "status_code": 34, "status_message": "Nope"}"#)
        #expect(withSuccess.statusCode == 34 && withSuccess.statusMessage == "Nope")
        let without = try decode(ErrorWire.self, #"{"status_code": 7, "status_message": "Invalid API key"}"#)
        #expect(without.statusCode == 7)
        let validation = try decode(ErrorWire.self, #"{"errors": ["page must be less than or equal to 500"]}"#)
        #expect(validation.errors == ["page must be less than or equal to 500"])
    }
}

@Suite("Redacting free text")
struct RedactedTextTests {
    @Test(arguments: [
        "TMDB said: invalid key for GET https://api.themoviedb.org/3/search/movie?query=x&api_key=sekrit-key",
        "bad request api_key=sekrit-key&query=x",
        "see http://user:sekrit-key@host/3/movie",
    ])
    func secretsInAMessageAreRedacted(_ text: String) async {
        let redacted = Redaction.redact(text: text)
        #expect(!redacted.contains("sekrit"), "\(redacted)")
        #expect(redacted.contains("REDACTED"))
    }

    @Test func aMessageWithoutSecretsIsKept() async {
        let text = "TMDB has nothing at /3/movie/1 (HTTP 404, code 34: The resource could not be found.)"
        #expect(Redaction.redact(text: text) == text)
    }
}
