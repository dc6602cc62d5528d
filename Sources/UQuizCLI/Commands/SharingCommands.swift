import ArgumentParser
import Foundation
import LocalUseCases
import QuizCore
import QuizStore
import UQuizStorage

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

    func checkFlags() throws {
        if ids.isEmpty { throw ValidationError("name at least one package to export") }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let library = PackageLibrary(environment: context.environment)
        let (data, count) = try PackageSharing(environment: context.environment).export(ids: try library.ids(of: ids))
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
        Console.note("exported \(count) package\(count == 1 ? "" : "s") to \(output)")
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

    func checkFlags() throws {
        if files.isEmpty { throw ValidationError("name at least one file to import") }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let files = self.files.map { file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int
            return (name: file, size: size ?? 0, read: {
                do {
                    return try InputFile.read(file, limit: ExportDocument.maxBytes, what: "an export")
                } catch let failure as CommandFailure {
                    throw CommandFailure(message: failure.message + "; nothing imported")
                }
            })
        }
        let imported: [PackageSharing.Imported]
        do {
            imported = try PackageSharing(environment: context.environment).importFiles(
                files, levels: try context.settings.levelRules(), asCopy: asCopy)
        } catch let problem as PackageImportError {
            throw CommandFailure(message: Self.describe(problem))
        }
        for saved in imported {
            let copy = saved.isCopy ? " (a copy of \(saved.package.shareCode))" : ""
            print("imported \(saved.id) \(saved.shareCode)\(copy) \"\(SafeText.clean(saved.package.title))\", \(saved.package.quizzes.count) quizzes")
        }
    }

    static func describe(_ problem: PackageImportError) -> String {
        switch problem {
        case let .fileTooLarge(name, bytes, maxBytes):
            "\(name) is \(bytes >> 20) MB: an export is at most \(maxBytes >> 20) MB; nothing imported"
        case let .invalidFile(name, problem): "\(name): \(problem); nothing imported"
        case let .duplicateShareCode(code): "package \(code) is in more than one file; nothing imported"
        }
    }
}
