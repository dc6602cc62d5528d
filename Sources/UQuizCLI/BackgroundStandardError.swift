import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Standard error written by a thread of its own, for the server's log: a log call appends its line to a queue and
/// returns, so a reader of the log that is slow or stopped (a full pipe to a log collector) never holds one of Swift's
/// cooperative threads in a `write`. The queue holds at most `limitBytes`; lines past it are dropped and counted, and
/// the count is written once the writer catches up. `flush()` waits for everything queued.
package final class BackgroundStandardError: TextOutputStream, @unchecked Sendable {
    package let limitBytes: Int
    // Guarded by `condition`; producers hold it only to append, never across I/O.
    private let condition = NSCondition()
    private var pending: [String] = []
    private var pendingBytes = 0
    private var dropped = 0
    private var writing = false

    package init(limitBytes: Int = 8 << 20) {
        self.limitBytes = limitBytes
        let thread = Thread { [unowned self] in self.drain() }
        thread.name = "uquiz log writer"
        thread.start()
    }

    package func write(_ string: String) {
        condition.lock()
        if pendingBytes + string.utf8.count > limitBytes {
            dropped += 1
        } else {
            pending.append(string)
            pendingBytes += string.utf8.count
        }
        condition.signal()
        condition.unlock()
    }

    /// Waits until every line queued so far is written (on a thread that may block: not a cooperative one).
    package func flush() {
        condition.lock()
        while !pending.isEmpty || writing || dropped > 0 { condition.wait() }
        condition.unlock()
    }

    private func drain() {
        while true {
            condition.lock()
            while pending.isEmpty && dropped == 0 { condition.wait() }
            var batch = pending
            if dropped > 0 {
                batch.append("\(dropped) log lines were dropped: the log's reader did not keep up\n")
                dropped = 0
            }
            pending = []
            pendingBytes = 0
            writing = true
            condition.unlock()
            let bytes = Array(batch.joined().utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    break  // standard error is gone: nothing to tell, and nobody to tell it to
                }
                offset += written
            }
            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// Standard error written at once, from the calling thread: for commands, whose few lines must all be out when the
/// process exits.
package struct DirectStandardError: TextOutputStream, Sendable {
    package init() {}

    package func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
