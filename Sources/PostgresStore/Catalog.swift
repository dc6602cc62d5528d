import Foundation
import QuizCore
import UQuizStorage

/// The movie catalog on PostgreSQL, with AppDatabase's merge rules (QuizStore's `Catalog.merge` from an authority).
extension PostgresQuizStore {
    /// Merges what a source says into the catalog (what it states wins, what it does not is kept, aliases only ever
    /// added) and returns the movies as stored.
    @discardableResult
    public func upsertMovies(_ movies: [CatalogMovie]) async throws -> [CatalogMovie] {
        try await write { session in
            var stored: [CatalogMovie] = []
            for movie in movies { stored.append(try await Self.merge(movie, in: session)) }
            return stored
        }
    }

    /// The catalog movie with this key; `tmdb-<id>` also finds the film with that TMDB id under another key.
    public func catalogMovie(key: String) async throws -> CatalogMovie? {
        try await readTogether { session in
            var movies = try await Self.movies(where: "catalog_key = $1", [.text(key)], in: session)
            if movies.isEmpty, key.hasPrefix("tmdb-"), let id = Int64(key.dropFirst(5)) {
                movies = try await Self.movies(where: "tmdb_id = $1", [.int(id)], in: session)
            }
            return movies.first
        }
    }

    public func catalogMovies(keys: [String]) async throws -> [String: CatalogMovie] {
        guard !keys.isEmpty else { return [:] }
        return try await readTogether { session in
            let movies = try await Self.movies(
                where: "catalog_key IN (\(Self.placeholders(keys.count)))", keys.map { .text($0) }, in: session)
            return Dictionary(uniqueKeysWithValues: movies.map { ($0.catalogKey, $0) })
        }
    }

    /// The whole catalog, by catalog key in byte order (as SQLite sorts it).
    public func allCatalogMovies() async throws -> [CatalogMovie] {
        try await readTogether { session in try await Self.movies(where: "true", [], in: session) }
    }

    public func catalogPage(after: Int64?, limit: Int) async throws -> (movies: [CatalogMovie], next: Int64?) {
        try await readTogether { session in
            let ids = try await session.query(
                "SELECT id FROM movie WHERE id > $1 ORDER BY id LIMIT $2", [.int(after ?? 0), .int(limit)]
            ).map { try $0.int64("id") }
            guard !ids.isEmpty else { return ([], nil) }
            let movies = try await Self.movies(
                where: "id = ANY($1::bigint[])", [.text("{" + ids.map(String.init).joined(separator: ",") + "}")],
                in: session)
            return (movies, ids.count == limit ? ids.last : nil)
        }
    }

    /// Offline search: movies whose titles (Korean, English, original) or aliases contain `query`, in any case, best
    /// match first, in the order AppDatabase gives (`CatalogMovie.rankedForSearch`). A plain scan: a catalog of
    /// thousands of movies answers at once without a trigram index.
    public func searchCatalog(_ query: String, language: QuizLanguage, limit: Int = 20) async throws -> [CatalogMovie] {
        let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !needle.isEmpty else { return [] }
        let pattern = "%" + needle.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        return try await readTogether { session in
            let movies = try await Self.movies(
                where: """
                    id IN (SELECT m.id FROM movie m
                           WHERE m.title_ko ILIKE $1 ESCAPE '\\' OR m.title_en ILIKE $1 ESCAPE '\\'
                              OR m.original_title ILIKE $1 ESCAPE '\\'
                              OR EXISTS (SELECT 1 FROM movie_alias a WHERE a.movie_id = m.id AND a.title ILIKE $1 ESCAPE '\\')
                           LIMIT 500)
                    """, [.text(pattern)], in: session)
            return CatalogMovie.rankedForSearch(movies, query: needle, language: language, limit: limit)
        }
    }

