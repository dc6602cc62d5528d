import Logging

/// Where log lines meet the terminal (`--verbose`): a message may quote a URL, a title or a server's answer, so it is
/// escaped like every other such text before the standard-error handler writes it.
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

    func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
        function: String, line: UInt
    ) {
        inner.log(
            level: level, message: "\(SafeText.clean(message.description))", metadata: metadata, source: source,
            file: file, function: function, line: line)
    }
}
