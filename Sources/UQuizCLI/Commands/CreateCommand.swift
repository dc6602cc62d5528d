import ArgumentParser
import Foundation
import LocalUseCases
import PosterGrid
import QuizCore
import QuizStore
import UQuizRules
import UQuizStorage

struct CreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make a quiz package from flags or from a JSON spec.",
        discussion: """
            uquiz create                  (on a terminal: asks for everything, step by step; areas are placed on the \
            poster with the arrow keys and space, ? lists the keys; with TERM unset or dumb they are typed as R:C)
            uquiz create --title T --level L [--maker M] --quiz 'movie=27205 areas=12:30,40:12,60:25' [--quiz ...]
            uquiz create --from spec.json

            movie= is a TMDB id (facts from TMDB when online, from the local catalog offline) or a catalog key. \
            areas= lists centres as row:column (or cell indexes), stage 1 first; a quiz without areas gets them chosen \
            automatically with --auto-areas (spread over the poster, reproducible with --seed). poster= picks another \
            of the movie's posters (see `uquiz posters`). The spec format is documented by \
            Config/schemas/package-spec.schema.json. Nothing is saved unless the whole package is valid.
            """
    )

    @OptionGroup var store: StoreOptions
    @Option(help: "The package title (1 to 200 characters).") var title: String?
    @Option(help: "beginner (5 areas), intermediate (4) or expert (3), in any case.") var level: String?
    @Option(help: "Your name as the maker (default: the maker setting, else your user name).") var maker: String?
    @Option(help: "Language of the titles and posters (ko, en).") var language: QuizLanguage?
    @Option(help: ArgumentHelp("One quiz: 'movie=ID [areas=R:C,...] [poster=PATH]'; repeat for more.", valueName: "quiz"))
    var quiz: [String] = []
    @Option(help: ArgumentHelp("Read the package from a JSON spec file.", valueName: "file")) var from: String?
    @Flag(help: "Choose areas for quizzes that give none.") var autoAreas = false
    @Option(help: "Seed for automatic areas, for the same layout every time.") var seed: UInt64?
    @Flag(help: "Print the created package as JSON (the shape of `show --json`).") var json = false

    static let maxSpecBytes = 5 << 20

    func checkFlags() throws {
        if from != nil && (title != nil || level != nil || !quiz.isEmpty) {
            throw ValidationError("give --from FILE or --title/--level/--quiz, not both")
        }
        if from == nil && !isInteractive && (title == nil || level == nil || quiz.isEmpty) {
            throw ValidationError("--title, --level and at least one --quiz are needed (or --from FILE, or a terminal)")
        }
    }

    /// No package given on the command line, and a person at a terminal to ask.
    private var isInteractive: Bool {
        from == nil && title == nil && level == nil && quiz.isEmpty && isatty(STDIN_FILENO) == 1
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        if isInteractive {
            try await runInteractively(context)
            return
        }
        let geometry = try context.settings.gridGeometry()
        let levels = try context.settings.levelRules()
        let checked = try checkedSpec(geometry: geometry, levels: levels)
        let language = try checked.language ?? context.settings.language(flag: language)
        let create = CreatePackage(environment: context.environment, levels: levels, geometry: geometry)
        let quizzes: [Quiz]
        do {
            quizzes = try await create.quizzes(
                of: checked, language: language, autoAreas: autoAreas, seed: seed ?? context.environment.randomSeed())
        } catch CreatePackageError.noPoster(let number, let movie) {
            throw CommandFailure(message: "quiz \(number): \(movie) has no poster; pick one with poster=")
        } catch CreatePackageError.noAreas(let number, let movie) {
            throw UsageError("quiz \(number) (\(movie)) has no areas: give areas= or --auto-areas")
        } catch CreatePackageError.noStoredPoster(let number, let name) {
            throw CommandFailure(message: "quiz \(number): no poster image \(SafeText.clean(name)) in this database; name a TMDB path (/...jpg)")
        } catch let problem as MovieLookupProblem {
            throw CommandFailure(message: Wording.movieLookup(problem))
        }
        let saved = try create.save(.init(
            title: checked.title, maker: try checked.maker ?? context.settings.makerName(), level: checked.level,
            language: language, quizzes: quizzes))
        if json {
            print(try JSONOutput.string(PackageJSON(try context.openDatabase().package(id: saved.id))))
        } else {
            Self.printCreated(saved)
        }
    }

    /// The spec the flags or `--from` give, checked: a flag's problem is usage, a file's is input that failed.
    private func checkedSpec(geometry: GridGeometry, levels: LevelRules) throws -> PackageDocument.Checked {
        let spec = try readSpec(geometry: geometry)
        do {
            return try spec.check(geometry: geometry, levels: levels)
        } catch {
            if from == nil { throw UsageError(error.description) }
            throw CommandFailure(message: "\(from!): \(error.description)")
        }
    }

    static func printCreated(_ saved: (id: Int64, package: QuizPackage)) {
        let count = saved.package.quizzes.count
        print("Created package \(saved.id) (\(saved.package.shareCode)) \"\(SafeText.clean(saved.package.title))\" with \(count) quiz\(count == 1 ? "" : "zes").")
    }

    private func runInteractively(_ context: AppContext) async throws {
        let geometry = try context.settings.gridGeometry()
        let create = CreatePackage(environment: context.environment, levels: try context.settings.levelRules(), geometry: geometry)
        let levels = create.levels
        let environment = ProcessInfo.processInfo.environment
        let screen = CreatorScreen.available(environment: environment)
            ? CreatorScreen(
                loader: PosterLoader(environment: context.environment), geometry: geometry,
                stageDuration: { levels[$0].stageDuration }, colourMode: .forTerminal(environment: environment))
            : nil
        let creator = InteractiveCreator(
            io: .terminal, context: context, create: create, language: try context.settings.language(flag: language),
            seed: seed ?? context.environment.randomSeed(), screen: screen)
        guard let draft = try await creator.run() else {
            print("Nothing saved.")
            return
        }
        Self.printCreated(try create.save(draft))
    }

    private func readSpec(geometry: GridGeometry) throws -> PackageSpec {
        guard let from else {
            do {
                return PackageSpec(
                    title: title!, maker: maker, level: level!.lowercased(), language: language?.rawValue,
                    quizzes: try quiz.map { try PackageSpec.parseQuizLine($0, geometry: geometry, label: "--quiz") })
            } catch let problem as SpecProblem {
                throw UsageError(problem.description)
            }
        }
        let data = try InputFile.read(from, limit: Self.maxSpecBytes, what: "a package spec")
        do {
            var spec = try PackageSpec.decode(data)
            if let maker { spec.package.maker = maker }
            return spec
        } catch {
            throw CommandFailure(message: "\(from): \(error.description)")
        }
    }
}
