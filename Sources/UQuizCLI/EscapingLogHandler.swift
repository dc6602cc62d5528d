import Foundation
import Logging
import UQuizStorage

/// Where log lines meet the terminal (`--verbose`, the server's request log): a message may quote a URL, a title, a
/// server's answer or a client's path, so it is escaped like every other such text before the standard-error handler
/// writes it.
struct EscapingLogHandler: TimedLogHandler, WrappingLogHandler {
    var inner: StreamLogHandler

    /// Text lines are timed by `inner` as it writes them: a moment after `time` when the log's thread writes them.
    func log(event: LogEvent, at time: Date) {
        log(event: event)
    }

    func log(event: LogEvent) {
        var escaped = event
        // Metadata too: a server's request line (a path) is a client's text.
        escaped.message = "\(SafeText.clean(event.message.description))"
        escaped.metadata = event.metadata?.mapValues { .string(SafeText.clean($0.description)) }
        inner.log(event: escaped)
    }
}

extension Logger {
    /// A logger writing escaped lines to standard error, from `level` up: the CLI's and the server's.
    package static func escapingStandardError(label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { EscapingLogHandler(inner: StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = level
        return logger
    }
}

/// How the server writes its log: lines for a person at a terminal, or one JSON object per line for a log system.
package enum LogFormat: String, CaseIterable, Sendable {
    case text, json
}

/// One JSON object per line on standard error: `time` (ISO 8601, UTC, milliseconds), `level`, `label`, `message`, and
/// every metadata key as a field of its own (the logger's, then the event's). JSON's own escaping keeps a client's text
/// from breaking a line or forging a field; each line is one write, so lines from several threads never interleave.
package struct JSONLineLogHandler: TimedLogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    let label: String
    let stream: any TextOutputStream & Sendable

    package init(label: String, stream: any TextOutputStream & Sendable = DirectStandardError()) {
        self.label = label
        self.stream = stream
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        log(event: event, at: Date())
    }

    package func log(event: LogEvent, at time: Date) {
        var fields: [String: String] = [:]
        for (key, value) in metadata { fields[key] = value.description }
        for (key, value) in event.metadata ?? [:] { fields[key] = value.description }
        fields["time"] = Self.time(time)
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        // Written by hand in sorted key order: Foundation's `JSONSerialization` boxed every field, and a busy server
        // writes a line a request.
        var line = JSONWriter(reservingCapacity: 512)
        line.object { line in
            for key in fields.keys.sorted() {
                line.key(key)
                line.string(fields[key]!)
            }
        }
        var stream = self.stream
        stream.write(String(decoding: line.bytes, as: UTF8.self) + "\n")
    }

    /// `time` in ISO 8601, UTC, to the millisecond (`2026-11-29T03:12:54.120Z`), as `Date.ISO8601FormatStyle` with
    /// fractional seconds writes it, by arithmetic on the calendar's fields.
    static func time(_ time: Date) -> String {
        let since1970 = time.timeIntervalSince1970
        var seconds = time_t(since1970.rounded(.down))
        let millis = Int(((since1970 - Double(seconds)) * 1000).rounded(.down))
        var fields = tm()
        gmtime_r(&seconds, &fields)
        func digits(_ value: Int32, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(fields.tm_year + 1900, 4) + "-" + digits(fields.tm_mon + 1, 2) + "-" + digits(fields.tm_mday, 2)
            + "T" + digits(fields.tm_hour, 2) + ":" + digits(fields.tm_min, 2) + ":" + digits(fields.tm_sec, 2) + "."
            + digits(Int32(millis), 3) + "Z"
    }
}

/// A handler whose level and metadata are those of the handler it wraps.
protocol WrappingLogHandler: LogHandler {
    associatedtype Inner: LogHandler
    var inner: Inner { get set }
}

extension WrappingLogHandler {
    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }
}

/// A handler that can make an event's line later than the event, timed as the event was.
protocol TimedLogHandler: LogHandler {
    func log(event: LogEvent, at time: Date)
}

/// Hands each event to the log's own thread (`BackgroundStandardError.later`), where `inner` escapes, formats and
/// writes its line: the caller (a request) pays for the event alone, and a metadata value's `description` is made
/// there too.
struct DeferredLogHandler<Inner: TimedLogHandler>: WrappingLogHandler {
    var inner: Inner
    let background: BackgroundStandardError

    func log(event: LogEvent) {
        let inner = self.inner
        let time = Date()
        background.later { inner.log(event: event, at: time) }
    }
}

/// Standard error as the log's thread writes it: with the rest of its batch.
private struct LogThreadStandardError: TextOutputStream, Sendable {
    let background: BackgroundStandardError

    func write(_ string: String) {
        background.addToBatch(string)
    }
}

extension Logger {
    /// The server's logger: escaped text lines, or JSON lines, on standard error from `level` up. With a
    /// `BackgroundStandardError` as `stream` (the server's), lines are made and written by its thread.
    package static func standardError(
        label: String, level: Logger.Level, format: LogFormat,
        stream: any TextOutputStream & Sendable = DirectStandardError()
    ) -> Logger {
        let background = stream as? BackgroundStandardError
        let lineStream: any TextOutputStream & Sendable = background.map(LogThreadStandardError.init) ?? stream
        var logger = Logger(label: label) { label -> any LogHandler in
            switch format {
            case .text:
                let handler = EscapingLogHandler(
                    inner: StreamLogHandler(
                        label: label, stream: lineStream, metadataProvider: LoggingSystem.metadataProvider))
                return background.map { DeferredLogHandler(inner: handler, background: $0) } ?? handler
            case .json:
                let handler = JSONLineLogHandler(label: label, stream: lineStream)
                return background.map { DeferredLogHandler(inner: handler, background: $0) } ?? handler
            }
        }
        logger.logLevel = level
        return logger
    }
}
