import Foundation
internal import GRDB
import PosterGrid
import QuizCore

/// The bundled initial database and its readable source: the repository's `Seed/` folder, or `share/uquiz/seed/` under an
/// install prefix.
public struct SeedBundle: Sendable {
    public static let databaseFileName = "uquiz-seed.sqlite"
    public static let sourceFileName = "seed.json"
    public static let postersFolderName = "posters"

    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public var databaseURL: URL { directory.appendingPathComponent(Self.databaseFileName) }
    public var sourceURL: URL { directory.appendingPathComponent(Self.sourceFileName) }
    public var postersURL: URL { directory.appendingPathComponent(Self.postersFolderName) }

    /// Finds the bundle with no set-up: `override` (from `UQUIZ_SEED`, a folder or the database file) when given; else
    /// `share/uquiz/seed` beside the executable's `bin/`; else a `Seed/` folder in one of the executable's parent folders,
    /// which covers `swift run` and binaries under `.build/`.
    /// `marker` is the file that must be there: the database to use a bundle, the source to rebuild one.
    public static func locate(
        override: String?, executable: URL, marker: String = databaseFileName
    ) throws -> SeedBundle {
        if let override, !override.isEmpty {
            var url = URL(fileURLWithPath: override)
            if url.lastPathComponent == marker { url.deleteLastPathComponent() }
            let bundle = SeedBundle(directory: url)
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent(marker).path) else {
                throw StoreError.seedBundleNotFound(searched: ["UQUIZ_SEED=\(override)"])
            }
            return bundle
        }
        let candidates = candidateDirectories(executable: executable)
        for directory in candidates {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(marker).path) {
                return SeedBundle(directory: directory)
            }
        }
        throw StoreError.seedBundleNotFound(searched: candidates.map(\.path))
    }

    static func candidateDirectories(executable: URL) -> [URL] {
        let binDirectory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [binDirectory.deletingLastPathComponent().appendingPathComponent("share/uquiz/seed")]
        var folder = binDirectory
        while folder.path != "/" && !folder.path.isEmpty {
            candidates.append(folder.appendingPathComponent("Seed"))
            folder.deleteLastPathComponent()
        }
        return candidates.map(\.standardizedFileURL)
    }

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

/// What a seed bundle holds, read whole: for a store that cannot copy the bundle's SQLite file as it is (PostgreSQL)
/// and seeds itself from its content instead.
public struct SeedContent: Sendable {
    public struct PosterImage: Sendable, Equatable {
        public var fileName: String
        public var jpeg: Data
        public var attribution: String
    }

    public var bundleVersion: String
    /// The seed packages in their stored order, with their share codes, seed ids and creation times.
    public var packages: [QuizPackage]
    /// The whole catalog, by catalog key.
    public var movies: [CatalogMovie]
    /// The bundled poster images, by file name.
    public var posters: [PosterImage]
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
