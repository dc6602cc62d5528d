import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Standard error written by a thread of its own, for the server's log: a log call hands over its line (or the work of
/// making it: `later`) and returns, so neither formatting a line nor a reader of the log that is slow or stopped (a full
/// pipe to a log collector) costs a request's time or holds a thread of Swift's cooperative pool or of Dispatch's. At
/// most `limitLines` wait; lines past them are dropped and counted, and the count is written once the writer catches
/// up. `flushed()` waits for everything handed over before it.
package final class BackgroundStandardError: TextOutputStream, Sendable {
    package let limitLines: Int
    private let pending = Pending()

    package init(limitLines: Int = 65_536) {
        self.limitLines = limitLines
        let pending = self.pending
        let thread = Thread { Self.writeForever(pending) }
        thread.name = "uquiz.log"
        thread.start()
    }

    /// Queues `string` to be written as it is.
    package func write(_ string: String) {
        later { [self] in addToBatch(string) }
    }

    /// Adds `string` to the lines the log's thread writes once its jobs are run: what a job (run by `later`) writes
    /// its line with, and only a job.
    package func addToBatch(_ string: String) {
        pending.batch.append(contentsOf: string.utf8)
    }

    /// Queues `job` (which makes a line and writes it, with `addToBatch`) for the log's thread, unless `limitLines`
    /// wait.
    package func later(_ job: @escaping @Sendable () -> Void) {
        pending.condition.lock()
        defer { pending.condition.unlock() }
        guard pending.jobs.count < limitLines else {
            pending.dropped += 1
            return
        }
        // The writer waits only on an empty queue: a busy one takes this job with the others once it is done.
        if pending.jobs.isEmpty { pending.condition.signal() }
        pending.jobs.append(job)
    }

    /// Returns once every line queued before the call is written.
    package func flushed() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Past the limit too: a flush is never dropped. It is answered once the batch it came with is written.
            pending.condition.lock()
            pending.flushes.append(done)
            pending.condition.signal()
            pending.condition.unlock()
        }
    }

    /// The jobs waiting for the log's thread, and the lines dropped since it last caught up; guarded by `condition`.
    private final class Pending: @unchecked Sendable {
        let condition = NSCondition()
        var jobs: [@Sendable () -> Void] = []
        /// Callers of `flushed()`, waiting for the lines queued before them.
        var flushes: [CheckedContinuation<Void, Never>] = []
        var dropped = 0
        /// The lines the jobs being run have made, written together: one system call a batch, not one a line (a
        /// busy server's log thread otherwise spends most of its time entering the kernel). The log's thread alone
        /// touches it, outside `condition`.
        var batch: [UInt8] = []
    }

    private static func writeForever(_ pending: Pending) {
        while true {
            pending.condition.lock()
            while pending.jobs.isEmpty && pending.flushes.isEmpty { pending.condition.wait() }
            let jobs = pending.jobs
            pending.jobs.removeAll(keepingCapacity: true)
            let flushes = pending.flushes
            pending.flushes.removeAll()
            let dropped = pending.dropped
            pending.dropped = 0
            pending.condition.unlock()
            for job in jobs { job() }
            if dropped > 0 {
                pending.batch.append(contentsOf: "\(dropped) log lines were dropped: the log's reader did not keep up\n".utf8)
            }
            write(pending.batch)
            for flush in flushes { flush.resume() }
            // A rare long line does not keep its buffer for ever.
            pending.batch.removeAll(keepingCapacity: pending.batch.capacity <= 1 << 20)
        }
    }

    /// Writes `bytes` to standard error whole (from the log's thread).
    private static func write(_ bytes: [UInt8]) {
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
