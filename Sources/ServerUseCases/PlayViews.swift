import Foundation
import PosterArt
import PosterGrid
import QuizCore
import UQuizStorage

/// A play as its player may see it now. Built only from what the server clock has reached: a quiz that has not ended
/// carries no answer, and none carries a TMDB id or a poster path.
public struct PlayView: Sendable, Equatable {
    public var id: String
    public var shareCode: String
    public var packageTitle: String
    /// The daily quiz's number when this play is one.
    public var dailyNumber: Int?
    public var finished: Bool
    /// Whether the finished play is the player's ranked one of the package; `nil` until it is stored.
    public var ranked: Bool?
    /// Why the finished play could not be ranked (nor a daily play count in the streak): its player may have known an
    /// answer. `nil` while it is not finished, and for a play that could be.
    public var unrankedReason: UnrankedReason?
    public var score: Int
    /// 1-based; `nil` once the play is over.
    public var currentQuiz: Int?
    public var quizzes: [QuizView]
    /// The line to paste, once the play is over.
    public var shareLine: String?
}

/// One quiz of a play as its player may see it now.
public struct QuizView: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// Not started: the next quiz shows when it starts, the ones after it do not know yet.
        case waiting
        case playing
        case solved
        case missed
        case skipped
    }

    public struct Answer: Sendable, Equatable {
        /// In the package's language.
        public var title: String
        public var year: String?
        /// The movie's original title, when it is not `title`: shown beside it, for a player who knows it so.
        public var original: String?
    }

    public var number: Int
    public var status: Status
    public var stageCount: Int
    /// Stages revealed so far (0 before the quiz starts; every stage once it has ended).
    public var stage: Int
    /// Milliseconds until the quiz starts, for the next quiz only.
    public var startsInMs: Int?
    /// Milliseconds until each stage is revealed (0 for those already revealed), while the quiz is played.
    public var stagesInMs: [Int]?
    /// Milliseconds until the time is up, while the quiz is played.
    public var endsInMs: Int?
    /// The hint, once asked for.
    public var hint: String?
    public var result: QuizResult?
    /// Only once the quiz has ended.
    public var answer: Answer?
}

/// A guess as judged: accepted, or why not. A rejection never names the answer (`digitsDiffer` alone would).
public struct GuessOutcome: Sendable, Equatable {
    public enum Judgement: String, Sendable {
        case accepted
        case empty
        case wrongNumber = "wrong_number"
        case anotherMovie = "another_movie"
        case wrong
    }

    public var judgement: Judgement
    /// What the guess changed, for a client that holds the play.
    public var change: PlayChange
    /// The whole play, when the client asked for it.
    public var play: PlayView?
}

/// What an action changed in a play, for a client that holds the play from before it: the play's new totals and the
/// quizzes whose state changed (the one acted on, and when the action ended it, the next). Merged into the play the
/// client holds, it gives the play `PlayView` would.
public struct PlayChange: Sendable, Equatable {
    public var finished: Bool
    public var ranked: Bool?
    public var unrankedReason: UnrankedReason?
    public var score: Int
    public var currentQuiz: Int?
    /// The quizzes from the one acted on through the current one, in order.
    public var quizzes: [QuizView]
    public var shareLine: String?
}

/// The hint of a quiz, and the play after asking for it.
public struct HintOutcome: Sendable, Equatable {
    public var hint: String
    public var play: PlayView
}

/// What an operation on a play answers with: it holds the play's view, which learns whether the play is ranked once
/// it has been stored.
protocol CarriesPlayView: Sendable {
    mutating func setRanked(_ ranked: Bool, reason: UnrankedReason?)
}

extension PlayView: CarriesPlayView {
    mutating func setRanked(_ ranked: Bool, reason: UnrankedReason?) {
        self.ranked = ranked
        unrankedReason = reason
    }
}

extension GuessOutcome: CarriesPlayView {
    mutating func setRanked(_ ranked: Bool, reason: UnrankedReason?) {
        change.ranked = ranked
        change.unrankedReason = reason
        play?.setRanked(ranked, reason: reason)
    }
}

extension HintOutcome: CarriesPlayView {
    mutating func setRanked(_ ranked: Bool, reason: UnrankedReason?) { play.setRanked(ranked, reason: reason) }
}

extension Plays.PosterSight: CarriesPlayView {
    mutating func setRanked(_ ranked: Bool, reason: UnrankedReason?) {}
}

extension QuizView {
    static func ended(number: Int, quiz: Quiz, result: QuizResult, hint: String?) -> QuizView {
        let status: Status =
            switch result.outcome {
            case .solved: .solved
            case .missed: .missed
            case .skipped: .skipped
            }
        return QuizView(
            number: number, status: status, stageCount: quiz.areas.count, stage: quiz.areas.count, hint: hint,
            result: result,
            answer: Answer(
                title: quiz.title, year: quiz.releaseYear,
                original: quiz.originalTitle == quiz.title || quiz.originalTitle.isEmpty ? nil : quiz.originalTitle))
    }
}