    static func movies(where condition: String, _ values: [Bind], in session: Session) async throws -> [CatalogMovie] {
        let rows = try await session.query(
            """
            SELECT id, catalog_key, tmdb_id, original_title, title_ko, title_en, release_date, poster_path_ko,
                   poster_path_en, bundled_poster
            FROM movie WHERE \(condition) ORDER BY catalog_key COLLATE "C"
            """, values)
        guard !rows.isEmpty else { return [] }
        let ids = try rows.map { try $0.int64("id") }
        var aliases: [Int64: [String]] = [:]
        for row in try await session.query(
            "SELECT movie_id, title FROM movie_alias WHERE movie_id = ANY($1::bigint[]) ORDER BY id",
            [.text("{" + ids.map(String.init).joined(separator: ",") + "}")])
        {
            aliases[try row.int64("movie_id"), default: []].append(try row.string("title"))
        }
        return try rows.map { row in
            var titles: [QuizLanguage: String] = [:]
            titles[.ko] = try row.stringOrNil("title_ko")
            titles[.en] = try row.stringOrNil("title_en")
            var posters: [QuizLanguage: String] = [:]
            posters[.ko] = try row.stringOrNil("poster_path_ko")
            posters[.en] = try row.stringOrNil("poster_path_en")
            return CatalogMovie(
                catalogKey: try row.string("catalog_key"), tmdbId: try row.intOrNil("tmdb_id"),
                originalTitle: try row.string("original_title"), titles: titles,
                releaseDate: try row.stringOrNil("release_date"), posterPaths: posters,
                bundledPoster: try row.stringOrNil("bundled_poster"), aliases: aliases[try row.int64("id")] ?? [])
        }
    }

    /// `Catalog.merge(_:from: .authority)`: the same film by TMDB id whatever its key, else by key, else a new row.
    static func merge(_ movie: CatalogMovie, in session: Session) async throws -> CatalogMovie {
        var known: CatalogMovie?
        if let tmdbId = movie.tmdbId {
            known = try await movies(where: "tmdb_id = $1", [.int(tmdbId)], in: session).first
        }
        if known == nil {
            known = try await movies(where: "catalog_key = $1", [.text(movie.catalogKey)], in: session).first
        }
        guard var known else {
            try await upsert(movie, in: session)
            return movie
        }
        known.take(whatIsStatedIn: movie)
        try await upsert(known, in: session)
        return known
    }

    /// Inserts the movie or replaces the row with its key whole; aliases are only ever added.
    static func upsert(_ movie: CatalogMovie, in session: Session) async throws {
        let row = try await session.one(
            """
            INSERT INTO movie (catalog_key, tmdb_id, original_title, title_ko, title_en, release_date, poster_path_ko,
                               poster_path_en, bundled_poster)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            ON CONFLICT (catalog_key) DO UPDATE SET
                tmdb_id = EXCLUDED.tmdb_id, original_title = EXCLUDED.original_title, title_ko = EXCLUDED.title_ko,
                title_en = EXCLUDED.title_en, release_date = EXCLUDED.release_date,
                poster_path_ko = EXCLUDED.poster_path_ko, poster_path_en = EXCLUDED.poster_path_en,
                bundled_poster = EXCLUDED.bundled_poster
            RETURNING id
            """,
            [
                .text(movie.catalogKey), .int(movie.tmdbId), .text(movie.originalTitle), .text(movie.titles[.ko]),
                .text(movie.titles[.en]), .text(movie.releaseDate), .text(movie.posterPaths[.ko]),
                .text(movie.posterPaths[.en]), .text(movie.bundledPoster),
            ])!
        let id = try row.int64("id")
        for alias in movie.aliases {
            try await session.execute(
                "INSERT INTO movie_alias (movie_id, title) VALUES ($1, $2) ON CONFLICT DO NOTHING", [.int(id), .text(alias)])
        }
    }
}

/// Fills an empty database from the seed bundle's content, in one transaction.
enum Seeder {
    /// Seeds when the database has no package and no catalog yet; the caller holds the advisory lock.
    static func seedIfEmpty(_ session: Session, content: () throws -> SeedContent) async throws -> Bool {
        let empty = try await session.one(
            "SELECT NOT EXISTS (SELECT 1 FROM package) AND NOT EXISTS (SELECT 1 FROM movie) AS empty")!.bool("empty")
        guard empty else { return false }
        let seed = try content()
        try await session.execute("BEGIN")
        do {
            try await session.execute(
                "INSERT INTO seed_meta (key, value) VALUES ('bundleVersion', $1)", [.text(seed.bundleVersion)])
            for poster in seed.posters {
                try await session.execute(
                    "INSERT INTO poster_image (file_name, jpeg, attribution) VALUES ($1, $2, $3)",
                    [.text(poster.fileName), .bytes(poster.jpeg), .text(poster.attribution)])
            }
            for movie in seed.movies { _ = try await PostgresQuizStore.merge(movie, in: session) }
            for package in seed.packages { _ = try await PostgresQuizStore.insert(package, in: session) }
            try await session.execute("COMMIT")
        } catch {
            try? await session.execute("ROLLBACK")
            throw error
        }
        return true
    }
}
