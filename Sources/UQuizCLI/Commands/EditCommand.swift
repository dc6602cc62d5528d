import ArgumentParser
import Foundation
import LocalUseCases
import PosterGrid
import QuizCore
import QuizStore
import UQuizRules
import UQuizStorage

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a package: its title, level or maker, or one quiz's areas, poster, place or presence.",
        discussion: """
            uquiz edit ID --title T | --level L | --maker M
            uquiz edit ID --quiz N --areas 12:30,40:12 | --poster PATH | --remove | --move-to M
            uquiz edit ID --quiz N        (on a terminal: move, add and remove the quiz's areas on its poster)

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
        if quiz != nil && quizChanges == 0 && !picksOnScreen { throw ValidationError("--quiz N needs --areas, --poster, --remove or --move-to") }
        if remove && quizChanges > 1 { throw ValidationError("--remove goes alone") }
        if quizChanges == 0 && title == nil && level == nil && maker == nil && !picksOnScreen {
            throw ValidationError("nothing to change: give --title, --level, --maker or --quiz N with a change")
        }
    }

    /// `--quiz N` and nothing else, on a terminal that can draw the poster: the areas are placed on screen.
    private var picksOnScreen: Bool {
        quiz != nil && areas == nil && poster == nil && !remove && moveTo == nil && title == nil && level == nil
            && maker == nil && CreatorScreen.available(environment: ProcessInfo.processInfo.environment)
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let library = PackageLibrary(environment: context.environment)
        if picksOnScreen {
            try await pickAreasOnScreen(quiz: quiz!, context: context, library: library)
            return
        }
        let edits = try self.edits(original: try library.package(id))
        let edited: QuizPackage
        do {
            edited = try await library.edit(id, edits, levels: try context.settings.levelRules())
        } catch let problem as EditProblem {
            throw UsageError("\(Self.flag(problem.part)): \(problem.problem)")
        } catch let problem as PosterUnavailable {
            throw CommandFailure(message: "--poster: the poster cannot be shown: \(Wording.posterUnavailable(problem)); nothing changed")
        }
        print("Saved \(edits.count) change\(edits.count == 1 ? "" : "s") to \"\(SafeText.clean(edited.title))\" (\(edited.shareCode)).")
    }

    /// The area picker on the quiz's poster, starting from its areas; saved when the maker is done.
    private func pickAreasOnScreen(quiz number: Int, context: AppContext, library: PackageLibrary) async throws {
        let package = try library.package(id)
        guard package.quizzes.indices.contains(number - 1) else {
            throw UsageError("there is no quiz \(number): the package has \(package.quizzes.count)")
        }
        let quiz = package.quizzes[number - 1]
        let levels = try context.settings.levelRules()
        let environment = ProcessInfo.processInfo.environment
        let screen = CreatorScreen(
            loader: PosterLoader(environment: context.environment), geometry: quiz.geometry,
            stageDuration: { levels[$0].stageDuration }, colourMode: .forTerminal(environment: environment))
        let limit = levels[package.level].areaCount
        let create = CreatePackage(environment: context.environment, levels: levels, geometry: quiz.geometry)
        let seed = context.environment.randomSeed()
        let detail = await create.posterDetail(posterPath: quiz.posterPath, source: quiz.posterSource)
        guard let areas = await screen.pickAreas(
            title: quiz.title, level: package.level, limit: limit, poster: (quiz.posterPath, quiz.posterSource),
            starting: quiz.areas, automatic: { existing in
                create.automaticAreas(count: limit, existing: existing, seed: seed, detail: detail)
            })
        else {
            print("Nothing changed.")
            return
        }
        let edited = try await library.edit(id, [.areas(quiz: number, areas)], levels: levels)
        print("Saved the areas of quiz \(number) (\(Wording.areas(areas))) to \"\(SafeText.clean(edited.title))\" (\(edited.shareCode)).")
    }

    /// The flag that gives each part of an edit.
    static func flag(_ part: EditProblem.Part) -> String {
        switch part {
        case .title: "--title"
        case .maker: "--maker"
        case .level: "--level"
        case .quiz: "--quiz"
        case .areas: "--areas"
        case .poster: "--poster"
        case .remove: "--remove"
        case .moveTo: "--move-to"
        }
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
