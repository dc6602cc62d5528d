import Foundation
import Synchronization
import UQuizStorage

/// The servers' one clock: time since 1970 by the database server's clock, read through this process's monotonic clock.
///
/// Several `uquiz serve` instances judge the same plays, so a play's stages must not depend on which instance's clock
/// answers. Each instance measures the offset between its monotonic clock and the store's clock (`StoreClock`) from a
/// few round trips, keeping the one with the shortest round trip (its error is at most half that trip: well under a
/// millisecond on a LAN), and reads time as monotonic time plus that offset. Measuring again (`synchronize`, every
/// minute while serving) follows the database clock's own corrections; what this clock returns never goes back.
public final class SharedClock: Sendable {
    private let store: any StoreClock
    private let monotonic: @Sendable () -> Duration
    private let state: Mutex<(offset: Duration, last: Duration)>

    /// Measures the offset now; fails when the store does not answer.
    public convenience init(
        store: any StoreClock, samples: Int = 5,
        monotonic: @escaping @Sendable () -> Duration = SharedClock.processMonotonic
    ) async throws {
        self.init(unsynchronized: store, monotonic: monotonic)
        try await synchronize(samples: samples)
    }

    /// A clock that reads this process's monotonic clock until `synchronize` has measured the store's: for a server
    /// whose store answers only once its services run, which synchronizes before it serves.
    public init(
        unsynchronized store: any StoreClock,
        monotonic: @escaping @Sendable () -> Duration = SharedClock.processMonotonic
    ) {
        self.store = store
        self.monotonic = monotonic
        state = Mutex((.zero, .zero))
    }

    /// Now on the shared clock; never earlier than a time it returned before.
    @Sendable public func now() -> Duration {
        let reading = monotonic()
        return state.withLock { state in
            state.last = max(state.last, reading + state.offset)
            return state.last
        }
    }

    /// Measures the offset again.
    public func synchronize(samples: Int = 5) async throws {
        let offset = try await Self.measure(store: store, monotonic: monotonic, samples: samples)
        state.withLock { $0.offset = offset }
    }

    /// The offset seen on the round trip that took least time, taken at that trip's midpoint.
    static func measure(
        store: any StoreClock, monotonic: @Sendable () -> Duration, samples: Int
    ) async throws -> Duration {
        var best: (trip: Duration, offset: Duration)?
        for _ in 0..<max(1, samples) {
            let sent = monotonic()
            let database = Duration.microseconds(try await store.databaseMicros())
            let received = monotonic()
            let trip = received - sent
            let offset = database - (sent + trip / 2)
            if best == nil || trip < best!.trip { best = (trip, offset) }
        }
        return best!.offset
    }

    private static let processStart = ContinuousClock.now

    @Sendable public static func processMonotonic() -> Duration { ContinuousClock.now - processStart }
}
