import Foundation
import UQuizStorage

/// The seed use cases: what the store holds and which bundle it came from, merging a newer bundle in, resetting to
/// the bundle, and rebuilding the bundle's database from its readable source.
public struct SeedMaintenance: Sendable {
    public let environment: AppEnvironment
    /// Finds the seed bundle (its database, or with `SeedBundle.sourceFileName` its readable source).
    public let bundle: @Sendable (_ marker: String) throws -> SeedBundle
    /// Reads and builds the bundle's database file.
    public let files: any SeedBundleFiles

    public init(
        environment: AppEnvironment, files: any SeedBundleFiles,
        bundle: @escaping @Sendable (_ marker: String) throws -> SeedBundle
    ) {
        self.environment = environment
        self.files = files
        self.bundle = bundle
    }

    public struct Status: Sendable {
        public var database: SeedStatus
        public var bundlePath: String?
        public var bundleVersion: String?
        public var bundleProblem: String?
    }

    public func status() throws -> Status {
        var status = Status(database: try environment.store().seedStatus())
        do {
            let bundle = try bundle(SeedBundle.databaseFileName)
            status.bundlePath = bundle.directory.path
            status.bundleVersion = try files.version(of: bundle)
        } catch {
            status.bundleProblem = error.localizedDescription
        }
        return status
    }

    public func merge() throws -> MergeReport {
        try environment.store().mergeSeed(from: try bundle(SeedBundle.databaseFileName))
    }

    /// Replaces the store with the bundle; returns where the previous database was saved.
    public func reset() throws -> String {
        let store = try environment.store()
        return try store.reset(from: try bundle(SeedBundle.databaseFileName), now: environment.now())
    }

    /// Rebuilds the bundle's database from `source` (or the bundle found) into `output` (or the bundle's own file).
    public func build(source: URL?, output: URL?) throws -> (output: URL, packages: Int, movies: Int) {
        let bundle = try source.map { SeedBundle(directory: $0) } ?? bundle(SeedBundle.sourceFileName)
        let outputURL = output ?? bundle.databaseURL
        let result = try files.build(bundle, into: outputURL)
        return (outputURL, result.packages, result.movies)
    }
}
