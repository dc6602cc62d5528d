import ArgumentParser
import Foundation
import LocalUseCases
import QuizStore
import UQuizStorage

/// Every command here names itself: without `commandName`, ArgumentParser derives the name by demangling the type's
/// name on every start-up of every command (about 1 ms for these four).
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Inspect, merge, reset or rebuild the bundled seed packages.",
        subcommands: [Status.self, Merge.self, Reset.self, Build.self],
        defaultSubcommand: Status.self
    )

    static func maintenance(_ context: AppContext) -> SeedMaintenance {
        SeedMaintenance(environment: context.environment, files: SQLiteSeedFiles()) { marker in try context.settings.seedBundle(marker: marker) }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show the database's schema version, its contents and the seed bundle's version.")

        @OptionGroup var store: StoreOptions
        @Flag(help: "Print JSON instead of text.") var json = false

        func run() async throws {
            let report = try SeedCommand.maintenance(try await AppContext.make(store)).status()
            if json {
                print(try JSONOutput.string(SeedStatusJSON(report)))
                return
            }
            let status = report.database
            print("database        \(status.databasePath)")
            print("schema          \(status.schemaVersion) (\(status.schemaMigrations) of \(AppDatabase.knownMigrations.count) migrations)")
            print("seeded from     bundle \(status.databaseBundleVersion ?? "none")")
            print("packages        \(status.seedPackages) bundled, \(status.userPackages) yours")
            print("quizzes         \(status.quizzes)")
            print("catalog movies  \(status.movies)")
            print("attempts        \(status.attempts)")
            if let path = report.bundlePath, let version = report.bundleVersion {
                print("bundle          \(version) at \(path)")
            } else {
                print("bundle          unavailable: \(report.bundleProblem ?? "unknown")")
            }
        }
    }

    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Add missing bundled packages and update changed ones.",
            discussion: """
                Bundled packages are matched by their seed id. Packages you made, bundled packages you edited and all \
                attempts are never touched; a bundled package you deleted comes back.
                """)

        @OptionGroup var store: StoreOptions
        @Flag(help: "Print JSON instead of text.") var json = false

        func run() async throws {
            let report = try SeedCommand.maintenance(try await AppContext.make(store)).merge()
            if json {
                print(try JSONOutput.string(MergeReportJSON(report)))
                return
            }
            print(
                "Merged bundle \(report.bundleVersion): \(report.added.count) added, \(report.updated.count) updated, "
                    + "\(report.unchanged.count) unchanged"
                    + (report.keptEdited.isEmpty ? "." : ", \(report.keptEdited.count) kept as you edited them."))
            for id in report.added { print("  added    \(id)") }
            for id in report.updated { print("  updated  \(id)") }
            for id in report.keptEdited { print("  kept     \(id) (edited by you; uquiz seed reset restores the bundle's)") }
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Replace the whole database with the bundled one, after saving a timestamped backup.",
            discussion: "Your packages and attempts go too; the backup beside the database file keeps them.")

        @OptionGroup var store: StoreOptions
        @Flag(name: [.short, .long], help: "Do not ask for confirmation.") var yes = false

        func run() async throws {
            let context = try await AppContext.make(store)
            let database = try context.openDatabase()
            let seed = SeedCommand.maintenance(context)
            _ = try seed.bundle(SeedBundle.databaseFileName)
            if !yes {
                guard try Console.confirm(
                    "Replace \(database.path) with the bundled packages?", action: "resetting the database")
                else {
                    print("Nothing changed.")
                    return
                }
            }
            let backup = try seed.reset()
            print("Reset \(database.path) from the seed bundle; the previous database is saved as \(backup).")
        }
    }

    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Rebuild the bundle's database from its readable source (for developers).",
            discussion: """
                Reads SOURCE/seed.json and SOURCE/posters/ and writes SOURCE/uquiz-seed.sqlite (or --output). The same \
                source always gives the same bytes; a test fails when the committed database and the source disagree.
                """)

        @Option(help: ArgumentHelp("The Seed folder (default: the bundle uquiz finds).", valueName: "folder"))
        var source: String?
        @Option(help: ArgumentHelp("Where to write the database.", valueName: "file")) var output: String?
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let built = try SeedCommand.maintenance(try await AppContext.make(store)).build(
                source: source.map { URL(fileURLWithPath: $0) }, output: output.map { URL(fileURLWithPath: $0) })
            print("Wrote \(built.output.path): \(built.packages) packages, \(built.movies) movies in quizzes.")
        }
    }
}

/// The documented JSON shape of `seed status --json`; facts that are unknown (no bundle version in the database, the
/// bundle's problem when it is found) are left out.
struct SeedStatusJSON: Encodable {
    struct Database: Encodable {
        var databasePath: String
        var schemaVersion: String
        var schemaMigrations: Int
        var databaseBundleVersion: String?
        var seedPackages: Int
        var userPackages: Int
        var quizzes: Int
        var movies: Int
        var attempts: Int
    }

    var database: Database
    var bundlePath: String?
    var bundleVersion: String?
    var bundleProblem: String?

    init(_ status: SeedMaintenance.Status) {
        let database = status.database
        self.database = Database(
            databasePath: database.databasePath, schemaVersion: database.schemaVersion,
            schemaMigrations: database.schemaMigrations, databaseBundleVersion: database.databaseBundleVersion,
            seedPackages: database.seedPackages, userPackages: database.userPackages, quizzes: database.quizzes,
            movies: database.movies, attempts: database.attempts)
        bundlePath = status.bundlePath
        bundleVersion = status.bundleVersion
        bundleProblem = status.bundleProblem
    }
}

/// The documented JSON shape of `seed merge --json`: seed ids by what happened to them.
struct MergeReportJSON: Encodable {
    var added: [String]
    var updated: [String]
    var unchanged: [String]
    var keptEdited: [String]
    var bundleVersion: String

    init(_ report: MergeReport) {
        added = report.added
        updated = report.updated
        unchanged = report.unchanged
        keptEdited = report.keptEdited
        bundleVersion = report.bundleVersion
    }
}
