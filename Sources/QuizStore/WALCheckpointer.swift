import Foundation
import Synchronization
internal import GRDB

/// Checkpoints the server's write-ahead log from a thread of its own, so that no request's commit does it.
///
/// SQLite checkpoints in the commit that brings the log past 1,000 pages: that commit copies the log's pages back into
/// the database file and waits for its fsyncs, milliseconds added to whichever request made it, many times a second
/// under a stream of play starts. The server's connections checkpoint themselves only past `fallbackPages` (should
/// this thread fall behind); this one runs a passive checkpoint every `interval`, which waits for no reader or writer
/// and copies what they have let go of.
final class WALCheckpointer: Sendable {
    /// Seconds between checkpoints.
    static let interval: TimeInterval = 0.1
    /// Far past what `interval` lets the log reach under any load this server takes, and bounded all the same.
    static let fallbackPages = 20_000

    private let stopped = Flag()

    private final class Flag: Sendable {
        let value = Atomic(false)
    }

    /// Starts checkpointing the database at `path` on a connection of its own.
    init(path: String) throws {
        let connection = try DatabaseQueue(path: path, configuration: AppDatabase.configuration())
        let stopped = self.stopped
        let thread = Thread {
            while !stopped.value.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: Self.interval)
                // A failed checkpoint (the file gone, the disk full) leaves the log to grow to the fallback, where the
                // writers' own checkpoint takes over and reports what is wrong with the write it holds up.
                try? connection.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
            }
        }
        thread.name = "uquiz.checkpoint"
        thread.start()
    }

    /// Ends the thread (after its current pause) and closes its connection.
    func stop() { stopped.value.store(true, ordering: .relaxed) }

    /// The server's connections: their own checkpoint left for a log far past `interval`'s reach.
    static func configure(_ configuration: inout Configuration) {
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = \(fallbackPages)") }
    }
}
