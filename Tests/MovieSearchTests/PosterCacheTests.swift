import Foundation
import MovieSearch
import Testing
import UQuizTestSupport

@Suite("Poster cache")
struct PosterCacheTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-posters-\(UUID().uuidString)")

    func age(_ url: URL, secondsAgo: Double) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -secondsAgo)], ofItemAtPath: url.path)
    }

    @Test func storesUnderSizeAndFileNameAndLeavesNoTemporaryFiles() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = PosterCache(directory: folder, capBytes: 1 << 20)
        try cache.store(Data([0xFF, 0xD8, 0xFF, 1]), for: "/abc.jpg", size: "w342")
        #expect(cache.data(for: "/abc.jpg", size: "w342") == Data([0xFF, 0xD8, 0xFF, 1]))
        #expect(cache.file(for: "/abc.jpg", size: "w342")!.path.hasSuffix("/w342/abc.jpg"))
        try cache.store(Data([0xFF, 0xD8, 0xFF, 2]), for: "/abc.jpg", size: "w342")
        #expect(cache.data(for: "/abc.jpg", size: "w342") == Data([0xFF, 0xD8, 0xFF, 2]), "replaced whole")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("w342").path) == ["abc.jpg"])
        #expect(!cache.contains("/abc.jpg", size: "w154"))
    }

    @Test func thePartialFileOfAKilledWriterGoesAtTheNextStoreAndALiveWritersStays() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = PosterCache(directory: folder, capBytes: 1 << 20)
        let sizeFolder = folder.appendingPathComponent("w342")
        try FileManager.default.createDirectory(at: sizeFolder, withIntermediateDirectories: true)
        // A process that has ended, as a writer killed mid-write has.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let abandoned = sizeFolder.appendingPathComponent(".gone.jpg.\(ended.processIdentifier).partial")
        let inProgress = sizeFolder.appendingPathComponent(".busy.jpg.\(getpid()).partial")
        for partial in [abandoned, inProgress] { try Data([0xFF, 0xD8]).write(to: partial) }
        try cache.store(Data([0xFF, 0xD8, 0xFF, 1]), for: "/abc.jpg", size: "w342")
        let names = try FileManager.default.contentsOfDirectory(atPath: sizeFolder.path).sorted()
        #expect(names == [inProgress.lastPathComponent, "abc.jpg"])
        #expect(!cache.contains("/gone.jpg", size: "w342") && !cache.contains("/busy.jpg", size: "w342"))
    }

    @Test func evictsTheLeastRecentlyUsedUntilUnderTheCap() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = PosterCache(directory: folder, capBytes: 3000)
        let kilobyte = Data([0xFF, 0xD8, 0xFF] + Array(repeating: 7, count: 997))
        for (index, name) in ["a", "b", "c"].enumerated() {
            try cache.store(kilobyte, for: "/\(name).jpg", size: "w342")
            try age(cache.file(for: "/\(name).jpg", size: "w342")!, secondsAgo: Double(300 - index * 100))
        }
        // Reading "a" makes it the most recently used, so "b" is now the oldest.
        #expect(cache.data(for: "/a.jpg", size: "w342") != nil)
        try cache.store(kilobyte, for: "/d.jpg", size: "w342")
        #expect(cache.contains("/a.jpg", size: "w342"))
        #expect(!cache.contains("/b.jpg", size: "w342"))
        #expect(cache.contains("/c.jpg", size: "w342"))
        #expect(cache.contains("/d.jpg", size: "w342"))
    }

    @Test func aPosterLargerThanTheCapStillSurvivesItsOwnStore() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = PosterCache(directory: folder, capBytes: 100)
        try cache.store(Data([0xFF, 0xD8, 0xFF] + Array(repeating: 1, count: 47)), for: "/old.jpg", size: "w342")
        try cache.store(Data([0xFF, 0xD8, 0xFF] + Array(repeating: 1, count: 497)), for: "/big.jpg", size: "w342")
        #expect(!cache.contains("/old.jpg", size: "w342"))
        #expect(!cache.contains("/big.jpg", size: "w342"), "over the cap on its own: evicted last, but evicted")
    }
}

