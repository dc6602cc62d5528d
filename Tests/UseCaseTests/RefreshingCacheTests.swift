@testable import ServerUseCases
import Synchronization
import Testing

/// Values made once however many want them together, served stale while made again, and dropped when told.
@Suite("Refreshing cache")
struct RefreshingCacheTests {
    /// A clock moved by hand, and a maker that counts its calls and answers what it is told, when it is told.
    final class Fixture: Sendable {
        let clock = Mutex(Duration.zero)
        let calls = Mutex(0)
        private let gates = Mutex<[CheckedContinuation<Int, any Error>]>([])

        var now: @Sendable () -> Duration { { self.clock.withLock { $0 } } }

        func make() async throws -> Int {
            calls.withLock { $0 += 1 }
            return try await withCheckedThrowingContinuation { gate in gates.withLock { $0.append(gate) } }
        }

        /// Answers the makings waiting, once as many as `count` wait (polled, yielding, never by time).
        func answer(_ count: Int, with result: Result<Int, any Error>) async throws {
            var waiting: [CheckedContinuation<Int, any Error>] = []
            for _ in 0..<100_000 where waiting.count < count {
                waiting += gates.withLock { gates in defer { gates.removeAll() }; return gates }
                if waiting.count < count { await Task.yield() }
            }
            try #require(waiting.count == count, "\(waiting.count) makings waited, not \(count)")
            for gate in waiting { gate.resume(with: result) }
        }
    }

    struct Failed: Error {}

    static func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
        for _ in 0..<100_000 {
            if try await condition() { return true }
            await Task.yield()
        }
        return false
    }

    @Test func manyAskingTogetherMakeOnce() async throws {
        let fixture = Fixture()
        let cache = RefreshingCache<Int, Int>(lifetime: .seconds(60), capacity: 8, now: fixture.now)
        async let values = withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await cache.value(of: 1, make: fixture.make) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await fixture.answer(1, with: .success(7))
        #expect(try await values == Array(repeating: 7, count: 20))
        #expect(fixture.calls.withLock { $0 } == 1)
        #expect(try await cache.value(of: 1, make: fixture.make) == 7)
        #expect(fixture.calls.withLock { $0 } == 1)
    }

    @Test func pastItsLifetimeTheOldValueIsServedWhileANewOneIsMade() async throws {
        let fixture = Fixture()
        let cache = RefreshingCache<Int, Int>(lifetime: .seconds(60), capacity: 8, now: fixture.now)
        async let first = cache.value(of: 1, make: fixture.make)
        try await fixture.answer(1, with: .success(1))
        #expect(try await first == 1)
        fixture.clock.withLock { $0 = .seconds(61) }
        // Stale: answered at once with the old value, however many ask; one making starts.
        for _ in 0..<5 { #expect(try await cache.value(of: 1, make: fixture.make) == 1) }
        try await fixture.answer(1, with: .success(2))
        #expect(try await Self.eventually { try await cache.value(of: 1, make: fixture.make) == 2 })
        #expect(fixture.calls.withLock { $0 } == 2)
        // A failed refresh keeps the old value and tries again on the next ask.
        fixture.clock.withLock { $0 = .seconds(200) }
        #expect(try await cache.value(of: 1, make: fixture.make) == 2)
        try await fixture.answer(1, with: .failure(Failed()))
        #expect(try await Self.eventually {
            _ = try await cache.value(of: 1, make: fixture.make)
            return fixture.calls.withLock { $0 } == 4
        })
        try await fixture.answer(1, with: .success(3))
        #expect(try await Self.eventually { try await cache.value(of: 1, make: fixture.make) == 3 })
    }

    @Test func aForgottenValueIsMadeAgainAndAFailureIsNotKept() async throws {
        let fixture = Fixture()
        let cache = RefreshingCache<Int, Int>(lifetime: .seconds(60), capacity: 8, now: fixture.now)
        async let failing = cache.value(of: 1, make: fixture.make)
        try await fixture.answer(1, with: .failure(Failed()))
        do {
            _ = try await failing
            Issue.record("a failed making answered")
        } catch {
            #expect(error is Failed)
        }
        async let made = cache.value(of: 1, make: fixture.make)
        try await fixture.answer(1, with: .success(5))
        #expect(try await made == 5)
        // Forgotten while being made: whoever waits gets it, but it is not kept.
        cache.forget(1)
        async let during = cache.value(of: 1, make: fixture.make)
        #expect(await Self.eventually { fixture.calls.withLock { $0 } == 3 })
        cache.forget(1)
        try await fixture.answer(1, with: .success(6))
        #expect(try await during == 6)
        async let after = cache.value(of: 1, make: fixture.make)
        try await fixture.answer(1, with: .success(8))
        #expect(try await after == 8)
        #expect(fixture.calls.withLock { $0 } == 4)
    }
}
