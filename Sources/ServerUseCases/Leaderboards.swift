import Foundation
import QuizCore
import Synchronization
import UQuizStorage

/// A package's leaderboard as a viewer sees it: everyone sees the ranked plays; the maker (the package's owner) also
/// sees how each quiz fares.
public struct LeaderboardView: Sendable {
    public var package: PublishedPackage
    public var board: RankedPlays
    /// Only for the package's owner.
    public var quizzes: [QuizSolveStats]?
    /// How many stages each quiz reveals, in order; only for the package's owner.
    public var stageCounts: [Int]?

    /// Each quiz's solves per stage, from stage 1 to the quiz's last; only for the package's owner.
    public func solvedAtStage(of quiz: QuizSolveStats) -> [StageCount] {
        let stages = stageCounts.flatMap { $0.indices.contains(quiz.position - 1) ? $0[quiz.position - 1] : nil } ?? 0
        return Distribution.stages(quiz.solvedAtStage, through: stages)
    }
}

/// Leaderboards: the best ranked plays of a package (each player's first finished play of it) and the viewer's own.
public struct Leaderboards: Sendable {
    public let environment: SharingEnvironment
    /// How many lines the top of a board holds.
    public static let topCount = 100

    public init(environment: SharingEnvironment) {
        self.environment = environment
    }

    public func board(shareCode: String, viewer: Player?) async throws -> LeaderboardView {
        let package = try await Packages(environment: environment).package(shareCode: shareCode)
        let store = try environment.store()
        let board = try await store.leaderboard(packageId: package.id, limit: Self.topCount, playerId: viewer?.id)
        let isMaker = viewer != nil && package.ownerId == viewer?.id
        guard isMaker else { return LeaderboardView(package: package, board: board) }
        return LeaderboardView(
            package: package, board: board, quizzes: try await store.quizSolveStats(packageId: package.id),
            stageCounts: try await store.package(id: package.id).quizzes.map(\.areas.count))
    }
}
