import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `fake-tmdb` process on 127.0.0.1, stopped when this object goes away. Sendable: what it holds is set when
/// it is made and only read after (the request log is read from its file).
public final class FakeServerProcess: @unchecked Sendable {
    let process = Process()
    public let port: Int
    let logPath: String

    public var apiURL: String { "http://127.0.0.1:\(port)/3" }
    public var imageURL: String { "http://127.0.0.1:\(port)/t/p" }

    /// The requests the server received, one line each (credentials redacted by the server).
    public var requests: [String] {
        (try? String(contentsOfFile: logPath, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    public init(_ arguments: [String] = []) throws {
        logPath = FileManager.default.temporaryDirectory.appendingPathComponent("fake-tmdb-\(UUID().uuidString).log").path
        process.executableURL = Self.binary
        process.arguments = ["--port", "0", "--log", logPath] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line announces the port; reading it is how we know the server is up.
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { throw FakeServerError.exitedEarly }
            if first == UInt8(ascii: "\n") { break }
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening on 127.0.0.1:"), let port = Int(text.split(separator: ":").last ?? "") else {
            throw FakeServerError.unexpectedFirstLine(text)
        }
        self.port = port
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: logPath)
    }

    static let binary = builtBinary(named: "fake-tmdb")
}

/// A product of this package, built beside the test bundle (a test target that depends on it gets it built first).
public func builtBinary(named name: String) -> URL {
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
    ]
    for folder in candidates {
        var directory = folder
        // The test bundle may be a folder (`X.xctest/…`) or a file beside the binaries.
        for _ in 0..<4 {
            let binary = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
            directory.deleteLastPathComponent()
        }
    }
    fatalError("\(name) not found beside \(CommandLine.arguments[0])")
}

public enum FakeServerError: Error {
    case exitedEarly
    case unexpectedFirstLine(String)
}

/// A port on 127.0.0.1 with nothing listening: bind, read the port, close.
public func closedLocalPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            _ = bind(fd, $0, length)
            _ = getsockname(fd, $0, &length)
        }
    }
    close(fd)
    return Int(UInt16(bigEndian: address.sin_port))
}
