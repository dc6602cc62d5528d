import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import QuizCore
import QuizStore
import ServerUseCases
import Synchronization
import Testing
import UQuizServer
import UQuizStorage

/// Two routers on one store are two server instances: nothing of a play or a rate limit may live in one of them.
@Suite("Several instances on one store")
struct SeveralInstancesTests {
    /// Runs `test` with two instances of the server (each its own router, plays and plan cache) on `server`'s store.
    func twoInstances(
        _ server: TestServer, configuration: ServerConfiguration = .init(), clock: ManualClock,
        _ test: @Sendable (_ a: any TestClientProtocol, _ b: any TestClientProtocol) async throws -> Void
    ) async throws {
        @Sendable func quietLogger() -> Logger {
            var logger = Logger(label: "uquiz.server.tests")
            logger.logLevel = .critical
            return logger
        }
        let environment = server.environment
        let routerA = buildRouter(environment: environment, configuration: configuration, monotonicNow: clock.now)
        try await Application(router: routerA, logger: quietLogger()).test(.router) { a in
            let routerB = buildRouter(environment: environment, configuration: configuration, monotonicNow: clock.now)
            try await Application(router: routerB, logger: quietLogger()).test(.router) { b in try await test(a, b) }
        }
    }

    @Test func aPlayStartedOnOneInstanceIsPlayedOnTheOtherAndEndsRankedOnBoth() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await twoInstances(server, clock: clock) { a, b in
            let token = try await a.newPlayer("Solver")
            let id = try #require(try await a.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).json["id"] as? String)
            #expect(try await server.database.openPlayCount(packageId: nil) == 1, "the play is in the store, not in A's memory")

            clock.advance(PlayTests.interlude + .milliseconds(2500))
            let wrong = try await b.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Cars"], token: token)
            #expect(wrong.status == .ok && wrong.json["judgement"] as? String != "accepted")
            // A rejected guess changes nothing in the quiz; it is kept once, for the maker's most common wrong guesses.
            #expect(try await server.database.openPlay(id: id)?.events.map(\.kind) == [.guess])
            let again = try await a.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "cars!"], token: token)
            #expect(again.json["judgement"] as? String == wrong.json["judgement"] as? String)
            #expect(try await server.database.openPlay(id: id)?.events.count == 1, "the same wrong guess again is not kept")
            let hint = try await a.send(.post, "/v1/plays/\(id)/hints", json: ["quiz": 1], token: token)
            #expect(hint.status == .ok)
            #expect(try await server.database.openPlay(id: id)?.events.map(\.kind) == [.guess, .hint])
            let onB = try await b.send(.get, "/v1/plays/\(id)", token: token)
            #expect(onB.quizzes[0]["stage"] as? Int == 2, "B's view of A's play: stage 2 at 2.5 s")
            #expect(onB.quizzes[0]["hint"] as? String == hint.json["hint"] as? String, "the hint asked on A shows on B")

            let title = try server.quiz(silentClassics, 1).title
            let right = try await b.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": title], token: token)
            #expect(right.json["judgement"] as? String == "accepted")
            let quizCount = try #require(onB.quizzes.count as Int?)
            for quiz in 2...quizCount {
                clock.advance(PlayTests.interlude)
                let client = quiz.isMultiple(of: 2) ? a : b
                #expect(try await client.send(.post, "/v1/plays/\(id)/skips", json: ["quiz": quiz], token: token).status == .ok)
            }
            let onA = try await a.send(.get, "/v1/plays/\(id)", token: token)
            #expect(onA.json["finished"] as? Bool == true && onA.json["ranked"] as? Bool == true)
            #expect(onA.quizzes.map { $0["status"] as? String } == ["solved"] + Array(repeating: "skipped", count: quizCount - 1))
            #expect(try await server.database.openPlayCount(packageId: nil) == 0)
            let stored = try #require(try await server.database.serverPlay(publicId: id))
            #expect(stored.attempts.count == quizCount && stored.attempts[0].result.hintsUsed == 1)
            #expect(stored.score == onA.json["score"] as? Int)
            let board = try await b.send(.get, "/v1/packages/\(silentClassics)/leaderboard", token: token)
            #expect(((board.json["entries"] ?? board.json["top"]) as? [[String: Any]])?.first?["score"] as? Int == stored.score)
        }
    }

    @Test func aPlayThatRanOutOfTimeIsStoredOnceWhicheverInstanceSweeps() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await twoInstances(server, clock: clock) { a, b in
            let token = try await a.newPlayer()
            let id = try #require(try await a.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).json["id"] as? String)
            clock.advance(.seconds(3600))
            let viewA = try await a.send(.get, "/v1/plays/\(id)", token: token)
            let viewB = try await b.send(.get, "/v1/plays/\(id)", token: token)
            #expect(viewA.json["finished"] as? Bool == true && viewB.json["finished"] as? Bool == true)
            #expect(viewA.json["ranked"] as? Bool == true && viewB.json["ranked"] as? Bool == true)
            #expect(try await server.database.serverPlay(publicId: id)?.attempts.allSatisfy { $0.result.outcome == .missed } == true)
        }
    }

    @Test func rateLimitsInTheStoreHoldAcrossInstances() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let configuration = ServerConfiguration(playStarts: RateLimit(burst: 4, interval: .seconds(6)), rateLimitsInStore: true)
        try await twoInstances(server, configuration: configuration, clock: clock) { a, b in
            let token = try await a.newPlayer()
            // The first start makes the play; the next ones resume it (one play of a package at a time), each counted.
            for (index, client) in [a, b, a, b].enumerated() {
                let started = try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token)
                #expect(started.status == (index == 0 ? .created : .ok))
            }
            for client in [a, b] {
                let limited = try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token)
                #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "6")
            }
            clock.advance(.seconds(6))
            #expect(try await b.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).status == .ok)
        }
    }

    @Test func inMemoryRateLimitsAreEachInstancesOwn() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let configuration = ServerConfiguration(playStarts: RateLimit(burst: 2, interval: .seconds(6)))
        try await twoInstances(server, configuration: configuration, clock: clock) { a, b in
            let token = try await a.newPlayer()
            for (index, client) in [a, a, b, b].enumerated() {
                let started = try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token)
                #expect(started.status == (index == 0 ? .created : .ok))
            }
            #expect(try await a.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).status == .tooManyRequests)
        }
    }
}

