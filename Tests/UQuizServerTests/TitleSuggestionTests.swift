import Foundation
import Hummingbird
import HummingbirdTesting
import MovieSearch
import Testing
import UQuizServer
import UQuizTestSupport

/// `GET /v1/titles`: suggestions while a guess is typed, from the server's title index and TMDB.
@Suite("Title suggestions while typing")
struct TitleSuggestionTests {
    /// The seed's catalog (70 movies) answers alone once the rule allows that few.
    static let smallIndexAnswers: ServerConfiguration = {
        var configuration = ServerConfiguration()
        configuration.titles.minimumTitles = 10
        return configuration
    }()

    static func titles(_ response: TestResponse) -> [String] {
        (response.json["titles"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
    }

    @Test func theCatalogSuggestsTitlesInThePagesLanguageWithTheirYears() async throws {
        try await TestServer().test(configuration: Self.smallIndexAnswers) { client in
            let token = try await client.newPlayer()
            let toy = try await client.send(.get, "/v1/titles?q=toy%20st", token: token)
            #expect(toy.status == .ok)
            #expect(Self.titles(toy).first == "Toy Story", "\(toy.text)")
            let line = try #require((toy.json["titles"] as? [[String: Any]])?.first)
            #expect(line["year"] as? Int == 1995)
            #expect(line["originalTitle"] == nil, "the same as the title")
            #expect(toy.json["available"] as? Bool == true && toy.json["pending"] as? Bool == false, "no TMDB here")

            let korean = try await client.send(.get, "/v1/titles?q=\("토이".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&language=ko", token: token)
            #expect(Self.titles(korean).first == "토이 스토리", "\(korean.text)")
            let host = try await client.send(.get, "/v1/titles?q=\("괴물".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&language=en", token: token)
            let hostLine = try #require((host.json["titles"] as? [[String: Any]])?.first, "\(host.text)")
            #expect(hostLine["title"] as? String == "The Host" && hostLine["originalTitle"] as? String == "괴물")

            let one = try await client.send(.get, "/v1/titles?q=t", token: token)
            #expect(one.status == .ok && Self.titles(one).isEmpty && one.json["available"] as? Bool == true)
            let many = try await client.send(.get, "/v1/titles?q=th", token: token)
            #expect(Self.titles(many).count == 8, "at most 8: \(many.text)")
        }
    }

    @Test func aSmallCatalogWithoutTMDBSuggestsNothingSinceItWouldTellTheAnswers() async throws {
        try await TestServer().test { client in
            let token = try await client.newPlayer()
            let toy = try await client.send(.get, "/v1/titles?q=toy", token: token)
            #expect(toy.status == .ok)
            #expect(Self.titles(toy).isEmpty && toy.json["available"] as? Bool == false, "\(toy.text)")
        }
    }

    @Test func aSuggestionNeedsATokenFitInputAndIsLimitedPerPlayer() async throws {
        var configuration = Self.smallIndexAnswers
        configuration.titleSuggestions = RateLimit(burst: 3, interval: .seconds(60))
        // The limiter's clock stands still: however slow the machine, the last token is a minute away.
        let clock = ManualClock()
        try await TestServer().test(configuration: configuration, monotonicNow: clock.now) { client in
            #expect(try await client.send(.get, "/v1/titles?q=toy").status == .unauthorized)
            let token = try await client.newPlayer()
            for (query, field) in [("", "q:"), ("q=a%01b", "q:"), ("q=\(String(repeating: "a", count: 201))", "q:"), ("q=toy&language=fr", "language:")] {
                let response = try await client.send(.get, "/v1/titles?\(query)", token: token)
                #expect(response.status == .badRequest && response.errorMessage.hasPrefix(field), "\(query): \(response.text)")
            }
            for _ in 0..<3 { #expect(try await client.send(.get, "/v1/titles?q=toy", token: token).status == .ok) }
            let limited = try await client.send(.get, "/v1/titles?q=toy", token: token)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "60")
            let other = try await client.newPlayer("Other")
            #expect(try await client.send(.get, "/v1/titles?q=toy", token: other).status == .ok, "per player")
        }
    }

    /// TMDB's catalog for these tests: movies the seed does not hold, so a suggestion of one came from TMDB.
    static func tmdbWithMoviesBeyondTheSeed() throws -> (FakeServerProcess, TMDBClient, URL) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("titles-\(UUID().uuidString).json")
        let movies = [(9001, "Toy Soldiers", "1991-04-26"), (9002, "Zardoz", "1974-02-06"), (9003, "Zardoz Returns", "2030-01-01")]
        let json = movies.map { id, title, date in
            ["id": id, "original_title": title, "titles": ["en": title], "release_date": date, "genre_ids": [Int](),
             "posters": [[String: Any]](), "alternative_titles": [String](), "overview": ""] as [String: Any]
        }
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        let tmdb = try FakeServerProcess(["--api-key", "sekrit-key", "--catalog", file.path])
        let client = TMDBClient(
            settings: TMDBSettings(apiURL: tmdb.apiURL, imageURL: tmdb.imageURL, credentials: .apiKey("sekrit-key")),
            transport: CurlTransport(options: .init(userAgent: "uquiz/test", connectTimeout: 2, totalTimeout: 10)),
            cache: nil, retry: RetryPolicy(maxAttempts: 1, totalBudget: .seconds(10), baseDelay: .zero, maxDelay: .zero))
        return (tmdb, client, file)
    }

    @Test func aSmallCatalogSuggestsWhatTMDBAnswersAndAsksItOncePerText() async throws {
        let (tmdb, movieClient, file) = try Self.tmdbWithMoviesBeyondTheSeed()
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestServer(movieClient: movieClient).test { client in
            let token = try await client.newPlayer()
            let toy = try await client.send(.get, "/v1/titles?q=toy", token: token)
            #expect(toy.json["available"] as? Bool == true, "\(toy.text)")
            #expect(Set(Self.titles(toy)).isSuperset(of: ["Toy Soldiers", "Toy Story"]), "TMDB's and the catalog's: \(toy.text)")
            #expect(!toy.text.contains("sekrit"))
            let searches = { tmdb.requests.filter { $0.contains("/search/movie") } }
            #expect(searches().count == 1)
            // TMDB had less than a page for "toy": a longer text finds nothing more there, and is not asked.
            let soldiers = try await client.send(.get, "/v1/titles?q=toy%20sol", token: token)
            #expect(Self.titles(soldiers) == ["Toy Soldiers"], "\(soldiers.text)")
            _ = try await client.send(.get, "/v1/titles?q=toy", token: token)
            #expect(searches().count == 1, "\(searches())")
        }
    }

    @Test func aLargeEnoughIndexAnswersAtOnceAndAsksTMDBInTheBackgroundForWhatItLacks() async throws {
        let (tmdb, movieClient, file) = try Self.tmdbWithMoviesBeyondTheSeed()
        defer { try? FileManager.default.removeItem(at: file) }
        var configuration = Self.smallIndexAnswers
        configuration.titleSuggestions = .unlimited  // the test asks until TMDB's answer is in
        try await TestServer(movieClient: movieClient).test(configuration: configuration) { client in
            let token = try await client.newPlayer()
            let first = try await client.send(.get, "/v1/titles?q=zardoz", token: token)
            #expect(first.json["available"] as? Bool == true)
            #expect(first.json["pending"] as? Bool == true, "TMDB is being asked: \(first.text)")
            #expect(!Self.titles(first).contains("Zardoz"), "not waited for")
            // What TMDB answered is in the index for the next keystroke, without asking it again.
            var titles: [String] = []
            let limit = ContinuousClock.now + .seconds(30)
            while !titles.contains("Zardoz"), ContinuousClock.now < limit {
                titles = Self.titles(try await client.send(.get, "/v1/titles?q=zardoz", token: token))
                if !titles.contains("Zardoz") { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(titles == ["Zardoz", "Zardoz Returns"])
            #expect(tmdb.requests.filter { $0.contains("/search/movie") }.count == 1)
            let again = try await client.send(.get, "/v1/titles?q=zardoz%20r", token: token)
            #expect(Self.titles(again) == ["Zardoz Returns"] && again.json["pending"] as? Bool == false)
        }
    }
}
