import Foundation

/// Waits for `condition`, checking every 20 ms, for at most 60 s (then throws): a wait for something to happen, not a
/// measure of how long it takes.
public func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw GaveUpWaiting(what: what) }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// TCP connections of this machine in the ESTABLISHED state whose far end is 127.0.0.1:`port` (from /proc/net/tcp):
/// the client's side of its connections to a server on that port.
public func openConnections(toPort port: Int) -> Int {
    // Read to its end: `String(contentsOfFile:)` stops after the first page of a file of /proc, which says size 0.
    guard let file = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return -1 }
    let table = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
    let far = String(format: "0100007F:%04X", port)
    return table.split(separator: "\n").dropFirst().filter { line in
        let fields = line.split(separator: " ")
        return fields.count > 3 && fields[2] == far && fields[3] == "01"
    }.count
}

public struct GaveUpWaiting: Error, CustomStringConvertible {
    public var what: String
    public var description: String { "gave up waiting: \(what)" }
}
