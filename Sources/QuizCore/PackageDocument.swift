import Foundation
import PosterGrid

/// One quiz package as a file writes it: a spec (`uquiz create --from`, a publication), a package of an export, a
/// package of the seed source. The containers differ (a spec is one package at the top level beside `format`, an export
/// and the seed list packages), the package is this one type, versioned by `currentFormat` and checked by `check`.
///
/// What a file may leave out is optional here and required by the form it is checked in: a spec names its movies by
/// reference and may leave the maker, the language, posters and areas to uquiz; an export writes every fact of a stored
/// package, each quiz on its own grid; the seed names movies by key and posters by language, and its own `seedId`.
public struct PackageDocument: Codable, Sendable, Equatable {
    /// The format of every document uquiz reads and writes: specs, exports and the seed source.
    public static let currentFormat = 1
    public static let maxQuizzes = 50
    public static let maxTextLength = 200
    /// Characters are grapheme clusters, and one may hold any number of combining marks ("a" and 3 million accents is
    /// one character of 6 MB), so a text is also limited in Unicode scalars: 5 per character, more than decomposed
    /// Hangul (3), accented letters (2 or 3) or emoji sequences of a whole title need, and at most 4 KB of UTF-8.
    public static let maxTextScalars = 1000
    /// The most genre ids a quiz carries: TMDB has 19 genres.
    public static let maxGenres = 30

    /// Exports and the seed.
    public var shareCode: String?
    /// The seed's own name of the package (`en-silent`); only the seed has it, and only the seed source reads it.
    public var seedId: String?
    public var title: String
    /// Left out of a spec for the maker setting (the CLI) or the player's name (a server).
    public var maker: String?
    public var level: String
    /// Left out of a spec for the language setting.
    public var language: String?
    /// Exports and the seed.
    public var createdAt: String?
    public var quizzes: [QuizEntry]

    public init(
        shareCode: String? = nil, seedId: String? = nil, title: String, maker: String?, level: String, language: String?,
        createdAt: String? = nil, quizzes: [QuizEntry]
    ) {
        self.shareCode = shareCode
        self.seedId = seedId
        self.title = title
        self.maker = maker
        self.level = level
        self.language = language
        self.createdAt = createdAt
        self.quizzes = quizzes
    }

    /// One quiz as a file writes it. A spec writes `movie` (a reference), `poster` and `areas`, the last two optional;
    /// the seed `movie` (a key), `poster` (`ko`, `en` or `bundled`) and `areas`; an export every field but `poster`,
    /// `movie` as the movie's facts.
    public struct QuizEntry: Codable, Sendable, Equatable {
        public var movie: Movie
        /// The quiz's title, in the package's language (exports).
        public var title: String?
        /// A spec's choice of poster instead of the movie's primary one: a TMDB path (`/abc.jpg`), or the name of a
        /// poster image the database holds (a bundled one, or one uploaded to a server: `upload-<sha256>.jpg`). In the
        /// seed: the movie's poster in a language (`ko`, `en`) or its bundled one (`bundled`).
        public var poster: String?
        /// The poster a stored quiz shows, and where it comes from (exports).
        public var posterPath: String?
        public var posterSource: String?
        public var genreIds: [Int]?
        /// The grid the areas are on (exports); a spec's quizzes are on the configured grid, the seed's on its own.
        public var grid: GridGeometry?
        /// Centres as `[row, column]`, stage 1 first; absent in a spec to have them chosen automatically.
        public var areas: [[Int]]?
        /// A spec's other answers the maker accepts for this quiz besides the movie's titles (an export writes a quiz's
        /// aliases with its movie's facts).
        public var aliases: [String]?

        public init(
            movie: Movie, title: String? = nil, poster: String? = nil, posterPath: String? = nil,
            posterSource: String? = nil, genreIds: [Int]? = nil, grid: GridGeometry? = nil, areas: [[Int]]?,
            aliases: [String]? = nil
        ) {
            self.movie = movie
            self.title = title
            self.poster = poster
            self.posterPath = posterPath
            self.posterSource = posterSource
            self.genreIds = genreIds
            self.grid = grid
            self.areas = areas
            self.aliases = aliases
        }

        /// A spec's quiz: a movie by reference, maybe a poster, areas and aliases.
        public init(movie: MovieReference, poster: String? = nil, areas: [[Int]]? = nil, aliases: [String]? = nil) {
            self.init(movie: .reference(movie), poster: poster, areas: areas, aliases: aliases)
        }
    }

