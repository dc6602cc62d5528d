// swift-tools-version: 6.1
// libFuzzer target for the import and spec validators, built only by .ci/fuzz/run with -sanitize=fuzzer.
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
        .executableTarget(
            name: "ImportFuzzer",
            dependencies: [.product(name: "QuizCore", package: rootIdentity)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ]
)
