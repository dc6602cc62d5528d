import Foundation
import QuizCore

extension CatalogMovie {
    /// Takes what an authority (TMDB, the seed) states about this movie and keeps what it does not say: every store
    /// merges catalog facts by this one rule. Aliases are only ever added.
    public mutating func take(whatIsStatedIn movie: CatalogMovie) {
        if !movie.originalTitle.isEmpty { originalTitle = movie.originalTitle }
        tmdbId = movie.tmdbId ?? tmdbId
        releaseDate = movie.releaseDate ?? releaseDate
        titles.merge(movie.titles) { _, stated in stated }
        posterPaths.merge(movie.posterPaths) { _, stated in stated }
        bundledPoster = movie.bundledPoster ?? bundledPoster
        aliases = Aliases.merged(aliases, movie.aliases)
    }
}

extension CatalogMovie {
    /// The order of a catalog search's results, shared by every store so that the same matches come back in the same
    /// order: exact title first, then titles that start with the query, then the rest; the player's language breaks
    /// ties, then the title and the key, so the order is total. `query` is trimmed already.
    public static func rankedForSearch(
        _ movies: [CatalogMovie], query: String, language: QuizLanguage, limit: Int
    ) -> [CatalogMovie] {
        Array(movies.sorted { rank($0, query, language) < rank($1, query, language) }.prefix(limit))
    }

    private static func rank(_ movie: CatalogMovie, _ query: String, _ language: QuizLanguage) -> (Int, Int, String, String) {
        let wanted = query.lowercased()
        let titles = [movie.titles[language], movie.titles[language == .ko ? .en : .ko], movie.originalTitle]
            .compactMap { $0?.lowercased() } + movie.aliases.map { $0.lowercased() }
        let closeness = titles.map { title in
            title == wanted ? 0 : title.hasPrefix(wanted) ? 1 : title.split(separator: " ").contains { $0.hasPrefix(wanted) } ? 2 : 3
        }.min() ?? 3
        let inLanguage = movie.titles[language]?.lowercased().contains(wanted) == true ? 0 : 1
        return (closeness, inLanguage, movie.title(in: language), movie.catalogKey)
    }
}
