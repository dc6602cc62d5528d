import Foundation
import PosterGrid

/// What `uquiz create --from FILE` reads (and `--title/--quiz` flags build): one package to make, before its movies are
/// looked up, at the top level beside its `format`. The JSON Schema is `Config/schemas/package-spec.schema.json`.
public struct PackageSpec: Codable, Sendable, Equatable {
    public var format: Int
    public var package: PackageDocument

    public init(
        format: Int = PackageDocument.currentFormat, title: String, maker: String?, level: String, language: String?,
        quizzes: [PackageDocument.QuizEntry]
    ) {
        self.format = format
        package = PackageDocument(title: title, maker: maker, level: level, language: language, quizzes: quizzes)
    }

    private enum CodingKeys: String, CodingKey { case format }

    /// The package's fields are the spec's own, beside `format`.
    public init(from decoder: any Decoder) throws {
        format = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .format)
        package = try PackageDocument(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try package.encode(to: encoder)
    }

    /// Every rule a spec keeps, each failure naming its JSON path; areas are placed on `geometry`.
    public func check(geometry: GridGeometry, levels: LevelRules) throws(SpecProblem) -> PackageDocument.Checked {
        try PackageDocument.checkFormat(format)
        return try package.check(levels: levels, form: .spec(geometry: geometry))
    }

    /// Reads a spec file's bytes, refusing anything that is not a complete spec, with the JSON path of the problem.
    public static func decode(_ data: Data) throws(SpecProblem) -> PackageSpec {
        try PackageDocument.decodeDocument(PackageSpec.self, from: data)
    }

    /// Reads one quiz written on a line, `movie=27205 areas=12:30,40:12 poster=/path.jpg` (areas and poster optional),
    /// each problem said at `label` (the CLI's `--quiz` flag takes this form).
    public static func parseQuizLine(
        _ text: String, geometry: GridGeometry, label: String
    ) throws(SpecProblem) -> PackageDocument.QuizEntry {
        var movie: PackageDocument.MovieReference?
        var poster: String?
        var areas: [[Int]]?
        for field in text.split(separator: " ", omittingEmptySubsequences: true) {
            let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw SpecProblem(label, "\"\(field)\" is not key=value in \"\(text)\"") }
            switch pair[0] {
            case "movie":
                movie = Int(pair[1]).map(PackageDocument.MovieReference.tmdb) ?? .catalog(pair[1])
            case "poster":
                poster = pair[1]
            case "areas":
                var cells: [[Int]] = []
                for item in pair[1].split(separator: ",") {
                    // Pairs are row:column here, since commas separate areas.
                    do {
                        let cell = try CellParser.parse(String(item), geometry: geometry)
                        cells.append([cell.row, cell.column])
                    } catch {
                        throw SpecProblem(label, error.description)
                    }
                }
                areas = cells
            default:
                throw SpecProblem(label, "unknown key \"\(pair[0])\" in \"\(text)\": use movie=, areas= and poster=")
            }
        }
        guard let movie else { throw SpecProblem(label, "\"\(text)\" names no movie=") }
        return PackageDocument.QuizEntry(movie: movie, poster: poster, areas: areas)
    }
}

extension PackageSpec {
    /// The spec that makes `package` again elsewhere (a server publishes specs): each quiz's movie by TMDB id, else by
    /// catalog key, its TMDB poster (a bundled poster is the default wherever the movie has no other) and its areas.
    /// `nil` when a quiz has a movie known by neither, which nothing outside this catalog could resolve.
    public init?(remaking package: QuizPackage) {
        var quizzes: [PackageDocument.QuizEntry] = []
        for quiz in package.quizzes {
            let reference = quiz.tmdbId.map(PackageDocument.MovieReference.tmdb)
                ?? quiz.catalogKey.map(PackageDocument.MovieReference.catalog)
            guard let movie = reference else { return nil }
            quizzes.append(
                PackageDocument.QuizEntry(
                    movie: movie, poster: quiz.posterSource == .tmdb ? quiz.posterPath : nil,
                    areas: quiz.areas.map { [$0.row, $0.column] }))
        }
        self.init(
            title: package.title, maker: package.maker, level: package.level.rawValue, language: package.language.rawValue,
            quizzes: quizzes)
    }
}
