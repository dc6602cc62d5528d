import Foundation
import QuizCore
import Testing
import UQuizTestSupport

@testable import MovieSearch

@Suite("Poster paths from anywhere are checked before they touch the cache or the network")
struct PosterPathValidationTests {
    @Test func theCacheHasNoFileForAPathThatIsNotAFileName() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-posters-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = PosterCache(directory: folder, capBytes: 1 << 20)
        try cache.store(Data([0xFF, 0xD8, 0xFF, 1]), for: "/abc.jpg", size: "w342")
        for path in ["/..", "/.", "../../../../../etc/passwd", "/w342/abc.jpg", "/"] {
            #expect(cache.file(for: path, size: "w342") == nil, "\(path)")
            #expect(!cache.contains(path, size: "w342"), "\(path) is never already cached")
            #expect(cache.data(for: path, size: "w342") == nil)
            #expect(throws: (any Error).self) { try cache.store(Data([0xFF, 0xD8, 0xFF]), for: path, size: "w342") }
        }
        #expect(cache.contains("/abc.jpg", size: "w342"))
    }

    @Test func theClientNeverRequestsAPathThatIsNotAFileName() async throws {
        let server = try FakeServerProcess()
        let client = makeClient(server)
        let results = await client.downloadPosters(["../../../../../etc/passwd", "/..", "/%2e%2e/x.jpg"], size: "w342")
        for result in results {
            guard case .failure(.invalidRequest) = result else {
                Issue.record("expected a refusal, got \(result)")
                continue
            }
        }
        #expect(server.requests.isEmpty, "\(server.requests)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-posters-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetcher = PosterFetcher(client: client, cache: PosterCache(directory: folder), size: "w342")
        let outcomes = await fetcher.fetch([PosterRequest(posterPath: "/..", tmdbId: nil, language: .en)])
        guard case .failed = outcomes[0] else {
            Issue.record("/.. must not count as cached: \(outcomes)")
            return
        }
    }

    @Test func pathsInTMDBAnswersThatAreNotFileNamesAreDropped() async throws {
        let search = Data("""
            {"page": 1, "total_pages": 1, "total_results": 2, "results": [
              {"id": 1, "title": "A", "original_title": "A", "poster_path": "/../../etc/passwd"},
              {"id": 2, "title": "B", "original_title": "B", "poster_path": "/b.jpg"}]}
            """.utf8)
        let page = try TMDBDecoding.searchPage(search)
        #expect(page.results.map(\.posterPath) == [nil, "/b.jpg"])
        let images = Data("""
            {"id": 1, "posters": [{"file_path": "/..", "vote_average": 9}, {"file_path": "/ok.jpg", "vote_average": 1}]}
            """.utf8)
        #expect(try TMDBDecoding.posters(images).map(\.filePath) == ["/ok.jpg"])
        let details = Data(#"{"id": 1, "title": "A", "original_title": "A", "poster_path": "x/../../y.jpg", "genres": []}"#.utf8)
        #expect(try TMDBDecoding.movie(details).summary.posterPath == nil)
    }
}

@Suite("Titles from TMDB have the weight of stored texts")
struct WireTitleTests {
    @Test func aTitleOfMillionsOfCombiningMarksIsSkipped() async throws {
        let heavy = "a" + String(repeating: "\u{0301}", count: 10_000)
        let encoded = String(decoding: try JSONEncoder().encode(heavy), as: UTF8.self)
        let search = Data("""
            {"page": 1, "results": [{"id": 1, "title": \(encoded), "original_title": "A"},
                                    {"id": 2, "title": "B", "original_title": "B"}]}
            """.utf8)
        #expect(try TMDBDecoding.searchPage(search).results.map(\.id) == [2])
        let titles = Data(#"{"id": 1, "titles": [{"title": \#(encoded)}, {"title": "Origen"}]}"#.utf8)
        #expect(try TMDBDecoding.alternativeTitles(titles) == ["Origen"])
        #expect(throws: MovieSearchError.self) {
            try TMDBDecoding.movie(Data(#"{"id": 1, "title": \#(encoded), "genres": []}"#.utf8))
        }
    }
}
