internal import GRDB
import UQuizStorage
import QuizCore

/// The local movie catalog: every movie the seed or a search ever brought, keyed by `catalogKey`.
enum Catalog {
    /// Where catalog facts come from, which decides what they may change in a row the catalog already holds.
    enum Source {
        /// TMDB and the seed bundle: what they state wins (a title in a language, the date, a poster path, the bundled
        /// poster); what they do not state is kept.
        case authority
        /// An imported file or a peer: it adds a movie the catalog does not know, and never changes one it knows, whose
        /// titles, aliases and TMDB id judge and link every package on it (a title the catalog lacked, or a TMDB id
        /// given to a seed film, would change how the seed's quizzes are judged). A file's aliases stay with its own
        /// quizzes (`Quiz.aliases`), its titles with its quiz (`Quiz.title`, `Quiz.originalTitle`).
        case file
    }

    /// Adds what `movie` says to the catalog without ever erasing: a field the source leaves empty keeps the stored
    /// value, and aliases are only ever added, by an authority only. Every catalog write from outside (search, movie lookups, imports, seed
    /// merges) goes through here.
    ///
    /// A movie is the same movie as a stored one with its TMDB id, whatever its catalog key (a file may call Metropolis
    /// `export-metropolis`, a search calls a seeded film `tmdb-…` that the seed keys `seed-…`): the facts join that
    /// row, whose key callers must use from then on. Else it is the stored one with the same key, else a new row.
    /// - Returns: the movie as stored, with the key it is stored under.
    @discardableResult
    static func merge(_ movie: CatalogMovie, from source: Source, in db: Database) throws -> CatalogMovie {
        let sameFilm = try movie.tmdbId.flatMap { try MovieRecord.filter(Column("tmdbId") == $0).fetchOne(db) }
        var movie = movie
        if source == .file { movie.aliases = [] }
        guard let record = try sameFilm ?? MovieRecord.filter(Column("catalogKey") == movie.catalogKey).fetchOne(db),
            var known = try movies([record], in: db).first
        else {
            try upsert(movie, in: db)
            return movie
        }
        switch source {
        case .authority:
            known.take(whatIsStatedIn: movie)
        case .file:
            return known
        }
        try upsert(known, in: db)
        return known
    }

    /// Inserts the movie or replaces the stored one with the same key whole (aliases are only ever added); only for a
    /// row whose every field is known, as `merge` makes it.
    private static func upsert(_ movie: CatalogMovie, in db: Database) throws {
        var record = MovieRecord(
            id: nil, catalogKey: movie.catalogKey, tmdbId: movie.tmdbId, originalTitle: movie.originalTitle,
            titleKo: movie.titles[.ko], titleEn: movie.titles[.en], releaseDate: movie.releaseDate,
            posterPathKo: movie.posterPaths[.ko], posterPathEn: movie.posterPaths[.en], bundledPoster: movie.bundledPoster
        )
        if let existing = try MovieRecord.filter(Column("catalogKey") == movie.catalogKey).fetchOne(db) {
            record.id = existing.id
            try record.update(db)
        } else {
            try record.insert(db)
        }
        for alias in movie.aliases {
            try db.execute(
                sql: "INSERT OR IGNORE INTO movieAlias (movieId, title) VALUES (?, ?)", arguments: [record.id, alias])
        }
        try reindex(movieId: record.id!, in: db)
    }

    /// Keeps the movie's row of the search index equal to its titles and aliases.
    static func reindex(movieId: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM movieSearch WHERE rowid = ?", arguments: [movieId])
        try db.execute(
            sql: """
                INSERT INTO movieSearch (rowid, titleKo, titleEn, originalTitle, aliases)
                SELECT id, titleKo, titleEn, originalTitle,
                       (SELECT group_concat(title, ' | ') FROM movieAlias WHERE movieId = movie.id)
                FROM movie WHERE id = ?
                """, arguments: [movieId])
    }

    /// The movies of these keys, by key.
    static func movies(keys: [String], in db: Database) throws -> [String: CatalogMovie] {
        let movies = try movies(try MovieRecord.filter(keys.contains(Column("catalogKey"))).fetchAll(db), in: db)
        return Dictionary(uniqueKeysWithValues: movies.map { ($0.catalogKey, $0) })
    }

    static func fetchAll(in db: Database) throws -> [CatalogMovie] {
        try movies(try MovieRecord.order(Column("catalogKey")).fetchAll(db), in: db)
    }

    static func movies(_ records: [MovieRecord], in db: Database) throws -> [CatalogMovie] {
        let ids = records.compactMap(\.id)
        let aliases = Dictionary(
            grouping: try MovieAliasRecord.filter(ids.contains(Column("movieId"))).order(Column("id")).fetchAll(db),
            by: \.movieId)
        return records.map { record in
            var titles: [QuizLanguage: String] = [:]
            titles[.ko] = record.titleKo
            titles[.en] = record.titleEn
            var posters: [QuizLanguage: String] = [:]
            posters[.ko] = record.posterPathKo
            posters[.en] = record.posterPathEn
            return CatalogMovie(
                catalogKey: record.catalogKey, tmdbId: record.tmdbId, originalTitle: record.originalTitle,
                titles: titles, releaseDate: record.releaseDate, posterPaths: posters,
                bundledPoster: record.bundledPoster, aliases: aliases[record.id!, default: []].map(\.title)
            )
        }
    }
}
