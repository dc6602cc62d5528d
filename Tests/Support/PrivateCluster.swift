import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL cluster of one test's own, made and removed by `.ci/postgres`.
public struct PrivateCluster: Sendable {
    public let folder: String
    public let url: String
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".ci/postgres").path

    public init() throws {
        let output = try Self.bash(["start"])
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { values[String(pair[0])] = String(pair[1]) }
        }
        guard let url = values["UQUIZ_TEST_POSTGRES_URL"], let folder = values["UQUIZ_TEST_POSTGRES_DIR"] else {
            throw ClusterFailure(description: ".ci/postgres start printed no URL: \(output)")
        }
        self.url = url
        self.folder = folder
    }

    /// `pause` stops its server (a fast shutdown: sessions are cut, as in a restart) keeping the data; `resume` starts
    /// it again on the same port.
    public func run(_ command: String) throws { _ = try Self.bash([command, folder]) }

    /// One SQL query's single value, through psql.
    public func value(_ sql: String) throws -> String {
        try Self.shell("psql '\(url)' -tAc \"\(sql)\"").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func stop() { _ = try? Self.bash(["stop", folder]) }

    /// Runs the script with posix_spawn and waitpid: Foundation's `Process.waitUntilExit` was seen to wait forever
    /// here once the script had started a server (which outlives it as a daemon). Output goes through a file.
    private static func bash(_ arguments: [String]) throws -> String {
        try shell(([script] + arguments).map { "'" + $0 + "'" }.joined(separator: " "))
    }

    private static func shell(_ line: String) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-cluster-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        // Only standard input, output and error go to the script: the server it starts outlives it as a daemon, and
        // any other descriptor bash inherited (the pipe of a curl another test runs at that moment) would stay open in
        // that daemon, so that curl's reader would never see the end of its output. posix_spawn's closefrom action is
        // not visible from Swift here, so bash closes them itself first.
        let closeInherited = "for fd in /proc/$$/fd/*; do n=${fd##*/}; [ \"$n\" -gt 2 ] && eval \"exec $n>&-\"; done 2>/dev/null; "
        let command = closeInherited + line + " >'\(output.path)' </dev/null"
        let words: [String] = ["/bin/bash", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/bash", nil, nil, argv, environ) == 0 else {
            throw ClusterFailure(description: "could not start .ci/postgres")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw ClusterFailure(description: "\(line) failed (status \(status))")
        }
        return text
    }
}

public struct ClusterFailure: Error, CustomStringConvertible {
    public var description: String
}

