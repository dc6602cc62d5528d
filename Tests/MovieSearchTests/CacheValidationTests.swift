import Foundation
import Testing

@testable import MovieSearch

@Suite("Only answers that decode are cached")
struct CacheValidationTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-http-\(UUID().uuidString)")
    static let good = InMemoryTransport.json(
        200, #"{"page": 1, "total_pages": 1, "total_results": 1, "results": [{"id": 862, "title": "Toy Story", "original_title": "Toy Story"}]}"#,
        headers: ["cache-control": "max-age=3600"])
    static let cutShort = InMemoryTransport.json(
        200, #"{"page": 1, "results": [{"id": 862, "title": "Toy"#, headers: ["cache-control": "max-age=3600"])

    func client(_ transport: InMemoryTransport) -> TMDBClient {
        TMDBClient(
            settings: TMDBSettings(apiURL: "https://api.example.test/3", credentials: .apiKey("k")), transport: transport,
            cache: HTTPCache(directory: folder), clock: TestClock().clock)
    }

    @Test func aBodyThatDoesNotDecodeIsNotServedFromTheCache() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = InMemoryTransport(["/3/search/movie": [.success(Self.cutShort), .success(Self.good)]])
        await #expect(throws: MovieSearchError.self) { try await client(transport).search("toy", language: .en) }
        #expect(try await client(transport).search("toy", language: .en).results.map(\.id) == [862], "asked again")
        #expect(try await client(transport).search("toy", language: .en).results.map(\.id) == [862], "now from the cache")
        #expect(transport.requests.count == 2)
    }

    @Test func aCachedEntryThatNoLongerDecodesIsDroppedAndAskedForAgain() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = InMemoryTransport(["/3/search/movie": [.success(Self.good)]])
        _ = try await client(transport).search("toy", language: .en)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        #expect(files.count == 1)
        // The entry's body damaged on disk: still an entry, no longer a search page.
        var entry = try JSONDecoder().decode(CachedResponse.self, from: Data(contentsOf: files[0]))
        entry.body = Data(#"{"page": 1, "resu"#.utf8)
        try JSONEncoder().encode(entry).write(to: files[0])
        #expect(try await client(transport).search("toy", language: .en).results.map(\.id) == [862])
        #expect(transport.requests.count == 2)
    }
}
