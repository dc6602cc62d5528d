import Foundation
import UQuizStorage
internal import GRDB
import QuizCore


extension AppDatabase {
    /// Inserts a finished server play and its attempts inside a transaction, and says whether it is ranked: it is when
    /// it is no daily play and the player has no ranked play of this package yet (a unique index holds that, whatever
    /// other writers do).
    static func insertServerPlay(_ play: FinishedServerPlay, in db: Database) throws -> Bool {
        let ranked = try play.dailyDay == nil && play.unrankedReason == nil
            && !Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM play WHERE packageId = ? AND playerId = ? AND ranked)",
                arguments: [play.packageId, play.player.id])!
        try db.execute(
            sql: """
                INSERT INTO play (packageId, player, startedAt, finishedAt, score, publicId, playerId, ranked,
                                  elapsedSeconds, dailyDay, unrankedReason)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                play.packageId, play.player.name, timestamp(play.startedAt), timestamp(play.finishedAt), play.score,
                play.publicId, play.player.id, ranked, play.elapsedSeconds, play.dailyDay, play.unrankedReason?.rawValue,
            ])
        let playId = db.lastInsertedRowID
        for attempt in play.attempts {
            try db.execute(
                sql: """
                    INSERT INTO attempt (playId, quizId, player, startedAt, correct, seconds, stageReached, hintsUsed,
                                         outcome, score)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    playId, attempt.quizId, play.player.name, timestamp(attempt.endedAt), attempt.result.solved,
                    attempt.result.seconds, attempt.result.stageReached, attempt.result.hintsUsed,
                    attempt.result.outcome.rawValue, attempt.result.score,
                ])
            for guess in attempt.wrongGuesses {
                try db.execute(
                    sql: """
                        INSERT INTO wrongGuess (quizId, guess, plays) VALUES (?, ?, 1)
                        ON CONFLICT (quizId, guess) DO UPDATE SET plays = plays + 1
                        """,
                    arguments: [attempt.quizId, guess])
            }
        }
        return ranked
    }

    static func recordAnswersShown(playerIds: [Int64], packageId: Int64, in db: Database) throws {
        for playerId in playerIds {
            try db.execute(
                sql: "INSERT INTO answerShown (playerId, packageId) VALUES (?, ?) ON CONFLICT DO NOTHING",
                arguments: [playerId, packageId])
        }
    }

    /// A finished server play by the id its client knows it by.
    static func serverPlay(publicId: String, in db: Database) throws -> StoredServerPlay? {
        guard let row = try Row.fetchOne(
            db,
            sql: """
                SELECT id, publicId, packageId, playerId, score, elapsedSeconds, ranked, dailyDay, unrankedReason
                FROM play WHERE publicId = ? AND playerId IS NOT NULL
                """,
            arguments: [publicId])
        else { return nil }
        let attempts = try Row.fetchAll(
            db,
            sql: """
                SELECT quizId, outcome, seconds, stageReached, hintsUsed, score FROM attempt
                WHERE playId = ? ORDER BY id
                """,
            arguments: [row["id"] as Int64]
        ).map { attempt in
            StoredServerPlay.StoredAttempt(
                quizId: attempt["quizId"],
                result: QuizResult(
                    outcome: QuizResult.Outcome(rawValue: attempt["outcome"] ?? "") ?? .missed,
                    seconds: attempt["seconds"], stageReached: attempt["stageReached"],
                    hintsUsed: attempt["hintsUsed"], score: attempt["score"] ?? 0))
        }
        return StoredServerPlay(
            publicId: row["publicId"], packageId: row["packageId"], playerId: row["playerId"], score: row["score"] ?? 0,
            elapsedSeconds: row["elapsedSeconds"] ?? 0, ranked: row["ranked"], dailyDay: row["dailyDay"],
            attempts: attempts, unrankedReason: (row["unrankedReason"] as String?).flatMap(UnrankedReason.init(rawValue:)))
    }

    /// The best `limit` ranked plays of a package, by score, then by less quiz time (then the earlier finish, so the
    /// order is total), and `playerId`'s own line wherever it ranks. Banned players' plays are left out.
    ///
    /// Each part is an indexed read whose cost follows what it returns, not the package's number of plays: the top
    /// rows are the first of the `play_board` index; the count and the histogram come from the kept
    /// `leaderboardScore`; a rank is one plus the plays with a better score (from the same tally) and those with the
    /// same score in less time (a range of the index).
    static func leaderboard(packageId: Int64, limit: Int, playerId: Int64?, in db: Database) throws -> RankedPlays {
        let scoreCounts = try Row.fetchAll(
            db.cachedStatement(sql: leaderboardScores),
            arguments: [packageId]
        ).reduce(into: [Int: Int]()) { counts, row in counts[row["score"]] = row["plays"] }
        let rows = try Row.fetchAll(db.cachedStatement(sql: leaderboardTop), arguments: [packageId, limit])
        var board = RankedPlays(
            top: LeaderboardRanking.ranked(rows.map(entry)), mine: nil,
            rankedPlays: scoreCounts.values.reduce(0, +), scoreCounts: scoreCounts)
        guard let playerId else { return board }
        if let own = board.top.first(where: { $0.playerId == playerId }) {
            board.mine = own
        } else if let row = try Row.fetchOne(
            db.cachedStatement(sql: leaderboardOwnPlay),
            arguments: [packageId, playerId])
        {
            var mine = entry(row)
            // Plays of the same score in less time, then those of banned players among them, who are not ranked.
            let sameScoreFaster = try Int.fetchOne(
                db.cachedStatement(sql: leaderboardSameScoreFaster),
                arguments: [packageId, mine.score, mine.elapsedSeconds])!
            mine.rank = LeaderboardRanking.rank(score: mine.score, scoreCounts: scoreCounts, sameScoreFaster: sameScoreFaster)
            board.mine = mine
        }
        return board
    }

    static let leaderboardScores = "SELECT score, plays FROM leaderboardScore WHERE packageId = ? AND plays > 0"
    static let leaderboardTop = """
        SELECT play.playerId, player.name, play.score, play.elapsedSeconds, play.finishedAt
        FROM play JOIN player ON player.id = play.playerId
        WHERE play.packageId = ? AND play.ranked
          AND NOT EXISTS (SELECT 1 FROM bannedPlayer b WHERE b.playerId = play.playerId)
        ORDER BY play.score DESC, play.elapsedSeconds ASC, play.finishedAt ASC, play.id ASC LIMIT ?
        """
    static let leaderboardOwnPlay = """
        SELECT play.playerId, player.name, play.score, play.elapsedSeconds, play.finishedAt
        FROM play JOIN player ON player.id = play.playerId
        WHERE play.packageId = ? AND play.playerId = ? AND play.ranked
          AND NOT EXISTS (SELECT 1 FROM bannedPlayer b WHERE b.playerId = play.playerId)
        """
    static let leaderboardSameScoreFaster = """
        SELECT (SELECT COUNT(*) FROM play WHERE packageId = ?1 AND ranked AND score = ?2 AND elapsedSeconds < ?3)
             - (SELECT COUNT(*) FROM bannedPlayer b JOIN play ON play.packageId = ?1
                    AND play.playerId = b.playerId AND play.ranked
                WHERE play.score = ?2 AND play.elapsedSeconds < ?3)
        """

    /// The reads whose cost must follow what they return, not the data, each with arguments for `packageId` (and
    /// made by the same functions the store runs): the storage tests check their plans on grown data.
    static func growthBoundedReads(packageId: Int64) -> [String: (sql: String, arguments: StatementArguments)] {
        let everything = BrowseFilter()
        return [
            "package by share code": (publishedByShareCode, ["AAAAA2"]),
            "newest page": pageQuery(everything, .newest(after: nil), limit: 21),
            "newest page after a cursor": pageQuery(
                everything, .newest(after: BrowsePosition(createdAt: "2026-06-01T00:00:00Z", id: 1_000)), limit: 21),
            "popular page": pageQuery(everything, .popular(after: nil), limit: 21),
            "popular page after a cursor": pageQuery(
                everything, .popular(after: PopularPosition(plays: 3, id: 1_000)), limit: 21),
            "title search, a common word": pageQuery(
                BrowseFilter(text: "night"), .newest(after: nil), limit: 21, search: .common(phrase: "\"night\"")),
            "title search, a common word, popular": pageQuery(
                BrowseFilter(text: "night"), .popular(after: nil), limit: 21, search: .common(phrase: "\"night\"")),
            "a maker's page": ownedPageQuery(playerId: 1, after: nil, limit: 21),
            "leaderboard scores": (leaderboardScores, [packageId]),
            "leaderboard top": (leaderboardTop, [packageId, 100]),
            "leaderboard own play": (leaderboardOwnPlay, [packageId, 1]),
            "leaderboard same score faster": (leaderboardSameScoreFaster, [packageId, 0, 100.0]),
        ]
    }

    private static func entry(_ row: Row) -> LeaderboardEntry {
        LeaderboardEntry(
            rank: 0, playerId: row["playerId"], player: row["name"], score: row["score"],
            elapsedSeconds: row["elapsedSeconds"], finishedAt: row["finishedAt"])
    }

    /// Each quiz of a package with its attempts (every play of it, the CLI's on this file too), solves, hint use, the
    /// mean stage reached by those who solved it and the solves per stage, from the kept `quizStageTally`.
    static func quizSolveStats(packageId: Int64, in db: Database) throws -> [QuizSolveStats] {
        let stages = try Row.fetchAll(
            db,
            sql: """
                SELECT quiz.position, t.stage, t.attempts, t.solved, t.hinted
                FROM quiz LEFT JOIN quizStageTally t ON t.quizId = quiz.id AND t.attempts > 0
                WHERE quiz.packageId = ? ORDER BY quiz.position, t.stage
                """,
            arguments: [packageId])
        // Each quiz's first few from the index in their order: a popular quiz gathers thousands of distinct guesses.
        var common: [(position: Int, guess: String)] = []
        for quiz in try Row.fetchAll(
            db, sql: "SELECT id, position FROM quiz WHERE packageId = ? ORDER BY position", arguments: [packageId])
        {
            common += try String.fetchAll(
                db.cachedStatement(
                    sql: "SELECT guess FROM wrongGuess WHERE quizId = ? ORDER BY plays DESC, guess LIMIT ?"),
                arguments: [quiz["id"] as Int64, QuizSolveStats.commonWrongGuessCount]
            ).map { (position: (quiz["position"] as Int) + 1, guess: $0) }
        }
        return QuizSolveStats.fromStageTallies(
            stages.map {
                QuizStageTally(
                    position: ($0["position"] as Int) + 1, stage: $0["stage"], attempts: $0["attempts"] ?? 0,
                    solved: $0["solved"] ?? 0, hinted: $0["hinted"] ?? 0)
            },
            commonWrongGuesses: common)
    }

    /// The daily quiz of `day` (`yyyy-MM-dd`, UTC) in `language` when it has been chosen, else what choosing it
    /// depends on.
    static func dailyState(
        day: String, language: QuizLanguage, among: DailyCandidates, in db: Database
    ) throws -> DailyState {
        if let known = try daily(day: day, language: language, in: db) { return .chosen(known) }
        return .toDraw(try dailyDraw(language: language, among: among, in: db))
    }

    /// Chooses the daily quiz of `day` in `language`: candidate `index` of `drawn`, numbered `number`, provided the
    /// database still agrees (checked inside the write that saves the choice, so two first requests of a day get the
    /// same quiz): the chosen quiz is still a candidate and the language's first day is the same. When another request
    /// chose first, that choice; when the choice is no longer a candidate, the candidates now, to draw again. Only the
    /// chosen quiz is checked, so the candidates are read once a day, not twice. The index is clamped to the
    /// candidates; a number below 1 or taken already (a wall clock set back asks for a day before the first) becomes
    /// the language's next free one.
    static func chooseDaily(
        day: String, language: QuizLanguage, chosenAt: Date, among: DailyCandidates, drawn: DailyDraw, index: Int,
        number: Int, in db: Database
    ) throws -> DailyState {
        if let known = try daily(day: day, language: language, in: db) { return .chosen(known) }
        guard !drawn.candidates.isEmpty else { return .toDraw(try dailyDraw(language: language, among: among, in: db)) }
        let chosen = drawn.candidates[min(max(0, index), drawn.candidates.count - 1)]
        let first = try firstDailyDay(language: language, in: db)
        let candidate = dailyCandidates(among) + " AND quiz.id = ?"
        func exists(_ sql: String, _ arguments: StatementArguments) throws -> Bool {
            try Bool.fetchOne(db, sql: "SELECT EXISTS (\(sql))", arguments: arguments)!
        }
        let stillCandidate = try exists(candidate + unchosenQuiz, [language.rawValue, chosen])
            || (try exists(candidate, [language.rawValue, chosen])
                && !exists(dailyCandidates(among) + unchosenQuiz, [language.rawValue]))
        guard first == drawn.first, stillCandidate else {
            return .toDraw(try dailyDraw(language: language, among: among, in: db))
        }
        var dayNumber = number
        let taken = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM daily WHERE language = ? AND number = ?)",
            arguments: [language.rawValue, dayNumber])!
        if dayNumber < 1 || taken {
            dayNumber = try Int.fetchOne(
                db, sql: "SELECT COALESCE(MAX(number), 0) + 1 FROM daily WHERE language = ?", arguments: [language.rawValue])!
        }
        try db.execute(
            sql: "INSERT INTO daily (day, language, number, quizId, chosenAt) VALUES (?, ?, ?, ?, ?)",
            arguments: [day, language.rawValue, dayNumber, chosen, timestamp(chosenAt)])
        return .chosen(try daily(day: day, language: language, in: db))
    }

    /// Quizzes with areas of public and seed packages in a language (its one argument), only those with a poster the
    /// store holds when asked.
    private static func dailyCandidates(_ among: DailyCandidates) -> String {
        """
        SELECT quiz.id FROM quiz JOIN package p ON p.id = quiz.packageId
        LEFT JOIN publication pub ON pub.packageId = p.id
        WHERE p.language = ? AND (p.origin = 'seed' OR pub.visibility = 'public')
          AND NOT EXISTS (SELECT 1 FROM hiddenPackage h WHERE h.packageId = p.id)
          AND EXISTS (SELECT 1 FROM area WHERE area.quizId = quiz.id)
        """ + (among == .postersHeld ? " AND quiz.posterSource = 'bundled'" : "")
    }

    private static let unchosenQuiz = " AND quiz.id NOT IN (SELECT quizId FROM daily WHERE quizId IS NOT NULL)"

    /// The first day `language` had a daily quiz, which its numbers count from.
    private static func firstDailyDay(language: QuizLanguage, in db: Database) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT day FROM daily WHERE language = ? ORDER BY number LIMIT 1", arguments: [language.rawValue])
    }

    /// The candidates for a new daily quiz in `language` (quizzes with areas of public and seed packages in that
    /// language, not yet chosen for another day; every such quiz again once all have been), and the language's first
    /// daily's day (`nil` before any).
    private static func dailyDraw(language: QuizLanguage, among: DailyCandidates, in db: Database) throws -> DailyDraw {
        let arguments: StatementArguments = [language.rawValue]
        var candidates = try Int64.fetchAll(
            db, sql: dailyCandidates(among) + unchosenQuiz + " ORDER BY quiz.id", arguments: arguments)
        if candidates.isEmpty {
            candidates = try Int64.fetchAll(db, sql: dailyCandidates(among) + " ORDER BY quiz.id", arguments: arguments)
        }
        return DailyDraw(candidates: candidates, first: try firstDailyDay(language: language, in: db))
    }

    private static let dailyColumns = """
        SELECT daily.day, daily.language, daily.number, daily.quizId, quiz.packageId, quiz.position
        FROM daily LEFT JOIN quiz ON quiz.id = daily.quizId
        """

    private static func dailyChoice(_ row: Row) -> DailyChoice {
        DailyChoice(
            day: row["day"], language: QuizLanguage(rawValue: row["language"]) ?? .en, number: row["number"],
            quizId: row["quizId"], packageId: row["packageId"], position: row["position"])
    }

    /// The daily quiz of `day` in `language` if it has been chosen; never chooses.
    static func daily(day: String, language: QuizLanguage, in db: Database) throws -> DailyChoice? {
        try Row.fetchOne(
            db, sql: dailyColumns + " WHERE daily.day = ? AND daily.language = ?", arguments: [day, language.rawValue]
        ).map(dailyChoice)
    }

    /// The daily quizzes of `language` chosen before `day`, newest first, at most `limit`.
    static func dailyArchive(language: QuizLanguage, before day: String, limit: Int, in db: Database) throws -> [DailyChoice] {
        try Row.fetchAll(
            db, sql: dailyColumns + " WHERE daily.language = ? AND daily.day < ? ORDER BY daily.day DESC LIMIT ?",
            arguments: [language.rawValue, day, limit]
        ).map(dailyChoice)
    }

    /// The days (`yyyy-MM-dd`) a player finished the daily quiz, newest first, and whether they solved it (a play
    /// with an `UnrankedReason` does not count as solved: its player may have known the answer). Read through the
    /// index of daily plays, in its order: through the index of all the player's plays it took four times as long
    /// for a player with 5,000 plays.
    static func dailyResults(playerId: Int64, in db: Database) throws -> [(day: String, solved: Bool)] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT play.dailyDay,
                       COALESCE((SELECT MAX(correct) FROM attempt WHERE attempt.playId = play.id), 0)
                       AND play.unrankedReason IS NULL AS solved
                FROM play INDEXED BY play_daily_once
                WHERE play.playerId = ? AND play.dailyDay IS NOT NULL ORDER BY play.dailyDay DESC
                """,
            arguments: [playerId]
        ).map { (day: $0["dailyDay"], solved: $0["solved"]) }
    }

    /// The id of the daily play a player finished on `day`, if any.
    static func dailyPlayId(playerId: Int64, day: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT publicId FROM play WHERE playerId = ? AND dailyDay = ?", arguments: [playerId, day])
    }

    static func answersShown(
        playerId: Int64, packageId: Int64, quizIds: [Int64], alsoShown: [Int64], in db: Database
    ) throws -> AnswersShown {
        let list = { (ids: [Int64]) in ids.isEmpty ? "NULL" : ids.map { _ in "?" }.joined(separator: ",") }
        let quizzes = list(quizIds)
        // A quiz shows its answer where it was played, and so does any quiz on the same movie (a twin, in any package).
        let sameAnswer = { (quiz: String) in
            "(\(quiz).id IN (\(quizzes)) OR \(quiz).catalogKey IN (SELECT catalogKey FROM quiz WHERE id IN (\(quizzes))))"
        }
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM publication WHERE packageId = ? AND ownerId = ?) AS maker,
                       EXISTS (SELECT 1 FROM play JOIN attempt ON attempt.playId = play.id
                               JOIN quiz seen ON seen.id = attempt.quizId
                               WHERE play.playerId = ? AND \(sameAnswer("seen")))
                       OR EXISTS (SELECT 1 FROM quiz seen WHERE seen.id IN (\(list(alsoShown))) AND \(sameAnswer("seen")))
                       AS inPlay,
                       EXISTS (SELECT 1 FROM quiz seen
                               WHERE seen.packageId IN (SELECT packageId FROM roomResult WHERE playerId = ?
                                                        UNION SELECT packageId FROM answerShown WHERE playerId = ?)
                                 AND (seen.packageId = ? OR \(sameAnswer("seen")))) AS inRoom
                """,
            arguments: StatementArguments([packageId, playerId, playerId]) + StatementArguments(quizIds + quizIds)
                + StatementArguments(alsoShown + quizIds + quizIds)
                + StatementArguments([playerId, playerId, packageId]) + StatementArguments(quizIds + quizIds))!
        return AnswersShown(maker: row["maker"], inPlay: row["inPlay"], inRoom: row["inRoom"])
    }

    /// The player's latest `limit` finished server plays, newest first, with how many of their quizzes were solved.
    static func playerPlays(playerId: Int64, limit: Int, in db: Database) throws -> [PlayerPlayRow] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT play.publicId, package.shareCode, package.title, play.score, play.ranked, play.dailyDay,
                       play.finishedAt,
                       (SELECT COUNT(*) FROM attempt WHERE attempt.playId = play.id AND attempt.correct) AS solved,
                       (SELECT COUNT(*) FROM attempt WHERE attempt.playId = play.id) AS played
                FROM play JOIN package ON package.id = play.packageId
                WHERE play.playerId = ? AND play.publicId IS NOT NULL
                ORDER BY play.id DESC LIMIT ?
                """,
            arguments: [playerId, limit]
        ).map { row in
            let dailyDay: String? = row["dailyDay"]
            return PlayerPlayRow(
                publicId: row["publicId"], shareCode: dailyDay == nil ? row["shareCode"] : nil, title: row["title"],
                score: row["score"] ?? 0, solved: row["solved"], played: row["played"], ranked: row["ranked"],
                dailyDay: dailyDay, finishedAt: row["finishedAt"] ?? "")
        }
    }

    /// A player's totals from their kept tallies: a few rows however many plays they made.
    static func playerPlayTotals(playerId: Int64, in db: Database) throws -> PlayerPlayTotals {
        let row = try Row.fetchOne(
            db, sql: "SELECT plays, points, played, solved FROM playerTally WHERE playerId = ?", arguments: [playerId])
        let stages = try Row.fetchAll(
            db, sql: "SELECT stage, solved FROM playerStageTally WHERE playerId = ?", arguments: [playerId])
        return PlayerPlayTotals(
            plays: row?["plays"] ?? 0, points: row?["points"] ?? 0, solved: row?["solved"] ?? 0,
            played: row?["played"] ?? 0,
            solvedPerStage: Dictionary(uniqueKeysWithValues: stages.map { ($0["stage"] as Int, $0["solved"] as Int) }))
    }
}

