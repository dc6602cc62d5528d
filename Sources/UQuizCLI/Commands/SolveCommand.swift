import ArgumentParser
import Foundation
import PosterGrid
import QuizCore
import QuizStore

struct SolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solve",
        abstract: "Solve a package: areas of each poster are revealed stage by stage; type the title before time runs out.",
        discussion: """
            Type a guess and Enter; `?` shows a hint (초성 for Korean titles, first letters otherwise) and halves the \
            quiz's points; `/skip` gives up on a quiz. Each quiz lasts 20 s; a new area appears every 2 s (3 s at \
            expert). Every attempt is recorded for `uquiz stats`.

            --plain prints one line per event with its time; --json prints one JSON object per event and line \
            (quiz_start, stage with scheduled_ms and at_ms, guess with verdict and reason, hint, time_up, quiz_end, \
            summary; see README). --time-scale 0.01 runs the same schedule a hundred times faster. The full-screen \
            poster player runs when standard input and output are a terminal and neither --plain nor --json is given; \
            it downloads the posters that are not cached first (`uquiz fetch-posters` does it ahead of time; --offline \
            never downloads), and a \
            poster that cannot be had is said on its status line while the quiz can still be answered or skipped.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Id, share code or seed id of the package (default: the silent classics in your language).")
    var package: String?
    @Option(help: "Play only this quiz (1 is the first).") var quiz: Int?
    @Flag(help: "Play the quizzes in a random order.") var shuffle = false
    @Option(help: "Seed for --shuffle, for the same order every time.") var seed: UInt64?
    @Flag(help: "One line per event, for scripts and screen readers.") var plain = false
    @Flag(help: "One JSON object per event and line.") var json = false
    @Option(help: "Speed the clock up (0.01) or down (2); 1 is real time.") var timeScale: Double = 1
    @Option(help: "Your name in the statistics (default: the player setting, else your user name).") var player: String?
    @Flag(help: "Download no posters: play with the bundled and cached ones.") var offline = false

    /// Lists the packages and asks which to play; Enter takes the silent classics in the player's language.
    private func pickPackage(_ database: AppDatabase, defaultId: Int64) throws -> Int64 {
        let rows = try database.packages(limit: 99).rows
        for (index, row) in rows.enumerated() {
            let mark = row.id == defaultId ? "*" : " "
            print("\(mark)\(String(format: "%2d", index + 1)). \(SafeText.clean(row.title)) (\(row.level.rawValue), \(row.quizCount) quizzes)")
        }
        let defaultNumber = (rows.firstIndex { $0.id == defaultId } ?? 0) + 1
        while true {
            print("Package to play [\(defaultNumber)]: ", terminator: "")
            fflush(nil)
            guard let answer = readLine()?.trimmingCharacters(in: .whitespaces) else { throw InputEnded() }
            if answer.isEmpty { return defaultId }
            if let number = Int(answer), rows.indices.contains(number - 1) { return rows[number - 1].id }
            print("  ✗ choose 1 to \(rows.count)")
        }
    }

    func validate() throws {
        if plain && json { throw ValidationError("--plain and --json exclude each other") }
        if !(timeScale > 0 && timeScale <= 100) { throw ValidationError("--time-scale must be more than 0 and at most 100") }
        if seed != nil && !shuffle { throw ValidationError("--seed goes with --shuffle") }
        if let quiz, quiz < 1 { throw ValidationError("--quiz must be 1 or more") }
    }

    func run() async throws {
        let context = try await AppContext.make(store)
        let onTerminal = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        if !onTerminal && !plain && !json {
            // Nobody to play with: show what there is to play, and how a script plays.
            let database = try context.openDatabase()
            print(ListCommand.table(try database.packages(limit: 50).rows, terminal: context.terminal))
            print("No terminal to play on: run `uquiz solve` in a terminal, or play from a script with --plain or --json.")
            return
        }
        let levels = try context.settings.levelRules()
        let language = try context.settings.language(flag: nil)
        let database = try context.openDatabase()
        let defaultId = try database.packageID(for: "\(language.rawValue)-silent")
        let packageId = try package.map { try database.packageID(for: $0) }
            ?? (onTerminal && !plain && !json ? try pickPackage(database, defaultId: defaultId) : defaultId)
        let stored = try database.package(id: packageId)
        let ids = try database.quizIDs(packageId: packageId)
        var order = Array(stored.quizzes.indices)
        if let quiz {
            guard stored.quizzes.indices.contains(quiz - 1) else {
                throw UsageError("there is no quiz \(quiz): the package has \(stored.quizzes.count)")
            }
            order = [quiz - 1]
        }
        if shuffle {
            var generator = AreaLayout.SeededGenerator(seed: seed ?? .random(in: 0...UInt64.max))
            order.shuffle(using: &generator)
        }
        let catalog = try database.allCatalogMovies()
        let rounds = order.enumerated().map { number, index in
            let quiz = stored.quizzes[index]
            // Accepted: the quiz's titles, and every title and alias the catalog knows for its movie; refused: the
            // exact title of any other movie of the catalog.
            let movie = catalog.first { $0.catalogKey == quiz.catalogKey }
            let judge = AnswerJudge(
                acceptedTitles: [quiz.title, quiz.originalTitle] + (movie.map { Array($0.titles.values) + $0.aliases } ?? []),
                otherMovieTitles: catalog.filter { $0.catalogKey != quiz.catalogKey }.flatMap { Array($0.titles.values) + [$0.originalTitle] })
            return SolveLoop.Round(quiz: quiz, judge: judge, number: number + 1)
        }
        let name = try player ?? context.settings.playerName()
        let playId = try database.startPlay(packageId: packageId, player: name, at: Date())
        var recordingFailure: (any Error)?
        let record: (SolveLoop.Round, QuizResult) -> Void = { round, result in
            do {
                try database.recordAttempt(
                    playId: playId, quizId: ids[order[round.number - 1]], player: name, startedAt: Date(), result: result)
            } catch {
                recordingFailure = recordingFailure ?? error
            }
        }
        let out = FileHandle.standardOutput
        func write(_ line: String) { out.write(Data((line + "\n").utf8)) }

        let results: [QuizResult]
        if onTerminal && !plain && !json {
            let posters = PosterDetail.rasters(
                for: order.map { (ids[$0], stored.quizzes[$0]) }, language: stored.language, offline: offline, context: context,
                database: database)
            let player = TerminalPlayer(
                rounds: zip(rounds, posters).map { TerminalPlayer.Round(loopRound: $0, poster: $1) },
                levels: levels, level: stored.level, timeScale: timeScale, packageTitle: stored.title,
                environment: ProcessInfo.processInfo.environment)
            results = player.run(finished: record)
        } else {
            let plainPrinter = PlainSolvePrinter(total: rounds.count, timeScale: timeScale)
            let jsonPrinter = JSONSolvePrinter(timeScale: timeScale)
            results = SolveLoop(rounds: rounds, levels: levels, level: stored.level, timeScale: timeScale).run(
                source: LiveSolveSource(),
                emit: { step in
                    if json {
                        write(JSONSolvePrinter.line(jsonPrinter.object(for: step)))
                    } else if let line = plainPrinter.line(for: step) {
                        write(line)
                    }
                },
                finished: record)
        }
        let score = results.reduce(0) { $0 + $1.score }
        try database.finishPlay(playId: playId, score: score, at: Date())
        let share = SolveLoop.shareText(code: stored.shareCode, results: results)
        let solved = results.filter(\.solved).count
        if json {
            write(JSONSolvePrinter.line([
                "event": "summary", "solved": solved, "total": results.count, "score": score, "share": share,
            ]))
        } else {
            for (round, result) in zip(rounds, results) where onTerminal && !plain {
                let mark = result.solved ? (result.hintsUsed > 0 ? "🟨" : "🟩") : "🟥"
                let detail = String(
                    format: "%.1f s, area %d%@", result.seconds, result.stageReached, result.hintsUsed > 0 ? ", hint" : "")
                write("\(mark) \(round.number). \(SafeText.clean(round.quiz.title)): \(detail)\(result.solved ? ", +\(result.score)" : "")")
            }
            write("\(solved) of \(results.count) solved, \(score) points")
            write(share)
        }
        if let recordingFailure { throw recordingFailure }
    }
}
