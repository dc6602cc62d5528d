import Foundation
import PosterGrid
import QuizCore
import UQuizStorage

/// The use cases on stored packages: find them by id, share code or seed id, list, show, edit and delete them, and
/// read what has been played.
public struct PackageLibrary: Sendable {
    public let environment: AppEnvironment

    public init(environment: AppEnvironment) {
        self.environment = environment
    }

    /// The packages matching `filter`, oldest first, at most `limit` of them (all when `nil`).
    public func list(_ filter: PackageFilter = .init(), limit: Int? = nil) throws -> PackageListPage {
        try environment.store().packages(matching: filter, limit: limit)
    }

    /// The stored ids of the packages named by ids, share codes or seed ids, each once, in the order first named.
    public func ids(of references: [String]) throws -> [Int64] {
        let store = try environment.store()
        var ids: [Int64] = []
        for reference in references {
            let id = try store.packageID(for: reference)
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    public func package(_ reference: String) throws -> QuizPackage {
        let store = try environment.store()
        return try store.package(id: try store.packageID(for: reference))
    }

    public func packages(ids: [Int64]) throws -> [QuizPackage] {
        let store = try environment.store()
        return try ids.map { try store.package(id: $0) }
    }

    /// Deletes packages with their quizzes, areas and attempts, all or none; returns their titles.
    @discardableResult
    public func delete(ids: [Int64]) throws -> [String] {
        try environment.store().deletePackages(ids: ids)
    }

    /// Applies `edits` to a package, checked against the grid and the level before anything is saved.
    /// - Throws: `EditProblem` for a rule broken; store errors otherwise.
    public func edit(_ reference: String, _ edits: [PackageEdit], levels: LevelRules) async throws -> QuizPackage {
        let store = try environment.store()
        let id = try store.packageID(for: reference)
        let edited = try store.package(id: id).applying(edits, levels: levels)
        // A new poster must be one a solver can see: once the rules pass, it is fetched (or found cached) and decoded.
        for case .poster(_, let path) in edits {
            try await PosterLoader(environment: environment).verify(posterPath: path, source: .tmdb)
        }
        try store.saveEdit(packageId: id, edited: edited)
        return edited
    }

    /// Statistics of every attempt, or of one package's, of one player when given.
    public func stats(package reference: String?, player: String?) throws -> PlayStats {
        let store = try environment.store()
        return try store.stats(packageId: try reference.map { try store.packageID(for: $0) }, player: player)
    }
}

/// The export and import use cases: versioned files a friend can read, checked whole before anything is written.
public struct PackageSharing: Sendable {
    public let environment: AppEnvironment

    public init(environment: AppEnvironment) {
        self.environment = environment
    }

    /// The export document of these packages (no attempts, no local ids), as pretty, stable JSON ending in a newline.
    public func export(ids: [Int64]) throws -> (data: Data, count: Int) {
        let store = try environment.store()
        let packages = try ids.map { try store.package(id: $0) }
        let movies = try store.catalogMovies(keys: packages.flatMap { $0.quizzes.compactMap(\.catalogKey) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try encoder.encode(ExportDocument(packages: packages, movies: movies)) + Data("\n".utf8), packages.count)
    }

    /// One imported package: where it was saved and under which code (a new one for a copy).
    public struct Imported: Sendable {
        public var id: Int64
        public var shareCode: ShareCode
        public var package: QuizPackage
        public var isCopy: Bool { shareCode != package.shareCode }
    }

    /// Checks every file whole, then writes all their packages in one transaction, or none. A package already here
    /// (same share code) is refused unless `asCopy`, which gives the copy a fresh code.
    /// `files` gives each file's name (for messages) and a reader; `size` is asked first so a huge file is never read.
    public func importFiles(
        _ files: [(name: String, size: Int, read: () throws -> Data)], levels: LevelRules, asCopy: Bool
    ) throws -> [Imported] {
        var packages: [QuizPackage] = []
        var movies: [CatalogMovie] = []
        for file in files {
            // Refused by its size before reading: a file this large is not an export.
            guard file.size <= ExportDocument.maxBytes else {
                throw PackageImportError.fileTooLarge(name: file.name, bytes: file.size, maxBytes: ExportDocument.maxBytes)
            }
            do {
                let read = try ExportDocument.read(try file.read(), levels: levels)
                packages += read.packages
                movies += read.movies
            } catch let problem as SpecProblem {
                throw PackageImportError.invalidFile(name: file.name, problem: problem.description)
            }
        }
        var seen: Set<String> = []
        for code in packages.map(\.shareCode.value) where !seen.insert(code).inserted {
            throw PackageImportError.duplicateShareCode(code)
        }
        var generator = AreaLayout.SeededGenerator(seed: environment.randomSeed())
        let saved = try environment.store().importPackages(packages, movies: movies, asCopy: asCopy) {
            .random(using: &generator)
        }
        return zip(saved, packages).map { Imported(id: $0.id, shareCode: $0.shareCode, package: $1) }
    }
}

/// Why package files cannot be imported.
public enum PackageImportError: Error, Equatable {
    /// A file is larger than an export can be (`maxBytes`).
    case fileTooLarge(name: String, bytes: Int, maxBytes: Int)
    /// A file is not a valid export; `problem` names the JSON path.
    case invalidFile(name: String, problem: String)
    /// The same package (share code) is in more than one file.
    case duplicateShareCode(String)
}
