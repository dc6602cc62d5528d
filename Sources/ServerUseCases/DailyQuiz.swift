import Foundation
import QuizCore
import Synchronization
import UQuizStorage

/// A day's daily quiz as a viewer sees it: which quiz of which package (never its answer), and for a signed-in player
/// their streak and today's play.
public struct DailyView: Sendable {
    public var choice: DailyChoice
    public var package: QuizPackage
    public var stageCount: Int
    public var streak: DailyStreak?
    /// The viewer's daily play of today, finished or not: of this daily quiz, or of another language's (one a day
    /// counts), which `playedAnotherLanguage` says.
    public var play: PlayView?
    public var playedAnotherLanguage = false
}

/// A page of the daily archive: past days' quizzes, newest first, and the day to ask before for the next page.
public struct DailyArchivePage: Sendable {
    public var days: [DailyView]
    public var before: String?
}

extension Plays {
    /// How many past days a page of the daily archive lists at most, and by default.
    public static let archivePageSizes = 1...60
    public static let archiveDefaultPageSize = 30

    /// Today's daily quiz in `language`, with `viewer`'s streak and play when there is a viewer.
    public func daily(viewer: Player?, language: QuizLanguage) async throws -> DailyView {
        let choice = try await today(language: language)
        var view = try await dailyView(of: choice)
        if let viewer {
            view.streak = try await streak(of: viewer)
            view.play = try await dailyPlay(of: viewer, day: choice.day)
            view.playedAnotherLanguage = view.play.map { $0.shareCode != view.package.shareCode.value } ?? false
        }
        return view
    }

    /// The daily quizzes of `language` before `before` (today when `nil`), newest first, `limit` at most; days whose
    /// quiz its maker deleted are left out.
    public func dailyArchive(language: QuizLanguage, before: String?, limit: Int) async throws -> DailyArchivePage {
        let today = Self.dayText(environment.now())
        let choices = try await environment.store().dailyArchive(
            language: language, before: min(before ?? today, today), limit: limit)
        var days: [DailyView] = []
        for choice in choices {
            do { days.append(try await dailyView(of: choice)) } catch PlayError.dailyDeleted {}
        }
        return DailyArchivePage(days: days, before: choices.count == limit ? choices.last?.day : nil)
    }

    private func dailyView(of choice: DailyChoice) async throws -> DailyView {
        guard let packageId = choice.packageId, let position = choice.position else {
            throw PlayError.dailyDeleted(number: choice.number)
        }
        let package = try await environment.store().package(id: packageId)
        guard package.quizzes.indices.contains(position) else { throw PlayError.dailyDeleted(number: choice.number) }
        return DailyView(choice: choice, package: package, stageCount: package.quizzes[position].areas.count)
    }
}
