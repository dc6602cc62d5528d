/// Movie titles found by what a player has typed so far, for suggestions while they type: every title of a movie (in
/// each language, the original, its aliases) is found from the start of any of its words, and a word of a script
/// written without spaces (Hangul, kana, ideographs) from any of its letters too, so "wars", "war" and "단속" find
/// "Star Wars" and "스즈메의 문단속". Typed text and titles compare in `TitleNormalizer.readable`'s form, so case,
/// accents and punctuation never stand in the way.
///
/// Built once (sorting every starting point of every title), then each look-up is two binary searches and a walk over
/// the titles that match: a few milliseconds for hundreds of thousands of titles, small enough for every keystroke.
public struct TitleIndex: Sendable {
    /// A movie as the index knows it.
    public struct Movie: Sendable, Hashable {
        public var key: String
        public var titles: [QuizLanguage: String]
        public var originalTitle: String
        public var aliases: [String]
        public var year: Int?

        public init(key: String, titles: [QuizLanguage: String], originalTitle: String, aliases: [String] = [], year: Int?) {
            self.key = key
            self.titles = titles
            self.originalTitle = originalTitle
            self.aliases = aliases
            self.year = year
        }

        /// Keyed by its TMDB id where it has one, as a search's answer is, so that the two are one movie.
        public init(_ movie: CatalogMovie) {
            self.init(
                key: movie.tmdbId.map { "tmdb-\($0)" } ?? movie.catalogKey, titles: movie.titles, originalTitle: movie.originalTitle, aliases: movie.aliases,
                year: movie.releaseDate.flatMap { Int($0.prefix(4)) })
        }

        /// The title a player of a package in `language` sees, as `CatalogMovie.title(in:)` chooses it.
        func title(in language: QuizLanguage) -> String {
            titles[language] ?? titles[.en] ?? originalTitle
        }
    }

    /// How well a title matched: a lower value is listed first.
    enum Match: Int, Comparable {
        /// The title shown in the asked language (or the original) begins with the typed text.
        case shownTitleStart
        /// Another of its names begins with it.
        case otherNameStart
        case wordStart
        case insideWord

        static func < (lhs: Match, rhs: Match) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One movie's name, in readable form, and which movie it names.
    private struct Name {
        var movie: Int32
        /// Where its bytes begin in `bytes`, and how many there are.
        var start: Int32
        var count: Int32
        /// Whether it is the movie's title in `language` (nil: the original title), or an alias.
        var language: QuizLanguage?
        var isOriginal: Bool
    }

    /// A place a match may begin: a name and a byte offset into it.
    private struct Start {
        var name: Int32
        var offset: Int32
    }

    /// A movie and how well it matched, in the order suggestions list them.
    private struct Ranked: Sendable {
        var movie: Int32
        var match: Match
    }

    public let movies: [Movie]
    private let bytes: [UInt8]
    private let names: [Name]
    /// Every start, in the byte order of the text from it to its name's end.
    private let starts: [Start]
    /// The length of each movie's title shown in a language, which orders suggestions that match alike.
    private let shownLengths: [QuizLanguage: [Int]]
    /// The best `keptLimit` movies of each text more than `walkLimit` starts begin with, by language: a look-up of a
    /// text that common (two letters match a hundred thousand starts of a large catalog) reads them rather than
    /// walking its starts.
    private var kept: [QuizLanguage: [[UInt8]: [Ranked]]] = [:]

    /// The fewest characters (in readable form) a look-up needs: one letter of a Latin title matches too much to help.
    public static let minimumQueryLength = 2
    /// The most starts a look-up walks; a text more starts begin with is answered from `kept`.
    static let walkLimit = 4_096
    /// How many suggestions are kept for a common text: the most a look-up answers from them.
    public static let keptLimit = 8
    /// The longest common text (in bytes) kept; a longer one that still begins more than `walkLimit` starts is walked.
    static let keptDepth = 48

