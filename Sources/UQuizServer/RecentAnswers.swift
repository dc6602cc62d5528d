import Foundation
import NIOCore
import Synchronization

/// Answers to a read kept for a moment, by key: a shared link is opened by many people at once, and each opening would
/// otherwise cost a store read for the same bytes (the package fetch ran at 0.15x of the framework's floor with one).
/// What is kept may lag the store by up to `lifetime` (a play count, a solve rate); a change made through any instance
/// (an update, a delete) drops its key at once (`PackageChangeFollower`). Past `capacity` keys everything is dropped, so memory stays bounded
/// without bookkeeping.
final class RecentAnswers: Sendable {
    let lifetime: Duration
    let capacity: Int
    private let now: @Sendable () -> Duration
    private let entries = Mutex<[String: (expires: Duration, body: ByteBuffer)]>([:])

    init(lifetime: Duration = .seconds(1), capacity: Int = 10_000, now: @escaping @Sendable () -> Duration) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.now = now
    }

    /// The kept answer of `key`, or a new one from `make`, which runs outside the lock (two may make the same answer at
    /// once; both are right).
    func answer(for key: String, make: () async throws -> ByteBuffer) async rethrows -> ByteBuffer {
        let instant = now()
        if let kept = entries.withLock({ $0[key] }), kept.expires > instant { return kept.body }
        let body = try await make()
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = (instant + lifetime, body)
        }
        return body
    }

    func forget(_ key: String) {
        entries.withLock { _ = $0.removeValue(forKey: key) }
    }

    func forgetAll() {
        entries.withLock { $0.removeAll(keepingCapacity: true) }
    }
}
