import Foundation
import UQuizStorage
import PosterGrid
import QuizCore

/// The readable source of the seed bundle, `Seed/seed.json`. `uquiz seed build` turns it (and the posters beside it)
/// into `Seed/uquiz-seed.sqlite`.
public struct SeedSource: Codable, Sendable {
    public var format: Int
    public var bundleVersion: String
    /// The grid of every seed quiz, checked when it is decoded.
    public var grid: GridGeometry
    public var movies: [Movie]
    /// Each with its `seedId`; quizzes name their movie by key and their poster by language (`ko`, `en`) or `bundled`.
    public var packages: [PackageDocument]

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

    /// Turns the source into domain values. The movies are the seed's catalog, checked here; each package is resolved
    /// into a stored one (its movies' facts, its posters chosen, the bundle's grid) and checked in an export document by
    /// the validator every stored package passes, then marked as the seed's with its seed id.
    func resolve(levelRules: LevelRules) throws(SpecProblem) -> (movies: [CatalogMovie], packages: [QuizPackage]) {
        try PackageDocument.checkFormat(format)
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
        let resolved = try packages.enumerated().map { index, entry throws(SpecProblem) in
            try storedPackage(entry, path: "$.packages[\(index)]", catalog: catalog)
        }
        let checked = try ExportDocument(packages: resolved.map(\.document)).check(levels: levelRules).packages
        let packages = zip(checked, resolved).map { package, entry in
            var seeded = package
            seeded.origin = .seed
            seeded.seedId = entry.seedId
            return seeded
        }
        return (movies, packages)
    }

    /// A seed package as stored, as an export writes it: each quiz's movie's facts from the catalog, its poster by
    /// language or the bundled one, the bundle's grid; with its seed id, which only the seed has.
    private func storedPackage(
        _ entry: PackageDocument, path: String, catalog: [String: CatalogMovie]
    ) throws(SpecProblem) -> (document: PackageDocument, seedId: String) {
        guard let seedId = entry.seedId else { throw SpecProblem(path, "missing \"seedId\"") }
        let language = entry.language.flatMap(QuizLanguage.init(rawValue:)) ?? .en
        var document = entry
        document.seedId = nil
        document.quizzes = try entry.quizzes.enumerated().map { quizIndex, quiz throws(SpecProblem) in
            let quizPath = "\(path).quizzes[\(quizIndex)]"
            guard case .reference(let reference) = quiz.movie else {
                throw SpecProblem(quizPath + ".movie", "expected the key of a movie of the seed")
            }
            guard let movie = catalog[reference.catalogKey] else {
                throw SpecProblem(quizPath + ".movie", "no movie with key \"\(reference.catalogKey)\"")
            }
            guard let poster = quiz.poster else { throw SpecProblem(quizPath, "missing \"poster\"") }
            let (posterPath, posterSource): (String?, PosterSource) =
                poster == "bundled"
                ? (movie.bundledPoster, .bundled)
                : (QuizLanguage(rawValue: poster).flatMap { movie.posterPaths[$0] }, .tmdb)
            guard let posterPath else {
                throw SpecProblem(quizPath + ".poster", "movie \"\(movie.catalogKey)\" has no \(poster) poster")
            }
            // The catalog carries the aliases; a seed quiz adds none of its own.
            return PackageDocument.QuizEntry(
                movie: .facts(PackageDocument.MovieFacts(
                    catalogKey: movie.catalogKey, tmdbId: movie.tmdbId, originalTitle: movie.originalTitle,
                    titles: [language.rawValue: movie.title(in: language)], releaseDate: movie.releaseDate, aliases: [])),
                title: movie.title(in: language), posterPath: posterPath, posterSource: posterSource.rawValue, genreIds: [],
                grid: grid, areas: quiz.areas)
        }
        return (document, seedId)
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
