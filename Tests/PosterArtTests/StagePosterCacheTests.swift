import Foundation
import PosterArt
import PosterGrid
import Synchronization
import Testing

@Suite("Stage poster cache")
struct StagePosterCacheTests {
    typealias Cache = StagePosterCache<String>

    struct Unreadable: Error {}

    @Test func theSameKeyGivesTheSameBytesWithoutCuttingAgain() throws {
        let jpeg = try seedPoster("metropolis-1927.jpg")
        let cache = Cache(byteLimit: 1 << 20)
        let loads = Mutex(0)
        func load() -> Data {
            loads.withLock { $0 += 1 }
            return jpeg
        }
        let stageTwo = Cache.Key(poster: "metropolis", geometry: .standard, revealed: Array(metropolisAreas.prefix(2)))
        let first = try cache.cut(stageTwo, jpeg: load)
        #expect(first == (try StagePoster.cut(jpeg: jpeg, geometry: .standard, revealed: Array(metropolisAreas.prefix(2)))))
        #expect(try cache.cut(stageTwo, jpeg: load) == first)
        // The same areas in another order, or repeated, are the same cut.
        let reordered = Cache.Key(
            poster: "metropolis", geometry: .standard, revealed: [metropolisAreas[1], metropolisAreas[0], metropolisAreas[1]])
        #expect(reordered == stageTwo)
        #expect(try cache.cut(reordered, jpeg: load) == first)
        #expect(loads.withLock { $0 } == 1, "the source is read on the miss only")
        let statistics = cache.statistics
        #expect(statistics.entries == 1 && statistics.bytes == first.count && statistics.evictions == 0)
        #expect(statistics.hits == 2 && statistics.misses == 1)

        // Another stage, grid, quality or poster is another cut.
        let others = [
            Cache.Key(poster: "metropolis", geometry: .standard, revealed: Array(metropolisAreas.prefix(3))),
            Cache.Key(poster: "metropolis", geometry: try GridGeometry(columns: 50, rows: 75, areaSize: 3, margin: 2), revealed: Array(metropolisAreas.prefix(2))),
            Cache.Key(poster: "metropolis", geometry: .standard, revealed: Array(metropolisAreas.prefix(2)), quality: 60),
            Cache.Key(poster: "metropolis-upload", geometry: .standard, revealed: Array(metropolisAreas.prefix(2))),
        ]
        for key in others {
            #expect(cache.cached(key) == nil)
            _ = try cache.cut(key, jpeg: load)
        }
        #expect(loads.withLock { $0 } == 5)
        #expect(cache.statistics.entries == 5)
    }

    @Test func theLeastRecentlyUsedGoesWhenTheBytesPassTheCap() {
        let cache = Cache(byteLimit: 250)
        func key(_ name: String) -> Cache.Key { Cache.Key(poster: name, geometry: .standard, revealed: []) }
        cache.insert(Data(count: 100), for: key("a"))
        cache.insert(Data(count: 100), for: key("b"))
        #expect(cache.cached(key("a")) != nil, "a is now the most recently used")
        cache.insert(Data(count: 100), for: key("c"))
        #expect(cache.cached(key("b")) == nil, "b was the least recently used")
        #expect(cache.cached(key("a"))?.count == 100 && cache.cached(key("c"))?.count == 100)
        #expect(cache.statistics.bytes == 200 && cache.statistics.evictions == 1)

        // Replacing an entry counts its new size only.
        cache.insert(Data(count: 150), for: key("a"))
        #expect(cache.statistics.bytes == 250 && cache.statistics.entries == 2)
        // One larger than the whole cap is not kept, and does not push the others out.
        cache.insert(Data(count: 251), for: key("d"))
        #expect(cache.cached(key("d")) == nil)
        #expect(cache.statistics.entries == 2 && cache.statistics.bytes == 250)
        // One that needs the room of both others pushes both out.
        cache.insert(Data(count: 240), for: key("e"))
        #expect(cache.statistics.entries == 1 && cache.statistics.bytes == 240 && cache.statistics.evictions == 3)
        cache.removeAll()
        #expect(cache.statistics.entries == 0 && cache.statistics.bytes == 0)
        #expect(cache.cached(key("e")) == nil)
    }

    @Test func aRealCapHoldsWhatFitsOfRealCuts() throws {
        let jpeg = try seedPoster("metropolis-1927.jpg")
        let sizes = try (0...5).map { try StagePoster.cut(jpeg: jpeg, geometry: .standard, revealed: Array(metropolisAreas.prefix($0))).count }
        // Room for the last three stages, not four.
        let cache = Cache(byteLimit: sizes[3...].reduce(0, +))
        for stage in 0...5 {
            _ = try cache.cut(Cache.Key(poster: "m", geometry: .standard, revealed: Array(metropolisAreas.prefix(stage))), jpeg: { jpeg })
        }
        #expect(cache.statistics.entries == 3 && cache.statistics.bytes == sizes[3...].reduce(0, +))
        for stage in 0...5 {
            let held = cache.cached(Cache.Key(poster: "m", geometry: .standard, revealed: Array(metropolisAreas.prefix(stage)))) != nil
            #expect(held == (stage >= 3), "stage \(stage)")
        }
    }

    @Test func failuresAreTypedAndNotCached() {
        let cache = Cache(byteLimit: 1 << 20)
        let key = Cache.Key(poster: "gone", geometry: .standard, revealed: [])
        do {
            _ = try cache.cut(key, jpeg: { () throws(Unreadable) -> Data in throw Unreadable() })
            Issue.record("a poster that cannot be read was cut")
        } catch {
            guard case .loading = error else { Issue.record("\(error)"); return }
        }
        do {
            _ = try cache.cut(key, jpeg: { Data("not a poster".utf8) })
            Issue.record("garbage was cut")
        } catch {
            guard case .cutting(.notAJPEG) = error else { Issue.record("\(error)"); return }
        }
        #expect(cache.statistics.entries == 0)
    }

    @Test func manyThreadsAtOnceKeepTheCacheWhole() async throws {
        let cache = Cache(byteLimit: 10_000)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var generator = AreaLayout.SeededGenerator(seed: UInt64(worker))
                    for _ in 0..<2000 {
                        let name = "p\(Int.random(in: 0..<40, using: &generator))"
                        let key = Cache.Key(poster: name, geometry: .standard, revealed: [])
                        if let data = cache.cached(key) {
                            #expect(data.count == 300 + name.count)
                        } else {
                            cache.insert(Data(count: 300 + name.count), for: key)
                        }
                    }
                }
            }
        }
        let statistics = cache.statistics
        #expect(statistics.bytes <= 10_000 && statistics.bytes > 10_000 - 400)
        #expect(statistics.hits + statistics.misses == 16_000)
        #expect(statistics.entries == (0..<40).filter { cache.cached(Cache.Key(poster: "p\($0)", geometry: .standard, revealed: [])) != nil }.count)
    }
}
