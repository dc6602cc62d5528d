import Benchmark
import Foundation
import GRDB
import QuizStore

/// The repository's seed bundle: this file is Benchmarks/Benchmarks/StoreBenchmarks/StoreBenchmarks.swift.
let seed = SeedBundle(
    directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Seed"))

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-bench-\(getpid())")

/// A seeded database, grown to 100,000 packages by Benchmarks/generate-packages.sql when `count` asks for more than 8.
func largeDatabase(packages count: Int) throws -> String {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let path = scratch.appendingPathComponent("large-\(count).sqlite").path
    if FileManager.default.fileExists(atPath: path) { return path }
    _ = try AppDatabase.openOrSeed(at: path, seedBundle: { seed })
    guard count > 8 else { return path }
    let sql = try String(contentsOf: seed.directory.deletingLastPathComponent()
        .appendingPathComponent("Benchmarks/generate-packages.sql"), encoding: .utf8)
    try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: sql) }
    return path
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 3,
        maxDuration: .seconds(5),
        maxIterations: 200
    )

    // First run: copy the bundle (temporary file, fsync, link), verify it, open it and check the schema.
    Benchmark("first-run seeding") { benchmark in
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        for _ in benchmark.scaledIterations {
            let path = scratch.appendingPathComponent("fresh-\(UUID().uuidString).sqlite").path
            benchmark.startMeasurement()
            let (database, seeded) = try AppDatabase.openOrSeed(at: path, seedBundle: { seed })
            benchmark.stopMeasurement()
            precondition(seeded)
            blackHole(database)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }

    for size in [8, 100_000] {
        Benchmark("open + list first page, \(size) packages") { benchmark, path in
            for _ in benchmark.scaledIterations {
                let database = try AppDatabase(existingAt: path)
                blackHole(try database.packages(limit: 50))
            }
        } setup: {
            try largeDatabase(packages: size)
        }
    }
}
