import Foundation
import PosterGrid

/// The file `uquiz export` writes and `uquiz import` reads: packages with their quizzes, areas, grid geometry and the
/// facts of their movies; no attempts and no local ids, so it imports cleanly into any database.
public struct ExportDocument: Codable, Sendable, Equatable {
    public static let currentFormat = 1
    public static let kind = "uquiz-packages"
    public static let maxBytes = 20 << 20

    public var format: Int
    public var kind: String
    public var packages: [Package]

    public struct Package: Codable, Sendable, Equatable {
        public var shareCode: String
        public var title: String
        public var maker: String
        public var level: String
        public var language: String
        public var createdAt: String
        public var quizzes: [QuizEntry]

        public init(
            shareCode: String, title: String, maker: String, level: String, language: String, createdAt: String,
            quizzes: [QuizEntry]
        ) {
            self.shareCode = shareCode
            self.title = title
            self.maker = maker
            self.level = level
            self.language = language
            self.createdAt = createdAt
            self.quizzes = quizzes
        }
    }

    public struct QuizEntry: Codable, Sendable, Equatable {
        public var movie: Movie
        public var title: String
        public var posterPath: String
        public var posterSource: String
        public var genreIds: [Int]
        public var grid: Grid
        public var areas: [[Int]]

        public init(
            movie: Movie, title: String, posterPath: String, posterSource: String, genreIds: [Int], grid: Grid, areas: [[Int]]
        ) {
            self.movie = movie
            self.title = title
            self.posterPath = posterPath
            self.posterSource = posterSource
            self.genreIds = genreIds
            self.grid = grid
            self.areas = areas
        }
    }

    public struct Movie: Codable, Sendable, Equatable {
        public var catalogKey: String
        @NullEncodable public var tmdbId: Int?
        public var originalTitle: String
        public var titles: [String: String]
        @NullEncodable public var releaseDate: String?
        public var aliases: [String]

        public init(
            catalogKey: String, tmdbId: Int?, originalTitle: String, titles: [String: String], releaseDate: String?,
            aliases: [String]
        ) {
            self.catalogKey = catalogKey
            self.tmdbId = tmdbId
            self.originalTitle = originalTitle
            self.titles = titles
            self.releaseDate = releaseDate
            self.aliases = aliases
        }
    }

    public struct Grid: Codable, Sendable, Equatable {
        public var columns: Int
        public var rows: Int
        public var areaSize: Int
        public var margin: Int

        public init(columns: Int, rows: Int, areaSize: Int, margin: Int) {
            self.columns = columns
            self.rows = rows
            self.areaSize = areaSize
            self.margin = margin
        }
    }

    /// A document of `packages` as they are (the seed source builds one to check its packages by the same rules).
    public init(packages: [Package]) {
        format = Self.currentFormat
        kind = Self.kind
        self.packages = packages
    }

    public init(packages: [QuizPackage], movies: [String: CatalogMovie]) {
        format = Self.currentFormat
        kind = Self.kind
        self.packages = packages.map { package in
            Package(
                shareCode: package.shareCode.value, title: package.title, maker: package.maker,
                level: package.level.rawValue, language: package.language.rawValue, createdAt: package.createdAt,
                quizzes: package.quizzes.map { quiz in
                    let known = quiz.catalogKey.flatMap { movies[$0] }
                    var titles: [String: String] = [:]
                    // Only titles its import accepts: TMDB's may be longer than a file may carry.
                    for (language, title) in known?.titles ?? [:] where Self.isExportable(title) {
                        titles[language.rawValue] = title
                    }
                    titles[package.language.rawValue] = titles[package.language.rawValue] ?? quiz.title
                    return QuizEntry(
                        movie: Movie(
                            catalogKey: quiz.catalogKey ?? quiz.tmdbId.map { "tmdb-\($0)" } ?? "export-\(quiz.title)",
                            tmdbId: quiz.tmdbId, originalTitle: quiz.originalTitle, titles: titles,
                            releaseDate: quiz.releaseDate,
                            aliases: Self.exportable(Aliases.merged(quiz.aliases, known?.aliases ?? []))),
                        title: quiz.title, posterPath: quiz.posterPath, posterSource: quiz.posterSource.rawValue,
                        genreIds: quiz.genreIds,
                        grid: Grid(
                            columns: quiz.geometry.columns, rows: quiz.geometry.rows, areaSize: quiz.geometry.areaSize,
                            margin: quiz.geometry.margin),
                        areas: quiz.areas.map { [$0.row, $0.column] })
                })
        }
    }

