import Foundation
import PosterGrid
import QuizCore
import UQuizRules
import UQuizStorage

/// The create use case: turns a checked spec (from flags, a file or the interactive creator) into quizzes, with the
/// movies' facts from TMDB or the catalog, a poster each and areas placed or chosen automatically, and saves the package
/// under a fresh share code.
public struct CreatePackage: Sendable {
    public let environment: AppEnvironment
    public let levels: LevelRules
    public let geometry: GridGeometry

    public init(environment: AppEnvironment, levels: LevelRules, geometry: GridGeometry) {
        self.environment = environment
        self.levels = levels
        self.geometry = geometry
    }

    /// The quizzes of a checked spec, in order. Quizzes without areas get them automatically (leaning on the poster's
    /// detail) when `autoAreas`, from `seed` plus the quiz's place, so a seed gives the same layout every time.
    public func quizzes(of spec: PackageDocument.Checked, language: QuizLanguage, autoAreas: Bool, seed: UInt64) async throws -> [Quiz] {
        let movies = MovieSearching(environment: environment)
        var quizzes: [Quiz] = []
        for index in spec.quizzes.indices {
            quizzes.append(try await quiz(
                index, of: spec, resolved: try await movies.resolve(spec.quizzes[index].movie), language: language,
                hasStoredPoster: { try environment.catalog().bundledPoster(fileName: $0) != nil }, autoAreas: autoAreas,
                seed: seed))
        }
        return quizzes
    }

    /// Quiz `index` of `spec` on its resolved movie: the poster the spec names (a bundled or uploaded one must be
    /// stored: `hasStoredPoster`) or the movie's default, and the spec's areas or, with `autoAreas`, areas chosen on
    /// the poster.
    public func quiz(
        _ index: Int, of spec: PackageDocument.Checked, resolved: ResolvedMovie, language: QuizLanguage,
        hasStoredPoster: (String) throws -> Bool, autoAreas: Bool, seed: UInt64
    ) async throws -> Quiz {
        try await QuizBuilding.quiz(
            index, of: spec, resolved: resolved, language: language, hasStoredPoster: hasStoredPoster, geometry: geometry
        ) { poster in
            guard autoAreas else { return nil }
            return await automaticAreas(
                count: levels[spec.level].areaCount, posterPath: poster.path, source: poster.source,
                seed: seed &+ UInt64(index))
        }
    }

    /// Areas spread over the poster, leaning toward its detailed regions when its pixels can be had; `existing` stay.
    public func automaticAreas(
        count: Int, posterPath: String, source: PosterSource, existing: [Cell] = [], seed: UInt64
    ) async -> [Cell] {
        automaticAreas(
            count: count, existing: existing, seed: seed, detail: await posterDetail(posterPath: posterPath, source: source))
    }

    /// How detailed the poster is around each cell, `nil` when its pixels cannot be had: read once for a picker that
    /// asks for automatic areas again and again.
    public func posterDetail(posterPath: String, source: PosterSource) async -> ((Cell) -> Double)? {
        await PosterLoader(environment: environment).detail(posterPath: posterPath, source: source, geometry: geometry)
    }

    /// Areas spread over the grid, leaning toward the poster's `detail` when known; `existing` stay.
    public func automaticAreas(count: Int, existing: [Cell], seed: UInt64, detail: ((Cell) -> Double)?) -> [Cell] {
        AreaLayout.spreadOut(count: count, geometry: geometry, existing: existing, seed: seed, detail: detail)
    }

    /// A quiz on a movie: its title in the package's language, its facts, the chosen poster and the areas.
    public func quiz(
        of resolved: ResolvedMovie, language: QuizLanguage, poster: (path: String, source: PosterSource), areas: [Cell]
    ) -> Quiz {
        QuizBuilding.quiz(of: resolved, language: language, poster: poster, areas: areas, geometry: geometry)
    }

    /// A package as its maker made it, before it has a share code and a time.
    public struct Draft: Sendable {
        public var title: String
        public var maker: String
        public var level: Level
        public var language: QuizLanguage
        public var quizzes: [Quiz]

        public init(title: String, maker: String, level: Level, language: QuizLanguage, quizzes: [Quiz]) {
            self.title = title
            self.maker = maker
            self.level = level
            self.language = language
            self.quizzes = quizzes
        }
    }

    /// Saves a new package made now by the user, under a share code no stored package has.
    public func save(_ draft: Draft) throws -> (id: Int64, package: QuizPackage) {
        let store = try environment.store()
        var generator = AreaLayout.SeededGenerator(seed: environment.randomSeed())
        var package = QuizPackage(
            shareCode: .random(using: &generator), seedId: nil, origin: .user, title: draft.title, maker: draft.maker,
            level: draft.level, language: draft.language,
            createdAt: ISO8601DateFormatter().string(from: environment.now()), quizzes: draft.quizzes)
        let saved = try store.insertChoosingShareCode(package) { .random(using: &generator) }
        package.shareCode = saved.shareCode
        package.id = saved.id
        return (saved.id, package)
    }
}
