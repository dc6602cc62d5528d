import ArgumentParser
import UQuizApp
import Foundation
import QuizCore
import QuizStore
import UQuizStorage

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "How solving has gone: plays, correct rate per package, streaks, the stage answers come at, hardest quizzes.",
        discussion: """
            --json prints {plays, attempts, correct, bestStreak, currentStreak, averageStage, packages: [{shareCode, \
            title, plays, attempts, correct, bestScore}], hardest: [{package, position, title, attempts, correct}]}.
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
        let terminal = context.terminal
        print(terminal.bold("Overall"))
        print("  \(stats.plays) plays, \(stats.correct) of \(stats.attempts) quizzes solved (\(Self.percent(stats.correct, stats.attempts)))")
        print("  best streak \(stats.bestStreak), current streak \(stats.currentStreak)")
        if let stage = stats.averageStage { print(String(format: "  answers come at area %.1f on average", stage)) }
        print("")
        print(terminal.bold("Correct answers by package"))
        let width = stats.packages.map { TextWidth.of(SafeText.clean($0.title)) }.max() ?? 0
        for line in stats.packages {
            let title = TextWidth.fit(SafeText.clean(line.title), to: min(width, 36))
            let best = line.bestScore.map { ", best \($0)" } ?? ""
            print("  \(title)  \(Self.bar(line.correct, of: line.attempts))  \(Self.percent(line.correct, line.attempts)) of \(line.attempts)\(best)")
        }
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

    /// `██████░░░░`: twenty cells, one per 5%.
    static func bar(_ part: Int, of whole: Int) -> String {
        let filled = whole == 0 ? 0 : Int((20 * Double(part) / Double(whole)).rounded())
        return String(repeating: "█", count: filled) + String(repeating: "░", count: 20 - filled)
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
    var packages: [PackageLineJSON]
    var hardest: [HardQuizJSON]

    init(_ stats: PlayStats) {
        plays = stats.plays
        attempts = stats.attempts
        correct = stats.correct
        bestStreak = stats.bestStreak
        currentStreak = stats.currentStreak
        averageStage = stats.averageStage
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
