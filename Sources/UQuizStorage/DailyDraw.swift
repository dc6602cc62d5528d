import Foundation

/// The quizzes a daily quiz is drawn from: those of public and seed packages with areas, and of those either all or
/// only the ones whose poster the store holds (bundled with the seed or uploaded), for a server that cannot count on
/// TMDB's images.
public enum DailyCandidates: Sendable, Equatable {
    case everyQuiz
    case postersHeld
}

/// What choosing a daily quiz depends on: the candidates `pick` chooses among, and the first daily's day `number`
/// counts from.
public struct DailyDraw: Equatable, Sendable {
    public var candidates: [Int64]
    public var first: String?

    public init(candidates: [Int64], first: String?) {
        self.candidates = candidates
        self.first = first
    }
}

/// A day's daily quiz as the database has it: chosen (`nil` when there was nothing to choose from), or still to draw.
public enum DailyState: Sendable {
    case chosen(DailyChoice?)
    case toDraw(DailyDraw)
}

extension DailyDraw {
    /// How many times a store draws before it gives up on candidates that keep changing under it: only a publication
    /// or an edit landing between the read and the save changes them, so running out means something keeps writing,
    /// and a later request may succeed.
    public static let tries = 5

    /// Chooses the daily quiz as both stores do. `number` and `pick` cannot run inside the store's write (the write
    /// may outlive the call when the deadline passes, and they may not), so they run on what `read` found, and `save`
    /// keeps their choice only if the database still holds what they saw, answering the state after: two first
    /// requests of a day get the same quiz, and a choice made on outdated candidates is made again on the new ones.
    public static func choose(
        where store: String, read: () async throws -> DailyState,
        number: (String?) -> Int, pick: ([Int64]) -> Int,
        save: (_ drawn: DailyDraw, _ index: Int, _ number: Int) async throws -> DailyState
    ) async throws -> DailyChoice? {
        var state = try await read()
        for _ in 1...tries {
            switch state {
            case .chosen(let choice):
                return choice
            case .toDraw(let drawn):
                guard !drawn.candidates.isEmpty else { return nil }
                state = try await save(drawn, pick(drawn.candidates), number(drawn.first))
            }
        }
        if case .chosen(let choice) = state { return choice }
        throw StoreError.unavailable(detail: "\(store): the daily quiz's candidates changed \(tries) times while choosing")
    }
}
