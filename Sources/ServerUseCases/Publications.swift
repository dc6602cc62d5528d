import Foundation
import PosterGrid
import QuizCore
import UQuizRules
import UQuizStorage

/// The publish use case: a player's package spec (the format `uquiz create --from` reads) checked by the spec's one
/// validator, its movies resolved and its quizzes built by `QuizBuilding` as the CLI builds them, then saved with its
/// owner and visibility in one transaction under a fresh share code. Also the owner's update and delete.
public struct Publications: Sendable {
    public let environment: SharingEnvironment
    public let levels: LevelRules
    public let geometry: GridGeometry

    public init(environment: SharingEnvironment, levels: LevelRules, geometry: GridGeometry) {
        self.environment = environment
        self.levels = levels
        self.geometry = geometry
    }

    /// The spec checked by the rules every package keeps, and its language, which a published package must name: the
    /// CLI falls back to the configured language, a server has no user to ask.
    @discardableResult
    func check(_ spec: PackageSpec) throws -> (PackageDocument.Checked, QuizLanguage) {
        var checked: PackageDocument.Checked
        do {
            checked = try spec.check(geometry: geometry, levels: levels)
        } catch {
            throw PublishError.brokenRule(error)
        }
        // Stored composed, as player and room names are: one encoding of each letter people read.
        checked.title = ReadableName.normalized(checked.title)
        checked.maker = checked.maker.map(ReadableName.normalized)
        guard let language = checked.language else {
            throw PublishError.brokenRule(SpecProblem("$.language", "a published package names its language: ko or en"))
        }
        return (checked, language)
    }

    /// Publishes `spec` for `player`, who owns it from now on; the maker is the player's name unless the spec names one.
    public func publish(_ spec: PackageSpec, visibility: Visibility, by player: Player) async throws -> PublishedPackage {
        let (checked, language) = try check(spec)
        let quizzes = try await quizzes(of: checked, language: language)
        var generator = AreaLayout.SeededGenerator(seed: environment.randomSeed())
        let package = QuizPackage(
            shareCode: .random(using: &generator), seedId: nil, origin: .user, title: checked.title,
            maker: checked.maker ?? player.name, level: checked.level, language: language,
            createdAt: ISO8601DateFormatter().string(from: environment.now()), quizzes: quizzes)
        let store = try environment.store()
        let otherCodes = (1..<ShareCode.triesPerNewPackage).map { _ in ShareCode.random(using: &generator) }
        let saved = try await store.insertPublished(package, owner: player.id, visibility: visibility, otherCodes: otherCodes)
        guard let published = try await store.publishedPackage(shareCode: saved.shareCode) else {
            throw PublishError.notFound(saved.shareCode.value)
        }
        return published
    }

    /// Replaces the title, maker, level, language and quizzes of the package `shareCode` (any case) with `spec`'s,
    /// checked as a publication is; the share code, creation time and owner stay, and so does the visibility unless
    /// `visibility` is given. Only the owner may. Once the package has been played, the ranked plays and its leaderboard
    /// were judged on its quizzes, so from then on an update may change the title and maker only: one that changes
    /// the quizzes (a movie, a poster, an area, their order), the level or the language is refused (`played`); the
    /// maker deletes it and publishes anew for a fresh board. `plays` is the server's plays in memory, which must not
    /// have an open play of the package either (the store checks both); this instance forgets its plan of the package.
    public func update(
        shareCode text: String, with spec: PackageSpec, visibility: Visibility?, by player: Player, plays: Plays
    ) async throws -> PublishedPackage {
        let store = try environment.store()
        // Who may comes before what: a player who may not change the package learns nothing of the rules from it.
        guard let code = ShareCode(text), let current = try await store.publishedPackage(shareCode: code) else {
            throw PublishError.notFound(text)
        }
        guard current.ownerId == player.id else { throw PublishError.notOwner(text) }
        guard current.hidden == nil else { throw PublishError.removed(code.value) }
        let (checked, language) = try check(spec)
        let quizzes = try await quizzes(of: checked, language: language)
        let stored = try await environment.store().package(id: current.id)
        let maker = checked.maker ?? player.name
        let playsAlike = stored.level == checked.level && stored.language == language
            && stored.quizzes.count == quizzes.count && zip(stored.quizzes, quizzes).allSatisfy(Self.playsAlike)
        let change: PublishedUpdate =
            playsAlike
            ? .titleAndMaker(title: checked.title, maker: maker)
            : .whole(
                QuizPackage(
                    shareCode: stored.shareCode, seedId: nil, origin: .user, title: checked.title, maker: maker,
                    level: checked.level, language: language, createdAt: stored.createdAt, quizzes: quizzes))
        do {
            // The store refuses, in the same transaction, quizzes replaced under a stored or an open play.
            try await store.updatePublished(packageId: current.id, change, visibility: visibility)
        } catch StoreError.packagePlayed(let count) {
            throw PublishError.played(text, plays: count)
        } catch StoreError.packageInPlay {
            throw PublishError.played(text, plays: nil)
        }
        plays.packageChanged(current.id)
        guard let updated = try await store.publishedPackage(shareCode: code) else { throw PublishError.notFound(text) }
        return updated
    }

