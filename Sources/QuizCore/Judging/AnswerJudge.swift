/// Why a guess was not accepted.
public enum Rejection: Hashable, Sendable {
    /// Nothing was left after normalization: not a guess at all.
    case emptyGuess
    /// The letters are close to `title` but the numbers are not: a sequel, a prequel or a wrong year is another movie.
    case digitsDiffer(from: String)
    /// The guess names another movie of the catalog exactly.
    case titleOfAnotherMovie(String)
    case tooFar
}

public enum Verdict: Hashable, Sendable {
    /// `matchedTitle` is the accepted title as given; `distance` the typos forgiven (0 for an exact match).
    case accepted(matchedTitle: String, distance: Int)
    case rejected(Rejection)

    public var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }
}

/// Decides whether a typed guess names a quiz's movie: any of its accepted titles (title, original title, the other
/// language's title, aliases) after `TitleNormalizer`, forgiving a few typos in long titles, never a different number
/// and never another movie's exact title.
public struct AnswerJudge: Sendable {
    /// One accepted title, as given and in its normalized variants.
    struct Candidate: Sendable {
        var title: String
        var variants: [String]
        /// `variants` taken apart once for the typo checks, which every judged guess makes.
        var spelled: [Spelled]

        init(title: String, variants: [String]) {
            self.title = title
            self.variants = variants
            spelled = variants.map(Spelled.init)
        }
    }

    /// A normalized title as the typo checks read it: its Characters, its digits, and its Characters without digits.
    struct Spelled: Sendable {
        var characters: [Character]
        var digits: String
        var letters: [Character]

        init(_ normalized: String) {
            characters = Array(normalized)
            digits = TitleNormalizer.digits(of: normalized)
            letters = Array(TitleNormalizer.letters(of: normalized))
        }
    }

    let accepted: [Candidate]
    /// Each normalized variant of `accepted`, with the first candidate that has it: an exact match is one lookup a
    /// variant of the guess.
    let acceptedByVariant: [String: Int]
    /// The exact titles of the other movies, asked only for a guess no accepted title matches exactly (so a title this
    /// movie shares with another, a remake's or an alias, blocks nothing: the guess names this movie as much as that).
    let otherMovies: CatalogTitleLookup

    /// Titles that normalize to nothing are ignored. Another movie's title that is also one of the accepted titles (a
    /// remake, an alias shared with another film) blocks nothing.
    public init(acceptedTitles: [String], otherMovieTitles: [String] = []) {
        let accepted = acceptedTitles.map { Candidate(title: $0, variants: TitleNormalizer.variants($0)) }
            .filter { !$0.variants.isEmpty }
        let acceptedVariants = Set(accepted.flatMap(\.variants))
        self.init(
            accepted: accepted,
            otherMovies: CatalogTitleLookup(titles: otherMovieTitles.filter {
                acceptedVariants.isDisjoint(with: TitleNormalizer.variants($0))
            }))
    }

    private init(accepted: [Candidate], otherMovies: CatalogTitleLookup) {
        self.accepted = accepted
        self.otherMovies = otherMovies
        acceptedByVariant = Self.firstIndex(byVariantOf: accepted)
    }

    private static func firstIndex(byVariantOf candidates: [Candidate]) -> [String: Int] {
        var indices: [String: Int] = [:]
        for (index, candidate) in candidates.enumerated() {
            for variant in candidate.variants where indices[variant] == nil { indices[variant] = index }
        }
        return indices
    }

    /// The first of `candidates` (by `indices`) that has one of `variants`.
    private static func first(
        of candidates: [Candidate], by indices: [String: Int], having variants: [String]
    ) -> Candidate? {
        variants.compactMap { indices[$0] }.min().map { candidates[$0] }
    }

    /// A judge for `movie` played in any language: its titles in every language, its original title and its aliases
    /// are accepted; the titles of the other movies of `catalog` are not.
    public init(movie: CatalogMovie, catalog: [CatalogMovie] = []) {
        self.init(
            acceptedTitles: Self.titles(of: movie) + movie.aliases,
            otherMovieTitles: Self.titles(ofMoviesOtherThan: movie.catalogKey, in: catalog))
    }

    /// The judge of a quiz as played: the quiz's own titles and aliases (as its maker saved them or its file brought
    /// them), and every title and alias the catalog knows for its movie; refused: the exact titles of every other movie
    /// of the catalog.
    public init(quiz: Quiz, catalog: [CatalogMovie]) {
        let movie = catalog.first { $0.catalogKey == quiz.catalogKey }
        self.init(
            acceptedTitles: [quiz.title, quiz.originalTitle] + quiz.aliases
                + (movie.map { Self.titles(of: $0) + $0.aliases } ?? []),
            otherMovieTitles: Self.titles(ofMoviesOtherThan: quiz.catalogKey, in: catalog))
    }