@Suite("Only posters are cached")
struct PosterValidationTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-posters-\(UUID().uuidString)")
    /// What a decoder would say, cheaply: a whole JPEG ends with its end-of-image marker.
    static let complete: @Sendable (Data) -> Bool = { $0.starts(with: [0xFF, 0xD8, 0xFF]) && $0.suffix(2) == Data([0xFF, 0xD9]) }
    static let whole = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9])
    static let cutShort = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])

    func fetcher(_ transport: InMemoryTransport) -> PosterFetcher {
        let client = TMDBClient(
            settings: TMDBSettings(imageURL: "https://images.example.test/t/p", credentials: nil), transport: transport,
            cache: nil, clock: TestClock().clock)
        return PosterFetcher(client: client, cache: PosterCache(directory: folder), size: "w342", isPoster: Self.complete)
    }

    static func image(_ body: Data) -> InMemoryTransport.Outcome {
        .success(HTTPReply(status: 200, headers: ["content-type": "image/jpeg"], body: body))
    }

    @Test func aBodyThatStartsLikeAJPEGButDoesNotDecodeIsAFailureAndIsNotCached() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = InMemoryTransport(["/t/p/w342/a.jpg": [Self.image(Self.cutShort)]])
        let outcomes = await fetcher(transport).fetch([PosterRequest(posterPath: "/a.jpg", tmdbId: nil, language: .en)])
        guard case .failed(let reason) = outcomes[0] else {
            Issue.record("expected a failure, got \(outcomes)")
            return
        }
        #expect(reason.contains("not a readable poster"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("w342/a.jpg").path))
        // The next fetch asks again rather than calling it cached.
        let again = await fetcher(transport).fetch([PosterRequest(posterPath: "/a.jpg", tmdbId: nil, language: .en)])
        #expect(again != [.alreadyCached])
        #expect(transport.requests.count == 2)
    }

    @Test func anUndecodableCachedFileIsDroppedAndFetchedAgain() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("w342/a.jpg")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.cutShort.write(to: file)
        let transport = InMemoryTransport(["/t/p/w342/a.jpg": [Self.image(Self.whole)]])
        let outcomes = await fetcher(transport).fetch([PosterRequest(posterPath: "/a.jpg", tmdbId: nil, language: .en)])
        #expect(outcomes == [.downloaded])
        #expect(try Data(contentsOf: file) == Self.whole)
        await #expect(fetcher(transport).fetch([PosterRequest(posterPath: "/a.jpg", tmdbId: nil, language: .en)]) == [.alreadyCached])
        #expect(transport.requests.count == 1)

        // Read directly, a file that stopped decoding is no poster and is gone.
        try Self.cutShort.write(to: file)
        let cache = PosterCache(directory: folder, isPoster: Self.complete)
        #expect(cache.data(for: "/a.jpg", size: "w342") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(throws: PosterCache.NotAPoster.self) { try cache.store(Self.cutShort, for: "/a.jpg", size: "w342") }
    }
}

@Suite("Poster downloads")
struct PosterDownloadTests {
    @Test func failuresWorthRetryingAreRetriedAndOthersAreNot() async throws {
        let server = try FakeServerProcess(["--fault", "/t/p/w342/uXDf;status=503;times=2", "--fault", "/t/p/w342/nope;status=404"])
        let clock = TestClock()
        let client = makeClient(server, credentials: nil, clock: clock)
        let results = await client.downloadPosters(["/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg", "/nope.jpg"], size: "w342")
        #expect((try? results[0].get())?.starts(with: [0xFF, 0xD8, 0xFF]) == true, "the 503s were retried")
        #expect({ if case .failure(.http(404, _, _, _, _)) = results[1] { true } else { false } }(), "a 404 is final")
        #expect(server.requests.filter { $0.contains("uXDf") }.count == 3)
        #expect(server.requests.filter { $0.contains("nope") }.count == 1)
        #expect(clock.sleeps.count == 2)
    }
}
