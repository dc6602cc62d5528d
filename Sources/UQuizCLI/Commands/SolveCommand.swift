import ArgumentParser
import Foundation
import LocalUseCases
import PosterGrid
import QuizCore
import QuizStore
import RemoteClient
import UQuizRules
import UQuizStorage

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

            --server URL plays a package published there (CODE is its share code there): the server keeps the \
            time, judges the guesses and keeps the score, and your first finished play of a package is the ranked one (unless you made it or saw its answers before, in a room or another play). \
            It needs `uquiz login` first; on a terminal it plays in the full-screen player with the server's stage \
            posters, else line by line (--plain, --json).
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
    @Flag(help: "Ring the terminal's bell for a right guess, a wrong one and time up (the full-screen player only; default: the sound setting).")
    var sound = false
    @Option(help: "Speed the clock up (0.01) or down (2); 1 is real time.") var timeScale: Double = 1
    @Option(help: "Your name in the statistics (default: the player setting, else your user name).") var player: String?
    @Flag(help: "Download no posters: play with the bundled and cached ones.") var offline = false
    @Option(help: ArgumentHelp("Play a package published on this UQuiz server, judged there.", valueName: "url"))
    var server: String?

    /// Lists the packages by their ids and asks which to play: an id, a share code or a seed id, as every command takes
    /// them; Enter takes the silent classics in the player's language.
    private func pickPackage(_ database: AppDatabase, defaultId: Int64) throws -> Int64 {
        for row in try database.packages(limit: 99).rows {
            let mark = row.id == defaultId ? "*" : " "
            print("\(mark)\(String(format: "%2d", row.id)). \(SafeText.clean(row.title)) (\(row.level.rawValue), \(Wording.count(row.quizCount, "quiz", "quizzes")), \(row.shareCode))")
        }
        while true {
            print("Package to play (id or code) [\(defaultId)]: ", terminator: "")
            fflush(nil)
            guard let answer = readLine()?.trimmingCharacters(in: .whitespaces) else { throw InputEnded() }
            if answer.isEmpty { return defaultId }
            if let id = try? database.packageID(for: answer) { return id }
            print("  ✗ no package \"\(SafeText.clean(answer))\": type an id or a share code from the list")
        }
    }

    func checkFlags() throws {
        if plain && json { throw ValidationError("--plain and --json exclude each other") }
        if sound && (plain || json) { throw ValidationError(Bell.onlyFullScreen) }
        if !(timeScale > 0 && timeScale <= 100) { throw ValidationError("--time-scale must be more than 0 and at most 100") }
        if seed != nil && !shuffle { throw ValidationError("--seed goes with --shuffle") }
        if let quiz, quiz < 1 { throw ValidationError("--quiz must be 1 or more") }
        if server != nil {
            if package == nil { throw ValidationError("--server needs the package's share code there") }
            let local = [("--quiz", quiz != nil), ("--shuffle", shuffle), ("--time-scale", timeScale != 1), ("--player", player != nil), ("--offline", offline)]
            if let flag = local.first(where: { $0.1 })?.0 {
                throw ValidationError("\(flag) is for local plays: the server keeps the time, the order and your player")
            }
        }
    }

    private var onTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// A terminal that cannot address the cursor (`TERM=dumb`) gets the line-by-line game instead of the full screen.
    private var dumbTerminal: Bool { ProcessInfo.processInfo.environment["TERM"] == "dumb" }

    /// The full-screen player runs on a terminal unless a line-based mode is asked for.
    private var fullScreen: Bool { onTerminal && !dumbTerminal && !plain && !json }

    /// `--plain`, asked for or chosen for a dumb terminal.
    private var linesPlain: Bool { plain || (onTerminal && dumbTerminal && !json) }

    func run() async throws {
        let context = try await AppContext.make(store)
        // Read even when nothing rings (a line mode), so that a wrong setting is said whatever the mode.
        let bell = Bell(enabled: try context.settings.sound(flag: sound) && fullScreen)
        if let server, let package {
            return try await context.playOnServer(try context.serverClient(url: server), json: json, fullScreen: fullScreen, bell: bell) {
                client throws(ServerClientError) in try client.startPlay(shareCode: package)
            }
        }
        if !fullScreen && !linesPlain && !json {
            // Nobody to play with: show what there is to play, and how a script plays.
            print(ListCommand.table(try context.openDatabase().packages(limit: 50).rows, terminal: context.terminal))
            print("No terminal to play on: run `uquiz solve` in a terminal, or play from a script with --plain or --json.")
            return
        }
        let database = try context.openDatabase()
        let defaultId = try database.packageID(for: "\(try context.settings.language(flag: nil).rawValue)-silent")
        let packageId = try package.map { try database.packageID(for: $0) }
            ?? (fullScreen ? try pickPackage(database, defaultId: defaultId) : defaultId)
        let play = PlayPackage(environment: context.environment, levels: try context.settings.levelRules())
        let plan: SolvePlan
        do {
            plan = try play.plan(
                packageId: packageId, quiz: quiz, shuffleSeed: shuffle ? seed ?? context.environment.randomSeed() : nil)
        } catch SolveError.noSuchQuiz(let number, let count) {
            throw UsageError("there is no quiz \(number): the package has \(count)")
        }
        let name = try context.settings.playerName(flag: player)
        let interruption = fullScreen ? Interruption { TerminalPlayer.restoreForGood() } : Interruption()
        let summary = try fullScreen
            ? await playOnScreen(plan, play: play, player: name, context: context, interruption: interruption, bell: bell)
            : await SessionThread.run { [self] in
                try play.run(
                    plan, player: name, timeScale: timeScale, input: LineSolveInput(interruption: interruption),
                    observer: linePrinter(plan))
            }
        printSummary(summary, plan: plan)
        if let failure = summary.recordingFailure { throw failure }
        // Stopped by Ctrl-C: the summary is out and the quizzes played are recorded; the shell still learns why.
        if interruption.isRequested { throw ExitCode(128 + SIGINT) }
    }

    private func linePrinter(_ plan: SolvePlan) -> any SolveObserver {
        let write = { (line: String) in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        return json
            ? JSONSolvePrinter(timeScale: timeScale, write: write)
            : PlainSolvePrinter(total: plan.rounds.count, timeScale: timeScale, write: write)
    }

    /// Downloads the posters the play needs, then plays in the alternate screen.
    private func playOnScreen(
        _ plan: SolvePlan, play: PlayPackage, player: String, context: AppContext, interruption: Interruption, bell: Bell
    ) async throws -> SolveSummary {
        var loader = PosterLoader(environment: context.environment)
        loader.willDownload = { count in Console.note("Downloading \(count) poster\(count == 1 ? "" : "s")…") }
        let posters = await loader.rasters(
            for: plan.rounds.map { (plan.quizIDs[$0.number - 1], $0.quiz) }, language: plan.package.language, offline: offline)
        return try await SessionThread.run { [timeScale] in
            let screen = TerminalPlayer(
                posters: Dictionary(uniqueKeysWithValues: zip(plan.rounds.map(\.number), posters)), quizCount: plan.rounds.count,
                levels: play.levels, timeScale: timeScale, packageTitle: plan.package.title,
                environment: ProcessInfo.processInfo.environment, describe: Wording.posterUnavailable,
                interruption: interruption)
            screen.bell = bell
            return try screen.run {
                try play.run(plan, player: player, timeScale: timeScale, input: screen, observer: screen)
            }
        }
    }

    private func printSummary(_ summary: SolveSummary, plan: SolvePlan) {
        let write = { (line: String) in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        if json {
            write(JSONSolvePrinter.line([
                "event": "summary", "solved": summary.solved, "total": summary.results.count, "score": summary.score,
                "share": summary.shareLine, "complete": summary.complete,
            ]))
            return
        }
        for (round, result) in zip(plan.rounds, summary.results) where fullScreen {
            let detail = String(
                format: "%.1f s, area %d%@", result.seconds, result.stageReached, result.hintsUsed > 0 ? ", hint" : "")
            write("\(ShareLine.square(for: result)) \(round.number). \(SafeText.clean(round.quiz.title)): \(detail)\(result.solved ? ", +\(result.score)" : "")")
        }
        let stopped = summary.complete ? "" : " (stopped after \(summary.results.count) of \(plan.rounds.count))"
        write("\(summary.solved) of \(summary.results.count) solved, \(summary.score) points\(stopped)")
        write(summary.shareLine)
    }
}
