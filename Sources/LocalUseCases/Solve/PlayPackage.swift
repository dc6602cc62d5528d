import Foundation
import PosterGrid
import QuizCore
import UQuizRules
import UQuizStorage

/// A play about to begin: the package, the quizzes in the order they will be played, and what to record them against.
public struct SolvePlan: Sendable {
    public var packageId: Int64
    public var package: QuizPackage
    public var rounds: [SolveRound]
    /// The stored id of each round's quiz, in play order.
    public var quizIDs: [Int64]
}

/// How a play went, for the summary and the share line.
public struct SolveSummary: Sendable {
    public var results: [QuizResult]
    public var score: Int { results.reduce(0) { $0 + $1.score } }
    public var solved: Int { results.filter(\.solved).count }
    public var shareLine: String
    /// Whether every quiz of the plan was played (`false` when the player stopped early).
    public var complete: Bool
    /// Recording the play failed (nothing of it was written): the front end shows the summary, then the error.
    public var recordingFailure: (any Error)?
}

/// The solve use case: picks the quizzes of a package, judges guesses against the catalog, runs the one game loop with
/// a front end's input and observer, and records each quiz's attempt as it ends.
public struct PlayPackage: Sendable {
    public let environment: AppEnvironment
    public let levels: LevelRules

    public init(environment: AppEnvironment, levels: LevelRules) {
        self.environment = environment
        self.levels = levels
    }

    /// The quizzes of `packageId` to play: one (`quiz`, 1-based), or all, shuffled by `shuffleSeed` when given.
    public func plan(packageId: Int64, quiz: Int? = nil, shuffleSeed: UInt64? = nil) throws -> SolvePlan {
        let store = try environment.store()
        let package = try store.package(id: packageId)
        let ids = try store.quizIDs(packageId: packageId)
        var order = Array(package.quizzes.indices)
        if let quiz {
            guard package.quizzes.indices.contains(quiz - 1) else {
                throw SolveError.noSuchQuiz(quiz, quizCount: package.quizzes.count)
            }
            order = [quiz - 1]
        }
        if let shuffleSeed {
            var generator = AreaLayout.SeededGenerator(seed: shuffleSeed)
            order.shuffle(using: &generator)
        }
        let catalog = try store.allCatalogMovies()
        let rounds = order.enumerated().map { number, index in
            SolveRound(quiz: package.quizzes[index], judge: AnswerJudge(quiz: package.quizzes[index], catalog: catalog), number: number + 1)
        }
        return SolvePlan(packageId: packageId, package: package, rounds: rounds, quizIDs: order.map { ids[$0] })
    }

    /// Plays the plan to its end or the player's quit, then records the play and every finished quiz in one
    /// transaction: a play that cannot be recorded leaves the store as it was (and says so after the summary), and a
    /// stopped play is recorded for what it was, its quizzes in the statistics but no score for the package's best.
    public func run(
        _ plan: SolvePlan, player: String, timeScale: Double, input: any SolveInput, observer: any SolveObserver
    ) throws -> SolveSummary {
        let store = try environment.store()
        let startedAt = environment.now()
        var attempts: [PlayAttempt] = []
        let loop = SolveLoop(rounds: plan.rounds, levels: levels, level: plan.package.level, timeScale: timeScale)
        let results = loop.run(input: input, observer: observer) { round, result in
            attempts.append(.init(quizId: plan.quizIDs[round.number - 1], endedAt: environment.now(), result: result))
        }
        var summary = SolveSummary(
            results: results, shareLine: ShareLine.text(code: plan.package.shareCode, results: results),
            complete: results.count == plan.rounds.filter { !$0.quiz.areas.isEmpty }.count)
        guard !attempts.isEmpty else { return summary }
        do {
            try store.recordPlay(
                packageId: plan.packageId, player: player, startedAt: startedAt, finishedAt: environment.now(),
                score: summary.complete ? summary.score : nil, attempts: attempts)
        } catch {
            summary.recordingFailure = error
        }
        return summary
    }
}

/// Why a package cannot be played in the terminal.
public enum SolveError: Error, Equatable {
    /// `--quiz N` names no quiz of the package.
    case noSuchQuiz(Int, quizCount: Int)
}
