import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalUseCases
import Logging
import MovieSearch
import PosterGrid
@testable import PostgresStore
import QuizCore
import QuizStore
import ServerUseCases
import Synchronization
import Testing
import UQuizServer
import UQuizStorage

/// `uquiz serve`'s routes on PostgreSQL: two instances (two routers, each with its own memory) on one database seeded
/// from the bundle, as the server runs them in production.
@Suite struct ServerOnPostgresTests {
    /// The seed's "Silent Classics": beginner (5 stages of 2 s), English, bundled posters.
    static let silentClassics = "FE7NWW"
    /// The pause before each quiz's first stage.
    static let interlude = Duration.seconds(3)

    @Test func aPlayStartedOnOneInstanceIsPlayedOnTheOtherAndEndsRanked() async throws {
        try await withTwoInstances { store, clock, a, b in
            let token = try await a.newPlayer("Solver")
            let package = try await b.send(.get, "/v1/packages/\(Self.silentClassics)")
            #expect(package.status == .ok)
            let id = try #require(try await a.send(.post, "/v1/packages/\(Self.silentClassics)/plays", token: token).json["id"] as? String)
            #expect(try await store.openPlayCount(packageId: nil) == 1, "the play is in the database, not in A's memory")

            clock.advance(Self.interlude + .milliseconds(2500))
            let hint = try await a.send(.post, "/v1/plays/\(id)/hints", json: ["quiz": 1], token: token)
            #expect(hint.status == .ok)
            let onB = try await b.send(.get, "/v1/plays/\(id)", token: token)
            #expect(onB.status == .ok)
            let quizzes = try #require((onB.json["quizzes"] ?? (onB.json["play"] as? [String: Any])?["quizzes"]) as? [[String: Any]])
            #expect(quizzes.first?["stage"] as? Int == 2, "B sees A's play at stage 2 after 2.5 s")
            let packageId = try await store.publishedPackage(shareCode: ShareCode(Self.silentClassics)!)!.id
            let title = try await store.package(id: packageId).quizzes[0].title
            let right = try await b.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": title], token: token)
            #expect(right.json["judgement"] as? String == "accepted")
            for quiz in 2...quizzes.count {
                clock.advance(Self.interlude)
                let client = quiz.isMultiple(of: 2) ? a : b
                #expect(try await client.send(.post, "/v1/plays/\(id)/skips", json: ["quiz": quiz], token: token).status == .ok)
            }
            let onA = try await a.send(.get, "/v1/plays/\(id)", token: token)
            #expect(onA.json["finished"] as? Bool == true && onA.json["ranked"] as? Bool == true)
            #expect(try await store.openPlayCount(packageId: nil) == 0)
            let stored = try #require(try await store.serverPlay(publicId: id))
            #expect(stored.ranked && stored.attempts.count == quizzes.count && stored.attempts[0].result.hintsUsed == 1)
            let board = try await b.send(.get, "/v1/packages/\(Self.silentClassics)/leaderboard", token: token)
            #expect(((board.json["entries"] ?? board.json["top"]) as? [[String: Any]])?.first?["score"] as? Int == stored.score)
        }
    }

    /// A room lives on the instance that opened it; the database's room directory sends the other one there.
    @Test func aRoomOpenedOnOneInstanceIsFoundThroughTheOther() async throws {
        try await withTwoInstances(listening: true) { store, _, a, b in
            let token = try await a.newPlayer("Host")
            let opened = try await a.send(.post, "/v1/rooms", json: ["shareCode": Self.silentClassics], token: token)
            #expect(opened.status == .created)
            let code = try #require(opened.json["code"] as? String)
            #expect(try await store.roomInstance(code: code)?.hasPrefix("http://127.0.0.1:") == true)
            let lobby = try await b.send(.get, "/v1/rooms/\(code)")
            #expect(lobby.status == .ok && lobby.json["shareCode"] as? String == Self.silentClassics)
            #expect(lobby.json["phase"] as? String == "lobby")
            let poster = try await b.send(.get, "/v1/rooms/\(code)/quizzes/1/poster?stage=1")
            #expect(poster.status == .forbidden, "the quiz has not loaded: A's refusal, through B")
            let me = try await b.send(.get, "/v1/players/me", token: token)
            #expect(me.status == .ok && (me.json["rooms"] as? [String: Any])?["rooms"] as? Int == 0)
        }
    }

    @Test func rateLimitsInTheDatabaseHoldAcrossInstances() async throws {
        let configuration = ServerConfiguration(playStarts: RateLimit(burst: 4, interval: .seconds(6)), rateLimitsInStore: true)
        try await withTwoInstances(configuration: configuration) { _, clock, a, b in
            let token = try await a.newPlayer()
            // The first start makes the play; the next ones resume it (one play of a package at a time), each counted.
            for (index, client) in [a, b, a, b].enumerated() {
                let started = try await client.send(.post, "/v1/packages/\(Self.silentClassics)/plays", token: token)
                #expect(started.status == (index == 0 ? .created : .ok))
            }
            for client in [a, b] {
                let limited = try await client.send(.post, "/v1/packages/\(Self.silentClassics)/plays", token: token)
                #expect(limited.status == .tooManyRequests)
            }
        }
    }

