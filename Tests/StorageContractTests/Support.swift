import Foundation
import PosterGrid
@testable import PostgresStore
import QuizCore
import QuizStore
import Testing
import UQuizStorage

/// Every boundary the server's store gives; both stores implement all of them.
typealias ContractStore = ServerStorage

/// Which implementation a contract test runs against: each test is written once and runs on both.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// The repository's own seed bundle, found from this file's place in the checkout.
let repositorySeed = SeedBundle(
    directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Seed"))

struct MissingPostgresServer: Error, CustomStringConvertible {
    var description: String {
        "UQUIZ_TEST_POSTGRES_URL is not set: the PostgreSQL half of the storage contract needs a server; run `bash .ci/test`, or `eval \"$(bash .ci/postgres start)\"` and run the tests again"
    }
}

/// The server the PostgreSQL half runs on: a URL to a database there, on a server where databases may be created.
func postgresServerURL() throws -> String {
    guard let url = ProcessInfo.processInfo.environment["UQUIZ_TEST_POSTGRES_URL"], !url.isEmpty else {
        throw MissingPostgresServer()
    }
    return url
}

/// A database of its own for one test, created empty and dropped after.
struct FreshPostgresDatabase {
    let name: String
    let serverURL: String
    let url: String

    init() async throws {
        serverURL = try postgresServerURL()
        name = "uquiz_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await PostgresAdmin.createDatabase(name, on: serverURL)
        url = try PostgresAdmin.url(serverURL, database: name)
    }

    func drop() async {
        do {
            try await PostgresAdmin.dropDatabase(name, on: serverURL)
        } catch {
            Issue.record("could not drop test database \(name): \(error)")
        }
    }

    /// Runs `body` on a fresh database, dropped after whatever `body` does.
    static func with<T>(_ body: (FreshPostgresDatabase) async throws -> T) async throws -> T {
        let database = try await FreshPostgresDatabase()
        do {
            let value = try await body(database)
            await database.drop()
            return value
        } catch {
            await database.drop()
            throw error
        }
    }
}

let testDeadline = StoreDeadline.forTests

/// Runs `body` on a new, empty, migrated store of `kind`: SQLite in memory, or PostgreSQL in a fresh database.
func withStore<T: Sendable>(_ kind: StoreKind, _ body: (any ContractStore) async throws -> T) async throws -> T {
    switch kind {
    case .sqlite:
        return try await body(SQLiteServerStore(database: try AppDatabase.inMemory(), deadline: testDeadline))
    case .postgres:
        return try await FreshPostgresDatabase.with { database in
            try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline) { store in try await body(store) }
        }
    }
}

/// Runs `body` on a store of `kind` seeded from the repository's bundle.
func withSeededStore<T: Sendable>(_ kind: StoreKind, _ body: (any ContractStore) async throws -> T) async throws -> T {
    switch kind {
    case .sqlite:
        let database = try AppDatabase.inMemory()
        _ = try database.mergeSeed(from: repositorySeed)
        return try await body(SQLiteServerStore(database: database, deadline: testDeadline))
    case .postgres:
        return try await FreshPostgresDatabase.with { database in
            try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline, migrating: false) { store in
                #expect(try await store.prepare(seedContent: { try repositorySeed.content() }))
                return try await body(store)
            }
        }
    }
}

/// A user package of `quizzes` quizzes (each with three areas, so each is playable), on distinct films.
func makePackage(
    title: String = "My movies", code: String = "MYPKG2", maker: String = "tester", level: Level = .expert,
    language: QuizLanguage = .en, createdAt: String = "2026-11-22T10:00:00Z", quizzes: Int = 2, firstFilm: Int = 1
) -> QuizPackage {
    QuizPackage(
        shareCode: ShareCode(code)!, seedId: nil, origin: .user, title: title, maker: maker, level: level,
        language: language, createdAt: createdAt,
        quizzes: (0..<quizzes).map { index in
            let film = firstFilm + index
            return Quiz(
                tmdbId: 1000 + film, catalogKey: "tmdb-\(1000 + film)", title: "Film \(film)",
                originalTitle: "Film \(film)", releaseDate: "2010-07-15", genreIds: [28, 878],
                posterPath: "/poster\(film).jpg", posterSource: .tmdb, geometry: .standard,
                areas: [Cell(row: 20, column: 20), Cell(row: 40, column: 30), Cell(row: 60, column: 10)])
        })
}

func tokenHash(_ seed: UInt8) -> Data { Data(repeating: seed, count: 32) }

func attempt(
    quizId: Int64, solved: Bool, stage: Int = 2, seconds: Double = 10, score: Int = 100, hints: Int = 0,
    wrong: [String] = []
) -> PlayAttempt {
    PlayAttempt(
        quizId: quizId, endedAt: Date(timeIntervalSince1970: 1_800_000_000),
        result: QuizResult(
            outcome: solved ? .solved : .missed, seconds: seconds, stageReached: stage, hintsUsed: hints,
            score: solved ? score : 0),
        wrongGuesses: wrong)
}

/// Publishes a package owned by a new player; returns its id and the owner.
@discardableResult
func publish(
    _ package: QuizPackage, on store: any ContractStore, visibility: Visibility = .public, owner: Player? = nil
) async throws -> (id: Int64, owner: Player) {
    var maker = owner
    if maker == nil { maker = try await store.insertPlayer(name: "maker", tokenHash: Data(UUID().uuidString.utf8), at: Date()) }
    let player = maker!
    let saved = try await store.insertPublished(package, owner: player.id, visibility: visibility, otherCodes: [ShareCode("ZZZZZ9")!])
    return (saved.id, player)
}

/// Records a finished play of `packageId` by `player` with one attempt per quiz.
@discardableResult
func recordPlay(
    on store: any ContractStore, packageId: Int64, player: Player, score: Int, elapsed: Double = 30,
    daily: String? = nil, publicId: String = UUID().uuidString, solved: Bool = true, unranked: UnrankedReason? = nil
) async throws -> Bool {
    let quizzes = try await store.quizIDs(packageId: packageId)
    return try await store.recordServerPlay(FinishedServerPlay(
        publicId: publicId, packageId: packageId, player: player, startedAt: Date(timeIntervalSince1970: 1_800_000_000),
        finishedAt: Date(timeIntervalSince1970: 1_800_000_060), score: score, elapsedSeconds: elapsed, dailyDay: daily,
        attempts: quizzes.map { attempt(quizId: $0, solved: solved) }, unrankedReason: unranked))
}
