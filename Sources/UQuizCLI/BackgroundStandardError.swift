import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Standard error written off Swift's cooperative threads, for the server's log: a log call queues its line on a
/// serial dispatch queue and returns, so a reader of the log that is slow or stopped (a full pipe to a log collector)
/// never holds a thread that serves. The queue holds at most `limitBytes`; lines past it are dropped and counted, and
/// the count is written after the next line that is. `flushed()` waits for everything queued.
package final class BackgroundStandardError: TextOutputStream, Sendable {
    package let limitBytes: Int
    private let queue = DispatchQueue(label: "uquiz.log")
    private let counts = Mutex((pendingBytes: 0, dropped: 0))

    package init(limitBytes: Int = 8 << 20) {
        self.limitBytes = limitBytes
    }

    package func write(_ string: String) {
        let bytes = string.utf8.count
        let queued = counts.withLock { counts in
            guard counts.pendingBytes + bytes <= limitBytes else {
                counts.dropped += 1
                return false
            }
            counts.pendingBytes += bytes
            return true
        }
        guard queued else { return }
        queue.async { [self] in
            Self.writeAll(string)
            let dropped = counts.withLock { counts in
                counts.pendingBytes -= bytes
                defer { counts.dropped = 0 }
                return counts.dropped
            }
            if dropped > 0 { Self.writeAll("\(dropped) log lines were dropped: the log's reader did not keep up\n") }
        }
    }

    /// Returns once every line queued before the call is written.
    package func flushed() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
    }

    private static func writeAll(_ string: String) {
        let bytes = Array(string.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // standard error is gone: nothing to tell, and nobody to tell it to
            }
            offset += written
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
