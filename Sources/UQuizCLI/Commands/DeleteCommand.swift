import ArgumentParser
import LocalUseCases
import QuizCore
import QuizStore
import UQuizStorage

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete packages with their quizzes, areas and attempts.",
        discussion: """
            All named packages are deleted in one transaction, or none if any is unknown. Bundled packages can be \
            deleted too; `uquiz seed merge` brings them back.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Ids, share codes or seed ids of the packages.") var ids: [String]
    @Flag(name: [.short, .long], help: "Do not ask for confirmation.") var yes = false

    func checkFlags() throws {
        if ids.isEmpty { throw ValidationError("name at least one package to delete") }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let library = PackageLibrary(environment: context.environment)
        let packageIDs = try library.ids(of: ids)
        if !yes {
            let titles = try library.packages(ids: packageIDs).map(\.title)
            let list = titles.map { "\"\(SafeText.clean($0))\"" }.joined(separator: ", ")
            let count = packageIDs.count == 1 ? "1 package" : "\(packageIDs.count) packages"
            let attempts = packageIDs.count == 1 ? "its attempts" : "all their attempts"
            guard try Console.confirm("Delete \(list) and \(attempts)?", action: "deleting \(count)") else {
                print("Nothing deleted.")
                return
            }
        }
        let deleted = try library.delete(ids: packageIDs)
        print("Deleted \(deleted.count) package\(deleted.count == 1 ? "" : "s").")
    }
}
