import Foundation
import QuizCore
import UQuizStorage

/// Plays judged by the server, leaderboards and the daily quiz on PostgreSQL, as SQLitePlayResults.swift on SQLite.
extension PostgresQuizStore {
    /// Records a finished server play and its quizzes in one transaction; returns whether it is ranked (no daily play,
    /// and the player's first of this package: the unique index `play_ranked_once` holds that against every writer).
    public func recordServerPlay(_ play: FinishedServerPlay) async throws -> Bool {
        try await write { session in try await Self.recordServerPlay(play, in: session) }
    }

    public func answersShown(playerId: Int64, packageId: Int64, quizIds: [Int64]) async throws -> AnswersShown {
        try await read { session in
            let row = try await session.one(
                """
                SELECT EXISTS (SELECT 1 FROM publication WHERE package_id = $1 AND owner_id = $2) AS maker,
                       EXISTS (SELECT 1 FROM attempt JOIN play ON play.id = attempt.play_id
                               WHERE play.player_id = $2 AND attempt.quiz_id = ANY($3::bigint[])) AS in_play,
                       EXISTS (SELECT 1 FROM room_result WHERE player_id = $2 AND package_id = $1)
                       OR EXISTS (SELECT 1 FROM answer_shown WHERE player_id = $2 AND package_id = $1) AS in_room
                """, [.int(packageId), .int(playerId), .text("{" + quizIds.map(String.init).joined(separator: ",") + "}")])!
            return AnswersShown(maker: try row.bool("maker"), inPlay: try row.bool("in_play"), inRoom: try row.bool("in_room"))
        }
    }

