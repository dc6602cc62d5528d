import Foundation
import PosterArt
import PosterGrid
import QuizCore
import UQuizStorage

/// What a link to a finished play shows: the package it played, the score and the share line (a square a quiz), and
/// how each quiz went, which is all the share line tells too. No title, poster or hint of any quiz is in it.
public struct ResultCard: Sendable, Equatable {
    public var playId: String
    public var shareCode: String
    public var packageTitle: String
    public var maker: String
    public var level: Level
    public var score: Int
    /// The most points the play could have made: what the card's bar measures the score against.
    public var maxScore: Int
    public var results: [QuizResult]
    /// Each quiz's stages, in the order played (the areas of its poster).
    public var stageCounts: [Int]
    public var shareLine: String

    public var solved: Int { results.filter(\.solved).count }
}

/// The share cards: a package's and a finished play's, as words for a link preview's tags and as a 1200 x 630 JPEG
/// (`CardPicture`) drawn from the same outcomes a share line's squares show. A finished play never changes, so its
/// picture is kept (`lifetime`, at most `capacity` pictures, about 20 KB each); a package's too, under its quiz count.
public final class ShareCards: Sendable {
    public let environment: SharingEnvironment
    private let now: @Sendable () -> Duration
    private let pictures: ExpiringMap<String, Data>
    /// The packages whose pages were asked for lately: a popular package's page costs no store read for its tags
    /// beside the one its script makes.
    private let packageCards: ExpiringMap<String, PublishedPackage>
    static let lifetime: Duration = .seconds(600)
    static let packageCardLifetime: Duration = .seconds(60)
    static let capacity = 500
    static let quality = 85

    public init(environment: SharingEnvironment, now: @escaping @Sendable () -> Duration) {
        self.environment = environment
        self.now = now
        pictures = ExpiringMap(lifetime: Self.lifetime, capacity: Self.capacity)
        packageCards = ExpiringMap(lifetime: Self.packageCardLifetime, capacity: Self.capacity)
    }

    /// A readable package by its share code (any case); `PublishError.notFound` or `.removed` as its page says. Kept
    /// `packageCardLifetime`, so a change or a removal shows in a card within a minute.
    public func package(shareCode: String) async throws -> PublishedPackage {
        let key = shareCode.uppercased()
        let instant = now()
        if let kept = packageCards.value(for: key, at: instant) { return kept }
        let card = try await Packages(environment: environment).package(shareCode: shareCode)
        packageCards.set(card, for: key, at: instant)
        return card
    }

    /// The finished play `playId` of a package (not a daily play, whose link is the daily quiz's) whose package
    /// anyone may still read; `nil` for any other id: unknown, still open, daily, or of a package removed since.
    public func result(playId: String) async throws -> ResultCard? {
        guard Plays.isPlayId(playId) else { return nil }
        let store = try environment.store()
        guard let stored = try await store.serverPlay(publicId: playId), stored.dailyDay == nil else { return nil }
        let package: QuizPackage
        do {
            package = try await store.package(id: stored.packageId)
        } catch StoreError.packageNotFound {
            return nil
        }
        guard let published = try await store.publishedPackage(shareCode: package.shareCode), published.hidden == nil
        else { return nil }
        let ids = try await store.quizIDs(packageId: stored.packageId)
        let stagesById = Dictionary(zip(ids, package.quizzes.map(\.areas.count)), uniquingKeysWith: { first, _ in first })
        let results = stored.attempts.map(\.result)
        let stageCounts = stored.attempts.map { stagesById[$0.quizId] ?? max(1, $0.result.stageReached) }
        // A quiz's best: solved at its first stage with the whole time left, without the hint.
        let maxScore = stageCounts.reduce(0) {
            $0 + Scoring.score(stageReached: 1, stageCount: $1, elapsed: .zero, timeLimit: .seconds(1), hints: 0)
        }
        return ResultCard(
            playId: stored.publicId, shareCode: package.shareCode.value, packageTitle: published.title,
            maker: published.maker, level: published.level, score: stored.score, maxScore: maxScore, results: results,
            stageCounts: stageCounts, shareLine: ShareLine.text(code: package.shareCode, results: results))
    }

    /// The result's picture as a JPEG; `nil` where `result` is.
    public func resultPicture(playId: String) async throws -> Data? {
        let key = "s/" + playId
        if let kept = pictures.value(for: key, at: now()) { return kept }
        guard let card = try await result(playId: playId) else { return nil }
        return try await keep(key) { Self.picture(of: card) }
    }

    /// The package's picture as a JPEG: a dark poster a quiz.
    public func packagePicture(shareCode: String) async throws -> Data {
        let card = try await package(shareCode: shareCode)
        let key = "p/\(card.shareCode)/\(card.quizCount)/\(card.level.rawValue)"
        if let kept = pictures.value(for: key, at: now()) { return kept }
        return try await keep(key) { Self.picture(of: card) }
    }

    /// Encodes `draw`'s picture on the heavy-work pool and keeps it under `key`.
    private func keep(_ key: String, _ draw: @escaping @Sendable () -> RGBImage) async throws -> Data {
        let instant = now()
        let data = try await environment.heavyWork.run { try JPEG.encode(draw(), quality: Self.quality) }
        pictures.set(data, for: key, at: instant)
        return data
    }

    // MARK: - The pictures

    /// Solved quizzes green (brighter the earlier the stage), solved with the hint yellow, missed red, skipped a red
    /// frame: the share line's 🟩 🟨 🟥, with the stage and the skip besides; the bar is the score of the best possible.
    public static func picture(of card: ResultCard) -> RGBImage {
        let tiles = zip(card.results, card.stageCounts).map { result, stages in tile(for: result, stageCount: stages) }
        let meter = card.maxScore > 0 ? Double(card.score) / Double(card.maxScore) : 0
        return CardPicture.draw(tiles: tiles, shape: .square, meter: meter)
    }

    /// A dark poster a quiz, each with one gold area like the icon's, and the level in notches: nothing of a quiz.
    public static func picture(of card: PublishedPackage) -> RGBImage {
        let tiles = (0..<max(0, min(card.quizCount, 100))).map { _ in
            CardPicture.Tile(fill: CardPicture.Colour(34, 38, 46), spot: CardPicture.Colour.gold.mixed(with: .black, 0.35))
        }
        let level = (Level.allCases.firstIndex(of: card.level) ?? 0) + 1
        return CardPicture.draw(tiles: tiles, shape: .poster, notches: (level, Level.allCases.count))
    }

    public static let solvedFirst = CardPicture.Colour(120, 206, 92)
    public static let solvedLast = CardPicture.Colour(52, 128, 52)
    public static let hinted = CardPicture.Colour(245, 197, 66)
    public static let missed = CardPicture.Colour(221, 46, 68)

    static func tile(for result: QuizResult, stageCount: Int) -> CardPicture.Tile {
        switch result.outcome {
        case .solved where result.hintsUsed > 0:
            return CardPicture.Tile(fill: hinted)
        case .solved:
            let late = stageCount > 1 ? Double(result.stageReached - 1) / Double(stageCount - 1) : 0
            return CardPicture.Tile(fill: solvedFirst.mixed(with: solvedLast, late))
        case .missed:
            return CardPicture.Tile(fill: missed)
        case .skipped:
            return CardPicture.Tile(fill: missed, hollow: true)
        }
    }
}
