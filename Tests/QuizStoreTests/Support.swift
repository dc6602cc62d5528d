import Foundation
import GRDB
import PosterGrid
import QuizCore
@testable import QuizStore
import UQuizStorage
import UQuizTestSupport

/// The repository's own seed bundle, found from this file's place in the checkout.
let repositorySeed = SeedBundle(
    directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Seed"))

/// A seeded database in its own folder.
func seededDatabase(in folder: TemporaryFolder) throws -> AppDatabase {
    try AppDatabase.openOrSeed(at: folder.path("uquiz.sqlite"), seedBundle: { repositorySeed }).database
}

func userPackage(title: String = "My movies", code: String = "MYPKG2", areas: [Cell]? = nil) -> QuizPackage {
    QuizPackage(
        shareCode: ShareCode(code)!, seedId: nil, origin: .user, title: title, maker: "tester", level: .expert,
        language: .en, createdAt: "2026-11-22T10:00:00Z",
        quizzes: [
            Quiz(
                tmdbId: 27205, catalogKey: "tmdb-27205", title: "Inception", originalTitle: "Inception",
                releaseDate: "2010-07-15", genreIds: [28, 878], posterPath: "/4i1I0cvwYhUTVbU5Qe6HbD1audF.jpg",
                posterSource: .tmdb, geometry: .standard,
                areas: areas ?? [Cell(row: 20, column: 20), Cell(row: 40, column: 30), Cell(row: 60, column: 10)])
        ])
}

/// A database in memory holding what the seed bundle holds, for tests that need no file.
func seededInMemoryDatabase() throws -> AppDatabase {
    let database = try AppDatabase.inMemory()
    _ = try database.mergeSeed(from: repositorySeed)
    return database
}

/// Rows of every table, in a stable order, to compare whole databases.
func dump(_ path: String) throws -> [String] {
    try DatabaseQueue(path: path).read(dumpRows)
}

func dump(_ database: AppDatabase) throws -> [String] {
    try database.read(dumpRows)
}

private func dumpRows(_ db: Database) throws -> [String] {
    let tables = try String.fetchAll(
        db,
        // FTS5's shadow tables are internal (some without rowid); the virtual table itself holds the content.
        sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
            AND name NOT LIKE 'movieSearch_%' AND name NOT LIKE 'packageSearch_%' ORDER BY name
            """)
    return try tables.flatMap { table in
        try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY rowid").map { "\(table): \($0)" }
    }
}