    static func recordServerPlay(_ play: FinishedServerPlay, in session: Session) async throws -> Bool {
        var ranked = false
        if play.dailyDay == nil, play.unrankedReason == nil {
            // Serialises two plays of one player and package: the second waits, then sees the first.
            try await session.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended('ranked:' || $1::text || ':' || $2::text, 0))",
                [.int(play.packageId), .int(play.player.id)])
            ranked = !(try await session.one(
                "SELECT EXISTS (SELECT 1 FROM play WHERE package_id = $1 AND player_id = $2 AND ranked) AS present",
                [.int(play.packageId), .int(play.player.id)])!.bool("present"))
        }
        let row = try await session.one(
            """
            INSERT INTO play (package_id, player, started_at, finished_at, score, public_id, player_id, ranked,
                              elapsed_seconds, daily_day, unranked_reason)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id
            """,
            [
                .int(play.packageId), .text(play.player.name), .text(timestamp(play.startedAt)),
                .text(timestamp(play.finishedAt)), .int(play.score), .text(play.publicId), .int(play.player.id),
                .bool(ranked), .double(play.elapsedSeconds), .text(play.dailyDay), .text(play.unrankedReason?.rawValue),
            ])!
        let playId = try row.int64("id")
        for attempt in play.attempts {
            try await session.execute(
                """
                INSERT INTO attempt (play_id, quiz_id, player, started_at, correct, seconds, stage_reached, hints_used,
                                     outcome, score)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                """,
                [
                    .int(playId), .int(attempt.quizId), .text(play.player.name), .text(timestamp(attempt.endedAt)),
                    .bool(attempt.result.solved), .double(attempt.result.seconds), .int(attempt.result.stageReached),
                    .int(attempt.result.hintsUsed), .text(attempt.result.outcome.rawValue), .int(attempt.result.score),
                ])
            for guess in attempt.wrongGuesses {
                try await session.execute(
                    """
                    INSERT INTO wrong_guess (quiz_id, guess, plays) VALUES ($1, $2, 1)
                    ON CONFLICT (quiz_id, guess) DO UPDATE SET plays = wrong_guess.plays + 1
                    """, [.int(attempt.quizId), .text(guess)])
            }
        }
        return ranked
    }

    public func recordAnswersShown(playerIds: [Int64], packageId: Int64) async throws {
        guard !playerIds.isEmpty else { return }
        try await write { session in
            try await session.execute(
                """
                INSERT INTO answer_shown (player_id, package_id) SELECT unnest($1::bigint[]), $2
                ON CONFLICT DO NOTHING
                """, [.text("{" + playerIds.map(String.init).joined(separator: ",") + "}"), .int(packageId)])
        }
    }

    public func serverPlay(publicId: String) async throws -> StoredServerPlay? {
        try await readTogether { session in
            guard let row = try await session.one(
                """
                SELECT id, public_id, package_id, player_id, score, elapsed_seconds, ranked, daily_day, unranked_reason
                FROM play WHERE public_id = $1 AND player_id IS NOT NULL
                """, [.text(publicId)])
            else { return nil }
            let attempts = try await session.query(
                "SELECT quiz_id, outcome, seconds, stage_reached, hints_used, score FROM attempt WHERE play_id = $1 ORDER BY id",
                [.int(try row.int64("id"))]
            ).map { attempt in
                StoredServerPlay.StoredAttempt(
                    quizId: try attempt.int64("quiz_id"),
                    result: QuizResult(
                        outcome: QuizResult.Outcome(rawValue: try attempt.stringOrNil("outcome") ?? "") ?? .missed,
                        seconds: try attempt.double("seconds"), stageReached: try attempt.int("stage_reached"),
                        hintsUsed: try attempt.int("hints_used"), score: try attempt.intOrNil("score") ?? 0))
            }
            return StoredServerPlay(
                publicId: try row.string("public_id"), packageId: try row.int64("package_id"),
                playerId: try row.int64("player_id"), score: try row.intOrNil("score") ?? 0,
                elapsedSeconds: try row.doubleOrNil("elapsed_seconds") ?? 0, ranked: try row.bool("ranked"),
                dailyDay: try row.stringOrNil("daily_day"), attempts: attempts,
                unrankedReason: try row.stringOrNil("unranked_reason").flatMap(UnrankedReason.init(rawValue:)))
        }
    }

    /// The best `limit` ranked plays by score, then less quiz time (then the earlier finish), and `playerId`'s line.
    public func leaderboard(packageId: Int64, limit: Int, playerId: Int64?) async throws -> Leaderboard {
        try await read { session in
            let rows = try await session.query(
                """
                WITH board AS (
                    SELECT play.player_id, player.name, play.score, play.elapsed_seconds, play.finished_at,
                           RANK() OVER (ORDER BY play.score DESC, play.elapsed_seconds ASC) AS rank,
                           ROW_NUMBER() OVER (
                               ORDER BY play.score DESC, play.elapsed_seconds ASC, play.finished_at COLLATE "C" ASC, play.id ASC
                           ) AS position,
                           COUNT(*) OVER () AS total
                    FROM play JOIN player ON player.id = play.player_id
                    WHERE play.package_id = $1 AND play.ranked
                      AND NOT EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = play.player_id)
                ),
                scores AS (
                    SELECT string_agg(concat(score, ':', plays), ',') AS score_counts
                    FROM (SELECT score, COUNT(*) AS plays FROM board GROUP BY score) counted
                )
                SELECT * FROM board, scores WHERE position <= $2 OR player_id = $3 ORDER BY position
                """, [.int(packageId), .int(limit), .int(playerId)])
            var board = Leaderboard(
                top: [], mine: nil, rankedPlays: try rows.first?.int("total") ?? 0,
                scoreCounts: Leaderboard.scoreCounts(aggregated: try rows.first?.stringOrNil("score_counts")))
            for row in rows {
                let entry = LeaderboardEntry(
                    rank: try row.int("rank"), playerId: try row.int64("player_id"), player: try row.string("name"),
                    score: try row.int("score"), elapsedSeconds: try row.double("elapsed_seconds"),
                    finishedAt: try row.string("finished_at"))
                if try row.int("position") <= limit { board.top.append(entry) }
                if entry.playerId == playerId { board.mine = entry }
            }
            return board
        }
    }

    public func quizSolveStats(packageId: Int64) async throws -> [QuizSolveStats] {
        try await readTogether { session in
            let stats = try await session.query(
                """
                SELECT quiz.position, COUNT(attempt.id) AS attempts, COUNT(*) FILTER (WHERE attempt.correct) AS solved,
                       AVG(CASE WHEN attempt.correct THEN attempt.stage_reached END)::float8 AS average_stage,
                       COUNT(*) FILTER (WHERE attempt.hints_used > 0) AS hinted
                FROM quiz LEFT JOIN attempt ON attempt.quiz_id = quiz.id
                WHERE quiz.package_id = $1 GROUP BY quiz.id ORDER BY quiz.position
                """, [.int(packageId)]
            ).map { row in
                QuizSolveStats(
                    position: try row.int("position") + 1, attempts: try row.int("attempts"), solved: try row.int("solved"),
                    averageStage: try row.doubleOrNil("average_stage"), hinted: try row.int("hinted"))
            }
            let common = try await session.query(
                """
                SELECT position, guess FROM (
                    SELECT quiz.position, wrong_guess.guess,
                           row_number() OVER (PARTITION BY quiz.id ORDER BY wrong_guess.plays DESC, wrong_guess.guess) AS place
                    FROM quiz JOIN wrong_guess ON wrong_guess.quiz_id = quiz.id WHERE quiz.package_id = $1
                ) ranked WHERE place <= $2 ORDER BY position, place
                """, [.int(packageId), .int(Int64(QuizSolveStats.commonWrongGuessCount))]
            ).map { (position: try $0.int("position") + 1, guess: try $0.string("guess")) }
            let stages = try await session.query(
                """
                SELECT quiz.position, attempt.stage_reached AS stage, COUNT(*) AS solved
                FROM quiz JOIN attempt ON attempt.quiz_id = quiz.id
                WHERE quiz.package_id = $1 AND attempt.correct AND attempt.stage_reached IS NOT NULL
                GROUP BY quiz.position, attempt.stage_reached
                """, [.int(packageId)]
            ).map { (position: try $0.int("position") + 1, stage: try $0.int("stage"), solved: try $0.int("solved")) }
            return stats.map { quiz in
                var quiz = quiz
                quiz.commonWrongGuesses = common.filter { $0.position == quiz.position }.map(\.guess)
                for row in stages where row.position == quiz.position { quiz.solvedAtStage[row.stage] = row.solved }
                return quiz
            }
        }
    }

    /// The daily quiz of `day`, chosen on the first ask as `DailyDraw.choose` says. The write locks the `daily` table
    /// first, so two first requests of a day, on any instances, get the same quiz and numbers never collide.
    public func daily(
        day: String, chosenAt: Date, among: DailyCandidates, number: @Sendable (String?) -> Int,
        pick: @Sendable ([Int64]) -> Int
    ) async throws -> DailyChoice? {
        try await DailyDraw.choose(
            where: redactedURL,
            read: { try await readTogether { session in try await Self.dailyState(day: day, among: among, in: session) } },
            number: number, pick: pick,
            save: { drawn, index, dayNumber in
                try await write { session in
                    try await session.execute("LOCK TABLE daily IN SHARE ROW EXCLUSIVE MODE")
                    return try await Self.chooseDaily(
                        day: day, chosenAt: chosenAt, among: among, drawn: drawn, index: index, number: dayNumber,
                        in: session)
                }
            })
    }

    /// The daily quiz of `day` if chosen, else what to draw it from.
    private static func dailyState(day: String, among: DailyCandidates, in session: Session) async throws -> DailyState {
        if let known = try await daily(day: day, in: session) { return .chosen(known) }
        return .toDraw(try await dailyDraw(among: among, in: session))
    }

    /// Chooses the daily quiz of `day`: candidate `index` of `drawn`, numbered `number`, provided `drawn` is still what
    /// the database holds (the caller has locked the `daily` table). When another request chose first, that choice;
    /// when the candidates or the first day changed since they were read, the new ones, to draw again. The index is
    /// clamped to the candidates; a number below 1 or taken already (a wall clock set back asks for a day before the
    /// first) becomes the next free one.
    private static func chooseDaily(
        day: String, chosenAt: Date, among: DailyCandidates, drawn: DailyDraw, index: Int, number: Int,
        in session: Session
    ) async throws -> DailyState {
        if let known = try await daily(day: day, in: session) { return .chosen(known) }
        let current = try await dailyDraw(among: among, in: session)
        guard current == drawn else { return .toDraw(current) }
        guard !drawn.candidates.isEmpty else { return .chosen(nil) }
        let chosen = drawn.candidates[min(max(0, index), drawn.candidates.count - 1)]
        var dayNumber = number
        let taken = try await session.one(
            "SELECT EXISTS (SELECT 1 FROM daily WHERE number = $1) AS taken", [.int(dayNumber)])!.bool("taken")
        if dayNumber < 1 || taken {
            dayNumber = try await session.one("SELECT COALESCE(MAX(number), 0) + 1 AS next FROM daily")!.int("next")
        }
        try await session.execute(
            "INSERT INTO daily (day, number, quiz_id, chosen_at) VALUES ($1, $2, $3, $4)",
            [.text(day), .int(dayNumber), .int(chosen), .text(timestamp(chosenAt))])
        return .chosen(try await daily(day: day, in: session))
    }

    /// The candidates for a new daily quiz (quizzes with areas of public and seed packages, not yet chosen for another
    /// day; every such quiz again once all have been), and the first daily's day (`nil` before any).
    private static func dailyDraw(among: DailyCandidates, in session: Session) async throws -> DailyDraw {
        let publicQuizzes = """
            SELECT quiz.id FROM quiz JOIN package p ON p.id = quiz.package_id
            LEFT JOIN publication pub ON pub.package_id = p.id
            WHERE (p.origin = 'seed' OR pub.visibility = 'public')
              AND NOT EXISTS (SELECT 1 FROM hidden_package h WHERE h.package_id = p.id)
              AND EXISTS (SELECT 1 FROM area WHERE area.quiz_id = quiz.id)
            """ + (among == .postersHeld ? " AND quiz.poster_source = 'bundled'" : "")
        var candidates = try await session.query(
            publicQuizzes + " AND quiz.id NOT IN (SELECT quiz_id FROM daily WHERE quiz_id IS NOT NULL) ORDER BY quiz.id"
        ).map { try $0.int64("id") }
        if candidates.isEmpty {
            candidates = try await session.query(publicQuizzes + " ORDER BY quiz.id").map { try $0.int64("id") }
        }
        let first = try await session.one("SELECT day FROM daily ORDER BY number LIMIT 1")?.string("day")
        return DailyDraw(candidates: candidates, first: first)
    }

    public func dailyChoice(day: String) async throws -> DailyChoice? {
        try await read { session in try await Self.daily(day: day, in: session) }
    }

    static func daily(day: String, in session: Session) async throws -> DailyChoice? {
        try await session.one(
            """
            SELECT daily.day, daily.number, daily.quiz_id, quiz.package_id, quiz.position
            FROM daily LEFT JOIN quiz ON quiz.id = daily.quiz_id WHERE daily.day = $1
            """, [.text(day)]
        ).map { row in
            DailyChoice(
                day: try row.string("day"), number: try row.int("number"), quizId: try row.int64OrNil("quiz_id"),
                packageId: try row.int64OrNil("package_id"), position: try row.intOrNil("position"))
        }
    }

    public func dailyResults(playerId: Int64) async throws -> [(day: String, solved: Bool)] {
        try await read { session in
            try await session.query(
                """
                SELECT play.daily_day,
                       COALESCE(BOOL_OR(attempt.correct), false) AND play.unranked_reason IS NULL AS solved
                FROM play LEFT JOIN attempt ON attempt.play_id = play.id
                WHERE play.player_id = $1 AND play.daily_day IS NOT NULL
                GROUP BY play.id ORDER BY play.daily_day COLLATE "C" DESC
                """, [.int(playerId)]
            ).map { (day: try $0.string("daily_day"), solved: try $0.bool("solved")) }
        }
    }

    public func dailyPlayId(playerId: Int64, day: String) async throws -> String? {
        try await read { session in
            try await session.one(
                "SELECT public_id FROM play WHERE player_id = $1 AND daily_day = $2", [.int(playerId), .text(day)]
            )?.stringOrNil("public_id")
        }
    }

    public func playerPlays(playerId: Int64, limit: Int) async throws -> [PlayerPlayRow] {
        try await read { session in
            try await session.query(
                """
                SELECT play.public_id, package.share_code, package.title, play.score, play.ranked, play.daily_day,
                       play.finished_at,
                       (SELECT COUNT(*) FROM attempt WHERE attempt.play_id = play.id AND attempt.correct) AS solved,
                       (SELECT COUNT(*) FROM attempt WHERE attempt.play_id = play.id) AS played
                FROM play JOIN package ON package.id = play.package_id
                WHERE play.player_id = $1 AND play.public_id IS NOT NULL
                ORDER BY play.id DESC LIMIT $2
                """, [.int(playerId), .int(limit)]
            ).map { row in
                let dailyDay = try row.stringOrNil("daily_day")
                return PlayerPlayRow(
                    publicId: try row.string("public_id"), shareCode: dailyDay == nil ? try row.string("share_code") : nil,
                    title: try row.string("title"), score: try row.intOrNil("score") ?? 0, solved: try row.int("solved"),
                    played: try row.int("played"), ranked: try row.bool("ranked"), dailyDay: dailyDay,
                    finishedAt: try row.stringOrNil("finished_at") ?? "")
            }
        }
    }

    public func playerPlayTotals(playerId: Int64) async throws -> PlayerPlayTotals {
        try await read { session in
            let row = try await session.one(
                """
                SELECT (SELECT COUNT(*) FROM play WHERE player_id = $1 AND public_id IS NOT NULL) AS plays,
                       (SELECT COALESCE(SUM(score), 0)::bigint FROM play WHERE player_id = $1 AND public_id IS NOT NULL)
                           AS points,
                       COUNT(attempt.id) AS played, COUNT(*) FILTER (WHERE attempt.correct) AS solved,
                       AVG(CASE WHEN attempt.correct THEN attempt.stage_reached END)::float8 AS average_stage
                FROM play JOIN attempt ON attempt.play_id = play.id
                WHERE play.player_id = $1 AND play.public_id IS NOT NULL
                """, [.int(playerId)])!
            let stages = try await session.query(
                """
                SELECT attempt.stage_reached AS stage, COUNT(*) AS solved
                FROM play JOIN attempt ON attempt.play_id = play.id
                WHERE play.player_id = $1 AND play.public_id IS NOT NULL AND attempt.correct AND attempt.stage_reached IS NOT NULL
                GROUP BY attempt.stage_reached
                """, [.int(playerId)])
            return PlayerPlayTotals(
                plays: try row.int("plays"), points: try row.int("points"), solved: try row.int("solved"),
                played: try row.int("played"), averageStage: try row.doubleOrNil("average_stage"),
                solvedAtStage: Dictionary(uniqueKeysWithValues: try stages.map { (try $0.int("stage"), try $0.int("solved")) }))
        }
    }
}

