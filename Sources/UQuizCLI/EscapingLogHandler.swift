import Foundation
import Logging

/// Where log lines meet the terminal (`--verbose`, the server's request log): a message may quote a URL, a title, a
/// server's answer or a client's path, so it is escaped like every other such text before the standard-error handler
/// writes it.
struct EscapingLogHandler: LogHandler {
    var inner: StreamLogHandler

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
package struct JSONLineLogHandler: LogHandler {
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
        var fields: [String: String] = [:]
        for (key, value) in metadata { fields[key] = value.description }
        for (key, value) in event.metadata ?? [:] { fields[key] = value.description }
        fields["time"] = Self.timeFormat.format(Date())
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        guard let line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        var stream = self.stream
        stream.write(String(decoding: line, as: UTF8.self) + "\n")
    }

    /// ISO 8601 in UTC with milliseconds; a value, made once and shared by every line.
    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

extension Logger {
    /// The server's logger: escaped text lines, or JSON lines, on standard error (through `stream`, which the server
    /// makes a `BackgroundStandardError`) from `level` up.
    package static func standardError(
        label: String, level: Logger.Level, format: LogFormat,
        stream: any TextOutputStream & Sendable = DirectStandardError()
    ) -> Logger {
        var logger = Logger(label: label) { label in
            switch format {
            case .text:
                EscapingLogHandler(
                    inner: StreamLogHandler(label: label, stream: stream, metadataProvider: LoggingSystem.metadataProvider))
            case .json:
                JSONLineLogHandler(label: label, stream: stream)
            }
        }
        logger.logLevel = level
        return logger
    }
}
