import GRDB
import QuizCore

/// The local movie catalog: every movie the seed or a search ever brought, keyed by `catalogKey`.
enum Catalog {
    /// Inserts the movie or updates the stored one with the same key; aliases are only ever added, so aliases learned from
    /// another source survive.
    static func upsert(_ movie: CatalogMovie, in db: Database) throws {
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