    /// A quiz's movie: a reference to look up (specs and the seed), or its facts written out (exports).
    public enum Movie: Codable, Sendable, Equatable {
        case reference(MovieReference)
        case facts(MovieFacts)

        public init(from decoder: any Decoder) throws {
            // An object is facts; anything else a reference, whose own decoding says what is wrong with it.
            if (try? decoder.container(keyedBy: MovieFacts.CodingKeys.self)) != nil {
                self = .facts(try MovieFacts(from: decoder))
            } else {
                self = .reference(try MovieReference(from: decoder))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .reference(let reference): try reference.encode(to: encoder)
            case .facts(let facts): try facts.encode(to: encoder)
            }
        }

        /// The facts, when the file writes them.
        public var facts: MovieFacts? {
            if case .facts(let facts) = self { facts } else { nil }
        }
    }

    /// A TMDB id (`27205`) or a catalog key (`"seed-the-admiral-roaring-currents"`).
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

    /// A movie as an export writes it, so that the file imports into a database that never saw it.
    public struct MovieFacts: Codable, Sendable, Equatable {
        public var catalogKey: String
        @NullEncodable public var tmdbId: Int?
        public var originalTitle: String
        public var titles: [String: String]
        @NullEncodable public var releaseDate: String?
        public var aliases: [String]

        enum CodingKeys: String, CodingKey { case catalogKey, tmdbId, originalTitle, titles, releaseDate, aliases }

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
}

// MARK: - The one validator

extension PackageDocument {
    /// What a document may leave out, by where it comes from.
    public enum Form: Sendable {
        /// A spec (flags, `uquiz create --from`, a publication): movies by reference; the maker, the language, posters
        /// and areas may be left to uquiz; areas are placed on `geometry`, the configured grid.
        case spec(geometry: GridGeometry)
        /// A package as stored (an export, the seed's once resolved, a package about to be saved): every fact written
        /// out, each quiz on its own grid.
        case stored
    }

    /// A document whose every field is known good: texts kept to the rule, the level and language parsed, posters and
    /// areas checked against the grid and the level. What the form lets a spec leave out stays `nil`.
    public struct Checked: Sendable {
        public var title: String
        public var maker: String?
        public var level: Level
        public var language: QuizLanguage?
        public var quizzes: [CheckedQuiz]
        /// The stored form's package whole (its origin `.user`, no seed id: the seed source marks its own), and the
        /// facts of its movies for the catalog, without the aliases, which judge its quizzes only.
        public var stored: (package: QuizPackage, movies: [CatalogMovie])?
    }

    public struct CheckedQuiz: Sendable {
        /// The movie as the document names it: a spec's reference, a stored quiz's catalog key.
        public var movie: MovieReference
        /// A spec's poster as given (`nil` for the movie's own); a stored quiz's poster path.
        public var poster: String?
        /// `nil` when a spec leaves them to be chosen.
        public var areas: [Cell]?
        /// The answers this quiz accepts besides its movie's titles and the catalog's aliases.
        public var aliases: [String] = []
    }

    /// Checks the format version of any document: one this uquiz understands.
    public static func checkFormat(_ format: Int) throws(SpecProblem) {
        guard format <= currentFormat else {
            throw SpecProblem("$.format", "format \(format) is newer than this uquiz understands (\(currentFormat)); upgrade uquiz")
        }
        guard format >= 1 else { throw SpecProblem("$.format", "format must be 1 or more") }
    }

