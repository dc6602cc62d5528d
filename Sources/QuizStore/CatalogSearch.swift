internal import GRDB
import UQuizStorage
import QuizCore

extension AppDatabase {
    /// Adds movies a search or a movie lookup brought from TMDB, or merges them into those already known: what TMDB
    /// states wins, what it does not state (the other language's title and poster, a bundled poster) is kept.
    /// - Returns: the movies as stored.
    @discardableResult
    public func upsertMovies(_ movies: [CatalogMovie]) throws -> [CatalogMovie] {
        try write { db in try Self.upsertMovies(movies, in: db) }
    }

    static func upsertMovies(_ movies: [CatalogMovie], in db: Database) throws -> [CatalogMovie] {
        try movies.map { try Catalog.merge($0, from: .authority, in: db) }
    }

    /// The catalog movie with this key, if any; `tmdb-<id>` also finds the film with that TMDB id stored under another
    /// key (an import's or a seed's own key).
    public func catalogMovie(key: String) throws -> CatalogMovie? {
        try read { db in try Self.catalogMovie(key: key, in: db) }
    }

    static func catalogMovie(key: String, in db: Database) throws -> CatalogMovie? {
        var records = try MovieRecord.filter(Column("catalogKey") == key).fetchAll(db)
        if records.isEmpty, key.hasPrefix("tmdb-"), let id = Int(key.dropFirst(5)) {
            records = try MovieRecord.filter(Column("tmdbId") == id).fetchAll(db)
        }
        return try Catalog.movies(records, in: db).first
    }

    /// Offline search: movies whose titles (Korean, English, original) or aliases contain `query`, best match first.
    ///
    /// Three characters or more go through the FTS5 trigram index; shorter queries ("괴물") scan the index table with
    /// LIKE, which the trigram tokenizer cannot serve but which a local catalog of thousands answers at once.
    public func searchCatalog(_ query: String, language: QuizLanguage, limit: Int = 20) throws -> [CatalogMovie] {
        guard let needle = Self.searchNeedle(query) else { return [] }
        return try read { db in try Self.searchCatalog(needle: needle, language: language, limit: limit, in: db) }
    }

    /// What a search looks for in `query`; `nil` when it is blank, which finds nothing without asking the database.
    static func searchNeedle(_ query: String) -> String? {
        let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
        return needle.isEmpty ? nil : needle
    }

    static func searchCatalog(
        needle: String, language: QuizLanguage, limit: Int, in db: Database
    ) throws -> [CatalogMovie] {
        let ids: [Int64]
        if needle.count >= 3 {
            let phrase = "\"" + needle.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            ids = try Int64.fetchAll(
                db, sql: "SELECT rowid FROM movieSearch WHERE movieSearch MATCH ? ORDER BY bm25(movieSearch) LIMIT 500",
                arguments: [phrase])
        } else {
            let pattern = "%" + needle.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
            ids = try Int64.fetchAll(
                db,
                sql: """
                    SELECT rowid FROM movieSearch
                    WHERE titleKo LIKE ?1 ESCAPE '\\' OR titleEn LIKE ?1 ESCAPE '\\'
                       OR originalTitle LIKE ?1 ESCAPE '\\' OR aliases LIKE ?1 ESCAPE '\\'
                    LIMIT 500
                    """, arguments: [pattern])
        }
        let records = try MovieRecord.filter(ids.contains(Column("id"))).fetchAll(db)
        let movies = try Catalog.movies(records, in: db)
        return CatalogMovie.rankedForSearch(movies, query: needle, language: language, limit: limit)
    }
}

extension AppDatabase {
    /// The whole local catalog, for judging guesses against other movies' titles.
    public func allCatalogMovies() throws -> [CatalogMovie] {
        try read { db in try Catalog.fetchAll(in: db) }
    }
}
