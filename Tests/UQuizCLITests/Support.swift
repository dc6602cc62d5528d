import Foundation
import UQuizTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The built `uquiz` binary: this test target depends on it, so it sits beside the test bundle.
let uquizBinary = builtBinary(named: "uquiz")

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String

    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// A user's world for one test: a temporary HOME with its own XDG folders and nothing from the developer's environment.
/// Shared across threads only after its environment is set up; `run` itself touches no shared state.
final class Sandbox: @unchecked Sendable {
    let home: URL
    var environment: [String: String]

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = [
            "HOME": home.path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "PATH": "/usr/bin:/bin",
            "LANG": "C.UTF-8",
        ]
    }

    deinit { try? FileManager.default.removeItem(at: home) }

    /// Where the database lands by default.
    var defaultDatabase: String { home.appendingPathComponent("data/uquiz/uquiz.sqlite").path }

    func path(_ relative: String) -> String { home.appendingPathComponent(relative).path }

    func launch(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = uquizBinary
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `executable` (a wrapper that starts uquiz under a limit or another user) and collects its standard error.
    func runThrough(_ executable: String, _ arguments: [String]) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus, stdout: "", stderr: stderr)
    }

    /// Runs with standard input read from a file.
    func runWithInput(_ arguments: [String], input: String) throws -> RunResult {
        try run(arguments, standardInput: FileHandle(forReadingAtPath: input))
    }

    @discardableResult
    func run(
        _ arguments: [String], extraEnvironment: [String: String] = [:], standardInput: FileHandle? = nil
    ) throws -> RunResult {
        // Output goes to files, not pipes, so a large output can never block the child while we wait for it.
        let outURL = home.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errURL = home.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let process = Process()
        process.executableURL = uquizBinary
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = standardInput ?? FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// Display columns of a string, as a terminal shows it (Hangul is two columns wide).
func displayWidth(_ text: Substring) -> Int {
    text.unicodeScalars.reduce(0) { $0 + ((0xAC00...0xD7A3).contains($1.value) ? 2 : 1) }
}

/// kill -9 trials: how many, and when each one strikes.
enum KillTrials {
    /// The suite's count, or `UQUIZ_KILL_TRIALS` for the nightly script (`.ci/nightly`), which runs many more.
    static func count(_ suiteCount: Int) -> Int {
        ProcessInfo.processInfo.environment["UQUIZ_KILL_TRIALS"].flatMap(Int.init).map { max($0, 1) } ?? suiteCount
    }

    /// Waits until trial `trial` of `count` should strike: evenly through the first `window` seconds of the command,
    /// plus up to a millisecond of jitter so that repeated runs hit other moments. Nothing asserts on timing.
    static func waitForMoment(trial: Int, of count: Int, within window: Double) {
        let microseconds = window * 1_000_000 * Double(trial) / Double(max(count, 1)) + Double.random(in: 0..<1000)
        usleep(useconds_t(microseconds))
    }
}
