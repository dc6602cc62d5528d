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
    /// order is total), and `playerId`'s own line wherever it ranks.
    static func leaderboard(packageId: Int64, limit: Int, playerId: Int64?, in db: Database) throws -> Leaderboard {
        let rows = try Row.fetchAll(
            db,
            sql: """
                WITH board AS (
                    SELECT play.playerId, player.name, play.score, play.elapsedSeconds, play.finishedAt,
                           RANK() OVER (ORDER BY play.score DESC, play.elapsedSeconds ASC) AS rank,
                           ROW_NUMBER() OVER (
                               ORDER BY play.score DESC, play.elapsedSeconds ASC, play.finishedAt ASC, play.id ASC
                           ) AS position,
                           COUNT(*) OVER () AS total
                    FROM play JOIN player ON player.id = play.playerId
                    WHERE play.packageId = ? AND play.ranked
                      AND NOT EXISTS (SELECT 1 FROM bannedPlayer b WHERE b.playerId = play.playerId)
                ),
                scores AS (
                    SELECT group_concat(score || ':' || plays, ',') AS scoreCounts
                    FROM (SELECT score, COUNT(*) AS plays FROM board GROUP BY score)
                )
                SELECT * FROM board, scores WHERE position <= ? OR playerId = ? ORDER BY position
                """,
            arguments: [packageId, limit, playerId])
        var board = Leaderboard(
            top: [], mine: nil, rankedPlays: rows.first?["total"] ?? 0,
            scoreCounts: Leaderboard.scoreCounts(aggregated: rows.first?["scoreCounts"]))
        for row in rows {
            let entry = LeaderboardEntry(
                rank: row["rank"], playerId: row["playerId"], player: row["name"], score: row["score"],
                elapsedSeconds: row["elapsedSeconds"], finishedAt: row["finishedAt"])
            if (row["position"] as Int) <= limit { board.top.append(entry) }
            if entry.playerId == playerId { board.mine = entry }
        }
        return board
    }

    /// Each quiz of a package with its attempts (every play of it, the CLI's on this file too), solves and the mean
    /// stage reached by those who solved it.
    static func quizSolveStats(packageId: Int64, in db: Database) throws -> [QuizSolveStats] {
        let stats = try Row.fetchAll(
            db,
            sql: """
                SELECT quiz.position, COUNT(attempt.id) AS attempts, COALESCE(SUM(attempt.correct), 0) AS solved,
                       AVG(CASE WHEN attempt.correct THEN attempt.stageReached END) AS averageStage,
                       COALESCE(SUM(attempt.hintsUsed > 0), 0) AS hinted
                FROM quiz LEFT JOIN attempt ON attempt.quizId = quiz.id
                WHERE quiz.packageId = ? GROUP BY quiz.id ORDER BY quiz.position
                """,
            arguments: [packageId]
        ).map { row in
            QuizSolveStats(
                position: (row["position"] as Int) + 1, attempts: row["attempts"], solved: row["solved"],
                averageStage: row["averageStage"], hinted: row["hinted"])
        }
        let common = try Row.fetchAll(
            db,
            sql: """
                SELECT position, guess FROM (
                    SELECT quiz.position, wrongGuess.guess,
                           ROW_NUMBER() OVER (PARTITION BY quiz.id ORDER BY wrongGuess.plays DESC, wrongGuess.guess) AS place
                    FROM quiz JOIN wrongGuess ON wrongGuess.quizId = quiz.id WHERE quiz.packageId = ?
                ) WHERE place <= ? ORDER BY position, place
                """,
            arguments: [packageId, QuizSolveStats.commonWrongGuessCount])
        let stages = try Row.fetchAll(
            db,
            sql: """
                SELECT quiz.position, attempt.stageReached AS stage, COUNT(*) AS solved
                FROM quiz JOIN attempt ON attempt.quizId = quiz.id
                WHERE quiz.packageId = ? AND attempt.correct AND attempt.stageReached IS NOT NULL
                GROUP BY quiz.position, attempt.stageReached
                """,
            arguments: [packageId])
        return stats.map { quiz in
            var quiz = quiz
            quiz.commonWrongGuesses = common.filter { ($0["position"] as Int) + 1 == quiz.position }.map { $0["guess"] }
            for row in stages where (row["position"] as Int) + 1 == quiz.position { quiz.solvedAtStage[row["stage"]] = row["solved"] }
            return quiz
        }
    }

    /// The daily quiz of `day` (`yyyy-MM-dd`, UTC) when it has been chosen, else what choosing it depends on.
    static func dailyState(day: String, among: DailyCandidates, in db: Database) throws -> DailyState {
        if let known = try daily(day: day, in: db) { return .chosen(known) }
        return .toDraw(try dailyDraw(among: among, in: db))
    }

    /// Chooses the daily quiz of `day`: candidate `index` of `drawn`, numbered `number`, provided `drawn` is still what
    /// the database holds (checked inside the write that saves the choice, so two first requests of a day get the same
    /// quiz). When another request chose first, that choice; when the candidates or the first day changed since they
    /// were read, the new ones, to draw again. The index is clamped to the candidates; a number below 1 or taken
    /// already (a wall clock set back asks for a day before the first) becomes the next free one.
    static func chooseDaily(
        day: String, chosenAt: Date, among: DailyCandidates, drawn: DailyDraw, index: Int, number: Int, in db: Database
    ) throws -> DailyState {
        if let known = try daily(day: day, in: db) { return .chosen(known) }
        let current = try dailyDraw(among: among, in: db)
        guard current == drawn else { return .toDraw(current) }
        guard !drawn.candidates.isEmpty else { return .chosen(nil) }
        let chosen = drawn.candidates[min(max(0, index), drawn.candidates.count - 1)]
        var dayNumber = number
        let taken = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM daily WHERE number = ?)", arguments: [dayNumber])!
        if dayNumber < 1 || taken {
            dayNumber = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(number), 0) + 1 FROM daily")!
        }
        try db.execute(
            sql: "INSERT INTO daily (day, number, quizId, chosenAt) VALUES (?, ?, ?, ?)",
            arguments: [day, dayNumber, chosen, timestamp(chosenAt)])
        return .chosen(try daily(day: day, in: db))
    }

    /// The candidates for a new daily quiz (quizzes with areas of public and seed packages, not yet chosen for another
    /// day; every such quiz again once all have been), and the first daily's day (`nil` before any).
    private static func dailyDraw(among: DailyCandidates, in db: Database) throws -> DailyDraw {
        let publicQuizzes = """
            SELECT quiz.id FROM quiz JOIN package p ON p.id = quiz.packageId
            LEFT JOIN publication pub ON pub.packageId = p.id
            WHERE (p.origin = 'seed' OR pub.visibility = 'public')
              AND NOT EXISTS (SELECT 1 FROM hiddenPackage h WHERE h.packageId = p.id)
              AND EXISTS (SELECT 1 FROM area WHERE area.quizId = quiz.id)
            """ + (among == .postersHeld ? " AND quiz.posterSource = 'bundled'" : "")
        var candidates = try Int64.fetchAll(
            db,
            sql: publicQuizzes
                + " AND quiz.id NOT IN (SELECT quizId FROM daily WHERE quizId IS NOT NULL) ORDER BY quiz.id")
        if candidates.isEmpty { candidates = try Int64.fetchAll(db, sql: publicQuizzes + " ORDER BY quiz.id") }
        let first = try String.fetchOne(db, sql: "SELECT day FROM daily ORDER BY number LIMIT 1")
        return DailyDraw(candidates: candidates, first: first)
    }

    /// The daily quiz of `day` if it has been chosen; never chooses.
    static func daily(day: String, in db: Database) throws -> DailyChoice? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT daily.day, daily.number, daily.quizId, quiz.packageId, quiz.position
                FROM daily LEFT JOIN quiz ON quiz.id = daily.quizId WHERE daily.day = ?
                """,
            arguments: [day]
        ).map { row in
            DailyChoice(
                day: row["day"], number: row["number"], quizId: row["quizId"], packageId: row["packageId"],
                position: row["position"])
        }
    }

    /// The days (`yyyy-MM-dd`) a player finished the daily quiz, newest first, and whether they solved it (a play
    /// with an `UnrankedReason` does not count as solved: its player may have known the answer).
    static func dailyResults(playerId: Int64, in db: Database) throws -> [(day: String, solved: Bool)] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT play.dailyDay, COALESCE(MAX(attempt.correct), 0) AND play.unrankedReason IS NULL AS solved
                FROM play LEFT JOIN attempt ON attempt.playId = play.id
                WHERE play.playerId = ? AND play.dailyDay IS NOT NULL
                GROUP BY play.id ORDER BY play.dailyDay DESC
                """,
            arguments: [playerId]
        ).map { (day: $0["dailyDay"], solved: $0["solved"]) }
    }

    /// The id of the daily play a player finished on `day`, if any.
    static func dailyPlayId(playerId: Int64, day: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT publicId FROM play WHERE playerId = ? AND dailyDay = ?", arguments: [playerId, day])
    }

    static func answersShown(playerId: Int64, packageId: Int64, quizIds: [Int64], in db: Database) throws -> AnswersShown {
        let quizzes = quizIds.isEmpty ? "NULL" : quizIds.map { _ in "?" }.joined(separator: ",")
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM publication WHERE packageId = ? AND ownerId = ?) AS maker,
                       EXISTS (SELECT 1 FROM attempt JOIN play ON play.id = attempt.playId
                               WHERE play.playerId = ? AND attempt.quizId IN (\(quizzes))) AS inPlay,
                       EXISTS (SELECT 1 FROM roomResult WHERE playerId = ? AND packageId = ?)
                       OR EXISTS (SELECT 1 FROM answerShown WHERE playerId = ? AND packageId = ?) AS inRoom
                """,
            arguments: StatementArguments([packageId, playerId, playerId]) + StatementArguments(quizIds)
                + StatementArguments([playerId, packageId, playerId, packageId]))!
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

    static func playerPlayTotals(playerId: Int64, in db: Database) throws -> PlayerPlayTotals {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT (SELECT COUNT(*) FROM play WHERE playerId = ?1 AND publicId IS NOT NULL) AS plays,
                       (SELECT COALESCE(SUM(score), 0) FROM play WHERE playerId = ?1 AND publicId IS NOT NULL) AS points,
                       COUNT(attempt.id) AS played, COALESCE(SUM(attempt.correct), 0) AS solved,
                       AVG(CASE WHEN attempt.correct THEN attempt.stageReached END) AS averageStage
                FROM play JOIN attempt ON attempt.playId = play.id
                WHERE play.playerId = ?1 AND play.publicId IS NOT NULL
                """,
            arguments: [playerId])!
        let stages = try Row.fetchAll(
            db,
            sql: """
                SELECT attempt.stageReached AS stage, COUNT(*) AS solved
                FROM play JOIN attempt ON attempt.playId = play.id
                WHERE play.playerId = ? AND play.publicId IS NOT NULL AND attempt.correct AND attempt.stageReached IS NOT NULL
                GROUP BY attempt.stageReached
                """,
            arguments: [playerId])
        return PlayerPlayTotals(
            plays: row["plays"], points: row["points"], solved: row["solved"], played: row["played"],
            averageStage: row["averageStage"],
            solvedAtStage: Dictionary(uniqueKeysWithValues: stages.map { ($0["stage"] as Int, $0["solved"] as Int) }))
    }
}

