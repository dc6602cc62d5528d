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

    /// Turns the source into domain values, checking every rule a stored package must keep.
    func resolve(levelRules: LevelRules) throws(SeedValidationError) -> (movies: [CatalogMovie], packages: [QuizPackage]) {
        guard format == Self.currentFormat else { throw .init("$.format", "format \(format) is not \(Self.currentFormat)") }
        let geometry: GridGeometry
        do {
            geometry = try GridGeometry(columns: grid.columns, rows: grid.rows, areaSize: grid.areaSize, margin: grid.margin)
        } catch {
            throw .init("$.grid", error.description)
        }
        var catalog: [String: CatalogMovie] = [:]
        var movies: [CatalogMovie] = []
        for (index, movie) in self.movies.enumerated() {
            let path = "$.movies[\(index)]"
            guard catalog[movie.key] == nil else { throw .init(path, "duplicate key \"\(movie.key)\"") }
            let titles = try Self.languageMap(movie.titles, path: path + ".titles")
            let posters = try Self.languageMap(movie.posters, path: path + ".posters")
            for (language, poster) in posters where !PosterPath.isTMDBPath(poster) {
                throw .init("\(path).posters.\(language.rawValue)", PosterPath.rule)
            }
            if let bundled = movie.bundledPoster, !PosterPath.isBundledName(bundled) {
                throw .init(path + ".bundledPoster", PosterPath.bundledRule)
            }
            let resolved = CatalogMovie(
                catalogKey: movie.key, tmdbId: movie.tmdbId, originalTitle: movie.originalTitle, titles: titles,
                releaseDate: movie.releaseDate, posterPaths: posters, bundledPoster: movie.bundledPoster,
                aliases: movie.aliases
            )
            catalog[movie.key] = resolved
            movies.append(resolved)
        }
        var shareCodes: Set<ShareCode> = []
        var packages: [QuizPackage] = []
        for (index, entry) in self.packages.enumerated() {
            let path = "$.packages[\(index)]"
            guard let shareCode = ShareCode(entry.shareCode), shareCodes.insert(shareCode).inserted else {
                throw .init(path + ".shareCode", "\"\(entry.shareCode)\" is not a share code or is used twice")
            }
            guard let level = Level(rawValue: entry.level) else { throw .init(path + ".level", "unknown level") }
            guard let language = QuizLanguage(rawValue: entry.language) else {
                throw .init(path + ".language", "unknown language")
            }
            var quizzes: [Quiz] = []
            for (quizIndex, quizEntry) in entry.quizzes.enumerated() {
                let quizPath = "\(path).quizzes[\(quizIndex)]"
                guard let movie = catalog[quizEntry.movie] else {
                    throw .init(quizPath + ".movie", "no movie with key \"\(quizEntry.movie)\"")
                }
                guard !quizzes.contains(where: { $0.catalogKey == movie.catalogKey }) else {
                    throw .init(quizPath + ".movie", "\"\(movie.catalogKey)\" is already in this package")
                }
                let (posterPath, posterSource): (String?, PosterSource) =
                    quizEntry.poster == "bundled"
                    ? (movie.bundledPoster, .bundled)
                    : (QuizLanguage(rawValue: quizEntry.poster).flatMap { movie.posterPaths[$0] }, .tmdb)
                guard let posterPath else {
                    throw .init(quizPath + ".poster", "movie \"\(movie.catalogKey)\" has no \(quizEntry.poster) poster")
                }
                var cells: [Cell] = []
                for (areaIndex, pair) in quizEntry.areas.enumerated() {
                    guard pair.count == 2 else { throw .init("\(quizPath).areas[\(areaIndex)]", "expected [row, column]") }
                    cells.append(Cell(row: pair[0], column: pair[1]))
                }
                do {
                    _ = try AreaSelection(geometry: geometry, limit: levelRules[level].areaCount, centres: cells)
                } catch {
                    throw .init(quizPath + ".areas", error.description)
                }
                quizzes.append(
                    Quiz(
                        tmdbId: movie.tmdbId, catalogKey: movie.catalogKey, title: movie.title(in: language),
                        originalTitle: movie.originalTitle, releaseDate: movie.releaseDate, genreIds: [],
                        posterPath: posterPath, posterSource: posterSource, geometry: geometry, areas: cells
                    )
                )
            }
            packages.append(
                QuizPackage(
                    shareCode: shareCode, seedId: entry.seedId, origin: .seed, title: entry.title, maker: entry.maker,
                    level: level, language: language, createdAt: entry.createdAt, quizzes: quizzes
                )
            )
        }
        return (movies, packages)
    }

    private static func languageMap(
        _ map: [String: String], path: String
    ) throws(SeedValidationError) -> [QuizLanguage: String] {
        var result: [QuizLanguage: String] = [:]
        for (key, value) in map {
            guard let language = QuizLanguage(rawValue: key) else { throw .init(path, "unknown language \"\(key)\"") }
            result[language] = value
        }
        return result
    }
}

/// A rule of the seed source that an entry breaks, with the JSON path of the entry.
public struct SeedValidationError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: String

    init(_ path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}
