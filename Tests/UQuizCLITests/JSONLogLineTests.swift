import Foundation
import Logging
import Synchronization
import Testing

@testable import UQuizCLI

/// The server's JSON log lines, written by hand, read as Foundation reads JSON: every field, a client's text with
/// quotes, control characters and non-ASCII kept whole, keys in sorted order, the time as ISO 8601 writes it.
@Suite struct JSONLogLineTests {
    final class Lines: TextOutputStream, @unchecked Sendable {
        let lines = Mutex<[String]>([])
        func write(_ string: String) { lines.withLock { $0.append(string) } }
    }

    @Test func aLineIsOneJSONObjectWithEveryFieldAndTheTextAsItWas() throws {
        let stream = Lines()
        var handler = JSONLineLogHandler(label: "uquiz.serve", stream: stream)
        handler.metadata = ["instance": "a1", "http.path": "overridden"]
        let path = "/v1/x\"y\\z\n\t\u{1}é🎬/"
        let time = Date(timeIntervalSince1970: 1_795_000_000.987_6)
        handler.log(
            event: LogEvent(
                level: .warning, message: "a \"quoted\" message\r\n", metadata: ["http.path": .string(path), "n": "42"],
                source: "UQuizServer", file: #fileID, function: #function, line: #line),
            at: time)
        let written = stream.lines.withLock { $0 }
        #expect(written.count == 1 && written[0].hasSuffix("\n") && written[0].dropLast().allSatisfy { $0 != "\n" })
        let object = try #require(JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: String])
        #expect(object == [
            "instance": "a1", "http.path": path, "n": "42", "level": "warning", "label": "uquiz.serve",
            "message": "a \"quoted\" message\r\n", "time": time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
        ])
        // Keys in sorted order: where each key starts in the line.
        let starts = object.keys.sorted().map { written[0].range(of: "\"\($0)\":")!.lowerBound }
        #expect(starts == starts.sorted())
    }

    /// The time field is what Foundation's ISO 8601 style writes, over the years and every millisecond of a second.
    @Test func theTimeIsISO8601InUTCToTheMillisecond() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // From 1970 to about 2100, and whole milliseconds among them.
            let seconds = Double((state >> 20) % 4_102_444_800) + (index % 2 == 0 ? Double(index % 1000) / 1000 : Double(state % 1_000_000) / 1_000_000)
            let date = Date(timeIntervalSince1970: seconds)
            #expect(JSONLineLogHandler.time(date) == date.formatted(style), "\(seconds)")
        }
    }
}