    /// Every rule a package keeps, in the `form` its source writes, each failure naming its JSON path under `path`
    /// (`$` for a spec, `$.packages[2]` in an export, `package` for one about to be saved): the one validator of specs,
    /// exports, imports, stored packages and the seed source.
    public func check(levels: LevelRules, form: Form, at path: String = "$") throws(SpecProblem) -> Checked {
        let isStored: Bool
        if case .stored = form { isStored = true } else { isStored = false }
        func required<Value>(_ value: Value?, _ key: String, in path: String) throws(SpecProblem) -> Value? {
            // The words of a key missing from the file, which a stored package's fields are.
            if isStored, value == nil { throw SpecProblem(path, "missing \"\(key)\"") }
            return value
        }
        var code: ShareCode?
        if let text = try required(shareCode, "shareCode", in: path) {
            guard let parsed = ShareCode(text) else { throw SpecProblem(path + ".shareCode", "\"\(text)\" is not a share code") }
            code = parsed
        }
        try Self.checkText(title, path: path + ".title", name: "title")
        if let maker = try required(maker, "maker", in: path) { try Self.checkText(maker, path: path + ".maker", name: "maker") }
        if let createdAt = try required(createdAt, "createdAt", in: path) {
            try Self.checkText(createdAt, path: path + ".createdAt", name: "creation time")
        }
        guard let level = Level(rawValue: level) else {
            throw SpecProblem(path + ".level", "unknown level \"\(level)\": use beginner, intermediate or expert")
        }
        var language: QuizLanguage?
        if let code = try required(self.language, "language", in: path) {
            guard let parsed = QuizLanguage(rawValue: code) else {
                throw SpecProblem(path + ".language", "unknown language \"\(code)\": use ko or en")
            }
            language = parsed
        }
        guard !quizzes.isEmpty else { throw SpecProblem(path + ".quizzes", "a package needs at least 1 quiz") }
        guard quizzes.count <= Self.maxQuizzes else {
            throw SpecProblem(path + ".quizzes", "\(quizzes.count) quizzes: a package holds at most \(Self.maxQuizzes)")
        }
        var seen: [MovieReference: Int] = [:]
        var checked: [CheckedQuiz] = []
        var stored: [Quiz] = []
        var movies: [String: CatalogMovie] = [:]
        for (index, entry) in quizzes.enumerated() {
            let quizPath = "\(path).quizzes[\(index)]"
            // A stored quiz's movie is known by its catalog key.
            let reference: MovieReference =
                switch entry.movie {
                case .reference(let movie): movie
                case .facts(let movie): .catalog(movie.catalogKey)
                }
            if let earlier = seen[reference] {
                throw SpecProblem(quizPath + ".movie", "\(reference) is already quiz \(earlier + 1) of this package")
            }
            seen[reference] = index
            switch (form, entry.movie) {
            case (.spec, .facts):
                throw SpecProblem(quizPath + ".movie", "expected a TMDB id or a catalog key")
            case (.stored, .reference):
                throw SpecProblem(quizPath + ".movie", "expected the movie's facts")
            case (.spec(let geometry), .reference):
                if let poster = entry.poster, !PosterPath.isTMDBPath(poster), !PosterPath.isBundledName(poster) {
                    throw SpecProblem(quizPath + ".poster", PosterPath.specRule)
                }
                let areas = try entry.areas.map { areas throws(SpecProblem) in
                    try Self.checkAreas(areas, geometry: geometry, limit: levels[level].areaCount, path: quizPath + ".areas")
                }
                let aliases = try Self.checkAliases(entry.aliases ?? [], path: quizPath + ".aliases")
                checked.append(CheckedQuiz(movie: reference, poster: entry.poster, areas: areas, aliases: aliases))
            case (.stored, .facts(let facts)):
                if entry.aliases != nil {
                    throw SpecProblem(quizPath + ".aliases", "a stored quiz's aliases are written with its movie's facts")
                }
                let movie = try facts.catalogMovie(path: quizPath + ".movie")
                guard let title = entry.title else { throw SpecProblem(quizPath, "missing \"title\"") }
                try Self.checkText(title, path: quizPath + ".title", name: "title")
                guard let genreIds = entry.genreIds else { throw SpecProblem(quizPath, "missing \"genreIds\"") }
                guard genreIds.count <= Self.maxGenres else {
                    throw SpecProblem(quizPath + ".genreIds", "\(genreIds.count) genres: a quiz carries at most \(Self.maxGenres)")
                }
                guard let posterSource = entry.posterSource else { throw SpecProblem(quizPath, "missing \"posterSource\"") }
                guard let source = PosterSource(rawValue: posterSource) else {
                    throw SpecProblem(quizPath + ".posterSource", "unknown poster source \"\(posterSource)\"")
                }
                guard let posterPath = entry.posterPath else { throw SpecProblem(quizPath, "missing \"posterPath\"") }
                try PosterPath.check(posterPath, source: source, at: quizPath + ".posterPath")
                // The grid checked its own rules when it was decoded.
                guard let geometry = entry.grid else { throw SpecProblem(quizPath, "missing \"grid\"") }
                guard let areas = entry.areas else { throw SpecProblem(quizPath, "missing \"areas\"") }
                let cells = try Self.checkAreas(
                    areas, geometry: geometry, limit: levels[level].areaCount, path: quizPath + ".areas")
                checked.append(CheckedQuiz(movie: reference, poster: posterPath, areas: cells))
                var catalogFacts = movie
                catalogFacts.aliases = []
                movies[movie.catalogKey] = catalogFacts
                // The file's aliases judge this quiz only; the catalog learns the movie without them.
                stored.append(Quiz(
                    tmdbId: movie.tmdbId, catalogKey: movie.catalogKey, title: title, originalTitle: movie.originalTitle,
                    releaseDate: movie.releaseDate, genreIds: genreIds, posterPath: posterPath, posterSource: source,
                    geometry: geometry, areas: cells, aliases: Aliases.merged([], movie.aliases)))
            }
        }
        var result = Checked(title: title, maker: maker, level: level, language: language, quizzes: checked)
        if isStored, let code, let maker, let language, let createdAt {
            result.stored = (
                QuizPackage(
                    shareCode: code, seedId: nil, origin: .user, title: title, maker: maker, level: level,
                    language: language, createdAt: createdAt, quizzes: stored),
                movies.values.sorted { $0.catalogKey < $1.catalogKey }
            )
        }
        return result
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

    /// Aliases as a file gives them, each a text by the rule of every text, merged as the judge reads them.
    static func checkAliases(_ aliases: [String], path: String) throws(SpecProblem) -> [String] {
        // Counted before any is read: a file with 100,000 aliases is refused at once, not checked and merged.
        guard aliases.count <= Aliases.maxPerMovie else {
            throw SpecProblem(path, "\(aliases.count) aliases: a movie carries at most \(Aliases.maxPerMovie)")
        }
        for (index, alias) in aliases.enumerated() {
            try checkText(alias, path: "\(path)[\(index)]", name: "alias")
        }
        return Aliases.merged([], aliases)
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
        if let hidden = ReadableName.firstHidden(in: text) {
            throw SpecProblem(
                path,
                "the \(name) contains U+\(String(hidden.value, radix: 16, uppercase: true)), a character readers do not see "
                    + "or that reorders the text around it: remove it")
        }
    }
}

extension PackageDocument.MovieFacts {
    func catalogMovie(path: String) throws(SpecProblem) -> CatalogMovie {
        try PackageDocument.checkText(catalogKey, path: path + ".catalogKey", name: "catalog key")
        try PackageDocument.checkText(originalTitle, path: path + ".originalTitle", name: "original title")
        var languageTitles: [QuizLanguage: String] = [:]
        for (code, title) in titles {
            guard let language = QuizLanguage(rawValue: code) else { throw SpecProblem(path + ".titles", "unknown language \"\(code)\"") }
            try PackageDocument.checkText(title, path: "\(path).titles.\(code)", name: "title")
            languageTitles[language] = title
        }
        _ = try PackageDocument.checkAliases(aliases, path: path + ".aliases")
        return CatalogMovie(
            catalogKey: catalogKey, tmdbId: tmdbId, originalTitle: originalTitle, titles: languageTitles,
            releaseDate: releaseDate, posterPaths: [:], bundledPoster: nil, aliases: aliases)
    }
}

// MARK: - Reading a document

extension PackageDocument {
    /// Decodes a document uquiz reads from a file (a spec, an export), every failure said as a `SpecProblem` at the
    /// JSON path where it is: the one place these decoding errors are worded for a file's user.
    static func decodeDocument<T: Decodable>(_ type: T.Type, from data: Data) throws(SpecProblem) -> T {
        do {
            return try JSONDecodingProblem.decode(T.self, from: data)
        } catch let problem as JSONDecodingProblem where problem.kind != .notJSON {
            switch problem.kind {
            case .missing(let key): throw SpecProblem(problem.path, "missing \"\(key)\"")
            case .wrongType(let expected): throw SpecProblem(problem.path, "expected \(expected)")
            case .null(let expected): throw SpecProblem(problem.path, "expected \(expected), found null")
            case .refused(let reason): throw SpecProblem(problem.path, reason)
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
}

/// A rule a document breaks, with where (a JSON path, or the flag).
public struct SpecProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public init(_ path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}
