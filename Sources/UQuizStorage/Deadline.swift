import Foundation
import Metrics
import Synchronization

/// How long a server's database call may take before the request gets `StoreError.unavailable` (a 503 with
/// `Retry-After`) instead of an answer.
public struct StoreDeadline: Sendable, Equatable {
    public let duration: Duration
    /// Shared by the copies of this deadline: one watcher of every call a store makes.
    private let watch: DeadlineWatch

    public init(_ duration: Duration) {
        self.duration = duration
        watch = DeadlineWatch(duration: duration)
    }

    public static let standard = StoreDeadline(.seconds(2))

    public static func == (lhs: StoreDeadline, rhs: StoreDeadline) -> Bool { lhs.duration == rhs.duration }

    /// Runs `operation` and answers what it answers, or fails with `StoreError.unavailable` (naming `what`) once the
    /// deadline has passed. The operation is then cancelled and left to end on its own: a database that stopped
    /// answering (frozen, cut off by the network) may hold it far longer, and the caller does not wait for that.
    /// Timed as `uquiz_store_call_duration_seconds` by `name` (the store's method) and outcome.
    public func run<T: Sendable>(
        _ what: String, name: String = "call", _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await timed(name) { try await deadlined(what, operation) }
    }

    /// As `run`, for an operation that hands its outcome to `answer` from a thread of its own (GRDB's dispatch
    /// queues) instead of returning it: it is started in the caller's task, with no task of its own, which spares each
    /// call a task started and a trip back through the cooperative pool. Past the deadline the caller is answered and
    /// the operation, which cannot be stopped, ends on its own.
    public func run<T: Sendable>(
        _ what: String, name: String = "call",
        answering operation: (_ answer: @escaping @Sendable (Result<T, any Error>) -> Void) -> Void
    ) async throws -> T {
        try await timed(name) {
            let settled = FirstClaim()
            let limit = duration
            return try await withCheckedThrowingContinuation { (caller: CheckedContinuation<T, any Error>) in
                watch.watch(settled) {
                    caller.resume(throwing: StoreError.unavailable(detail: "\(what): no answer within \(limit)"))
                }
                operation { outcome in if settled.claim() { caller.resume(with: outcome) } }
            }
        }
    }

    /// What `call` answers, timed as `uquiz_store_call_duration_seconds` by `name` and outcome.
    private func timed<T>(_ name: String, _ call: () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        do {
            let answer = try await call()
            Self.record(name, "ok", since: started)
            return answer
        } catch {
            Self.record(name, (error as? StoreError).map(Self.outcome) ?? "error", since: started)
            throw error
        }
    }

    private static func record(_ name: String, _ outcome: String, since started: ContinuousClock.Instant) {
        // "player(tokenHash:)" is named "player".
        let operation = String(name.prefix { $0 != "(" })
        Timer(label: "uquiz_store_call_duration_seconds", dimensions: [("operation", operation), ("outcome", outcome)])
            .record(duration: ContinuousClock.now - started)
    }

    private static func outcome(of error: StoreError) -> String {
        if case .unavailable = error { return "unavailable" }
        return "refused"
    }

    private func deadlined<T: Sendable>(
        _ what: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let settled = FirstClaim()
        let running = CancellableWork()
        let limit = duration
        // Only the first of the answer and the watcher resumes the caller. The operation runs in a task of its own so
        // that the caller can be answered while it is stuck; the watcher cancels it, and it ends on its own when it can.
        // The deadline counts from when that task runs: it bounds the database, not a wait for a thread when the
        // process is busy.
        return try await withCheckedThrowingContinuation { (caller: CheckedContinuation<T, any Error>) in
            running.start {
                watch.watch(settled) {
                    running.cancel()
                    caller.resume(throwing: StoreError.unavailable(detail: "\(what): no answer within \(limit)"))
                }
                let outcome: Result<T, any Error>
                do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
                if settled.claim() { caller.resume(with: outcome) }
            }
        }
    }
}

/// The calls under one deadline, oldest first, and one task that fails those still unanswered when it passes.
///
/// Why not a timer task per call: starting a task, then cancelling it when the answer comes, costs two more trips
/// through the cooperative pool on every database call, which a profile of the server under load showed as thread
/// switches. Every call under one deadline is due `duration` after it starts, so a queue in the order they started
/// is also in the order they are due: the watcher looks at its head only, once per `tick`, and stops while nothing is
/// watched.
private final class DeadlineWatch: Sendable {
    private struct Watched: Sendable {
        var due: ContinuousClock.Instant
        var settled: FirstClaim
        var expire: @Sendable () -> Void
    }

    private struct State: Sendable {
        var queue: [Watched] = []
        /// Index of the oldest entry still in `queue`; entries before it are gone.
        var head = 0
        var watching = false
    }

    /// How late past its deadline a call may be failed, at most: the watcher's sleep between looks.
    static let tick = Duration.milliseconds(10)
    private let duration: Duration
    private let state = Mutex(State())

    init(duration: Duration) {
        self.duration = duration
    }

    /// Calls `expire` once the deadline has passed, unless `settled` was claimed first (then claims it).
    func watch(_ settled: FirstClaim, expire: @escaping @Sendable () -> Void) {
        let entry = Watched(due: .now + duration, settled: settled, expire: expire)
        let startWatcher = state.withLock { state -> Bool in
            state.queue.append(entry)
            defer { state.watching = true }
            return !state.watching
        }
        if startWatcher { Task { await self.run() } }
    }

    private func run() async {
        while true {
            let now = ContinuousClock.now
            let (expired, goOn) = state.withLock { state -> ([Watched], Bool) in
                var expired: [Watched] = []
                while state.head < state.queue.count {
                    let oldest = state.queue[state.head]
                    if oldest.settled.isClaimed {
                        // Answered: nothing to do.
                    } else if oldest.due <= now {
                        expired.append(oldest)
                    } else {
                        break
                    }
                    state.head += 1
                }
                if state.head == state.queue.count {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                } else if state.head > 1024, state.head * 2 > state.queue.count {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                state.watching = !state.queue.isEmpty
                return (expired, state.watching)
            }
            for entry in expired where entry.settled.claim() { entry.expire() }
            guard goOn else { return }
            try? await Task.sleep(for: Self.tick)
        }
    }
}

/// A task that can be cancelled before it is known (the deadline may pass first).
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
    private let claimed = Atomic(false)

    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    var isClaimed: Bool { claimed.load(ordering: .acquiring) }
}
