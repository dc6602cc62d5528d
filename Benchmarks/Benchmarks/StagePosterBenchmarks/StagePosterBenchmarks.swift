import Benchmark
import Foundation
import PosterArt
import PosterGrid

/// A real bundled w342 poster (342 x 513): this file is Benchmarks/Benchmarks/StagePosterBenchmarks/StagePosterBenchmarks.swift.
let posterURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Seed/posters/metropolis-1927.jpg")
/// Metropolis's areas in the bundled silent packages; stage 3 of 5 shows the first three.
let stageThree = [Cell(row: 35, column: 9), Cell(row: 24, column: 38), Cell(row: 53, column: 26)]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 5, maxDuration: .seconds(5), maxIterations: 1000)

    // What the server does the first time a play asks for a stage of a poster (issue 14): decode the poster with
    // TurboJPEG, black out everything but the areas revealed so far, encode the result.
    Benchmark("stage poster cut cold, w342 (decode, mask, encode)") { benchmark, jpeg in
        for _ in benchmark.scaledIterations {
            blackHole(try StagePoster.cut(jpeg: jpeg, geometry: .standard, revealed: stageThree))
        }
    } setup: {
        try Data(contentsOf: posterURL)
    }

    // Every later request for the same poster and stage: a lookup in the process's cache of cut posters (64 MiB, holding
    // one cut per stage of each of the 25 bundled posters).
    Benchmark("stage poster from the cache, w342") { (benchmark, cache: StagePosterCache<String>) in
        let key = StagePosterCache<String>.Key(poster: "metropolis-1927.jpg", geometry: .standard, revealed: stageThree)
        for _ in benchmark.scaledIterations {
            blackHole(cache.cached(key))
        }
    } setup: {
        let cache = StagePosterCache<String>(byteLimit: 64 << 20)
        let posters = URL(fileURLWithPath: posterURL.deletingLastPathComponent().path)
        for file in try FileManager.default.contentsOfDirectory(atPath: posters.path) where file.hasSuffix(".jpg") {
            let jpeg = try Data(contentsOf: posters.appendingPathComponent(file))
            for stage in 0...stageThree.count {
                let key = StagePosterCache<String>.Key(poster: file, geometry: .standard, revealed: Array(stageThree.prefix(stage)))
                _ = try cache.cut(key, jpeg: { jpeg })
            }
        }
        return cache
    }
}
