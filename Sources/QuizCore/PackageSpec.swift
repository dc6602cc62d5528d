import Foundation
import PosterGrid

/// What `uquiz create --from FILE` reads (and `--title/--quiz` flags build): a package to make, before its movies are
/// looked up. Versioned by `format`; the JSON Schema is `Config/schemas/package-spec.schema.json`.
public struct PackageSpec: Codable, Sendable, Equatable {
    public static let currentFormat = 1
    public static let maxQuizzes = 50
    public static let maxTextLength = 200
    /// Characters are grapheme clusters, and one may hold any number of combining marks ("a" and 3 million accents is
    /// one character of 6 MB), so a text is also limited in Unicode scalars: 5 per character, more than decomposed
    /// Hangul (3), accented letters (2 or 3) or emoji sequences of a whole title need, and at most 4 KB of UTF-8.
    public static let maxTextScalars = 1000

    public var format: Int
    public var title: String
    public var maker: String?
    public var level: String
    public var language: String?
    public var quizzes: [QuizSpec]

    public init(format: Int = currentFormat, title: String, maker: String?, level: String, language: String?, quizzes: [QuizSpec]) {
        self.format = format
        self.title = title
        self.maker = maker
        self.level = level
        self.language = language
        self.quizzes = quizzes
    }

    public struct QuizSpec: Codable, Sendable, Equatable {
        /// A TMDB id (`27205`) or a catalog key (`"seed-the-admiral-roaring-currents"`).
        public var movie: MovieReference
        /// The poster to use instead of the movie's primary one: a TMDB path (`/abc.jpg`), or the name of a poster image
        /// the database holds (a bundled one, or one uploaded to a server: `upload-<sha256>.jpg`).
        public var poster: String?
        /// Centres as `[row, column]`, stage 1 first; absent to have them chosen automatically.
        public var areas: [[Int]]?

        public init(movie: MovieReference, poster: String? = nil, areas: [[Int]]? = nil) {
            self.movie = movie
            self.poster = poster
            self.areas = areas
        }
    }