    /// A client missing codes or sending wrong tokens to two instances has one budget between them, not one on each:
    /// past it, each instance refuses once its own take finds the shared bucket empty.
    @Test func codeMissesAndRefusedTokensAreCountedAcrossInstances() async throws {
        var configuration = ServerConfiguration(
            failedAuthentications: RateLimit(burst: 4, interval: .seconds(60)), rateLimitsInStore: true)
        configuration.lookupMisses = RateLimit(burst: 4, interval: .seconds(60))
        try await withTwoInstances(configuration: configuration) { _, _, a, b in
            for (index, client) in [a, b, a, b].enumerated() {
                #expect(try await client.send(.get, "/v1/packages/ZZZZZ\(index)").status == .notFound)
                #expect(try await client.send(.get, "/v1/daily", token: String(repeating: "\(index)", count: 43)).status == .unauthorized)
            }
            for client in [a, b] {
                // The take that finds the bucket empty still answers as before; from then on this instance refuses.
                _ = try await client.send(.get, "/v1/packages/ZZZZZ8")
                #expect(try await client.send(.get, "/v1/packages/FE7NWW").status == .tooManyRequests, "found or not")
                _ = try await client.send(.get, "/v1/daily", token: String(repeating: "8", count: 43))
                #expect(try await client.send(.get, "/v1/daily", token: String(repeating: "9", count: 43)).status == .tooManyRequests)
            }
        }
    }

    /// Two routers on one freshly seeded PostgreSQL database, on a manual monotonic clock.
    func withTwoInstances(
        configuration: ServerConfiguration = .init(), listening: Bool = false,
        _ test: @Sendable (PostgresQuizStore, TestClock, any TestClientProtocol, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await FreshPostgresDatabase.with { database in
            try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline, seedContent: { try repositorySeed.content() }) { store in
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-pg-server-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: folder) }
                let cache = PosterCache(directory: folder.appendingPathComponent("posters"), capBytes: 1 << 20)
                let app = AppEnvironment(
                    now: { Date(timeIntervalSince1970: 1_800_000_000) }, randomSeed: { .random(in: 0...UInt64.max) },
                    store: { throw NoLocalStore() }, movieClient: { nil }, imageClient: { throw NoLocalStore() },
                    posterCache: { cache }, posterPlayWidth: { 342 }, log: { _ in })
                let environment = ServerEnvironment(
                    sharing: SharingEnvironment(app: app, store: { store }), levels: .standard,
                    geometry: try GridGeometry(columns: 50, rows: 75, areaSize: 5, margin: 2))
                let clock = TestClock()
                @Sendable func quietLogger() -> Logger {
                    var logger = Logger(label: "uquiz.server.tests")
                    logger.logLevel = .critical
                    return logger
                }
                if listening {
                    // Both on loopback ports, as `uquiz serve` runs them: what live rooms' forwarding needs.
                    var onLoopback = configuration
                    onLoopback.host = "127.0.0.1"
                    onLoopback.port = 0
                    let appA = buildApplication(configuration: onLoopback, environment: environment, logger: quietLogger(), now: clock.now)
                    let appB = buildApplication(configuration: onLoopback, environment: environment, logger: quietLogger(), now: clock.now)
                    try await appA.test(.live) { a in try await appB.test(.live) { b in try await test(store, clock, a, b) } }
                    return
                }
                let routerA = buildRouter(environment: environment, configuration: configuration, monotonicNow: clock.now)
                try await Application(router: routerA, logger: quietLogger()).test(.router) { a in
                    let routerB = buildRouter(environment: environment, configuration: configuration, monotonicNow: clock.now)
                    try await Application(router: routerB, logger: quietLogger()).test(.router) { b in
                        try await test(store, clock, a, b)
                    }
                }
            }
        }
    }
}

/// The server on PostgreSQL has no SQLite file: a use case asking for one is a mistake these tests should see.
struct NoLocalStore: Error {}

final class TestClock: Sendable {
    private let instant = Mutex<Duration>(.seconds(1000))
    var now: @Sendable () -> Duration { { self.instant.withLock { $0 } } }
    func advance(_ duration: Duration) { instant.withLock { $0 += duration } }
}

extension TestResponse {
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
    }
}

extension TestClientProtocol {
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: Any? = nil, token: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        let body = try json.map { ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: $0)) }
        return try await execute(uri: uri, method: method, headers: headers, body: body)
    }

    func newPlayer(_ name: String = "Tester") async throws -> String {
        let response = try await send(.post, "/v1/players", json: ["name": name])
        return try #require(response.json["token"] as? String, "POST /v1/players: \(response.status)")
    }
}
