import Foundation
import Hummingbird
import HummingbirdTesting
import LocalUseCases
import Logging
import MovieSearch
import PosterGrid
import QuizCore
import QuizStore
import ServerUseCases
import UQuizServer
import UQuizStorage

/// The repository's checkout, found from this file's place in it.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

let repositorySeed = SeedBundle(directory: repositoryRoot.appendingPathComponent("Seed"))

/// The grid the seed's packages and these tests' specs are made on.
let seedGeometry = try! GridGeometry(columns: 50, rows: 75, areaSize: 5, margin: 2)

/// A server over a fresh SQLite file seeded from the bundle, as `uquiz serve` runs on a first start: a fixed date, no
/// network (the catalog answers for movies), token bytes from the system. The folder goes when the value does.
final class TestServer: Sendable {
    let folder: URL
    /// The SQLite file as the CLI opens it.
    let file: AppDatabase
    /// The server's store over that file.
    let database: SQLiteServerStore
    let environment: ServerEnvironment

    init(
        now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }, storeAnswers: Bool = true,
        movieClient: TMDBClient? = nil
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = try AppDatabase.openOrSeed(
            at: folder.appendingPathComponent("uquiz.sqlite").path, seedBundle: { repositorySeed }
        ).database
        self.file = file
        // These tests check what the server answers, not how fast: run beside every other suite on 2 cores, a store
        // call may wait seconds for a thread, past the standard deadline (whose own behaviour StoreDeadlineTests test).
        let database = try SQLiteServerStore.open(path: file.path, deadline: .forTests)
        self.database = database
        let cache = PosterCache(directory: folder.appendingPathComponent("posters"), capBytes: 1 << 20)
        let app = AppEnvironment(
            now: now, randomSeed: { .random(in: 0...UInt64.max) }, store: { file }, movieClient: { movieClient },
            imageClient: { throw NoNetwork() }, posterCache: { cache }, posterPlayWidth: { 342 }, log: { _ in })
        let sharing = SharingEnvironment(app: app, store: {
            guard storeAnswers else { throw NoNetwork() }
            return database
        })
        environment = ServerEnvironment(sharing: sharing, levels: .standard, geometry: seedGeometry)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    var router: Router<ServerRequestContext> { buildRouter(environment: environment) }

    /// Runs `test` against the router in process.
    func test<Value: Sendable>(
        configuration: ServerConfiguration = .init(),
        monotonicNow: @escaping @Sendable () -> Duration = ServerClock.sinceStart, plays: Plays? = nil,
        _ test: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let router = buildRouter(
            environment: environment, configuration: configuration, monotonicNow: monotonicNow, plays: plays)
        // Request logs are the server's business; in tests they would bury the results.
        var logger = Logger(label: "uquiz.server.tests")
        logger.logLevel = .critical
        return try await Application(router: HeadAsGetRouter(router), logger: logger).test(.router, test)
    }
}

struct NoNetwork: Error {}

extension TestResponse {
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
    }

    var text: String { String(buffer: body) }

    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
}

extension TestClientProtocol {
    /// Sends a JSON value (or raw text) with an optional bearer token.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: Any? = nil, raw: String? = nil, token: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json { body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)) }
        if let raw { body = ByteBuffer(string: raw) }
        return try await execute(uri: uri, method: method, headers: headers, body: body)
    }

    /// A new player's token.
    func newPlayer(_ name: String = "Tester") async throws -> String {
        let response = try await send(.post, "/v1/players", json: ["name": name])
        guard response.status == .created, let token = response.json["token"] as? String else {
            throw UnexpectedResponse(status: response.status.code, body: response.text)
        }
        return token
    }

    /// Publishes `spec` and returns its share code.
    func publish(_ spec: [String: Any], token: String) async throws -> String {
        let response = try await send(.post, "/v1/packages", json: spec, token: token)
        guard response.status == .created, let code = response.json["shareCode"] as? String else {
            throw UnexpectedResponse(status: response.status.code, body: response.text)
        }
        return code
    }
}

struct UnexpectedResponse: Error {
    var status: Int
    var body: String
}

let seedAreas = [[38, 12], [20, 41], [57, 41], [17, 14], [37, 34]]

/// A valid spec: beginner, English, Toy Story (TMDB 862, in the seed's catalog) with the areas of the seed's first quiz
/// (as many as the level has), which keep every grid rule.
func validSpec(title: String = "Pixar night", visibility: String? = nil, level: String = "beginner") -> [String: Any] {
    var spec: [String: Any] = [
        "format": 1, "title": title, "level": level, "language": "en",
        "quizzes": [["movie": 862, "areas": Array(seedAreas.prefix(LevelRules.standard[Level(rawValue: level)!].areaCount))]],
    ]
    if let visibility { spec["visibility"] = visibility }
    return spec
}
