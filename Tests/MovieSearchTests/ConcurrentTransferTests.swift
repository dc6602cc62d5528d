import Foundation
import QuizCore
import Testing
import UQuizTestSupport

@testable import MovieSearch

/// The transport's event loop against a real fake-tmdb: transfers travel together, a cancelled one is stopped on the
/// wire, and one that waits too long for its turn is not sent.
@Suite("libcurl's multi interface on a thread of its own")
struct ConcurrentTransferTests {
    @Test func twentyRequestsTravelTogether() async throws {
        // fake-tmdb holds every answer a minute: the twenty can all reach it only if none waits for another's answer.
        let server = try FakeServerProcess(["--fault", "/3/search;delay-ms=60000"])
        let transport = CurlTransport(options: .init(userAgent: "uquiz/test", totalTimeout: 120, maxTransfersInFlight: 20))
        let requests = (0..<20).map { HTTPRequest(url: "\(server.apiURL)/search/movie?query=q\($0)") }
        let all = Task { await transport.sendAll(requests) }
        try await waitUntil("all twenty requests reached fake-tmdb, none answered yet") { server.requests.count == 20 }
        #expect(openConnections(toPort: server.port) == 20)
        all.cancel()
        let results = await all.value
        #expect(results.allSatisfy { if case .failure(.cancelled) = $0 { true } else { false } }, "\(results.prefix(2))")
        try await waitUntil("every connection to fake-tmdb is closed") { openConnections(toPort: server.port) == 0 }
    }

    @Test func aCancelledTransferIsStoppedAndItsConnectionClosed() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;delay-ms=60000"])
        let transport = CurlTransport(options: .init(userAgent: "uquiz/test", totalTimeout: 120))
        let held = HTTPRequest(url: "\(server.apiURL)/search/movie?query=held")
        let transfer = Task { try await transport.send(held) }
        try await waitUntil("fake-tmdb received the request") { server.requests.count == 1 }
        #expect(openConnections(toPort: server.port) == 1)
        transfer.cancel()
        // Had cancelling not stopped it, this would wait the minute out and get a reply.
        await #expect(throws: TransportError.cancelled(host: "127.0.0.1:\(server.port)")) { try await transfer.value }
        try await waitUntil("the connection to fake-tmdb is closed") { openConnections(toPort: server.port) == 0 }
        // The transport goes on serving.
        let quick = try FakeServerProcess()
        #expect(try await transport.send(HTTPRequest(url: "\(quick.apiURL)/search/movie?query=toy")).status == 200)
    }

    @Test func aRequestThatWaitsPastTheQueueTimeoutIsNotSent() async throws {
        // The one transfer allowed in flight is held a minute: the second waits its turn, and gives up at 0.2 s.
        let server = try FakeServerProcess(["--fault", "/3/search;delay-ms=60000"])
        let transport = CurlTransport(
            options: .init(userAgent: "uquiz/test", totalTimeout: 120, maxTransfersInFlight: 1, queueTimeout: 0.2))
        let firstRequest = HTTPRequest(url: "\(server.apiURL)/search/movie?query=first")
        let first = Task { try await transport.send(firstRequest) }
        try await waitUntil("the first request is on its way") { server.requests.count == 1 }
        await #expect(throws: TransportError.busy(host: "127.0.0.1:\(server.port)", waitedSeconds: 0.2)) {
            try await transport.send(HTTPRequest(url: "\(server.apiURL)/search/movie?query=second"))
        }
        #expect(server.requests.count == 1, "the second never reached the server")
        first.cancel()
        await #expect(throws: TransportError.cancelled(host: "127.0.0.1:\(server.port)")) { try await first.value }
    }

    @Test func aRequestWithAFreeSlotIsSentHoweverLateTheLoopComesRound() async throws {
        // No waiting at all for a turn: however long the loop takes to come round, a request that finds a slot free
        // never waited for one, and is sent.
        let server = try FakeServerProcess()
        let transport = CurlTransport(options: .init(userAgent: "uquiz/test", maxTransfersInFlight: 1, queueTimeout: 0))
        for query in ["toy", "up", "cars"] {
            #expect(try await transport.send(HTTPRequest(url: "\(server.apiURL)/search/movie?query=\(query)")).status == 200)
        }
    }

    @Test func theBlockingSendOfTheCommandLineSharesTheLoop() async throws {
        let server = try FakeServerProcess()
        let transport = CurlTransport(options: .init(userAgent: "uquiz/test"))
        let request = HTTPRequest(url: "\(server.apiURL)/search/movie?query=toy")
        let reply = try await Task.detached { try transport.sendBlocking(request) }.value
        #expect(reply.status == 200)
    }
}

