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