    public init(_ movies: [Movie]) {
        var bytes: [UInt8] = []
        var names: [Name] = []
        var starts: [Start] = []
        for (movieIndex, movie) in movies.enumerated() {
            var seen = Set<String>()
            var named: [(String, QuizLanguage?, Bool)] = movie.titles.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { ($0.value, $0.key, false) }
            named.append((movie.originalTitle, nil, true))
            named += movie.aliases.map { ($0, nil, false) }
            for (text, language, isOriginal) in named {
                let readable = TitleNormalizer.readable(text)
                guard !readable.isEmpty, seen.insert(readable).inserted else { continue }
                let utf8 = Array(readable.utf8)
                let name = Int32(names.count)
                names.append(
                    Name(movie: Int32(movieIndex), start: Int32(bytes.count), count: Int32(utf8.count),
                         language: language, isOriginal: isOriginal))
                bytes += utf8
                for offset in Self.startOffsets(of: readable) { starts.append(Start(name: name, offset: Int32(offset))) }
            }
        }
        self.movies = movies
        shownLengths = Dictionary(uniqueKeysWithValues: QuizLanguage.allCases.map { language in
            (language, movies.map { $0.title(in: language).count })
        })
        self.bytes = bytes
        self.names = names
        self.starts = starts.sorted { [bytes, names] a, b in
            Self.compare(Self.slice(a, bytes, names), Self.slice(b, bytes, names)) < 0
        }
        kept = keepCommonTexts()
    }

    public var isEmpty: Bool { movies.isEmpty }

    /// The byte offsets a match may begin at in a readable name: each word's first letter, and each letter of a word
    /// outside ASCII (scripts written without spaces between their words).
    static func startOffsets(of readable: String) -> [Int] {
        var offsets: [Int] = []
        var offset = 0
        var atWordStart = true
        for character in readable {
            let length = character.utf8.count
            if character == " " {
                atWordStart = true
            } else {
                if atWordStart || !character.isASCII { offsets.append(offset) }
                atWordStart = false
            }
            offset += length
        }
        return offsets
    }

    /// The movies whose names match `typed`, best first: at most `limit`, one line per movie, shown in `language`.
    /// Nothing when `typed` is shorter than `minimumQueryLength` once normalized.
    public func suggestions(for typed: String, language: QuizLanguage, limit: Int) -> [TitleSuggestion] {
        let query = TitleNormalizer.readable(typed)
        guard query.count >= Self.minimumQueryLength, limit > 0 else { return [] }
        let needle = Array(query.utf8)
        let ranked: [Ranked]
        if limit <= Self.keptLimit, let common = kept[language]?[needle] {
            ranked = common
        } else {
            let range = firstStart(notBefore: needle)..<firstStart(notBeginningWith: needle)
            ranked = rank(range, limit: limit)[language] ?? []
        }
        return ranked.prefix(limit).map { TitleSuggestion(movie: movies[Int($0.movie)], language: language, match: $0.match) }
    }

    /// The best `limit` movies of the starts in `range`, in each language: each movie's best match, ordered as
    /// `TitleSuggestion` orders them.
    private func rank(_ range: Range<Int>, limit: Int) -> [QuizLanguage: [Ranked]] {
        guard !range.isEmpty else { return [:] }
        // Each movie's best match in each language (255: not matched), in flat arrays: a common text matches most of
        // the catalog.
        let languages = QuizLanguage.allCases
        var best = [[UInt8]](repeating: [UInt8](repeating: .max, count: movies.count), count: languages.count)
        var touched: [Int32] = []
        for index in range {
            let start = starts[index]
            let name = names[Int(start.name)]
            let movie = Int(name.movie)
            let inside: Match?
            if start.offset == 0 {
                inside = nil
            } else {
                inside = bytes[Int(name.start + start.offset) - 1] == UInt8(ascii: " ") ? .wordStart : .insideWord
            }
            if best[0][movie] == .max { touched.append(name.movie) }
            for (number, language) in languages.enumerated() {
                let match = inside ?? (name.language == language || name.isOriginal ? .shownTitleStart : .otherNameStart)
                best[number][movie] = min(best[number][movie], UInt8(match.rawValue))
            }
        }
        var ranked: [QuizLanguage: [Ranked]] = [:]
        for (number, language) in languages.enumerated() {
            let matches = best[number]
            let lengths = shownLengths[language] ?? []
            // Ordered by numbers first; only the movies that may be among the first `limit` (ties included) are made
            // into suggestions and ordered in full.
            let key = { (movie: Int32) in Int(matches[Int(movie)]) << 32 | lengths[Int(movie)] }
            var counts: [Int: Int] = [:]
            for movie in touched { counts[key(movie), default: 0] += 1 }
            var threshold = Int.max
            var seen = 0
            for candidate in counts.keys.sorted() {
                seen += counts[candidate]!
                if seen >= limit {
                    threshold = candidate
                    break
                }
            }
            let candidates = touched.filter { key($0) <= threshold }.map { movie in
                (movie, TitleSuggestion(movie: movies[Int(movie)], language: language, match: Match(rawValue: Int(matches[Int(movie)]))!))
            }
            ranked[language] = candidates.sorted { $0.1 < $1.1 }.prefix(limit).map { Ranked(movie: $0.0, match: $0.1.match) }
        }
        return ranked
    }