@Suite("The circuit breaker in front of TMDB")
struct CircuitBreakerTests {
    let policy = CircuitBreaker.Policy(failures: 3, cooldown: .seconds(30))

    @Test func itOpensAfterFailuresInARowThenLetsOneProbeThrough() {
        let breaker = CircuitBreaker(policy: policy)
        breaker.record(failed: true, at: .seconds(1))
        breaker.record(failed: false, at: .seconds(2))
        breaker.record(failed: true, at: .seconds(3))
        breaker.record(failed: true, at: .seconds(4))
        #expect(breaker.permit(at: .seconds(5)) == .allowed, "a success in between starts the count again")
        breaker.record(failed: true, at: .seconds(5))
        #expect(breaker.current == .open(until: .seconds(35)))
        #expect(breaker.permit(at: .seconds(20)) == .refused(retryIn: .seconds(15)))
        #expect(breaker.permit(at: .seconds(35)) == .allowed, "the probe")
        #expect(breaker.permit(at: .seconds(36)) == .refused(retryIn: .seconds(29)), "one probe at a time")
        breaker.record(failed: false, at: .seconds(37))
        #expect(breaker.permit(at: .seconds(38)) == .allowed)
    }

    @Test func aFailedProbeStartsAnotherCooldownAndAnAbandonedOnePassesItsTurnOn() {
        let breaker = CircuitBreaker(policy: policy)
        for second in 1...3 { breaker.record(failed: true, at: .seconds(second)) }
        #expect(breaker.permit(at: .seconds(40)) == .allowed)
        breaker.record(failed: true, at: .seconds(41))
        #expect(breaker.current == .open(until: .seconds(71)))
        #expect(breaker.permit(at: .seconds(71)) == .allowed)
        breaker.abandon(at: .seconds(72))
        #expect(breaker.permit(at: .seconds(72)) == .allowed, "the next caller probes instead")
    }

    @Test func theClientAnswersAtOnceWhileOpenAndResumesAfterASuccessfulProbe() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;status=503;times=3"])
        let clock = TestClock()
        let client = TMDBClient(
            settings: TMDBSettings(apiURL: server.apiURL, imageURL: server.imageURL, credentials: .apiKey("k")),
            transport: CurlTransport(options: .init(userAgent: "uquiz/test", totalTimeout: 5)), cache: nil,
            clock: clock.clock,
            retry: RetryPolicy(maxAttempts: 1, totalBudget: .seconds(1), baseDelay: .seconds(1), maxDelay: .seconds(1)),
            breaker: CircuitBreaker(policy: policy))
        for _ in 1...3 {
            await #expect(throws: MovieSearchError.self) { try await client.search("toy", language: .en) }
        }
        await #expect(throws: MovieSearchError.resting(retryInSeconds: 31)) { try await client.search("toy", language: .en) }
        #expect(server.requests.count == 3, "an open breaker does not ask")
        #expect(MovieSearchError.resting(retryInSeconds: 31).isUnreachable, "so the server answers from its catalog")
        clock.clock.sleep(.seconds(30))
        #expect(try await client.search("toy", language: .en).results.first?.title == "Toy Story")
        #expect(try await client.search("toy", language: .en).results.first?.title == "Toy Story")
        #expect(server.requests.count == 5)
    }
}

@Suite("Pacing under TMDB's rate")
struct RequestPacerTests {
    @Test func everyRequestBooksItsMomentAndNoWindowHoldsMoreThanTheLimit() {
        let pacer = RequestPacer(limit: 3, window: .seconds(1))
        let starts = (0..<7).map { _ in pacer.book(at: .milliseconds(100)) }
        #expect(starts == [.milliseconds(100), .milliseconds(100), .milliseconds(100),
                           .milliseconds(1100), .milliseconds(1100), .milliseconds(1100), .milliseconds(2100)])
        #expect(pacer.book(at: .milliseconds(5000)) == .milliseconds(5000), "an idle window books now")
    }
}