/// The shared clock, on a scripted store clock and monotonic clock.
@Suite("The servers' shared clock")
struct SharedClockTests {
    /// A store whose clock reads `offset` ahead of the monotonic clock, each read taking `trips` in turn.
    final class ScriptedStoreClock: StoreClock, Sendable {
        let monotonic = Mutex<Duration>(.seconds(100))
        let offset = Mutex<Duration>(.seconds(1_800_000_000))
        let trips: Mutex<[Duration]>

        init(trips: [Duration]) { self.trips = Mutex(trips) }

        func databaseMicros() throws -> Int64 {
            let trip = trips.withLock { $0.isEmpty ? .milliseconds(1) : $0.removeFirst() }
            // The database reads its clock halfway through the trip.
            let at = monotonic.withLock { now -> Duration in
                now += trip / 2
                return now
            }
            monotonic.withLock { $0 += trip / 2 }
            return (at + offset.withLock { $0 }).wholeMicroseconds
        }

        var now: @Sendable () -> Duration { { self.monotonic.withLock { $0 } } }
    }

    @Test func theOffsetIsTheDatabaseTimeSeenOnTheQuickestTrip() async throws {
        let store = ScriptedStoreClock(trips: [.milliseconds(40), .microseconds(200), .milliseconds(9)])
        let clock = try await SharedClock(store: store, samples: 3, monotonic: store.now)
        let expected = store.now() + .seconds(1_800_000_000)
        #expect(abs((clock.now() - expected).wholeMicroseconds) <= 1)
    }

    @Test func timeNeverGoesBackWhenTheOffsetIsMeasuredAgain() async throws {
        let store = ScriptedStoreClock(trips: [])
        let clock = try await SharedClock(store: store, samples: 1, monotonic: store.now)
        let before = clock.now()
        store.offset.withLock { $0 -= .milliseconds(50) }
        try await clock.synchronize(samples: 1)
        #expect(clock.now() >= before, "a database clock set back 50 ms does not move the servers' time back")
        store.monotonic.withLock { $0 += .milliseconds(100) }
        #expect(clock.now() - before >= .milliseconds(49), "it goes on at the new offset")
    }
}
