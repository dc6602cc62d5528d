import ArgumentParser
import Foundation
import QuizCore
import QuizStore

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write packages to a file a friend can import.",
        discussion: """
            The file is versioned JSON (format 1, kind "uquiz-packages"): packages, quizzes, areas, each quiz's grid and \
            its movie's facts; no attempts and no local ids. Written atomically.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Ids, share codes or seed ids of the packages.") var ids: [String]
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write here instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name at least one package to export") }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let database = try context.openDatabase()
        var packages: [QuizPackage] = []
        for reference in ids {
            let package = try database.package(id: try database.packageID(for: reference))
            if !packages.contains(where: { $0.id == package.id }) { packages.append(package) }
        }
        let movies = try database.catalogMovies(keys: packages.flatMap { $0.quizzes.compactMap(\.catalogKey) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(ExportDocument(packages: packages, movies: movies)) + Data("\n".utf8)
        guard let output else {
            FileHandle.standardOutput.write(data)
            return
        }
        if let problem = InputFile.problem(with: output, writing: true) { throw CommandFailure(message: problem) }
        do {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandFailure(message: "cannot write \(output) (\(error.localizedDescription))")
        }
        Console.note("exported \(packages.count) package\(packages.count == 1 ? "" : "s") to \(output)")
    }
}

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add packages from files made by `uquiz export`.",
        discussion: """
            Every file is checked whole first (format, grid rules, sizes, text lengths, duplicate share codes); then all \
            packages of all files are written in one transaction, or none, with the JSON path of what is wrong. A \
            package already here (same share code) is refused unless --as-copy, which gives the copy a new code.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Export files.") var files: [String]
    @Flag(help: "Keep both when a package is already here, giving the import a new share code.") var asCopy = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file to import") }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let levels = try context.settings.levelRules()
        var packages: [QuizPackage] = []
        var movies: [CatalogMovie] = []
        for file in files {
            // Refused by its size before reading: a file this large is not an export.
            let data: Data
            do {
                data = try InputFile.read(file, limit: ExportDocument.maxBytes, what: "an export")
            } catch let failure as CommandFailure {
                throw CommandFailure(message: failure.message + "; nothing imported")
            }
            do {
                let read = try ExportDocument.read(data, levels: levels)
                packages += read.packages
                movies += read.movies
            } catch {
                throw CommandFailure(message: "\(file): \(error.description); nothing imported")
            }
        }
        let codes = packages.map(\.shareCode.value)
        if let duplicate = codes.first(where: { code in codes.filter { $0 == code }.count > 1 }) {
            throw CommandFailure(message: "package \(duplicate) is in more than one file; nothing imported")
        }
        let database = try context.openDatabase()
        var generator = SystemRandomNumberGenerator()
        let saved = try database.importPackages(packages, movies: movies, asCopy: asCopy) { .random(using: &generator) }
        for ((id, code), package) in zip(saved, packages) {
            let copy = code != package.shareCode ? " (a copy of \(package.shareCode))" : ""
            print("imported \(id) \(code)\(copy) \"\(SafeText.clean(package.title))\", \(package.quizzes.count) quizzes")
        }
    }
}
