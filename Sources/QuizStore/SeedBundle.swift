import Foundation
import UQuizStorage
internal import GRDB
import PosterGrid
import QuizCore

extension SeedBundle {
    /// Opens the bundled database read-only; the bundle itself is never written.
    func open() throws -> DatabaseQueue {
        let path = databaseURL.path
        do {
            let queue = try DatabaseQueue(path: path, configuration: AppDatabase.configuration(readonly: true))
            try queue.read { db in _ = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'bundleVersion'") }
            return queue
        } catch {
            throw StoreError.seedBundleCorrupt(path: path, detail: Self.describe(error))
        }
    }

    public func version() throws -> String {
        let queue = try open()
        return try queue.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'bundleVersion'")
        } ?? "unknown"
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}

/// Builds the bundle's database from its source, byte for byte the same on every run from the same source.
public enum SeedBuilder {
    /// Attribution stored with every bundled poster image.
    static let posterAttribution = "public domain in the United States (published before 1931); see Seed/ATTRIBUTION.md"

    /// Builds into memory, then writes a compact copy with `VACUUM INTO`, so the file holds nothing but the content and
    /// never carries a half-built state.
    /// - Returns: the numbers of packages and distinct movies written.
    @discardableResult
    public static func build(
        bundle: SeedBundle, output: URL, levelRules: LevelRules = .standard
    ) throws -> (packages: Int, movies: Int) {
        let source = try SeedSource.load(from: bundle.sourceURL)
        let resolved: (movies: [CatalogMovie], packages: [QuizPackage])
        do {
            resolved = try source.resolve(levelRules: levelRules)
        } catch {
            throw StoreError.seedSourceInvalid(path: bundle.sourceURL.path, detail: error.description)
        }
        let posterFiles = Set(resolved.movies.compactMap(\.bundledPoster))
        var posters: [PosterImageRecord] = []
        for file in posterFiles.sorted() {
            let url = bundle.postersURL.appendingPathComponent(file)
            guard let jpeg = try? Data(contentsOf: url) else {
                throw StoreError.seedSourceInvalid(path: url.path, detail: "bundled poster missing")
            }
            posters.append(PosterImageRecord(fileName: file, jpeg: jpeg, attribution: posterAttribution))
        }

        let memory = try DatabaseQueue(configuration: AppDatabase.configuration())
        try Schema.migrator.migrate(memory)
        try memory.write { db in
            try MetaRecord(key: "bundleVersion", value: source.bundleVersion).insert(db)
            for poster in posters { try poster.insert(db) }
            for movie in resolved.movies { try Catalog.merge(movie, from: .authority, in: db) }
            for package in resolved.packages { _ = try AppDatabase.insert(package, in: db) }
        }
        let temporary = output.deletingLastPathComponent()
            .appendingPathComponent(".\(output.lastPathComponent).building-\(getpid())")
        try? FileManager.default.removeItem(at: temporary)
        do {
            try memory.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM INTO ?", arguments: [temporary.path])
            }
            try FileSystem.syncAndReplace(temporary: temporary.path, destination: output.path)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw StoreError.from(error, path: output.path)
        }
        return (resolved.packages.count, Set(resolved.packages.flatMap { $0.quizzes.compactMap(\.catalogKey) }).count)
    }
}

extension SeedBundle {
    /// Reads the bundle's packages, catalog and poster images through a read-only connection; the bundle is never
    /// written.
    public func content() throws -> SeedContent {
        let queue = try open()
        do {
            return try queue.read { db in
                let version = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'bundleVersion'") ?? "unknown"
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM package ORDER BY id")
                let packages = try ids.compactMap { try AppDatabase.fetchPackage(id: $0, in: db) }
                let posters = try PosterImageRecord.order(Column("fileName")).fetchAll(db).map {
                    SeedContent.PosterImage(fileName: $0.fileName, jpeg: $0.jpeg, attribution: $0.attribution)
                }
                return SeedContent(
                    bundleVersion: version, packages: packages, movies: try Catalog.fetchAll(in: db), posters: posters)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.seedBundleCorrupt(path: databaseURL.path, detail: Self.describe(error))
        }
    }
}

/// The seed bundle's database file as the SQLite store reads and builds it.
public struct SQLiteSeedFiles: SeedBundleFiles {
    public init() {}

    public func version(of bundle: SeedBundle) throws -> String { try bundle.version() }

    public func build(_ bundle: SeedBundle, into output: URL) throws -> (packages: Int, movies: Int) {
        try SeedBuilder.build(bundle: bundle, output: output)
    }
}
