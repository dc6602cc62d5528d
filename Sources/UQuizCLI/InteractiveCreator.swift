import Foundation
import LocalUseCases
import MovieSearch
import PosterGrid
import QuizCore
import QuizStore
import UQuizRules
import UQuizStorage

/// Where the interactive `create` reads answers and writes prompts: the terminal, or a test's pipes.
struct LineIO: Sendable {
    var read: @Sendable () -> String?
    var write: @Sendable (String) -> Void

    static let terminal = LineIO(
        read: { readLine() },
        write: { text in FileHandle.standardOutput.write(Data(text.utf8)) })
}

/// Input ended (Ctrl-D) before the package was saved.
struct InputEnded: Error, LocalizedError {
    var errorDescription: String? { "input ended; nothing was saved" }
}

/// `uquiz create` on a terminal: asks for the package, then quiz by quiz for a movie, a poster and the areas, and saves
/// everything in one transaction at the end. Line by line, so the terminal is never left in a special mode: Ctrl-C at
/// any point ends the process with nothing saved.
struct InteractiveCreator {
    let io: LineIO
    let context: AppContext
    let create: CreatePackage
    let language: QuizLanguage
    let seed: UInt64
    /// The full-screen poster chooser and area picker, when the terminal can draw them.
    var screen: CreatorScreen? = nil

    private var levels: LevelRules { create.levels }
    private var geometry: GridGeometry { create.geometry }

    private func say(_ text: String) { io.write(text + "\n") }

    private func ask(_ prompt: String) throws -> String {
        io.write(prompt)
        guard let line = io.read() else { throw InputEnded() }
        return line.trimmingCharacters(in: .whitespaces)
    }

    func run() async throws -> CreatePackage.Draft? {
        say("New quiz package (Ctrl-C at any time quits without saving).")
        let title = try askTitle()
        let maker = try askMaker()
        let level = try askLevel()
        let quizzes = try await askQuizzes(level: level)
        let draft = CreatePackage.Draft(title: title, maker: maker, level: level, language: language, quizzes: quizzes)
        list(quizzes)
        let save = try ask("Save \"\(SafeText.clean(title))\" with \(quizzes.count) quiz\(quizzes.count == 1 ? "" : "zes")? [Y/n]: ")
        return ["", "y", "yes"].contains(save.lowercased()) ? draft : nil
    }

    private func askTitle() throws -> String {
        while true {
            let title = try ask("Package title: ")
            do {
                try PackageDocument.checkText(title, path: "title", name: "title")
                return title
            } catch {
                say("  ✗ \(error.problem)")
            }
        }
    }

    /// The maker's name, remembered in the user's config file when it differs from the default.
    private func askMaker() throws -> String {
        let defaultMaker = try context.settings.makerName()
        let maker = try ask("Your name as maker [\(defaultMaker)]: ")
        guard !maker.isEmpty else { return defaultMaker }
        if maker != defaultMaker { try UserConfigFile(path: context.settings.userFileLayer).set(["maker": maker]) }
        return maker
    }

    private func askLevel() throws -> Level {
        while true {
            let answer = try ask("Level: beginner (5 areas), intermediate (4), expert (3) [beginner]: ").lowercased()
            if answer.isEmpty { return .beginner }
            if let chosen = Level(rawValue: answer) ?? Level.allCases.first(where: { $0.rawValue.hasPrefix(answer) }) {
                return chosen
            }
            say("  ✗ \"\(answer)\" is not a level")
        }
    }

    /// Quiz after quiz until `done`, with `preview`, `areas N` and `remove N` on the way.
    private func askQuizzes(level: Level) async throws -> [Quiz] {
        var quizzes: [Quiz] = []
        while true {
            let answer = try ask(
                "\nQuiz \(quizzes.count + 1): type words of a movie title, or preview, areas N (go back to quiz N), remove N, done: ")
            switch answer.lowercased() {
            case "":
                continue
            case "done":
                guard !quizzes.isEmpty else {
                    say("  ✗ add at least one quiz first")
                    continue
                }
            case "preview":
                await preview(quizzes, level: level)
                continue
            case let command where command.hasPrefix("areas "):
                guard let number = quizNumber(command, after: "areas ", count: quizzes.count) else { continue }
                try await replaceAreas(of: &quizzes[number - 1], number: number, level: level)
                continue
            case let command where command.hasPrefix("remove "):
                guard let number = quizNumber(command, after: "remove ", count: quizzes.count) else { continue }
                say("  removed \(SafeText.clean(quizzes.remove(at: number - 1).title))")
                continue
            default:
                guard quizzes.count < PackageDocument.maxQuizzes else {
                    say("  ✗ a package holds at most \(PackageDocument.maxQuizzes) quizzes")
                    continue
                }
                if let quiz = try await makeQuiz(searching: answer, level: level, existing: quizzes) { quizzes.append(quiz) }
                continue
            }
            break
        }
        return quizzes
    }

