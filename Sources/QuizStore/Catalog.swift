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
    }

    static func fetchAll(in db: Database) throws -> [CatalogMovie] {
        let aliases = Dictionary(
            grouping: try MovieAliasRecord.order(Column("id")).fetchAll(db), by: \.movieId)
        return try MovieRecord.order(Column("catalogKey")).fetchAll(db).map { record in
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
