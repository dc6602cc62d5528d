import Foundation
import UQuizStorage
internal import GRDB
import QuizCore


extension AppDatabase {
    /// Records a finished server play and its quizzes in one transaction, and says whether it is ranked: it is when it
    /// is no daily play and the player has no ranked play of this package yet (a unique index holds that, whatever
    /// other writers do).
    public func recordServerPlay(
        publicId: String, packageId: Int64, player: Player, startedAt: Date, finishedAt: Date, score: Int,
        elapsedSeconds: Double, dailyDay: String?, attempts: [PlayAttempt]
    ) throws -> Bool {
        try write { db in
            try Self.insertServerPlay(
                FinishedServerPlay(
                    publicId: publicId, packageId: packageId, player: player, startedAt: startedAt,
                    finishedAt: finishedAt, score: score, elapsedSeconds: elapsedSeconds, dailyDay: dailyDay,
                    attempts: attempts),
                in: db)
        }
    }

    /// Inserts a finished server play and its attempts inside a transaction; returns whether it is ranked.
    static func insertServerPlay(_ play: FinishedServerPlay, in db: Database) throws -> Bool {
        let ranked = try play.dailyDay == nil
            && !Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM play WHERE packageId = ? AND playerId = ? AND ranked)",
                arguments: [play.packageId, play.player.id])!
        try db.execute(
            sql: """
                INSERT INTO play (packageId, player, startedAt, finishedAt, score, publicId, playerId, ranked,
                                  elapsedSeconds, dailyDay)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                play.packageId, play.player.name, timestamp(play.startedAt), timestamp(play.finishedAt), play.score,
                play.publicId, play.player.id, ranked, play.elapsedSeconds, play.dailyDay,
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
        }
        return ranked
    }

    /// A finished server play by the id its client knows it by.
    public func serverPlay(publicId: String) throws -> StoredServerPlay? {
        try read { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT id, publicId, packageId, playerId, score, elapsedSeconds, ranked, dailyDay FROM play
                    WHERE publicId = ? AND playerId IS NOT NULL
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
                attempts: attempts)
        }
    }

    /// The best `limit` ranked plays of a package, by score, then by less quiz time (then the earlier finish, so the
    /// order is total), and `playerId`'s own line wherever it ranks.
    public func leaderboard(packageId: Int64, limit: Int, playerId: Int64?) throws -> Leaderboard {
        try read { db in
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
                    )
                    SELECT * FROM board WHERE position <= ? OR playerId = ? ORDER BY position
                    """,
                arguments: [packageId, limit, playerId])
            var board = Leaderboard(top: [], mine: nil, rankedPlays: rows.first?["total"] ?? 0)
            for row in rows {
                let entry = LeaderboardEntry(
                    rank: row["rank"], playerId: row["playerId"], player: row["name"], score: row["score"],
                    elapsedSeconds: row["elapsedSeconds"], finishedAt: row["finishedAt"])
                if (row["position"] as Int) <= limit { board.top.append(entry) }
                if entry.playerId == playerId { board.mine = entry }
            }
            return board
        }
    }

    /// Each quiz of a package with its attempts (every play of it, the CLI's on this file too), solves and the mean
    /// stage reached by those who solved it.
    public func quizSolveStats(packageId: Int64) throws -> [QuizSolveStats] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT quiz.position, COUNT(attempt.id) AS attempts, COALESCE(SUM(attempt.correct), 0) AS solved,
                           AVG(CASE WHEN attempt.correct THEN attempt.stageReached END) AS averageStage
                    FROM quiz LEFT JOIN attempt ON attempt.quizId = quiz.id
                    WHERE quiz.packageId = ? GROUP BY quiz.id ORDER BY quiz.position
                    """,
                arguments: [packageId]
            ).map { row in
                QuizSolveStats(
                    position: (row["position"] as Int) + 1, attempts: row["attempts"], solved: row["solved"],
                    averageStage: row["averageStage"])
            }
        }
    }

    /// The daily quiz of `day` (`yyyy-MM-dd`, UTC), choosing it on the first ask: `pick` gets the candidates (quizzes
    /// with areas of public and seed packages, not yet chosen for another day; every such quiz again once all have
    /// been) and returns the index of its choice. `number` gets the first daily's day (`nil` before any) and returns
    /// this day's number. Chosen inside one write, so two first requests of a day get the same quiz. `nil` when there
    /// is nothing to choose from.
    public func daily(
        day: String, chosenAt: Date, number: (String?) -> Int, pick: ([Int64]) -> Int
    ) throws -> DailyChoice? {
        try write { db in
            if let known = try Self.daily(day: day, in: db) { return known }
            let publicQuizzes = """
                SELECT quiz.id FROM quiz JOIN package p ON p.id = quiz.packageId
                LEFT JOIN publication pub ON pub.packageId = p.id
                WHERE (p.origin = 'seed' OR pub.visibility = 'public')
                  AND EXISTS (SELECT 1 FROM area WHERE area.quizId = quiz.id)
                """
            var candidates = try Int64.fetchAll(
                db,
                sql: publicQuizzes
                    + " AND quiz.id NOT IN (SELECT quizId FROM daily WHERE quizId IS NOT NULL) ORDER BY quiz.id")
            if candidates.isEmpty { candidates = try Int64.fetchAll(db, sql: publicQuizzes + " ORDER BY quiz.id") }
            guard !candidates.isEmpty else { return nil }
            let chosen = candidates[min(max(0, pick(candidates)), candidates.count - 1)]
            let first = try String.fetchOne(db, sql: "SELECT day FROM daily ORDER BY number LIMIT 1")
            var dayNumber = number(first)
            let taken = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM daily WHERE number = ?)", arguments: [dayNumber])!
            if dayNumber < 1 || taken {
                // A wall clock set back can ask for a day before the first: it gets the next free number instead.
                dayNumber = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(number), 0) + 1 FROM daily")!
            }
            try db.execute(
                sql: "INSERT INTO daily (day, number, quizId, chosenAt) VALUES (?, ?, ?, ?)",
                arguments: [day, dayNumber, chosen, Self.timestamp(chosenAt)])
            return try Self.daily(day: day, in: db)
        }
    }

    /// The daily quiz of `day` if it has been chosen; never chooses.
    public func dailyChoice(day: String) throws -> DailyChoice? {
        try read { db in try Self.daily(day: day, in: db) }
    }

    private static func daily(day: String, in db: Database) throws -> DailyChoice? {
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

    /// The days (`yyyy-MM-dd`) a player finished the daily quiz, newest first, and whether they solved it.
    public func dailyResults(playerId: Int64) throws -> [(day: String, solved: Bool)] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT play.dailyDay, COALESCE(MAX(attempt.correct), 0) AS solved
                    FROM play LEFT JOIN attempt ON attempt.playId = play.id
                    WHERE play.playerId = ? AND play.dailyDay IS NOT NULL
                    GROUP BY play.id ORDER BY play.dailyDay DESC
                    """,
                arguments: [playerId]
            ).map { (day: $0["dailyDay"], solved: $0["solved"]) }
        }
    }

    /// The id of the daily play a player finished on `day`, if any.
    public func dailyPlayId(playerId: Int64, day: String) throws -> String? {
        try read { db in
            try String.fetchOne(
                db, sql: "SELECT publicId FROM play WHERE playerId = ? AND dailyDay = ?", arguments: [playerId, day])
        }
    }
}
