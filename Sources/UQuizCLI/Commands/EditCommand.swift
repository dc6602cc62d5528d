import ArgumentParser
import UQuizApp
import PosterGrid
import QuizCore
import QuizStore

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a package: its title, level or maker, or one quiz's areas, poster, place or presence.",
        discussion: """
            uquiz edit ID --title T | --level L | --maker M
            uquiz edit ID --quiz N --areas 12:30,40:12 | --poster PATH | --remove | --move-to M

            Quizzes are numbered as `uquiz show` numbers them. Every change is checked against the grid rules and the \
            level before anything is saved (lowering a level that would leave a quiz with too many areas is refused \
            with the quiz named); all changes of one call are saved together.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The package's id, share code or seed id.") var id: String
    @Option(help: "New title.") var title: String?
    @Option(help: "New level (beginner, intermediate, expert).") var level: Level?
    @Option(help: "New maker name.") var maker: String?
    @Option(help: "The quiz to change (1 is the first).") var quiz: Int?
    @Option(help: ArgumentHelp("New areas for the quiz: R:C,R:C,... stage 1 first.", valueName: "cells")) var areas: String?
    @Option(help: "Another poster for the quiz (see `uquiz posters`).") var poster: String?
    @Flag(help: "Remove the quiz.") var remove = false
    @Option(help: "Move the quiz to this place.") var moveTo: Int?

    func checkFlags() throws {
        let quizChanges = [areas != nil, poster != nil, remove, moveTo != nil].filter { $0 }.count
        if quizChanges > 0 && quiz == nil { throw ValidationError("--areas, --poster, --remove and --move-to need --quiz N") }
        if quiz != nil && quizChanges == 0 { throw ValidationError("--quiz N needs --areas, --poster, --remove or --move-to") }
        if remove && quizChanges > 1 { throw ValidationError("--remove goes alone") }
        if quizChanges == 0 && title == nil && level == nil && maker == nil {
            throw ValidationError("nothing to change: give --title, --level, --maker or --quiz N with a change")
        }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let library = PackageLibrary(environment: context.environment)
        let edits = try self.edits(original: try library.package(id))
        let edited: QuizPackage
        do {
            edited = try library.edit(id, edits, levels: try context.settings.levelRules())
        } catch let problem as SpecProblem {
            throw UsageError(problem.description)
        } catch let problem as PosterUnavailable {
            throw CommandFailure(message: "--poster: the poster cannot be shown: \(Wording.posterUnavailable(problem)); nothing changed")
        }
        print("Saved \(edits.count) change\(edits.count == 1 ? "" : "s") to \"\(SafeText.clean(edited.title))\" (\(edited.shareCode)).")
    }

    /// The changes the flags ask for; areas are read on the quiz's own grid.
    private func edits(original: QuizPackage) throws -> [PackageEdit] {
        var edits: [PackageEdit] = []
        if let title { edits.append(.title(title)) }
        if let maker { edits.append(.maker(maker)) }
        if let level { edits.append(.level(level)) }
        guard let quiz else { return edits }
        if let areas {
            let geometry = original.quizzes.indices.contains(quiz - 1) ? original.quizzes[quiz - 1].geometry : .standard
            do {
                edits.append(.areas(quiz: quiz, try areas.split(separator: ",").map {
                    try CellParser.parse(String($0), geometry: geometry)
                }))
            } catch let failure as CellParser.Failure {
                throw UsageError("--areas: \(failure.description)")
            }
        }
        if let poster { edits.append(.poster(quiz: quiz, path: poster)) }
        if remove { edits.append(.remove(quiz: quiz)) }
        if let moveTo { edits.append(.move(quiz: quiz, to: moveTo)) }
        return edits
    }
}
