import QuizCore
import Synchronization

/// Movie titles suggested while a player types a guess, the same whichever quiz is running: from an index of every
/// title the catalog holds (each title TMDB has answered a search with is kept there), in memory so that a keystroke
/// is answered in milliseconds, with TMDB asked, through the makers' search (its cache, its pace and its breaker), only
/// for what the index lacks.
///
/// A list drawn from a handful of movies would tell which movies the quizzes are about, so a small index never answers
/// alone: below `Rules.minimumTitles` the suggestions are TMDB's (waited for, the index adding to them), and without
/// TMDB there are none (`available` false).
public final class TitleSuggestions: Sendable {
    public struct Rules: Sendable, Equatable {
        /// The fewest movies the index must hold to answer by itself.
        public var minimumTitles: Int
        /// TMDB searches filling the index that may run at once; beyond them a lacking look-up is answered as it is.
        public var fillsInFlight: Int

        public init(minimumTitles: Int = 500, fillsInFlight: Int = 4) {
            self.minimumTitles = minimumTitles
            self.fillsInFlight = fillsInFlight
        }
    }

    public struct Answer: Sendable, Equatable {
        public var titles: [TitleSuggestion]
        /// Whether suggestions can be had on this server at all now.
        public var available: Bool
        /// Whether TMDB is being asked for this text, so that asking again shortly may find more.
        public var pending: Bool
    }

    /// The most suggestions a look-up answers with.
    public static let limit = 8
    /// The most movies learned since the index was last made that are kept beside it (the oldest go first: they are in
    /// the store, and the next index has them).
    static let recentCapacity = 5_000
    /// A full page of TMDB's search: fewer means TMDB had nothing more for the text, nor for any longer one.
    static let tmdbPage = 20

    let environment: SharingEnvironment
    let search: MovieSearches
    let rules: Rules
    private let now: @Sendable () -> Duration
    private let state = Mutex(State())
    /// What TMDB answered for a text, by how many movies, for as long as the search keeps its answer.
    private let asked: ExpiringMap<Asked, Int>

    private struct State {
        var recent: [TitleIndex.Movie] = []
        /// Counts the changes to `recent`, so that of two fills ending in either order the later list's index stays.
        var recentVersion = 0
        var recentIndex = TitleIndex([])
        var recentIndexVersion = 0
        var fillsRunning = 0
        var filling: Set<Asked> = []
    }

    private struct Asked: Hashable {
        var text: String
        var language: QuizLanguage
    }

    public init(environment: SharingEnvironment, search: MovieSearches, rules: Rules, now: @escaping @Sendable () -> Duration) {
        self.environment = environment
        self.search = search
        self.rules = rules
        self.now = now
        asked = ExpiringMap(lifetime: search.lifetime, capacity: search.capacity)
    }

    /// The titles `typed` suggests to a player of a package in `language`.
    public func suggest(_ typed: String, language: QuizLanguage) async throws -> Answer {
        let readable = TitleNormalizer.readable(typed)
        guard readable.count >= TitleIndex.minimumQueryLength else {
            return Answer(titles: [], available: try await isAvailable(), pending: false)
        }
        let index = try await index()
        let key = Asked(text: readable, language: language)
        let hasTMDB = try environment.movieClient() != nil
        if index.movies.count >= rules.minimumTitles {
            let found = look(up: typed, language: language, in: index)
            var pending = false
            if hasTMDB, found.count < Self.limit, readable.count >= 3, needsAsking(key) { pending = startFill(typed, key) }
            return Answer(titles: found, available: true, pending: pending)
        }
        // A small index: TMDB's answer first, or none at all.
        guard hasTMDB else { return Answer(titles: [], available: false, pending: false) }
        if needsAsking(key), try await fill(typed, key) == nil {
            return Answer(titles: [], available: false, pending: false)
        }
        return Answer(titles: look(up: typed, language: language, in: index), available: true, pending: false)
    }

    /// Whether a look-up of enough text would be answered.
    private func isAvailable() async throws -> Bool {
        if try environment.movieClient() != nil { return true }
        return try await index().movies.count >= rules.minimumTitles
    }

    private func look(up typed: String, language: QuizLanguage, in index: TitleIndex) -> [TitleSuggestion] {
        let recent = state.withLock { $0.recentIndex }
        return TitleSuggestion.merged(
            [index.suggestions(for: typed, language: language, limit: Self.limit),
             recent.suggestions(for: typed, language: language, limit: Self.limit)],
            limit: Self.limit)
    }

    /// The index of the store's catalog, shared with the judges (`SharedCatalogTitles`).
    private func index() async throws -> TitleIndex {
        try await environment.catalogTitles.current(environment).index
    }

    /// Whether TMDB may have titles for `key` that it was not asked for: not asked for it, nor for a text it begins
    /// with that found less than a page (TMDB finds a longer text among those).
    private func needsAsking(_ key: Asked) -> Bool {
        let instant = now()
        var prefix = ""
        for character in key.text {
            prefix.append(character)
            guard prefix.count >= 3 else { continue }
            if let count = asked.value(for: Asked(text: prefix, language: key.language), at: instant),
                prefix == key.text || count < Self.tmdbPage
            {
                return false
            }
        }
        return true
    }

    /// Starts asking TMDB in the background, unless as many fills as allowed run or this one does; whether it started.
    private func startFill(_ typed: String, _ key: Asked) -> Bool {
        let started = state.withLock { state in
            guard state.fillsRunning < rules.fillsInFlight, !state.filling.contains(key) else { return false }
            state.fillsRunning += 1
            state.filling.insert(key)
            return true
        }
        guard started else { return false }
        Task {
            defer { state.withLock { $0.fillsRunning -= 1; $0.filling.remove(key) } }
            _ = try? await fill(typed, key)
        }
        return true
    }

    /// Asks TMDB (through the makers' search) and keeps the movies it answers with; how many, or `nil` when TMDB did not
    /// answer (the search then answered from the catalog, which the index holds already).
    @discardableResult
    private func fill(_ typed: String, _ key: Asked) async throws -> Int? {
        let found = try await search.find(typed, language: key.language, page: 1, year: nil)
        guard found.offlineReason == nil else { return nil }
        asked.set(found.results.count, for: key, at: now())
        let learned = found.results.map {
            TitleIndex.Movie(
                key: $0.tmdbId.map { "tmdb-\($0)" } ?? $0.catalogKey, titles: [key.language: $0.title],
                originalTitle: $0.originalTitle, year: $0.releaseDate.flatMap { Int($0.prefix(4)) })
        }
        guard !learned.isEmpty else { return 0 }
        let (recent, version) = state.withLock { state in
            let keys = Set(learned.map(\.key))
            state.recent.removeAll { keys.contains($0.key) }
            state.recent += learned
            if state.recent.count > Self.recentCapacity { state.recent.removeFirst(state.recent.count - Self.recentCapacity) }
            state.recentVersion += 1
            return (state.recent, state.recentVersion)
        }
        let index = try await environment.heavyWork.run { TitleIndex(recent) }
        state.withLock { state in
            if version > state.recentIndexVersion { (state.recentIndex, state.recentIndexVersion) = (index, version) }
        }
        return found.results.count
    }
}
