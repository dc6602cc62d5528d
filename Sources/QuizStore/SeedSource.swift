import Foundation
import PosterGrid
import QuizCore

/// The readable source of the seed bundle, `Seed/seed.json`. `uquiz seed build` turns it (and the posters beside it)
/// into `Seed/uquiz-seed.sqlite`.
public struct SeedSource: Codable, Sendable {
    public static let currentFormat = 1

    public var format: Int
    public var bundleVersion: String
    public var grid: Grid
    public var movies: [Movie]
    public var packages: [Package]

    public struct Grid: Codable, Sendable {
        public var columns: Int
        public var rows: Int
        public var areaSize: Int
        public var margin: Int
    }

    public struct Movie: Codable, Sendable {
        public var key: String
        public var tmdbId: Int?
        public var originalTitle: String
        public var titles: [String: String]
        public var releaseDate: String?
        public var posters: [String: String]
        public var bundledPoster: String?
        public var aliases: [String]
    }

    public struct Package: Codable, Sendable {
        public var seedId: String
        public var shareCode: String
        public var title: String
        public var maker: String
        public var level: String
        public var language: String
        public var createdAt: String
        public var quizzes: [QuizEntry]
    }

    public struct QuizEntry: Codable, Sendable {
        public var movie: String
        /// `ko`, `en`, or `bundled`.
        public var poster: String
        public var areas: [[Int]]
    }

    public static func load(from url: URL) throws -> SeedSource {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StoreError.seedSourceInvalid(path: url.path, detail: "cannot read it (\(error.localizedDescription))")
        }
        do {
            return try JSONDecodingProblem.decode(SeedSource.self, from: data)
        } catch let problem as JSONDecodingProblem {
            throw StoreError.seedSourceInvalid(path: url.path, detail: problem.description)
        }
    }

    /// Turns the source into domain values. The movies are the seed's catalog, checked here; each package becomes an
    /// export document's package (its movie's facts, its poster chosen, the bundle's grid) and is checked by the export
    /// validator, the one every stored package passes, then marked as the seed's with its seed id.
    func resolve(levelRules: LevelRules) throws(SpecProblem) -> (movies: [CatalogMovie], packages: [QuizPackage]) {
        guard format == Self.currentFormat else { throw SpecProblem("$.format", "format \(format) is not \(Self.currentFormat)") }
        var catalog: [String: CatalogMovie] = [:]
        var movies: [CatalogMovie] = []
        for (index, movie) in self.movies.enumerated() {
            let path = "$.movies[\(index)]"
            guard catalog[movie.key] == nil else { throw SpecProblem(path, "duplicate key \"\(movie.key)\"") }
            let titles = try Self.languageMap(movie.titles, path: path + ".titles")
            let posters = try Self.languageMap(movie.posters, path: path + ".posters")
            for (language, poster) in posters where !PosterPath.isTMDBPath(poster) {
                throw SpecProblem("\(path).posters.\(language.rawValue)", PosterPath.rule)
            }
            if let bundled = movie.bundledPoster, !PosterPath.isBundledName(bundled) {
                throw SpecProblem(path + ".bundledPoster", PosterPath.bundledRule)
            }
            let resolved = CatalogMovie(
                catalogKey: movie.key, tmdbId: movie.tmdbId, originalTitle: movie.originalTitle, titles: titles,
                releaseDate: movie.releaseDate, posterPaths: posters, bundledPoster: movie.bundledPoster,
                aliases: movie.aliases
            )
            catalog[movie.key] = resolved
            movies.append(resolved)
        }
        let entries = try packages.enumerated().map { index, entry throws(SpecProblem) in
            try documentPackage(entry, path: "$.packages[\(index)]", catalog: catalog)
        }
        let checked = try ExportDocument(packages: entries).check(levels: levelRules).packages
        let packages = zip(checked, self.packages).map { package, entry in
            var seeded = package
            seeded.origin = .seed
            seeded.seedId = entry.seedId
            return seeded
        }
        return (movies, packages)
    }

    /// A seed package as an export document's: each quiz's movie by its key, its poster by language or the bundled one.
    private func documentPackage(
        _ entry: Package, path: String, catalog: [String: CatalogMovie]
    ) throws(SpecProblem) -> ExportDocument.Package {
        let language = QuizLanguage(rawValue: entry.language) ?? .en
        let quizzes = try entry.quizzes.enumerated().map { quizIndex, quiz throws(SpecProblem) in
            let quizPath = "\(path).quizzes[\(quizIndex)]"
            guard let movie = catalog[quiz.movie] else {
                throw SpecProblem(quizPath + ".movie", "no movie with key \"\(quiz.movie)\"")
            }
            let (posterPath, posterSource): (String?, PosterSource) =
                quiz.poster == "bundled"
                ? (movie.bundledPoster, .bundled)
                : (QuizLanguage(rawValue: quiz.poster).flatMap { movie.posterPaths[$0] }, .tmdb)
            guard let posterPath else {
                throw SpecProblem(quizPath + ".poster", "movie \"\(movie.catalogKey)\" has no \(quiz.poster) poster")
            }
            // The catalog carries the aliases; a seed quiz adds none of its own.
            return ExportDocument.QuizEntry(
                movie: ExportDocument.Movie(
                    catalogKey: movie.catalogKey, tmdbId: movie.tmdbId, originalTitle: movie.originalTitle,
                    titles: [language.rawValue: movie.title(in: language)], releaseDate: movie.releaseDate, aliases: []),
                title: movie.title(in: language), posterPath: posterPath, posterSource: posterSource.rawValue, genreIds: [],
                grid: ExportDocument.Grid(
                    columns: grid.columns, rows: grid.rows, areaSize: grid.areaSize, margin: grid.margin),
                areas: quiz.areas)
        }
        return ExportDocument.Package(
            shareCode: entry.shareCode, title: entry.title, maker: entry.maker, level: entry.level,
            language: entry.language, createdAt: entry.createdAt, quizzes: quizzes)
    }

    private static func languageMap(
        _ map: [String: String], path: String
    ) throws(SpecProblem) -> [QuizLanguage: String] {
        var result: [QuizLanguage: String] = [:]
        for (key, value) in map {
            guard let language = QuizLanguage(rawValue: key) else { throw SpecProblem(path, "unknown language \"\(key)\"") }
            result[language] = value
        }
        return result
    }
}