    /// The aliases an export may carry, so that the file imports again: those that keep the text rule (TMDB's may be
    /// longer), the first `Aliases.maxPerMovie` of them.
    static func exportable(_ aliases: [String]) -> [String] {
        Array(Aliases.merged([], aliases).lazy.filter(isExportable).prefix(Aliases.maxPerMovie))
    }

    static func isExportable(_ text: String) -> Bool {
        (try? PackageSpec.checkText(text, path: "", name: "")) != nil
    }

    /// The most genre ids a quiz carries: TMDB has 19 genres.
    public static let maxGenres = 30

    /// Reads and checks a whole document before anything is written: every failure names its JSON path.
    public static func read(_ data: Data, levels: LevelRules) throws(SpecProblem) -> (packages: [QuizPackage], movies: [CatalogMovie]) {
        guard data.count <= maxBytes else {
            throw SpecProblem("$", "\(data.count >> 20) MB: an export is at most \(maxBytes >> 20) MB")
        }
        let document = try PackageSpec.decodeDocument(ExportDocument.self, from: data)
        return try document.check(levels: levels)
    }

    /// Refuses a package that an export of it would carry and its import refuse (a maker with control characters, a
    /// title of 10,000 characters): the store saves nothing of the kind, whichever way it came in (a setting, a flag, a
    /// file, a front end to come). Problems are named from `package` (`package.maker`, `package.quizzes[0].title`). The
    /// area count is not held to a level here: that is the configured rules', which may differ between machines.
    public static func checkStorable(_ package: QuizPackage) throws(SpecProblem) {
        let anyCount = LevelRule(areaCount: .max, stageDuration: .seconds(1))
        var document = ExportDocument(packages: [package], movies: [:])
        // The quiz's own aliases as they are, not as an export would trim them: each must keep the rule.
        for (index, quiz) in package.quizzes.enumerated() { document.packages[0].quizzes[index].movie.aliases = quiz.aliases }
        _ = try document.check(
            levels: LevelRules(beginner: anyCount, intermediate: anyCount, expert: anyCount, timeLimit: .seconds(1)),
            packagePath: { _ in "package" })
    }

