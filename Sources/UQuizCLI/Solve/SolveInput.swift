import Dispatch
import Foundation

/// What the solve loop waits for: a line typed (a guess, `?` for a hint, `/skip`), or the next deadline.
enum SolveInput: Equatable {
    case line(String)
    case deadline
    case endOfInput
}

/// The clock and the keyboard of a solve, injected so tests run a whole package in microseconds with exact times.
protocol SolveSource: AnyObject {
    /// Monotonic time since the solve began.
    func now() -> Duration
    /// Returns the next line, or `.deadline` once `deadline` has passed with no line (never before it), or
    /// `.endOfInput`. With no deadline, waits for a line.
    func next(until deadline: Duration?) -> SolveInput
}

/// Lines from standard input on a thread of their own; the loop waits on a semaphore with the deadline as timeout, so
/// it sleeps between events and wakes on time.
final class LiveSolveSource: SolveSource, @unchecked Sendable {
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private let lock = NSLock()
    private var lines: [String?] = []
    private let available = DispatchSemaphore(value: 0)
    private var ended = false

    init() {
        origin = clock.now
        let thread = Thread { [weak self] in
            while let line = readLine() { self?.push(line) }
            self?.push(nil)
        }
        thread.start()
    }

    private func push(_ line: String?) {
        lock.withLock { lines.append(line) }
        available.signal()
    }

    func now() -> Duration { clock.now - origin }

    func next(until deadline: Duration?) -> SolveInput {
        if lock.withLock({ ended }) {
            // No more input: just wait for the deadline.
            guard let deadline else { return .endOfInput }
            let wait = deadline - now()
            if wait > .zero { Thread.sleep(forTimeInterval: Self.seconds(wait)) }
            return .deadline
        }
        let timeout: DispatchTime = deadline.map { .now() + Self.seconds(max(.zero, $0 - now())) } ?? .distantFuture
        guard available.wait(timeout: timeout) == .success else { return .deadline }
        let line = lock.withLock { lines.removeFirst() }
        guard let line else {
            lock.withLock { ended = true }
            return next(until: deadline)
        }
        return .line(line)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
