import Foundation
import QuizCore
import Synchronization

/// A package's stored form changed (it was updated or deleted): what an instance that keeps packages in memory (a
/// play's plan, a package's metadata) must forget, whichever instance made the change.
public enum PackageChange: Sendable, Equatable {
    case package(id: Int64, shareCode: ShareCode)
    /// Changes may have been missed (the store's listener lost its connection and came back): forget every package.
    case unknown
}

/// The changes to packages committed on a store, by every instance that shares it, as they commit.
public protocol PackageChangeFeed: Sendable {
    /// Every change committed from now on, in commit order, until the store stops. Each call is a listener of its own.
    func packageChanges() -> AsyncStream<PackageChange>
}

/// Hands each change to every listener there is: how both stores keep `PackageChangeFeed`.
public final class PackageChangeBroadcast: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<PackageChange>.Continuation]>([:])

    public init() {}

    public func listen() -> AsyncStream<PackageChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: PackageChange.self, bufferingPolicy: .bufferingNewest(1_024))
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    public func publish(_ change: PackageChange) {
        for listener in listeners.withLock({ Array($0.values) }) { listener.yield(change) }
    }

    /// Ends every listener's stream (the store stops).
    public func finish() {
        for listener in listeners.withLock({ listeners in defer { listeners = [:] }; return Array(listeners.values) }) {
            listener.finish()
        }
    }
}