    /// Every rule a stored package keeps, checked on every package of the document, each problem at its JSON path:
    /// the one validator of exports, imports, stored packages and the seed source.
    public func check(
        levels: LevelRules, packagePath: (Int) -> String = { "$.packages[\($0)]" }
    ) throws(SpecProblem) -> (packages: [QuizPackage], movies: [CatalogMovie]) {
        guard kind == Self.kind else { throw SpecProblem("$.kind", "\"\(kind)\" is not a uquiz export") }
        guard format <= Self.currentFormat else {
            throw SpecProblem("$.format", "format \(format) is newer than this uquiz understands (\(Self.currentFormat)); upgrade uquiz")
        }
        guard format >= 1 else { throw SpecProblem("$.format", "format must be 1 or more") }
        guard !packages.isEmpty else { throw SpecProblem("$.packages", "the file holds no package") }
        var codes: [String: Int] = [:]
        var movies: [String: CatalogMovie] = [:]
        var result: [QuizPackage] = []
        for (packageIndex, entry) in packages.enumerated() {
            let path = packagePath(packageIndex)
            guard let code = ShareCode(entry.shareCode) else {
                throw SpecProblem(path + ".shareCode", "\"\(entry.shareCode)\" is not a share code")
            }
            if let earlier = codes[code.value] {
                throw SpecProblem(path + ".shareCode", "\(code) is also package \(earlier + 1) of this file")
            }
            codes[code.value] = packageIndex
            try PackageSpec.checkText(entry.title, path: path + ".title", name: "title")
            try PackageSpec.checkText(entry.maker, path: path + ".maker", name: "maker")
            try PackageSpec.checkText(entry.createdAt, path: path + ".createdAt", name: "creation time")
            guard let level = Level(rawValue: entry.level) else { throw SpecProblem(path + ".level", "unknown level \"\(entry.level)\"") }
            guard let language = QuizLanguage(rawValue: entry.language) else {
                throw SpecProblem(path + ".language", "unknown language \"\(entry.language)\"")
            }
            guard (1...PackageSpec.maxQuizzes).contains(entry.quizzes.count) else {
                throw SpecProblem(path + ".quizzes", "\(entry.quizzes.count) quizzes: a package holds 1 to \(PackageSpec.maxQuizzes)")
            }
            var seenMovies: Set<String> = []
            var quizzes: [Quiz] = []
            for (quizIndex, quiz) in entry.quizzes.enumerated() {
                let quizPath = "\(path).quizzes[\(quizIndex)]"
                let movie = try quiz.movie.catalogMovie(path: quizPath + ".movie")
                guard seenMovies.insert(movie.catalogKey).inserted else {
                    throw SpecProblem(quizPath + ".movie", "\(movie.catalogKey) is already in this package")
                }
                var catalogFacts = movie
                catalogFacts.aliases = []
                movies[movie.catalogKey] = catalogFacts
                try PackageSpec.checkText(quiz.title, path: quizPath + ".title", name: "title")
                guard quiz.genreIds.count <= Self.maxGenres else {
                    throw SpecProblem(quizPath + ".genreIds", "\(quiz.genreIds.count) genres: a quiz carries at most \(Self.maxGenres)")
                }
                guard let source = PosterSource(rawValue: quiz.posterSource) else {
                    throw SpecProblem(quizPath + ".posterSource", "unknown poster source \"\(quiz.posterSource)\"")
                }
                try PosterPath.check(quiz.posterPath, source: source, at: quizPath + ".posterPath")
                let geometry: GridGeometry
                do {
                    geometry = try GridGeometry(
                        columns: quiz.grid.columns, rows: quiz.grid.rows, areaSize: quiz.grid.areaSize, margin: quiz.grid.margin)
                } catch {
                    throw SpecProblem(quizPath + ".grid", error.description)
                }
                let areas = try PackageSpec.checkAreas(
                    quiz.areas, geometry: geometry, limit: levels[level].areaCount, path: quizPath + ".areas")
                // The file's aliases judge this quiz only; the catalog learns the movie without them.
                quizzes.append(Quiz(
                    tmdbId: movie.tmdbId, catalogKey: movie.catalogKey, title: quiz.title, originalTitle: movie.originalTitle,
                    releaseDate: movie.releaseDate, genreIds: quiz.genreIds, posterPath: quiz.posterPath, posterSource: source,
                    geometry: geometry, areas: areas, aliases: Aliases.merged([], movie.aliases)))
            }
            result.append(QuizPackage(
                shareCode: code, seedId: nil, origin: .user, title: entry.title, maker: entry.maker, level: level,
                language: language, createdAt: entry.createdAt, quizzes: quizzes))
        }
        return (result, movies.values.sorted { $0.catalogKey < $1.catalogKey })
    }
}

extension ExportDocument.Movie {
    func catalogMovie(path: String) throws(SpecProblem) -> CatalogMovie {
        try PackageSpec.checkText(catalogKey, path: path + ".catalogKey", name: "catalog key")
        try PackageSpec.checkText(originalTitle, path: path + ".originalTitle", name: "original title")
        var languageTitles: [QuizLanguage: String] = [:]
        for (code, title) in titles {
            guard let language = QuizLanguage(rawValue: code) else { throw SpecProblem(path + ".titles", "unknown language \"\(code)\"") }
            try PackageSpec.checkText(title, path: "\(path).titles.\(code)", name: "title")
            languageTitles[language] = title
        }
        // Counted before any is read: a file with 100,000 aliases is refused at once, not checked and merged.
        guard aliases.count <= Aliases.maxPerMovie else {
            throw SpecProblem(path + ".aliases", "\(aliases.count) aliases: a movie carries at most \(Aliases.maxPerMovie)")
        }
        for (index, alias) in aliases.enumerated() {
            try PackageSpec.checkText(alias, path: "\(path).aliases[\(index)]", name: "alias")
        }
        return CatalogMovie(
            catalogKey: catalogKey, tmdbId: tmdbId, originalTitle: originalTitle, titles: languageTitles,
            releaseDate: releaseDate, posterPaths: [:], bundledPoster: nil, aliases: aliases)
    }
}
