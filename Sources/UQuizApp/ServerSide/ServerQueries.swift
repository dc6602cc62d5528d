import Foundation
import QuizCore
import UQuizStorage
import Synchronization

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
        let package = try await BrowsePackages(environment: environment).package(shareCode: shareCode)
        let store = try environment.store()
        let board = try await store.leaderboard(packageId: package.id, limit: Self.topCount, playerId: viewer?.id)
        let isMaker = viewer != nil && package.ownerId == viewer?.id
        guard isMaker else { return LeaderboardView(package: package, board: board) }
        return LeaderboardView(
            package: package, board: board, quizzes: try await store.quizSolveStats(packageId: package.id),
            stageCounts: try await store.package(id: package.id).quizzes.map(\.areas.count))
    }
}

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

extension ServerPlays {
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

/// Movie search for makers through the server, so TMDB's credentials never leave it: `MovieSearching` (TMDB, the
/// catalog when TMDB cannot be reached or no credentials are set), with answers kept for `lifetime` on the server's
/// monotonic clock so that many makers typing the same title cost TMDB one request.
public final class ServerMovieSearch: Sendable {
    public let environment: SharingEnvironment
    public let lifetime: Duration
    public let capacity: Int
    private let now: @Sendable () -> Duration
    private let cache: ExpiringMap<Key, FoundMovies>
    /// The posters a maker may choose for a movie, per movie and language.
    private let posterChoices: ExpiringMap<PostersKey, [MoviePoster]>
    /// The posters of the movies searches answered with.
    private let postersShown: ExpiringMap<String, Bool>

    struct Key: Hashable {
        var query: String
        var language: QuizLanguage
        var page: Int
        var year: Int?
    }

    /// The longest query accepted, in characters.
    public static let maxQueryLength = 200
    public static let pages = 1...500

    /// How long a search waits for TMDB before the catalog answers.
    public let searchDeadline: Duration

    public init(
        environment: SharingEnvironment, lifetime: Duration = .seconds(600), capacity: Int = 1_000,
        searchDeadline: Duration = .seconds(3), now: @escaping @Sendable () -> Duration
    ) {
        self.environment = environment
        self.searchDeadline = searchDeadline
        self.lifetime = lifetime
        self.capacity = capacity
        self.now = now
        cache = ExpiringMap(lifetime: lifetime, capacity: capacity)
        posterChoices = ExpiringMap(lifetime: lifetime, capacity: capacity)
        // A search shows up to 20 movies.
        postersShown = ExpiringMap(lifetime: lifetime, capacity: capacity * 20)
    }

    public func find(_ query: String, language: QuizLanguage, page: Int, year: Int?) async throws -> FoundMovies {
        let key = Key(
            query: query.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), language: language, page: page,
            year: year)
        let instant = now()
        if let hit = cache.value(for: key, at: instant) {
            noteShown(hit, at: instant)
            return hit
        }
        let found = try await ServerMovies(environment: environment, searchDeadline: searchDeadline)
            .find(query, language: language, page: page, year: year)
        noteShown(found, at: instant)
        // A catalog answer given because TMDB was unreachable is not kept: TMDB may answer the next ask.
        if case .unreachable = found.offlineReason { return found }
        cache.set(found, for: key, at: instant)
        return found
    }

    /// The whole poster `poster` (a TMDB path or a held image's name) of a movie a search answered within `lifetime`,
    /// which the maker's page shows beside it; any other is refused, so that this is no way to fetch any image.
    public func searchedPoster(_ poster: String) async throws -> Data {
        let instant = now()
        guard postersShown.value(for: poster, at: instant) != nil else {
            throw MoviePosterError.notSearched(poster)
        }
        let source = PosterPath.source(ofSpecPoster: poster)
        if source == .tmdb, environment.imagesUnreachable {
            throw MoviePosterError.unavailable(.downloadFailed("TMDB's image server does not answer"))
        }
        do {
            return try await ServerPosters(environment: environment).jpeg(posterPath: poster, source: source)
        } catch {
            throw MoviePosterError.unavailable(error)
        }
    }

    /// Notes the posters of `found`'s movies as shown by a search at `instant`.
    private func noteShown(_ found: FoundMovies, at instant: Duration) {
        postersShown.set(true, for: found.results.compactMap(\.posterPath), at: instant)
    }

    /// The posters a maker may choose for `movie`'s quiz in `language`, its default one first, kept as long as a search.
    public func posters(of movie: MovieReference, language: QuizLanguage) async throws -> [MoviePoster] {
        let key = PostersKey(movie: movie, language: language)
        let instant = now()
        if let hit = posterChoices.value(for: key, at: instant) { return hit }
        let posters = try await ServerMovies(environment: environment, searchDeadline: searchDeadline)
            .posters(of: movie, language: language)
        posterChoices.set(posters, for: key, at: instant)
        return posters
    }

    /// Whether `posters(of:language:)` would answer from what it keeps.
    public func holdsPosters(of movie: MovieReference, language: QuizLanguage) -> Bool {
        posterChoices.value(for: PostersKey(movie: movie, language: language), at: now()) != nil
    }

    /// The JPEG of `movie`'s poster `number` (from 1) of `posters(of:language:)`.
    public func poster(_ number: Int, of movie: MovieReference, language: QuizLanguage) async throws -> Data {
        let posters = try await posters(of: movie, language: language)
        guard posters.indices.contains(number - 1) else {
            throw MoviePosterError.noSuchPoster(number: number, count: posters.count)
        }
        let chosen = posters[number - 1]
        do {
            return try await ServerPosters(environment: environment).jpeg(posterPath: chosen.poster, source: chosen.source)
        } catch {
            throw MoviePosterError.unavailable(error)
        }
    }

    private struct PostersKey: Hashable {
        var movie: MovieReference
        var language: QuizLanguage
    }
}

/// A poster a maker may choose for a quiz: `poster` is what a spec names (a TMDB path or a held image's name).
public struct MoviePoster: Sendable, Equatable {
    public var poster: String
    public var source: PosterSource
    /// The language of its text (`nil`: textless, or not known).
    public var language: String?

    /// The most posters offered for one movie.
    public static let most = 12
}

public enum MoviePosterError: Error {
    case noSuchPoster(number: Int, count: Int)
    /// No search this server answered lately showed this poster.
    case notSearched(String)
    case unavailable(PosterUnavailable)
}
