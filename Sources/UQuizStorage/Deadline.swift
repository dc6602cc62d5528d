import Foundation
import Synchronization

/// How long a server's database call may take before the request gets `StoreError.unavailable` (a 503 with
/// `Retry-After`) instead of an answer.
public struct StoreDeadline: Sendable, Equatable {
    public var duration: Duration

    public init(_ duration: Duration) {
        self.duration = duration
    }

    public static let standard = StoreDeadline(.seconds(2))

    /// Runs `operation` and answers what it answers, or fails with `StoreError.unavailable` (naming `what`) once the
    /// deadline has passed. The operation is then cancelled and left to end on its own: a database that stopped
    /// answering (frozen, cut off by the network) may hold it far longer, and the caller does not wait for that.
    public func run<T: Sendable>(
        _ what: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let settled = FirstClaim()
        let limit = duration
        // Only the first of the answer and the timer resumes the caller; both tasks end either way.
        return try await withCheckedThrowingContinuation { (caller: CheckedContinuation<T, any Error>) in
            let work = Task {
                let outcome: Result<T, any Error>
                do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
                if settled.claim() { caller.resume(with: outcome) }
            }
            Task {
                try? await Task.sleep(for: limit)
                if settled.claim() {
                    work.cancel()
                    caller.resume(throwing: StoreError.unavailable(detail: "\(what): no answer within \(limit)"))
                }
            }
        }
    }
}

/// True for the first caller of `claim()` only.
private final class FirstClaim: Sendable {
    private let claimed = Mutex(false)

    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
