import Foundation
import PosterGrid

/// The file `uquiz export` writes and `uquiz import` reads: packages with their quizzes, areas, grid geometry and the
/// facts of their movies; no attempts and no local ids, so it imports cleanly into any database.
public struct ExportDocument: Codable, Sendable, Equatable {
    public static let kind = "uquiz-packages"
    public static let maxBytes = 20 << 20

    public var format: Int
    public var kind: String
    public var packages: [PackageDocument]

    /// A document of `packages` as they are (the seed source builds one to check its packages by the same rules).
    public init(packages: [PackageDocument]) {
        format = PackageDocument.currentFormat
        kind = Self.kind
        self.packages = packages
    }

    public init(packages: [QuizPackage], movies: [String: CatalogMovie]) {
        self.init(packages: packages.map { package in
            PackageDocument(
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
                    return PackageDocument.QuizEntry(
                        movie: .facts(PackageDocument.MovieFacts(
                            catalogKey: quiz.catalogKey ?? quiz.tmdbId.map { "tmdb-\($0)" } ?? "export-\(quiz.title)",
                            tmdbId: quiz.tmdbId, originalTitle: quiz.originalTitle, titles: titles,
                            releaseDate: quiz.releaseDate,
                            aliases: Self.exportable(Aliases.merged(quiz.aliases, known?.aliases ?? [])))),
                        title: quiz.title, posterPath: quiz.posterPath, posterSource: quiz.posterSource.rawValue,
                        genreIds: quiz.genreIds, grid: quiz.geometry, areas: quiz.areas.map { [$0.row, $0.column] })
                })
        })
    }

    /// The aliases an export may carry, so that the file imports again: those that keep the text rule (TMDB's may be
    /// longer), the first `Aliases.maxPerMovie` of them.
    static func exportable(_ aliases: [String]) -> [String] {
        Array(Aliases.merged([], aliases).lazy.filter(isExportable).prefix(Aliases.maxPerMovie))
    }

    static func isExportable(_ text: String) -> Bool {
        (try? PackageDocument.checkText(text, path: "", name: "")) != nil
    }

    /// Reads and checks a whole document before anything is written: every failure names its JSON path.
    public static func read(_ data: Data, levels: LevelRules) throws(SpecProblem) -> (packages: [QuizPackage], movies: [CatalogMovie]) {
        guard data.count <= maxBytes else {
            throw SpecProblem("$", "\(data.count >> 20) MB: an export is at most \(maxBytes >> 20) MB")
        }
        let document = try PackageDocument.decodeDocument(ExportDocument.self, from: data)
        return try document.check(levels: levels)
    }

    /// Refuses a package that an export of it would carry and its import refuse (a maker with control characters, a
    /// title of 10,000 characters): the store saves nothing of the kind, whichever way it came in (a setting, a flag, a
    /// file, a front end to come). Problems are named from `package` (`package.maker`, `package.quizzes[0].title`). The
    /// area count is not held to a level here: that is the configured rules', which may differ between machines.
    public static func checkStorable(_ package: QuizPackage) throws(SpecProblem) {
        let anyCount = LevelRule(areaCount: .max, stageDuration: .seconds(1))
        var document = ExportDocument(packages: [package], movies: [:]).packages[0]
        // The quiz's own aliases as they are, not as an export would trim them: each must keep the rule.
        for (index, quiz) in package.quizzes.enumerated() {
            guard case .facts(var movie) = document.quizzes[index].movie else { continue }
            movie.aliases = quiz.aliases
            document.quizzes[index].movie = .facts(movie)
        }
        _ = try document.check(
            levels: LevelRules(beginner: anyCount, intermediate: anyCount, expert: anyCount, timeLimit: .seconds(1)),
            form: .stored, at: "package")
    }

    /// The document's own rules (its kind and format, packages under distinct share codes), then every package's in
    /// the stored form: the validator of exports, imports and the seed source.
    public func check(levels: LevelRules) throws(SpecProblem) -> (packages: [QuizPackage], movies: [CatalogMovie]) {
        guard kind == Self.kind else { throw SpecProblem("$.kind", "\"\(kind)\" is not a uquiz export") }
        try PackageDocument.checkFormat(format)
        guard !packages.isEmpty else { throw SpecProblem("$.packages", "the file holds no package") }
        var codes: [String: Int] = [:]
        var movies: [String: CatalogMovie] = [:]
        var result: [QuizPackage] = []
        for (index, entry) in packages.enumerated() {
            let path = "$.packages[\(index)]"
            guard let stored = try entry.check(levels: levels, form: .stored, at: path).stored else {
                preconditionFailure("the stored form checks every field a stored package has")
            }
            if let earlier = codes[stored.package.shareCode.value] {
                throw SpecProblem(path + ".shareCode", "\(stored.package.shareCode) is also package \(earlier + 1) of this file")
            }
            codes[stored.package.shareCode.value] = index
            for movie in stored.movies { movies[movie.catalogKey] = movie }
            result.append(stored.package)
        }
        return (result, movies.values.sorted { $0.catalogKey < $1.catalogKey })
    }
}