    /// The judge of a quiz as played, with its catalog movie (`nil`: not in the catalog) and the exact titles of the
    /// whole catalog made once for every judge (a server's catalog grows with every search TMDB answers: each judge
    /// holding every other movie's titles cost a play's start seconds on a catalog of 200,000 movies).
    public init(quiz: Quiz, movie: CatalogMovie?, catalogTitles: CatalogTitleLookup) {
        let titles = [quiz.title, quiz.originalTitle] + quiz.aliases + (movie.map { Self.titles(of: $0) + $0.aliases } ?? [])
        self.init(
            accepted: titles.map { Candidate(title: $0, variants: TitleNormalizer.variants($0)) }.filter { !$0.variants.isEmpty },
            otherMovies: catalogTitles)
    }

    static func titles(of movie: CatalogMovie) -> [String] {
        QuizLanguage.allCases.compactMap { movie.titles[$0] } + [movie.originalTitle]
    }

    private static func titles(ofMoviesOtherThan key: String?, in catalog: [CatalogMovie]) -> [String] {
        catalog.filter { $0.catalogKey != key }.flatMap(titles(of:))
    }

    /// Typos forgiven in a normalized title of `length` Characters: short titles must be exact.
    public static func typoAllowance(forLength length: Int) -> Int {
        switch length {
        case ..<6: 0
        case ..<12: 1
        default: 2
        }
    }

    public func judge(_ guess: String) -> Verdict {
        let guessVariants = TitleNormalizer.variants(guess)
        guard !guessVariants.isEmpty else { return .rejected(.emptyGuess) }
        if let exact = Self.first(of: accepted, by: acceptedByVariant, having: guessVariants) {
            return .accepted(matchedTitle: exact.title, distance: 0)
        }
        if let other = otherMovies.title(havingAnyOf: guessVariants) {
            return .rejected(.titleOfAnotherMovie(other))
        }

        // No distance is worked out that cannot be within the allowance: it is at least the difference in length.
        let guesses = guessVariants.map(Spelled.init)
        var best: (title: String, distance: Int)?
        var digitsDifferFrom: String?
        for candidate in accepted {
            for title in candidate.spelled {
                let allowance = Self.typoAllowance(forLength: title.characters.count)
                for guess in guesses {
                    if guess.digits == title.digits {
                        // Within no allowance means equal, which the exact match above would have found.
                        guard allowance > 0, abs(guess.characters.count - title.characters.count) <= allowance else { continue }
                        let distance = Self.distance(guess.characters, title.characters)
                        if distance <= allowance, distance < best?.distance ?? .max {
                            best = (candidate.title, distance)
                        }
                    } else if digitsDifferFrom == nil, abs(guess.letters.count - title.letters.count) <= allowance {
                        if Self.distance(guess.letters, title.letters) <= allowance { digitsDifferFrom = candidate.title }
                    }
                }
            }
        }
        if let best { return .accepted(matchedTitle: best.title, distance: best.distance) }
        if let digitsDifferFrom { return .rejected(.digitsDiffer(from: digitsDifferFrom)) }
        return .rejected(.tooFar)
    }

    /// Optimal string alignment distance over Characters: insertions, deletions, substitutions and swaps of two
    /// neighbours each count 1, the commonest slips of a hurried typist.
    public static func distance(_ source: String, _ target: String) -> Int {
        distance(Array(source), Array(target))
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, beforePrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}

/// The exact titles of movies (each language's and the original) by their normalized variants: which movie's title a
/// guess is, in one lookup per variant of the guess, however many movies there are.
public struct CatalogTitleLookup: Sendable {
    private var titleByVariant: [String: String] = [:]

    public init(titles: some Sequence<String>) {
        for title in titles { add(title) }
    }

    public init(movies: some Sequence<CatalogMovie>) {
        for movie in movies { for title in AnswerJudge.titles(of: movie) { add(title) } }
    }

    /// The first title given for each variant stays.
    private mutating func add(_ title: String) {
        for variant in TitleNormalizer.variants(title) where titleByVariant[variant] == nil { titleByVariant[variant] = title }
    }

    /// How many distinct variants it holds.
    public var count: Int { titleByVariant.count }

    /// The title, as given, that has the first of `variants` it holds.
    public func title(havingAnyOf variants: [String]) -> String? {
        for variant in variants { if let title = titleByVariant[variant] { return title } }
        return nil
    }
}
