// swift-tools-version: 6.1
// Benchmarks live in their own package so that the main build and `swift test` stay quick.
import PackageDescription

import class Foundation.ProcessInfo
import struct Foundation.URL

// SwiftPM names a path dependency after its folder, which is whatever the checkout is called.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "UQuizBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "QuizStore", package: rootIdentity),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PlayerBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PosterArt", package: rootIdentity),
                .product(name: "PosterGrid", package: rootIdentity),
            ],
            path: "Benchmarks/PlayerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StagePosterBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PosterArt", package: rootIdentity),
                .product(name: "PosterGrid", package: rootIdentity),
            ],
            path: "Benchmarks/StagePosterBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Drives the real TMDB client against fake-tmdb for the side-by-side runs with the curl CLI.
        .executableTarget(
            name: "uquiz-http-bench",
            dependencies: [.product(name: "MovieSearch", package: rootIdentity)],
            path: "Sources/uquiz-http-bench"
        ),
        // The baseline for the cached stage poster over HTTP: a file of the same size served by the same framework.
        .executableTarget(
            name: "uquiz-static-files",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/uquiz-static-files"
        ),
        // The baseline for `uquiz list`'s start-up: a binary that links the same libraries and does nothing.
        .executableTarget(
            name: "uquiz-noop",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/uquiz-noop"
        ),
    ]
)
