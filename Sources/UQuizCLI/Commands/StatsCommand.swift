import ArgumentParser
import Foundation
import LocalUseCases
import QuizCore
import QuizStore
import UQuizStorage

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "How solving has gone: plays, correct rate per package, streaks, the stage answers come at, hardest quizzes.",
        discussion: """
            The charts fit the terminal's width (COLUMNS when the output is not a terminal) and are drawn in Unicode \
            blocks, or in # with TERM=dumb or NO_COLOR set.

            --json prints {plays, attempts, correct, bestStreak, currentStreak, averageStage, solvedAtStage: \
            [{stage, solved}], packages: [{shareCode, title, plays, attempts, correct, bestScore}], hardest: [{package, \
            position, title, attempts, correct}]}.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Only this package (id, share code or seed id).") var package: String?
    @Option(help: "Only this player's attempts.") var player: String?
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() async throws {
        let context = try await AppContext.make(store)
        let stats = try PackageLibrary(environment: context.environment).stats(package: package, player: player)
        if json {
            print(try JSONOutput.string(StatsJSON(stats)))
            return
        }
        guard stats.attempts > 0 else {
            print(
                "No attempts in this computer's store yet: play with `uquiz solve`. Plays judged by a server are kept "
                    + "there: `uquiz leaderboard CODE` and `uquiz daily` show yours.")
            return
        }
        Self.printSummary(stats, terminal: context.terminal)
    }

    /// The overall figures, the stages answers come at and the packages' charts, and the hardest quizzes.
    static func printSummary(_ stats: PlayStats, terminal: Terminal) {
        let width = BarChart.terminalWidth()
        let glyphs = BarChart.Glyphs.current()
        print(terminal.bold("Overall"))
        print("  \(Wording.count(stats.plays, "play", "plays")), \(stats.correct) of \(Wording.count(stats.attempts, "quiz", "quizzes")) solved (\(Self.percent(stats.correct, stats.attempts)))")
        print("  best streak \(stats.bestStreak), current streak \(stats.currentStreak)")
        if let stage = stats.averageStage { print(String(format: "  answers come at stage %.1f on average", stage)) }
        let stages = Distribution.stages(stats.solvedAtStage)
        if !stages.isEmpty {
            print("")
            print(terminal.bold("The stage answers come at"))
            let chart = BarChart(bars: stages.map { BarChart.Bar(label: "stage \($0.stage)", value: $0.solved) })
            chart.lines(width: width, glyphs: glyphs).forEach { print($0) }
        }
        print("")
        print(terminal.bold("Correct answers by package"))
        let chart = BarChart(
            bars: stats.packages.map { line in
                let best = line.bestScore.map { ", best \($0)" } ?? ""
                return BarChart.Bar(
                    label: line.title, value: line.attempts == 0 ? 0 : 100 * line.correct / line.attempts,
                    figure: "\(Self.percent(line.correct, line.attempts)) of \(line.attempts)\(best)")
            },
            fullScale: 100)
        chart.lines(width: width, glyphs: glyphs).forEach { print($0) }
        if !stats.hardest.isEmpty {
            print("")
            print(terminal.bold("Hardest quizzes"))
            for quiz in stats.hardest {
                print("  \(SafeText.clean(quiz.package)) #\(quiz.position) \(SafeText.clean(quiz.title)): \(quiz.correct) of \(quiz.attempts) solved")
            }
        }
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "-" : "\(Int((100 * Double(part) / Double(whole)).rounded()))%"
    }
}

/// The documented JSON shape of `stats --json`; absent figures are `null`, never left out.
struct StatsJSON: Encodable {
    struct PackageLineJSON: Encodable {
        var shareCode: String
        var title: String
        var plays: Int
        var attempts: Int
        var correct: Int
        @NullEncodable var bestScore: Int?
    }

    struct HardQuizJSON: Encodable {
        var package: String
        var position: Int
        var title: String
        var attempts: Int
        var correct: Int
    }

    var plays: Int
    var attempts: Int
    var correct: Int
    var bestStreak: Int
    var currentStreak: Int
    @NullEncodable var averageStage: Double?
    var solvedAtStage: [StageCount]
    var packages: [PackageLineJSON]
    var hardest: [HardQuizJSON]

    init(_ stats: PlayStats) {
        plays = stats.plays
        attempts = stats.attempts
        correct = stats.correct
        bestStreak = stats.bestStreak
        currentStreak = stats.currentStreak
        averageStage = stats.averageStage
        solvedAtStage = Distribution.stages(stats.solvedAtStage)
        packages = stats.packages.map {
            PackageLineJSON(
                shareCode: $0.shareCode, title: $0.title, plays: $0.plays, attempts: $0.attempts, correct: $0.correct,
                bestScore: $0.bestScore)
        }
        hardest = stats.hardest.map {
            HardQuizJSON(package: $0.package, position: $0.position, title: $0.title, attempts: $0.attempts, correct: $0.correct)
        }
    }
}
