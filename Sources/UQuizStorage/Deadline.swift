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
        let running = CancellableWork()
        let limit = duration
        // Only the first of the answer and the timer resumes the caller. The answer cancels the timer, so a call leaves
        // no task behind; the timer cancels the work, which ends on its own when it can.
        return try await withCheckedThrowingContinuation { (caller: CheckedContinuation<T, any Error>) in
            let timer = Task {
                do { try await Task.sleep(for: limit) } catch { return }
                guard settled.claim() else { return }
                running.cancel()
                caller.resume(throwing: StoreError.unavailable(detail: "\(what): no answer within \(limit)"))
            }
            running.start {
                let outcome: Result<T, any Error>
                do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
                timer.cancel()
                if settled.claim() { caller.resume(with: outcome) }
            }
        }
    }
}

/// A task that can be cancelled before it is known (the timer may fire first).
private final class CancellableWork: Sendable {
    private let state = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    func start(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
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