    /// `areas N`: the quiz's areas placed again, starting from the ones it has; kept when the maker leaves.
    private func replaceAreas(of quiz: inout Quiz, number: Int, level: Level) async throws {
        say("  quiz \(number): \(SafeText.clean(quiz.title))")
        if let areas = try await pickAreas(
            for: quiz.title, level: level, seed: seed &+ UInt64(number), poster: (quiz.posterPath, quiz.posterSource),
            starting: quiz.areas)
        {
            quiz.areas = areas
        } else {
            say("  areas of quiz \(number) unchanged")
        }
    }

    /// Search, pick a movie and a poster, place the areas; `nil` when the maker gives up on this quiz.
    private func makeQuiz(searching query: String, level: Level, existing: [Quiz]) async throws -> Quiz? {
        let movies = MovieSearching(environment: context.environment)
        let found = try await movies.find(query, language: language, offline: false)
        if let reason = found.offlineReason {
            say("  (offline: the local catalog answers — \(SafeText.clean(Wording.offlineReason(reason))))")
        }
        let results = Array(found.results.prefix(10))
        guard !results.isEmpty else {
            say("  no movies match \"\(SafeText.clean(query))\"")
            return nil
        }
        guard let number = try pickMovie(from: results) else { return nil }
        let reference = results[number - 1].reference
        if existing.contains(where: { $0.catalogKey == reference.catalogKey }) {
            say("  ✗ that movie is already in this package")
            return nil
        }
        let resolved: ResolvedMovie
        do {
            resolved = try await movies.resolve(reference)
        } catch let problem as MovieLookupProblem {
            throw CommandFailure(message: Wording.movieLookup(problem))
        }
        let movie = resolved.movie
        guard let (posterPath, posterSource) = try await choosePoster(of: movie) else {
            say("  ✗ \(SafeText.clean(movie.title(in: language))) has no poster to quiz on")
            return nil
        }
        guard let areas = try await pickAreas(
            for: movie.title(in: language), level: level, seed: seed &+ UInt64(existing.count), poster: (posterPath, posterSource))
        else {
            say("  no areas placed: \(SafeText.clean(movie.title(in: language))) was not added")
            return nil
        }
        say("  added \(SafeText.clean(movie.title(in: language)))")
        return create.quiz(of: resolved, language: language, poster: (posterPath, posterSource), areas: areas)
    }

    /// Lists the movies found and asks for one by number until the answer is one of them; `nil` for Enter.
    private func pickMovie(from results: [FoundMovies.Movie]) throws -> Int? {
        for (index, movie) in results.enumerated() {
            let year = movie.releaseDate.map { " (\($0.prefix(4)))" } ?? ""
            let original = movie.originalTitle != movie.title ? " — \(movie.originalTitle)" : ""
            say("  \(index + 1)) \(SafeText.clean(movie.title))\(year)\(SafeText.clean(original))")
        }
        while true {
            let pick = try ask("Pick 1-\(results.count) (Enter to search again): ")
            if pick.isEmpty { return nil }
            if let chosen = Int(pick), results.indices.contains(chosen - 1) { return chosen }
            say("  ✗ \"\(SafeText.clean(pick))\" is not one of 1-\(results.count)")
        }
    }

