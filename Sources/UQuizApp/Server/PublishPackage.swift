import Foundation
import PosterGrid
import QuizCore
import QuizStore

/// The publish use case: a player's package spec (the format `uquiz create --from` reads) checked by the spec's one
/// validator, its movies resolved and its quizzes built by `CreatePackage` as the CLI builds them, then saved with its
/// owner and visibility in one transaction under a fresh share code. Also the owner's delete.
public struct PublishPackage: Sendable {
    public let environment: SharingEnvironment
    public let levels: LevelRules
    public let geometry: GridGeometry

    public init(environment: SharingEnvironment, levels: LevelRules, geometry: GridGeometry) {
        self.environment = environment
        self.levels = levels
        self.geometry = geometry
    }

    public enum Problem: Error, Equatable {
        /// The package breaks a rule; the problem names the JSON path.
        case brokenRule(SpecProblem)
        /// No package anyone may read has this share code.
        case notFound(String)
        /// The package is someone else's (or nobody's, like the seed packages).
        case notOwner(String)
    }

    /// Publishes `spec` for `player`, who owns it from now on; the maker is the player's name unless the spec names one.
    public func publish(_ spec: PackageSpec, visibility: Visibility, by player: Player) throws -> PublishedPackage {
        let checked: PackageSpec.Checked
        do {
            checked = try spec.check(geometry: geometry, levels: levels)
        } catch {
            throw Problem.brokenRule(error)
        }
        // The CLI falls back to the configured language; a server has no user to ask, so the document must say.
        guard let language = checked.language else {
            throw Problem.brokenRule(SpecProblem("$.language", "a published package names its language: ko or en"))
        }
        let quizzes = try quizzes(of: checked, language: language)
        var generator = AreaLayout.SeededGenerator(seed: environment.app.randomSeed())
        let package = QuizPackage(
            shareCode: .random(using: &generator), seedId: nil, origin: .user, title: checked.title,
            maker: checked.maker ?? player.name, level: checked.level, language: language,
            createdAt: ISO8601DateFormatter().string(from: environment.app.now()), quizzes: quizzes)
        let store = try environment.store()
        let saved = try store.insertPublished(package, owner: player.id, visibility: visibility) {
            .random(using: &generator)
        }
        guard let published = try store.publishedPackage(shareCode: saved.shareCode) else {
            throw Problem.notFound(saved.shareCode.value)
        }
        return published
    }

    /// The quizzes as `CreatePackage` builds them, with its problems said as rules broken at the spec's JSON paths.
    /// Areas are required: choosing them automatically would need the poster's pixels, which the server does not
    /// fetch for a request.
    private func quizzes(of checked: PackageSpec.Checked, language: QuizLanguage) throws -> [Quiz] {
        func path(of movie: MovieReference) -> String {
            let index = checked.quizzes.firstIndex { $0.movie == movie } ?? 0
            return "$.quizzes[\(index)]"
        }
        let create = CreatePackage(environment: environment.app, levels: levels, geometry: geometry)
        do {
            return try create.quizzes(of: checked, language: language, autoAreas: false, seed: 0)
        } catch CreatePackage.Problem.noPoster(_, let movie) {
            throw Problem.brokenRule(SpecProblem(path(of: movie) + ".poster", "\(movie) has no poster: name one"))
        } catch CreatePackage.Problem.noAreas(_, let movie) {
            throw Problem.brokenRule(SpecProblem(path(of: movie) + ".areas", "give the areas, stage 1 first"))
        } catch MovieLookupProblem.notInCatalog(let movie, _) {
            throw Problem.brokenRule(SpecProblem(path(of: movie) + ".movie", "\(movie) is unknown to this server"))
        }
    }

    /// Deletes a published package, which only its owner may do.
    public func delete(shareCode text: String, by player: Player) throws {
        let store = try environment.store()
        guard let code = ShareCode(text), let package = try store.publishedPackage(shareCode: code) else {
            throw Problem.notFound(text)
        }
        guard package.ownerId == player.id else { throw Problem.notOwner(text) }
        try store.deletePackages(ids: [package.id])
    }
}
