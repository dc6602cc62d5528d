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

    public let movies: [Movie]
    private let bytes: [UInt8]
    private let names: [Name]
    /// Every start, in the byte order of the text from it to its name's end.
    private let starts: [Start]
    /// The length of each movie's title shown in a language, which orders suggestions that match alike.
    private let shownLengths: [QuizLanguage: [Int]]

    /// The fewest characters (in readable form) a look-up needs: one letter of a Latin title matches too much to help.
    public static let minimumQueryLength = 2

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
        var best: [Int32: Match] = [:]
        var index = firstStart(notBefore: needle)
        while index < starts.count {
            let start = starts[index]
            let text = Self.slice(start, bytes, names)
            guard text.starts(with: needle) else { break }
            let name = names[Int(start.name)]
            let match: Match
            if start.offset == 0 {
                match = name.language == language || name.isOriginal ? .shownTitleStart : .otherNameStart
            } else {
                let before = bytes[Int(name.start + start.offset) - 1]
                match = before == UInt8(ascii: " ") ? .wordStart : .insideWord
            }
            if best[name.movie].map({ match < $0 }) ?? true { best[name.movie] = match }
            index += 1
        }
        // A short text matches thousands of movies: they are ordered by numbers first, and only the ones that may be
        // among the first `limit` (ties included) are made into suggestions and ordered in full.
        let lengths = shownLengths[language] ?? []
        let ordered = best.map { movie, match in (movie: movie, match: match, length: lengths[Int(movie)]) }
            .sorted { ($0.match.rawValue, $0.length) < ($1.match.rawValue, $1.length) }
        var candidates = ordered.prefix(limit)
        if let last = candidates.last {
            candidates = ordered.prefix { ($0.match.rawValue, $0.length) <= (last.match.rawValue, last.length) }
        }
        let ranked = candidates.map { TitleSuggestion(movie: movies[Int($0.movie)], language: language, match: $0.match) }
        return Array(ranked.sorted().prefix(limit))
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
