// swift-tools-version: 6.1
// libFuzzer targets (import and spec validation with the cell parser and grids, TMDB response decoding, config files
// through every setting's check, answer normalizing and judging), built only by .ci/fuzz/run with -sanitize=fuzzer.
import PackageDescription

import struct Foundation.URL

// SwiftPM names a path dependency after its folder, which is whatever the checkout is called.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "UQuizFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "ImportFuzzer",
            dependencies: ["FuzzSupport", .product(name: "QuizCore", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(
            name: "TMDBFuzzer",
            dependencies: ["FuzzSupport", .product(name: "MovieSearch", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(
            name: "SettingsFuzzer",
            dependencies: ["FuzzSupport", .product(name: "UQuizCLI", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(
            name: "NormalizerFuzzer",
            dependencies: ["FuzzSupport", .product(name: "QuizCore", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ]
)
