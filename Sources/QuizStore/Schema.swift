import Foundation
import UQuizStorage
internal import GRDB

/// Every schema change, in order. Names are never edited once shipped: a database records which it has applied, and one
/// that holds a name this list does not know was written by a newer uquiz.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-packages-quizzes-catalog-attempts", migrate: v1PackagesQuizzesCatalogAttempts)
        migrator.registerMigration("v2-catalog-search", migrate: v2CatalogSearch)
        migrator.registerMigration("v3-quiz-aliases", migrate: v3QuizAliases)
        migrator.registerMigration("v4-server-players-publications", migrate: v4ServerPlayersPublications)
        migrator.registerMigration("v5-server-plays-leaderboards-daily", migrate: v5ServerPlaysLeaderboardsDaily)
        migrator.registerMigration("v6-package-user-edited", migrate: v6PackageUserEdited)
        migrator.registerMigration("v7-server-open-plays-rate-buckets", migrate: v7ServerOpenPlaysRateBuckets)
        migrator.registerMigration("v8-room-results", migrate: v8RoomResults)
        migrator.registerMigration("v9-room-directory", migrate: v9RoomDirectory)
        migrator.registerMigration("v10-open-play-tally", migrate: v10OpenPlayTally)
        migrator.registerMigration("v11-player-history-server-copies", migrate: v11PlayerHistoryServerCopies)
        migrator.registerMigration("v12-moderation", migrate: v12Moderation)
        migrator.registerMigration("v13-link-codes", migrate: v13LinkCodes)
        migrator.registerMigration("v14-room-checkpoints", migrate: v14RoomCheckpoints)
        migrator.registerMigration("v15-drafts", migrate: v15Drafts)
        migrator.registerMigration("v16-answers-shown-wrong-guesses-room-hosts", migrate: v16AnswersShownWrongGuessesRoomHosts)
        migrator.registerMigration("v17-kept-tallies-board-index-package-search", migrate: v17KeptTalliesBoardIndexPackageSearch)
        migrator.registerMigration("v18-one-open-play-per-package", migrate: v18OneOpenPlayPerPackage)
        migrator.registerMigration("v19-daily-per-language", migrate: v19DailyPerLanguage)
        migrator.registerMigration("v20-report-address-group", migrate: v20ReportAddressGroup)
        return migrator
    }

    private static func v1PackagesQuizzesCatalogAttempts(_ db: Database) throws {
        try db.create(table: "meta") { t in
            t.primaryKey("key", .text)
            t.column("value", .text).notNull()
        }
        try db.create(table: "posterImage") { t in
            t.primaryKey("fileName", .text)
            t.column("jpeg", .blob).notNull()
            t.column("attribution", .text).notNull()
        }
        try db.create(table: "movie") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("catalogKey", .text).notNull().unique()
            t.column("tmdbId", .integer).unique()
            t.column("originalTitle", .text).notNull()
            t.column("titleKo", .text)
            t.column("titleEn", .text)
            t.column("releaseDate", .text)
            t.column("posterPathKo", .text)
            t.column("posterPathEn", .text)
            t.column("bundledPoster", .text).references("posterImage", onDelete: .setNull)
        }
        try db.create(table: "movieAlias") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("movie", onDelete: .cascade).notNull()
            t.column("title", .text).notNull()
            t.uniqueKey(["movieId", "title"])
        }
        try db.create(table: "package") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("shareCode", .text).notNull().unique()
            t.column("seedId", .text).unique()
            t.column("origin", .text).notNull().check { ["seed", "user"].contains($0) }
            t.column("title", .text).notNull()
            t.column("maker", .text).notNull()
            t.column("level", .text).notNull().check { ["beginner", "intermediate", "expert"].contains($0) }
            t.column("language", .text).notNull().check { ["ko", "en"].contains($0) }
            t.column("createdAt", .text).notNull()
        }
        try db.create(table: "quiz") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("package", onDelete: .cascade).notNull()
            t.column("position", .integer).notNull()
            t.column("catalogKey", .text)
            t.column("tmdbId", .integer)
            t.column("title", .text).notNull()
            t.column("originalTitle", .text).notNull()
            t.column("releaseDate", .text)
            t.column("genreIds", .text).notNull().defaults(to: "[]")
            t.column("posterPath", .text).notNull()
            t.column("posterSource", .text).notNull().check { ["tmdb", "bundled"].contains($0) }
            t.column("gridColumns", .integer).notNull()
            t.column("gridRows", .integer).notNull()
            t.column("gridAreaSize", .integer).notNull()
            t.column("gridMargin", .integer).notNull()
            t.uniqueKey(["packageId", "position"])
        }
        try db.create(table: "area") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("quiz", onDelete: .cascade).notNull()
            t.column("stage", .integer).notNull()
            t.column("centreRow", .integer).notNull()
            t.column("centreColumn", .integer).notNull()
            t.uniqueKey(["quizId", "stage"])
        }
        // A play is one run through a package; its score is what `list` shows as the best.
        try db.create(table: "play") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("package", onDelete: .cascade).notNull()
            t.column("player", .text).notNull()
            t.column("startedAt", .text).notNull()
            t.column("finishedAt", .text)
            t.column("score", .integer)
        }
        try db.create(table: "attempt") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("play", onDelete: .cascade)
            t.belongsTo("quiz", onDelete: .cascade).notNull()
            t.column("player", .text).notNull()
            t.column("startedAt", .text).notNull()
            t.column("correct", .boolean).notNull()
            t.column("seconds", .double).notNull()
            t.column("stageReached", .integer).notNull()
            t.column("hintsUsed", .integer).notNull().defaults(to: 0)
        }
    }

    private static func v2CatalogSearch(_ db: Database) throws {
        // Trigram tokens find substrings in any script: "스토리" in "토이 스토리", "ception" in "Inception".
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE movieSearch USING fts5(
                    titleKo, titleEn, originalTitle, aliases, tokenize = 'trigram')
                """)
        for movieId in try Int64.fetchAll(db, sql: "SELECT id FROM movie ORDER BY id") {
            try Catalog.reindex(movieId: movieId, in: db)
        }
    }

    private static func v3QuizAliases(_ db: Database) throws {
        // Aliases an imported file brought for a quiz's movie: they judge that quiz alone, and go with it.
        try db.create(table: "quizAlias") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("quiz", onDelete: .cascade).notNull()
            t.column("title", .text).notNull()
            t.uniqueKey(["quizId", "title"])
        }
    }

    private static func v4ServerPlayersPublications(_ db: Database) throws {
        // Guest players of `uquiz serve`. The bearer token is never stored: only its SHA-256, which is what a
        // request's token is looked up by.
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("tokenHash", .blob).notNull().unique()
            t.column("createdAt", .text).notNull()
        }
        // A package published on the server: who owns it and who can find it. Seed packages have no row; they are
        // public and owned by nobody. A package made by the CLI on the same file has none either, and is not
        // served. Deleting the package deletes its publication; deleting a player leaves its packages ownerless.
        try db.create(table: "publication") { t in
            t.primaryKey("packageId", .integer).references("package", onDelete: .cascade)
            t.belongsTo("owner", inTable: "player", onDelete: .setNull)
            t.column("visibility", .text).notNull().check { ["public", "unlisted"].contains($0) }
        }
        // Browsing newest first pages through (createdAt, id).
        try db.create(index: "package_on_createdAt_id", on: "package", columns: ["createdAt", "id"])
    }

    private static func v5ServerPlaysLeaderboardsDaily(_ db: Database) throws {
        // A play judged by `uquiz serve` is a `play` row like the CLI's, with the player who made it, the opaque
        // id its client knows it by, the quiz time it took (the leaderboard's tie-break), whether it is the ranked
        // one, and the UTC day of the daily quiz it played, if it was one.
        try db.alter(table: "play") { t in
            t.add(column: "publicId", .text)
            t.add(column: "playerId", .integer).references("player", onDelete: .cascade)
            t.add(column: "ranked", .boolean).notNull().defaults(to: false)
            t.add(column: "elapsedSeconds", .double)
            t.add(column: "dailyDay", .text)
        }
        try db.create(index: "play_on_publicId", on: "play", columns: ["publicId"], unique: true)
        // A player's first finished play of a package is the ranked one; the index makes a second impossible.
        try db.execute(sql: "CREATE UNIQUE INDEX play_ranked_once ON play(packageId, playerId) WHERE ranked")
        // One daily play per player and day, whatever the server's memory says.
        try db.execute(
            sql: "CREATE UNIQUE INDEX play_daily_once ON play(playerId, dailyDay) WHERE dailyDay IS NOT NULL")
        try db.execute(
            sql: "CREATE INDEX play_leaderboard ON play(packageId, score DESC, elapsedSeconds) WHERE ranked")
        // How a server play's quiz ended and what it scored, so a finished play can be shown again from the store.
        // The CLI's attempts leave both NULL.
        try db.alter(table: "attempt") { t in
            t.add(column: "outcome", .text)
            t.add(column: "score", .integer)
        }
        // The daily quiz: chosen once per UTC day, numbered from the first day (#1) on, and never chosen again.
        // A quiz its maker deletes leaves the day without a quiz rather than reshuffling it.
        try db.create(table: "daily") { t in
            t.primaryKey("day", .text)
            t.column("number", .integer).notNull().unique()
            t.column("quizId", .integer).references("quiz", onDelete: .setNull)
            t.column("chosenAt", .text).notNull()
        }
    }

    private static func v6PackageUserEdited(_ db: Database) throws {
        // A bundled package the user edited: seed merge leaves it as they made it instead of undoing their edit.
        try db.alter(table: "package") { t in
            t.add(column: "userEdited", .boolean).notNull().defaults(to: false)
        }
    }

    private static func v7ServerOpenPlaysRateBuckets(_ db: Database) throws {
        // Plays being played, in the store rather than one server's memory, so any instance takes any request of
        // one (`OpenPlayRecord`, kept whole as JSON: only these columns are ever searched).
        try db.create(table: "openPlay") { t in
            t.primaryKey("id", .text)
            t.column("playerId", .integer).notNull().references("player", onDelete: .cascade)
            t.column("packageId", .integer).notNull().references("package", onDelete: .cascade)
            t.column("dailyDay", .text)
            t.column("endsByMicros", .integer).notNull()
            t.column("record", .text).notNull()
        }
        try db.execute(
            sql: "CREATE UNIQUE INDEX openPlay_daily_once ON openPlay(playerId, dailyDay) WHERE dailyDay IS NOT NULL")
        try db.create(index: "openPlay_on_endsByMicros", on: "openPlay", columns: ["endsByMicros"])
        try db.create(index: "openPlay_on_packageId", on: "openPlay", columns: ["packageId"])
        // Rate limits' token buckets, shared by every instance on this store.
        try db.create(table: "rateBucket") { t in
            t.primaryKey("key", .text)
            t.column("tokens", .double).notNull()
            t.column("atMicros", .integer).notNull()
        }
    }

    private static func v8RoomResults(_ db: Database) throws {
        // The final results of live rooms, one row per player and room, written once when a room's last
        // quiz ends: nothing of a room in progress is stored. `playerId` is set for players who joined with their
        // bearer token (their stats count it) and null for guests known only by the name they typed.
        try db.create(table: "roomResult") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("roomCode", .text).notNull()
            t.column("packageId", .integer).notNull().references("package", onDelete: .cascade)
            t.column("playerId", .integer).references("player", onDelete: .setNull)
            t.column("name", .text).notNull()
            t.column("rank", .integer).notNull()
            t.column("score", .integer).notNull()
            t.column("solved", .integer).notNull()
            t.column("played", .integer).notNull()
            t.column("shareLine", .text)
            t.column("finishedAt", .text).notNull()
        }
        try db.create(index: "roomResult_on_playerId", on: "roomResult", columns: ["playerId"])
    }

    private static func v9RoomDirectory(_ db: Database) throws {
        // Which server instance holds each open live room: a room lives in the memory of the instance
        // that opened it, and another instance on the same store forwards the room's requests and sockets there.
        // The primary key makes a room code unique across every instance.
        try db.create(table: "roomDirectory") { t in
            t.primaryKey("code", .text)
            t.column("instance", .text).notNull()
            t.column("openedAt", .text).notNull()
        }
        try db.create(index: "roomDirectory_on_instance", on: "roomDirectory", columns: ["instance"])
    }

    private static func v10OpenPlayTally(_ db: Database) throws {
        // How many plays are open, kept by triggers: a play start checks the bound on open plays without counting
        // the table, which took longer the more plays were open.
        try db.execute(
            sql: """
                CREATE TABLE openPlayTally (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
                INSERT INTO openPlayTally (id, n) VALUES (1, (SELECT COUNT(*) FROM openPlay));
                CREATE TRIGGER openPlay_tally_insert AFTER INSERT ON openPlay
                BEGIN UPDATE openPlayTally SET n = n + 1; END;
                CREATE TRIGGER openPlay_tally_delete AFTER DELETE ON openPlay
                BEGIN UPDATE openPlayTally SET n = n - 1; END;
                """)
    }

    private static func v11PlayerHistoryServerCopies(_ db: Database) throws {
        // A player's page lists their plays, newest first.
        try db.create(index: "play_on_playerId", on: "play", columns: ["playerId", "id"])
        // Why a play could not be ranked (UnrankedReason), NULL when it could.
        try db.alter(table: "play") { t in t.add(column: "unrankedReason", .text) }
        // Who uploaded a poster and when (NULL for the bundled ones): a player's uploads are held to a quota, and
        // those no quiz uses go after a grace period.
        try db.alter(table: "posterImage") { t in
            t.add(column: "ownerId", .integer).references("player", onDelete: .setNull)
            t.add(column: "storedAt", .text)
        }
        // The copy of a local package `uquiz publish` made on a server, under the code that server gave it:
        // publishing again updates that copy.
        try db.create(table: "serverCopy") { t in
            t.belongsTo("package", onDelete: .cascade).notNull()
            t.column("server", .text).notNull()
            t.column("shareCode", .text).notNull()
            t.column("publishedAt", .text).notNull()
            t.primaryKey(["packageId", "server"])
        }
    }

    private static func v12Moderation(_ db: Database) throws {
        // Players' reports of packages and rooms' names, one per reporter and target (a package's id, or a room's
        // code and name).
        try db.create(table: "report") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("targetKind", .text).notNull()
            t.column("targetKey", .text).notNull()
            t.belongsTo("package", onDelete: .cascade)
            t.column("roomCode", .text)
            t.column("roomName", .text)
            t.column("roomPlayerId", .integer).references("player", onDelete: .cascade)
            t.column("reporterId", .integer).notNull().references("player", onDelete: .cascade)
            t.column("reason", .text).notNull()
            t.column("text", .text)
            t.column("createdAt", .text).notNull()
            t.uniqueKey(["reporterId", "targetKind", "targetKey"])
        }
        try db.create(index: "report_on_target", on: "report", columns: ["targetKind", "targetKey"])
        // Packages nobody may see (HiddenReason), and players who may only read.
        try db.create(table: "hiddenPackage") { t in
            t.primaryKey("packageId", .integer).references("package", onDelete: .cascade)
            t.column("reason", .text).notNull()
            t.column("hiddenAt", .text).notNull()
        }
        try db.create(table: "bannedPlayer") { t in
            t.primaryKey("playerId", .integer).references("player", onDelete: .cascade)
            t.column("bannedAt", .text).notNull()
        }
        // Every action of a moderator or of the server's automatic hiding, kept for good.
        try db.create(table: "moderationAction") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("at", .text).notNull()
            t.column("kind", .text).notNull()
            t.column("target", .text).notNull()
            t.column("reason", .text).notNull()
            t.column("actor", .text).notNull()
        }
    }

    private static func v13LinkCodes(_ db: Database) throws {
        // One-time codes that move a player to another device, and the tokens beyond the first that gives them.
        try db.create(table: "linkCode") { t in
            t.primaryKey("codeHash", .blob)
            t.column("playerId", .integer).notNull().references("player", onDelete: .cascade)
            t.column("expiresAt", .text).notNull()
        }
        try db.create(table: "playerToken") { t in
            t.primaryKey("tokenHash", .blob)
            t.column("playerId", .integer).notNull().references("player", onDelete: .cascade)
            t.column("createdAt", .text).notNull()
        }
        try db.create(index: "playerToken_on_playerId", on: "playerToken", columns: ["playerId"])
    }

    private static func v14RoomCheckpoints(_ db: Database) throws {
        // A room's holder renews a lease on it and keeps its checkpoint (JSON): when the lease ends, another
        // instance (or this one started again) carries the room on from it.
        try db.alter(table: "roomDirectory") { t in
            t.add(column: "leaseUntil", .integer)
            t.add(column: "checkpoint", .text)
        }
        try db.create(index: "roomDirectory_on_leaseUntil", on: "roomDirectory", columns: ["leaseUntil"])
    }

    private static func v15Drafts(_ db: Database) throws {
        // Packages being made on the server, each its maker's: the document the maker's page keeps (JSON).
        try db.create(table: "draft") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("playerId", .integer).notNull().references("player", onDelete: .cascade)
            t.column("document", .text).notNull()
            t.column("createdAt", .text).notNull()
            t.column("updatedAt", .text).notNull()
        }
        try db.create(index: "draft_on_playerId", on: "draft", columns: ["playerId"])
    }

    private static func v16AnswersShownWrongGuessesRoomHosts(_ db: Database) throws {
        // A room's host, and whether it has finished: a player's rooms open on every instance are counted.
        try db.execute(sql: "ALTER TABLE roomDirectory ADD COLUMN hostId INTEGER")
        try db.execute(sql: "ALTER TABLE roomDirectory ADD COLUMN finished BOOLEAN NOT NULL DEFAULT 0")
        try db.execute(sql: "CREATE INDEX roomDirectory_on_hostId ON roomDirectory(hostId) WHERE hostId IS NOT NULL")
        // The players a live room named a quiz's answer to (at each quiz's end, not only at its podium): no play
        // of the package of theirs is ranked after it.
        try db.execute(
            sql: """
                CREATE TABLE answerShown (
                    playerId INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
                    packageId INTEGER NOT NULL REFERENCES package(id) ON DELETE CASCADE,
                    PRIMARY KEY (playerId, packageId)
                )
                """)
        // How many server plays made each wrong guess at a quiz (normalized, nobody named): what its maker sees.
        try db.execute(
            sql: """
                CREATE TABLE wrongGuess (
                    quizId INTEGER NOT NULL REFERENCES quiz(id) ON DELETE CASCADE,
                    guess TEXT NOT NULL,
                    plays INTEGER NOT NULL,
                    PRIMARY KEY (quizId, guess)
                )
                """)
    }

    private static func v17KeptTalliesBoardIndexPackageSearch(_ db: Database) throws {
        try db.execute(sql: Tallies.sqliteSchema)
        // The leaderboard's order in full, so its first rows come from the index without sorting the ties.
        try db.execute(sql: "DROP INDEX play_leaderboard")
        try db.execute(
            sql: """
                CREATE INDEX play_board ON play(packageId, score DESC, elapsedSeconds, finishedAt, id)
                WHERE ranked
                """)
        // A quiz's most made wrong guesses, first, whatever the number of distinct ones.
        try db.execute(sql: "CREATE INDEX wrongGuess_by_plays ON wrongGuess(quizId, plays DESC, guess)")
        // A package's best score (what `uquiz list` shows) by a seek, not a pass over its plays.
        try db.execute(sql: "CREATE INDEX play_on_packageId_score ON play(packageId, score)")
        // Substrings of a package's title or maker, as the movie catalog finds titles (three characters or more).
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE packageSearch USING fts5(
                    title, maker, content = 'package', content_rowid = 'id', tokenize = 'trigram');
                INSERT INTO packageSearch(packageSearch) VALUES ('rebuild');
                CREATE TRIGGER package_search_insert AFTER INSERT ON package BEGIN
                    INSERT INTO packageSearch (rowid, title, maker) VALUES (NEW.id, NEW.title, NEW.maker);
                END;
                CREATE TRIGGER package_search_delete AFTER DELETE ON package BEGIN
                    INSERT INTO packageSearch (packageSearch, rowid, title, maker)
                    VALUES ('delete', OLD.id, OLD.title, OLD.maker);
                END;
                CREATE TRIGGER package_search_update AFTER UPDATE OF title, maker ON package BEGIN
                    INSERT INTO packageSearch (packageSearch, rowid, title, maker)
                    VALUES ('delete', OLD.id, OLD.title, OLD.maker);
                    INSERT INTO packageSearch (rowid, title, maker) VALUES (NEW.id, NEW.title, NEW.maker);
                END;
                """)
    }

    private static func v18OneOpenPlayPerPackage(_ db: Database) throws {
        // A play start looks for the player's open play of the package (one at a time).
        try db.create(index: "openPlay_on_playerId_packageId", on: "openPlay", columns: ["playerId", "packageId"])
    }

    private static func v19DailyPerLanguage(_ db: Database) throws {
        // Each language draws its own daily quiz, from packages in that language, numbered from its own first
        // day. A day chosen before (from every package) belongs to its quiz's package's language.
        try db.create(table: "dailyByLanguage") { t in
            t.column("day", .text).notNull()
            t.column("language", .text).notNull().check { ["ko", "en"].contains($0) }
            t.column("number", .integer).notNull()
            t.column("quizId", .integer).references("quiz", onDelete: .setNull)
            t.column("chosenAt", .text).notNull()
            t.primaryKey(["day", "language"])
            t.uniqueKey(["language", "number"])
        }
        try db.execute(
            sql: """
                INSERT INTO dailyByLanguage (day, language, number, quizId, chosenAt)
                SELECT daily.day,
                       COALESCE((SELECT p.language FROM quiz JOIN package p ON p.id = quiz.packageId
                                 WHERE quiz.id = daily.quizId), 'en'),
                       daily.number, daily.quizId, daily.chosenAt
                FROM daily
                """)
        try db.drop(table: "daily")
        try db.rename(table: "dailyByLanguage", to: "daily")
    }

    private static func v20ReportAddressGroup(_ db: Database) throws {
        // The network a report came from (a /24 or /48, never the whole address): reports from one network count
        // once toward hiding a package, and a moderator sees which came together.
        try db.execute(sql: "ALTER TABLE report ADD COLUMN reporterGroup TEXT")
    }
}