    public enum MovieReference: Codable, Sendable, Hashable, CustomStringConvertible {
        case tmdb(Int)
        case catalog(String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let id = try? container.decode(Int.self) {
                self = .tmdb(id)
            } else {
                self = .catalog(try container.decode(String.self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .tmdb(let id): try container.encode(id)
            case .catalog(let key): try container.encode(key)
            }
        }

        /// The catalog key this reference would have.
        public var catalogKey: String {
            switch self {
            case .tmdb(let id): "tmdb-\(id)"
            case .catalog(let key): key
            }
        }

        public var description: String {
            switch self {
            case .tmdb(let id): "movie \(id)"
            case .catalog(let key): "movie \(key)"
            }
        }
    }

    /// A spec whose every field is known good: the level parsed, areas checked against the grid and the level.
    public struct Checked: Sendable {
        public var title: String
        public var maker: String?
        public var level: Level
        public var language: QuizLanguage?
        public var quizzes: [(movie: MovieReference, poster: String?, areas: [Cell]?)]
    }

    /// Every rule a package must keep, each failure naming its JSON path.
    public func check(geometry: GridGeometry, levels: LevelRules) throws(SpecProblem) -> Checked {
        guard format <= Self.currentFormat else {
            throw SpecProblem("$.format", "format \(format) is newer than this uquiz understands (\(Self.currentFormat)); upgrade uquiz")
        }
        guard format >= 1 else { throw SpecProblem("$.format", "format must be 1 or more") }
        try Self.checkText(title, path: "$.title", name: "title")
        if let maker { try Self.checkText(maker, path: "$.maker", name: "maker") }
        guard let level = Level(rawValue: level) else {
            throw SpecProblem("$.level", "unknown level \"\(level)\": use beginner, intermediate or expert")
        }
        var language: QuizLanguage?
        if let code = self.language {
            guard let parsed = QuizLanguage(rawValue: code) else {
                throw SpecProblem("$.language", "unknown language \"\(code)\": use ko or en")
            }
            language = parsed
        }
        guard !quizzes.isEmpty else { throw SpecProblem("$.quizzes", "a package needs at least 1 quiz") }
        guard quizzes.count <= Self.maxQuizzes else {
            throw SpecProblem("$.quizzes", "\(quizzes.count) quizzes: a package holds at most \(Self.maxQuizzes)")
        }
        var seen: [MovieReference: Int] = [:]
        var checked: [(MovieReference, String?, [Cell]?)] = []
        for (index, quiz) in quizzes.enumerated() {
            let path = "$.quizzes[\(index)]"
            if let earlier = seen[quiz.movie] {
                throw SpecProblem(path + ".movie", "\(quiz.movie) is already quiz \(earlier + 1) of this package")
            }
            seen[quiz.movie] = index
            if let poster = quiz.poster, !PosterPath.isTMDBPath(poster), !PosterPath.isBundledName(poster) {
                throw SpecProblem(path + ".poster", PosterPath.specRule)
            }
            var cells: [Cell]?
            if let areas = quiz.areas {
                cells = try Self.checkAreas(areas, geometry: geometry, limit: levels[level].areaCount, path: path + ".areas")
            }
            checked.append((quiz.movie, quiz.poster, cells))
        }
        return Checked(title: title, maker: maker, level: level, language: language, quizzes: checked)
    }

    /// Areas given as `[row, column]` pairs, checked against every grid rule in order, each failure at its JSON path.
    static func checkAreas(_ pairs: [[Int]], geometry: GridGeometry, limit: Int, path: String) throws(SpecProblem) -> [Cell] {
        var selection = AreaSelection(geometry: geometry, limit: limit)
        for (index, pair) in pairs.enumerated() {
            guard pair.count == 2 else { throw SpecProblem("\(path)[\(index)]", "an area is [row, column]") }
            do {
                try selection.add(Cell(row: pair[0], column: pair[1]))
            } catch {
                throw SpecProblem("\(path)[\(index)]", error.description)
            }
        }
        do {
            try selection.validateComplete()
        } catch {
            throw SpecProblem(path, error.description)
        }
        return selection.centres
    }

    /// The one check of every text a file, a flag or an edit brings in: not blank, at most 200 characters and 1000
    /// scalars (the scalars first, since counting characters of a huge text is itself slow), no control characters.
    public static func checkText(_ text: String, path: String, name: String) throws(SpecProblem) {
        let scalars = text.unicodeScalars.count
        guard scalars <= maxTextScalars else {
            throw SpecProblem(path, "the \(name) has \(scalars) Unicode scalars: at most \(maxTextScalars)")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw SpecProblem(path, "the \(name) is empty") }
        guard text.count <= maxTextLength else {
            throw SpecProblem(path, "the \(name) has \(text.count) characters: at most \(maxTextLength)")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw SpecProblem(path, "the \(name) contains control characters")
        }
    }

    /// Reads a spec file's bytes, refusing anything that is not a complete spec, with the JSON path of the problem.
    public static func decode(_ data: Data) throws(SpecProblem) -> PackageSpec {
        try decodeDocument(PackageSpec.self, from: data)
    }

    /// Decodes a document uquiz reads from a file (a spec, an export), every failure said as a `SpecProblem` at the
    /// JSON path where it is: the one place these decoding errors are classified.
    static func decodeDocument<T: Decodable>(_ type: T.Type, from data: Data) throws(SpecProblem) -> T {
        do {
            return try JSONDecodingProblem.decode(T.self, from: data)
        } catch let problem as JSONDecodingProblem where problem.kind != .notJSON {
            switch problem.kind {
            case .missing(let key): throw SpecProblem(problem.path, "missing \"\(key)\"")
            case .wrongType(let expected): throw SpecProblem(problem.path, "expected \(expected)")
            case .null(let expected): throw SpecProblem(problem.path, "expected \(expected), found null")
            case .invalid, .notJSON: throw SpecProblem(problem.path, "invalid value")
            }
        } catch {
            // Foundation says "not valid JSON", with no path, for valid JSON holding a number that is no Int (`30.5`,
            // `1e30`): every number of these documents is a whole one, so that number is the problem, found here.
            throw notAWholeNumber(in: data) ?? SpecProblem("$", "not JSON (or cut short)")
        }
    }

    /// The first number of a JSON document (keys in order) that is not a whole number an `Int` holds, as a problem at
    /// its path; `nil` when the bytes are not JSON or every number is whole.
    static func notAWholeNumber(in data: Data) -> SpecProblem? {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        func find(_ value: Any, _ path: String) -> SpecProblem? {
            switch value {
            case let object as [String: Any]:
                for key in object.keys.sorted() {
                    if let problem = find(object[key]!, "\(path).\(key)") { return problem }
                }
            case let array as [Any]:
                for (index, element) in array.enumerated() {
                    if let problem = find(element, "\(path)[\(index)]") { return problem }
                }
            case let number as NSNumber:
                // true and false are 1 and 0 here: whole, and typed wrongly, which the decoder itself says.
                let double = number.doubleValue
                guard double.isFinite, double == double.rounded() else {
                    return SpecProblem(path, "\(number) is not a whole number")
                }
                guard Int(exactly: double) != nil else { return SpecProblem(path, "\(number) is out of range") }
            default:
                break
            }
            return nil
        }
        return find(root, "$")
    }


    /// Reads one `--quiz` flag: `movie=27205 areas=12:30,40:12 poster=/path.jpg` (areas and poster optional).
    public static func parseQuizFlag(_ text: String, geometry: GridGeometry) throws(SpecProblem) -> QuizSpec {
        var movie: MovieReference?
        var poster: String?
        var areas: [[Int]]?
        for field in text.split(separator: " ", omittingEmptySubsequences: true) {
            let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw SpecProblem("--quiz", "\"\(field)\" is not key=value in \"\(text)\"") }
            switch pair[0] {
            case "movie":
                movie = Int(pair[1]).map(MovieReference.tmdb) ?? .catalog(pair[1])
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
                        throw SpecProblem("--quiz", error.description)
                    }
                }
                areas = cells
            default:
                throw SpecProblem("--quiz", "unknown key \"\(pair[0])\" in \"\(text)\": use movie=, areas= and poster=")
            }
        }
        guard let movie else { throw SpecProblem("--quiz", "\"\(text)\" names no movie=") }
        return QuizSpec(movie: movie, poster: poster, areas: areas)
    }
}

/// A rule a spec breaks, with where (a JSON path, or the flag).
public struct SpecProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public init(_ path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}

extension PackageSpec {
    /// The spec that makes `package` again elsewhere (a server publishes specs): each quiz's movie by TMDB id, else by
    /// catalog key, its TMDB poster (a bundled poster is the default wherever the movie has no other) and its areas.
    /// `nil` when a quiz has a movie known by neither, which nothing outside this catalog could resolve.
    public init?(remaking package: QuizPackage) {
        var quizzes: [QuizSpec] = []
        for quiz in package.quizzes {
            guard let movie = quiz.tmdbId.map(MovieReference.tmdb) ?? quiz.catalogKey.map(MovieReference.catalog) else {
                return nil
            }
            quizzes.append(
                QuizSpec(
                    movie: movie, poster: quiz.posterSource == .tmdb ? quiz.posterPath : nil,
                    areas: quiz.areas.map { [$0.row, $0.column] }))
        }
        self.init(
            title: package.title, maker: package.maker, level: package.level.rawValue, language: package.language.rawValue,
            quizzes: quizzes)
    }
}
