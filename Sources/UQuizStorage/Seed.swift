import Foundation
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
}

/// What a seed bundle holds, read whole: for a store that cannot copy the bundle's SQLite file as it is (PostgreSQL)
/// and seeds itself from its content instead.
public struct SeedContent: Sendable {
    public struct PosterImage: Sendable, Equatable {
        public var fileName: String
        public var jpeg: Data
        public var attribution: String

        public init(fileName: String, jpeg: Data, attribution: String) {
            self.fileName = fileName
            self.jpeg = jpeg
            self.attribution = attribution
        }
    }

    public var bundleVersion: String
    /// The seed packages in their stored order, with their share codes, seed ids and creation times.
    public var packages: [QuizPackage]
    /// The whole catalog, by catalog key.
    public var movies: [CatalogMovie]
    /// The bundled poster images, by file name.
    public var posters: [PosterImage]

    public init(bundleVersion: String, packages: [QuizPackage], movies: [CatalogMovie], posters: [PosterImage]) {
        self.bundleVersion = bundleVersion
        self.packages = packages
        self.movies = movies
        self.posters = posters
    }
}

/// What the seed's maintenance needs of a bundle's own database file, which only the SQLite store reads and writes:
/// its version, and rebuilding it from the bundle's readable source.
public protocol SeedBundleFiles: Sendable {
    func version(of bundle: SeedBundle) throws -> String
    /// Rebuilds `bundle`'s database from its source into `output`, byte for byte the same on every run.
    func build(_ bundle: SeedBundle, into output: URL) throws -> (packages: Int, movies: Int)
}