// MARK: - Records: one struct per table, named after it.

struct MetaRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "meta"
    var key: String
    var value: String
}

struct PosterImageRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "posterImage"
    var fileName: String
    var jpeg: Data
    var attribution: String
}

struct MovieRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "movie"
    var id: Int64?
    var catalogKey: String
    var tmdbId: Int?
    var originalTitle: String
    var titleKo: String?
    var titleEn: String?
    var releaseDate: String?
    var posterPathKo: String?
    var posterPathEn: String?
    var bundledPoster: String?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct MovieAliasRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "movieAlias"
    var id: Int64?
    var movieId: Int64
    var title: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct QuizAliasRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "quizAlias"
    var id: Int64?
    var quizId: Int64
    var title: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct PackageRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "package"
    var id: Int64?
    var shareCode: String
    var seedId: String?
    var origin: String
    var title: String
    var maker: String
    var level: String
    var language: String
    var createdAt: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct QuizRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "quiz"
    var id: Int64?
    var packageId: Int64
    var position: Int
    var catalogKey: String?
    var tmdbId: Int?
    var title: String
    var originalTitle: String
    var releaseDate: String?
    /// JSON array text, e.g. `[16,35]`.
    var genreIds: String
    var posterPath: String
    var posterSource: String
    var gridColumns: Int
    var gridRows: Int
    var gridAreaSize: Int
    var gridMargin: Int

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct AreaRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "area"
    var id: Int64?
    var quizId: Int64
    var stage: Int
    var centreRow: Int
    var centreColumn: Int

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct PlayRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "play"
    var id: Int64?
    var packageId: Int64
    var player: String
    var startedAt: String
    var finishedAt: String?
    var score: Int?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct AttemptRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "attempt"
    var id: Int64?
    var playId: Int64?
    var quizId: Int64
    var player: String
    var startedAt: String
    var correct: Bool
    var seconds: Double
    var stageReached: Int
    var hintsUsed: Int

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct PlayerRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
    var tokenHash: Data
    var createdAt: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct PublicationRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "publication"
    var packageId: Int64
    var ownerId: Int64?
    var visibility: String
}