    /// The best movies of every text more than `walkLimit` starts begin with (up to `keptDepth` bytes), by language.
    private func keepCommonTexts() -> [QuizLanguage: [[UInt8]: [Ranked]]] {
        var kept: [QuizLanguage: [[UInt8]: [Ranked]]] = [:]
        // The starts of `range` share their first `depth` bytes; they are split by the next one.
        func visit(_ range: Range<Int>, depth: Int) {
            let first = Self.slice(starts[range.lowerBound], bytes, names)
            let endsACharacter = first.count == depth || !(0x80...0xBF).contains(first[first.startIndex + depth])
            if depth > 0, endsACharacter {
                let prefix = Array(first.prefix(depth))
                for (language, ranked) in rank(range, limit: Self.keptLimit) { kept[language, default: [:]][prefix] = ranked }
            }
            guard depth < Self.keptDepth else { return }
            var index = range.lowerBound
            // The starts whose text ends here sort first.
            while index < range.upperBound, Self.slice(starts[index], bytes, names).count == depth { index += 1 }
            while index < range.upperBound {
                let byte = byteAt(depth, of: index)
                var end = index + 1
                while end < range.upperBound, byteAt(depth, of: end) == byte { end += 1 }
                if end - index > Self.walkLimit { visit(index..<end, depth: depth + 1) }
                index = end
            }
        }
        if starts.count > Self.walkLimit { visit(0..<starts.count, depth: 0) }
        return kept
    }

    private func byteAt(_ depth: Int, of index: Int) -> UInt8 {
        let text = Self.slice(starts[index], bytes, names)
        return text[text.startIndex + depth]
    }

    /// The first start whose text is not ordered before `needle`.
    private func firstStart(notBefore needle: [UInt8]) -> Int {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if Self.compare(Self.slice(starts[middle], bytes, names), needle[...]) < 0 {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// The first start whose text neither begins with `needle` nor is ordered before it.
    private func firstStart(notBeginningWith needle: [UInt8]) -> Int {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if Self.compare(Self.slice(starts[middle], bytes, names).prefix(needle.count), needle[...]) <= 0 {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    private static func slice(_ start: Start, _ bytes: [UInt8], _ names: [Name]) -> ArraySlice<UInt8> {
        let name = names[Int(start.name)]
        return bytes[Int(name.start + start.offset)..<Int(name.start + name.count)]
    }

    private static func compare(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        var i = a.startIndex
        var j = b.startIndex
        while i < a.endIndex, j < b.endIndex {
            if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
            i += 1
            j += 1
        }
        return (a.endIndex - i) - (b.endIndex - j)
    }
}

/// A movie suggested while a player types: its title in the page's language, the original beside it when that
/// differs, and its year, which tells remakes apart.
public struct TitleSuggestion: Sendable, Hashable, Comparable {
    public var title: String
    public var originalTitle: String?
    public var year: Int?
    /// Which movie it is, so that suggestions from two indexes are told apart.
    public var key: String
    let match: TitleIndex.Match

    init(movie: TitleIndex.Movie, language: QuizLanguage, match: TitleIndex.Match) {
        title = movie.title(in: language)
        originalTitle = movie.originalTitle == title ? nil : movie.originalTitle
        year = movie.year
        key = movie.key
        self.match = match
    }

    /// The best matches first; among equals the shorter title (the typed text is more of it), then by title and year.
    public static func < (lhs: TitleSuggestion, rhs: TitleSuggestion) -> Bool {
        if lhs.match != rhs.match { return lhs.match < rhs.match }
        if lhs.title.count != rhs.title.count { return lhs.title.count < rhs.title.count }
        if lhs.title != rhs.title { return lhs.title < rhs.title }
        if lhs.year != rhs.year { return (lhs.year ?? 0) > (rhs.year ?? 0) }
        return lhs.key < rhs.key
    }

    /// The suggestions of several indexes as one list: one line per movie, its best match, at most `limit`.
    public static func merged(_ lists: [[TitleSuggestion]], limit: Int) -> [TitleSuggestion] {
        var best: [String: TitleSuggestion] = [:]
        for suggestion in lists.joined() where best[suggestion.key].map({ suggestion < $0 }) ?? true {
            best[suggestion.key] = suggestion
        }
        return Array(best.values.sorted().prefix(limit))
    }
}