    /// The quizzes `spec` makes, as its publication would: what a draft's preview cuts its posters from.
    public func quizzes(of spec: PackageSpec) async throws -> [Quiz] {
        let (checked, language) = try check(spec)
        return try await quizzes(of: checked, language: language)
    }

    /// Whether two quizzes play the same: the same movie and answer, poster and areas on the same grid.
    static func playsAlike(_ stored: Quiz, _ new: Quiz) -> Bool {
        stored.catalogKey == new.catalogKey && stored.tmdbId == new.tmdbId && stored.title == new.title
            && stored.posterPath == new.posterPath && stored.posterSource == new.posterSource
            && stored.geometry == new.geometry && stored.areas == new.areas
            && Set(stored.aliases) == Set(new.aliases)
    }

    /// The quizzes as `QuizBuilding` builds them, with its problems said as rules broken at the spec's JSON paths.
    /// Areas are required: choosing them automatically would need the poster's pixels, which the server does not
    /// fetch for a request.
    private func quizzes(of checked: PackageDocument.Checked, language: QuizLanguage) async throws -> [Quiz] {
        func path(of movie: MovieReference) -> String {
            let index = checked.quizzes.firstIndex { $0.movie == movie } ?? 0
            return "$.quizzes[\(index)]"
        }
        let movies = TMDBOrCatalog(environment: environment)
        let store = try environment.store()
        do {
            var quizzes: [Quiz] = []
            for (index, entry) in checked.quizzes.enumerated() {
                let resolved = try await movies.resolve(entry.movie)
                var stored: Set<String> = []
                if let poster = entry.poster, PosterPath.source(ofSpecPoster: poster) == .bundled,
                    try await store.bundledPoster(fileName: poster) != nil
                {
                    stored.insert(poster)
                }
                quizzes.append(
                    try await QuizBuilding.quiz(
                        index, of: checked, resolved: resolved, language: language,
                        hasStoredPoster: { stored.contains($0) }, geometry: geometry))
            }
            return quizzes
        } catch CreatePackageError.noPoster(_, let movie) {
            throw PublishError.brokenRule(SpecProblem(path(of: movie) + ".poster", "\(movie) has no poster: name one"))
        } catch CreatePackageError.noAreas(_, let movie) {
            throw PublishError.brokenRule(SpecProblem(path(of: movie) + ".areas", "give the areas, stage 1 first"))
        } catch CreatePackageError.noStoredPoster(let number, let name) {
            throw PublishError.brokenRule(
                SpecProblem(
                    "$.quizzes[\(number - 1)].poster",
                    "no poster image \(name) on this server: upload the JPEG with POST /v1/posters and name what it answers"))
        } catch MovieLookupProblem.notInCatalog(let movie, _) {
            throw PublishError.brokenRule(SpecProblem(path(of: movie) + ".movie", "\(movie) is unknown to this server"))
        }
    }

    /// A published package as the spec that would make it again, with its share code (a publish of it updates that
    /// package) and visibility: what its owner edits. Nobody else may read it, since it names every answer.
    public func spec(shareCode text: String, by player: Player) async throws -> (spec: PackageSpec, visibility: Visibility) {
        let store = try environment.store()
        guard let code = ShareCode(text), let current = try await store.publishedPackage(shareCode: code) else {
            throw PublishError.notFound(text)
        }
        guard current.ownerId == player.id else { throw PublishError.notOwner(text) }
        guard current.hidden == nil else { throw PublishError.removed(code.value) }
        let stored = try await store.package(id: current.id)
        var spec = PackageSpec(
            title: stored.title, maker: stored.maker, level: stored.level.rawValue, language: stored.language.rawValue,
            quizzes: stored.quizzes.map { quiz in
                // The title names the quiz on the maker's page (a publish ignores it).
                PackageDocument.QuizEntry(
                    movie: .reference(quiz.tmdbId.map(MovieReference.tmdb) ?? .catalog(quiz.catalogKey ?? "")),
                    title: quiz.title,
                    poster: quiz.posterPath,
                    areas: quiz.areas.map { [$0.row, $0.column] }, aliases: quiz.aliases.isEmpty ? nil : quiz.aliases)
            })
        spec.package.shareCode = code.value
        return (spec, current.visibility)
    }

    /// Deletes a published package, which only its owner may do.
    public func delete(shareCode text: String, by player: Player) async throws {
        let store = try environment.store()
        guard let code = ShareCode(text), let package = try await store.publishedPackage(shareCode: code) else {
            throw PublishError.notFound(text)
        }
        guard package.ownerId == player.id else { throw PublishError.notOwner(text) }
        try await store.deletePackages(ids: [package.id])
    }
}

/// Why a package cannot be published, changed or deleted.
public enum PublishError: Error, Equatable {
    /// The package breaks a rule; the problem names the JSON path.
    case brokenRule(SpecProblem)
    /// No package anyone may read has this share code.
    case notFound(String)
    /// The package is someone else's (or nobody's, like the seed packages).
    case notOwner(String)
    /// The moderators (or its reports) hid the package: nobody may see, play or change it.
    case removed(String)
    /// The update would change how the package plays (its quizzes, level or language) after `plays` plays of it
    /// were judged on it (stored, or open on this server when `plays` is `nil`).
    case played(String, plays: Int?)
}