    /// The movie's primary poster, another of its TMDB posters when it has several (the original app's "use another
    /// poster"), or its bundled poster; `nil` when it has none.
    private func choosePoster(of movie: CatalogMovie) async throws -> (String, PosterSource)? {
        var posterPath = movie.posterPaths[language] ?? movie.posterPaths[.en]
        if let client = try context.environment.movieClient(), let tmdbId = movie.tmdbId,
            let posters = try? await client.posters(movieID: tmdbId, language: language), posters.count > 1
        {
            if let screen {
                if let index = await screen.choosePoster(of: movie.title(in: language), posters: Array(posters.prefix(9))) {
                    posterPath = posters[index].filePath
                }
                if let posterPath { say("  poster \(SafeText.clean(posterPath))") }
            } else {
                for (index, poster) in posters.prefix(9).enumerated() {
                    let current = poster.filePath == posterPath ? "  (primary)" : ""
                    say("  \(index + 1)) \(poster.language ?? "no text")  \(String(format: "%.1f", poster.voteAverage)) (\(poster.voteCount) votes)  \(SafeText.clean(poster.filePath))\(current)")
                }
                let choice = try ask("Poster 1-\(min(posters.count, 9)) [primary]: ")
                if let number = Int(choice), posters.prefix(9).indices.contains(number - 1) { posterPath = posters[number - 1].filePath }
            }
        }
        if let posterPath { return (posterPath, .tmdb) }
        return movie.bundledPoster.map { ($0, .bundled) }
    }

    /// The areas of a quiz on `title`'s poster: placed on the poster itself on a terminal that can draw it, else typed
    /// cell by cell under a labelled grid. `nil` when the maker leaves without any.
    private func pickAreas(
        for title: String, level: Level, seed: UInt64, poster: (path: String, source: PosterSource), starting: [Cell] = []
    ) async throws -> [Cell]? {
        let limit = levels[level].areaCount
        let detail = await create.posterDetail(posterPath: poster.path, source: poster.source)
        guard let screen else { return try typeAreas(limit: limit, seed: seed, detail: detail, starting: starting) }
        let areas = await screen.pickAreas(title: title, level: level, limit: limit, poster: poster, starting: starting) { existing in
            create.automaticAreas(count: limit, existing: existing, seed: seed, detail: detail)
        }
        if let areas { say("  areas \(Wording.areas(areas))") }
        return areas
    }

    /// The typed area picker: the labelled grid with each placed area drawn as its stage number.
    private func typeAreas(
        limit: Int, seed: UInt64, detail: ((Cell) -> Double)?, starting: [Cell]
    ) throws -> [Cell]? {
        var selection = AreaSelection(geometry: geometry, limit: limit)
        for cell in starting { try? selection.add(cell) }
        while true {
            for line in AreaMap.labelledLines(geometry: geometry, areas: selection.centres) { say(line) }
            let state = selection.isFull ? "all \(limit) areas placed" : "area \(selection.centres.count + 1) of up to \(limit)"
            let answer = try ask("\(state.prefix(1).uppercased() + state.dropFirst()) — r12 c30, 12:30 or a cell index; undo, clear, auto, done: ")
            switch answer.lowercased() {
            case "undo":
                selection.removeLast()
            case "clear":
                selection.removeAll()
            case "auto":
                for cell in create.automaticAreas(count: limit, existing: selection.centres, seed: seed, detail: detail) {
                    try? selection.add(cell)
                }
            case "done":
                do {
                    try selection.validateComplete()
                    return selection.centres
                } catch {
                    say("  ✗ \(error.description)")
                }
            case "":
                continue
            default:
                do {
                    let cell = try CellParser.parse(answer, geometry: geometry)
                    try selection.add(cell)
                } catch let error as CellParser.Failure {
                    say("  ✗ \(error.description)")
                } catch let error as AreaRuleViolation {
                    say("  ✗ \(error.description)")
                }
            }
        }
    }

    /// The quiz number after a command word (`areas 2`), or `nil` after saying there is no such quiz.
    private func quizNumber(_ command: String, after word: String, count: Int) -> Int? {
        let text = command.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
        guard let number = Int(text), number >= 1, number <= count else {
            say("  ✗ no quiz \(text)")
            return nil
        }
        return number
    }

    /// The quizzes so far with their areas, and on a terminal that can draw them, each quiz's reveal played as a
    /// solver sees it.
    private func preview(_ quizzes: [Quiz], level: Level) async {
        list(quizzes)
        if !quizzes.isEmpty { await screen?.playPreviews(of: quizzes, level: level) }
    }

    private func list(_ quizzes: [Quiz]) {
        guard !quizzes.isEmpty else {
            say("  (no quizzes yet)")
            return
        }
        for (index, quiz) in quizzes.enumerated() {
            say("  \(index + 1). \(SafeText.clean(quiz.title)) — areas \(Wording.areas(quiz.areas))")
        }
    }
}
