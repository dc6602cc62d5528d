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

    public func answersShown(
        playerId: Int64, packageId: Int64, quizIds: [Int64], alsoShown: [Int64]
    ) async throws -> AnswersShown {
        // A quiz shows its answer where it was played, and so does any quiz on the same movie (a twin, in any package).
        let sameAnswer = { (quiz: String) in
            "(\(quiz).id = ANY($3::bigint[]) OR \(quiz).catalog_key IN (SELECT catalog_key FROM quiz WHERE id = ANY($3::bigint[])))"
        }
        let array = { (ids: [Int64]) in Bind.text("{" + ids.map(String.init).joined(separator: ",") + "}") }
        let sql = """
            SELECT EXISTS (SELECT 1 FROM publication WHERE package_id = $1 AND owner_id = $2) AS maker,
                   EXISTS (SELECT 1 FROM play JOIN attempt ON attempt.play_id = play.id
                           JOIN quiz seen ON seen.id = attempt.quiz_id
                           WHERE play.player_id = $2 AND \(sameAnswer("seen")))
                   OR EXISTS (SELECT 1 FROM quiz seen WHERE seen.id = ANY($4::bigint[]) AND \(sameAnswer("seen")))
                   AS in_play,
                   EXISTS (SELECT 1 FROM quiz seen
                           WHERE seen.package_id IN (SELECT package_id FROM room_result WHERE player_id = $2
                                                     UNION SELECT package_id FROM answer_shown WHERE player_id = $2)
                             AND (seen.package_id = $1 OR \(sameAnswer("seen")))) AS in_room
            """
        let values: [Bind] = [.int(packageId), .int(playerId), array(quizIds), array(alsoShown)]
        return try await read { session in
            let row = try await session.one(sql, values)!
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
            for guess in attempt.wrongGuesses {
                try await session.execute(
                    """
                    INSERT INTO wrong_guess (quiz_id, guess, plays) VALUES ($1, $2, 1)
                    ON CONFLICT (quiz_id, guess) DO UPDATE SET plays = wrong_guess.plays + 1
                    """, [.int(attempt.quizId), .text(guess)])
            }
        }
        // Every attempt in one statement, the play's last before its commit: one round trip, and their counts added
        // once (`uquiz_tally_attempts_added`), the package's row locked from here to the commit only.
        if !play.attempts.isEmpty {
            var values: [Bind] = []
            var rows: [String] = []
            for attempt in play.attempts {
                let first = values.count + 1
                rows.append("(" + (first..<first + 10).map { "$\($0)" }.joined(separator: ", ") + ")")
                values += [
                    .int(playId), .int(attempt.quizId), .text(play.player.name), .text(timestamp(attempt.endedAt)),
                    .bool(attempt.result.solved), .double(attempt.result.seconds), .int(attempt.result.stageReached),
                    .int(attempt.result.hintsUsed), .text(attempt.result.outcome.rawValue), .int(attempt.result.score),
                ]
            }
            try await session.execute(
                """
                INSERT INTO attempt (play_id, quiz_id, player, started_at, correct, seconds, stage_reached, hints_used,
                                     outcome, score)
                VALUES \(rows.joined(separator: ", "))
                """, values)
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

    /// The best `limit` ranked plays by score, then less quiz time (then the earlier finish), and `playerId`'s line;
    /// each part an indexed read whose cost follows what it returns, as AppDatabase's `leaderboard` explains.
    /// Outside a transaction: the parts need not see one instant, and BEGIN and COMMIT would cost two round trips more.
    public func leaderboard(packageId: Int64, limit: Int, playerId: Int64?) async throws -> RankedPlays {
        try await read { session in
            let scoreCounts = try await session.query(Self.leaderboardScores, [.int(packageId)]).reduce(into: [Int: Int]()) { counts, row in counts[try row.int("score")] = try row.int("plays") }
            let top = try await session.query(Self.leaderboardTop, [.int(packageId), .int(limit)]).map(Self.leaderboardEntry)
            var board = RankedPlays(
                top: LeaderboardRanking.ranked(top), mine: nil, rankedPlays: scoreCounts.values.reduce(0, +),
                scoreCounts: scoreCounts)
            guard let playerId else { return board }
            if let own = board.top.first(where: { $0.playerId == playerId }) {
                board.mine = own
            } else if var mine = try await session.one(Self.leaderboardOwnPlay, [.int(packageId), .int(playerId)]).map(Self.leaderboardEntry) {
                // Plays of the same score in less time, less those of banned players, who are not ranked.
                let faster = try await session.one(
                    Self.leaderboardSameScoreFaster, [.int(packageId), .int(mine.score), .double(mine.elapsedSeconds)]
                )!.int("n")
                mine.rank = LeaderboardRanking.rank(score: mine.score, scoreCounts: scoreCounts, sameScoreFaster: faster)
                board.mine = mine
            }
            return board
        }
    }

    static let leaderboardScores = "SELECT score, plays FROM leaderboard_score WHERE package_id = $1 AND plays > 0"
    static let leaderboardTop = """
        SELECT play.player_id, player.name, play.score, play.elapsed_seconds, play.finished_at
        FROM play JOIN player ON player.id = play.player_id
        WHERE play.package_id = $1 AND play.ranked
          AND NOT EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = play.player_id)
        ORDER BY play.score DESC, play.elapsed_seconds ASC, play.finished_at COLLATE "C" ASC, play.id ASC
        LIMIT $2
        """
    static let leaderboardOwnPlay = """
        SELECT play.player_id, player.name, play.score, play.elapsed_seconds, play.finished_at
        FROM play JOIN player ON player.id = play.player_id
        WHERE play.package_id = $1 AND play.player_id = $2 AND play.ranked
          AND NOT EXISTS (SELECT 1 FROM banned_player b WHERE b.player_id = play.player_id)
        """
    static let leaderboardSameScoreFaster = """
        SELECT (SELECT COUNT(*) FROM play WHERE package_id = $1 AND ranked AND score = $2 AND elapsed_seconds < $3)
             - (SELECT COUNT(*) FROM banned_player b JOIN play ON play.package_id = $1
                    AND play.player_id = b.player_id AND play.ranked
                WHERE play.score = $2 AND play.elapsed_seconds < $3) AS n
        """

    /// The reads whose cost must follow what they return, not the data (as AppDatabase's `growthBoundedReads`).
    static func growthBoundedReads(packageId: Int64) -> [String: (sql: String, values: [Bind])] {
        let everything = BrowseFilter()
        return [
            "package by share code": (PublishedByShareCode.sql, [.text("AAAAA2")]),
            "newest page": pageQuery(everything, .newest(after: nil), limit: 21),
            "newest page after a cursor": pageQuery(
                everything, .newest(after: BrowsePosition(createdAt: "2026-06-01T00:00:00Z", id: 1_000)), limit: 21),
            "popular page": pageQuery(everything, .popular(after: nil), limit: 21),
            "popular page after a cursor": pageQuery(
                everything, .popular(after: PopularPosition(plays: 3, id: 1_000)), limit: 21),
            "title search": pageQuery(BrowseFilter(text: "night"), .newest(after: nil), limit: 21),
            "a maker's page": ownedPageQuery(playerId: 1, after: nil, limit: 21),
            "leaderboard scores": (leaderboardScores, [.int(packageId)]),
            "leaderboard top": (leaderboardTop, [.int(packageId), .int(100)]),
            "leaderboard own play": (leaderboardOwnPlay, [.int(packageId), .int(1)]),
            "leaderboard same score faster": (leaderboardSameScoreFaster, [.int(packageId), .int(0), .double(100)]),
        ]
    }

    private static func leaderboardEntry(_ row: Row) throws -> LeaderboardEntry {
        LeaderboardEntry(
            rank: 0, playerId: try row.int64("player_id"), player: try row.string("name"), score: try row.int("score"),
            elapsedSeconds: try row.double("elapsed_seconds"), finishedAt: try row.string("finished_at"))
    }

    /// Each quiz's attempts, solves, hint use, mean solving stage and solves per stage, from the kept tallies.
    public func quizSolveStats(packageId: Int64) async throws -> [QuizSolveStats] {
        try await readTogether { session in
            let stages = try await session.query(
                """
                SELECT quiz.position, t.stage, t.attempts, t.solved, t.hinted
                FROM quiz LEFT JOIN quiz_stage_tally t ON t.quiz_id = quiz.id AND t.attempts > 0
                WHERE quiz.package_id = $1 ORDER BY quiz.position, t.stage
                """, [.int(packageId)]
            ).map { row in
                QuizStageTally(
                    position: try row.int("position") + 1, stage: try row.intOrNil("stage"),
                    attempts: try row.intOrNil("attempts") ?? 0, solved: try row.intOrNil("solved") ?? 0,
                    hinted: try row.intOrNil("hinted") ?? 0)
            }
            let common = try await session.query(
                """
                SELECT quiz.position, w.guess FROM quiz CROSS JOIN LATERAL (
                    SELECT guess, plays FROM wrong_guess WHERE wrong_guess.quiz_id = quiz.id
                    ORDER BY plays DESC, guess LIMIT $2
                ) w
                WHERE quiz.package_id = $1 ORDER BY quiz.position, w.plays DESC, w.guess
                """, [.int(packageId), .int(Int64(QuizSolveStats.commonWrongGuessCount))]
            ).map { (position: try $0.int("position") + 1, guess: try $0.string("guess")) }
            return QuizSolveStats.fromStageTallies(stages, commonWrongGuesses: common)
        }
    }

    /// The daily quiz of `day` in `language`, chosen on the first ask as `DailyDraw.choose` says. The write locks the
    /// `daily` table first, so two first requests of a day, on any instances, get the same quiz and numbers never
    /// collide.
    public func daily(
        day: String, language: QuizLanguage, chosenAt: Date, among: DailyCandidates,
        number: @Sendable (String?) -> Int, pick: @Sendable ([Int64]) -> Int
    ) async throws -> DailyChoice? {
        try await DailyDraw.choose(
            where: redactedURL,
            read: {
                try await readTogether { session in
                    try await Self.dailyState(day: day, language: language, among: among, in: session)
                }
            },
            number: number, pick: pick,
            save: { drawn, index, dayNumber in
                try await write { session in
                    try await session.execute("LOCK TABLE daily IN SHARE ROW EXCLUSIVE MODE")
                    return try await Self.chooseDaily(
                        day: day, language: language, chosenAt: chosenAt, among: among, drawn: drawn, index: index,
                        number: dayNumber, in: session)
                }
            })
    }

    /// The daily quiz of `day` in `language` if chosen, else what to draw it from.
    private static func dailyState(
        day: String, language: QuizLanguage, among: DailyCandidates, in session: Session
    ) async throws -> DailyState {
        if let known = try await daily(day: day, language: language, in: session) { return .chosen(known) }
        return .toDraw(try await dailyDraw(language: language, among: among, in: session))
    }

    /// Chooses the daily quiz of `day` in `language`: candidate `index` of `drawn`, numbered `number`, provided the
    /// chosen quiz is still a candidate and the language's first day the same (the caller has locked the `daily`
    /// table), as AppDatabase's `chooseDaily` explains: the candidates are read once a day.
    private static func chooseDaily(
        day: String, language: QuizLanguage, chosenAt: Date, among: DailyCandidates, drawn: DailyDraw, index: Int,
        number: Int, in session: Session
    ) async throws -> DailyState {
        if let known = try await daily(day: day, language: language, in: session) { return .chosen(known) }
        guard !drawn.candidates.isEmpty else {
            return .toDraw(try await dailyDraw(language: language, among: among, in: session))
        }
        let chosen = drawn.candidates[min(max(0, index), drawn.candidates.count - 1)]
        let first = try await firstDailyDay(language: language, in: session)
        let candidate = dailyCandidates(among) + " AND quiz.id = $2"
        let row = try await session.one(
            """
            SELECT EXISTS (\(candidate + unchosenQuiz)) AS unchosen, EXISTS (\(candidate)) AS candidate,
                   EXISTS (\(dailyCandidates(among) + unchosenQuiz)) AS any_unchosen
            """, [.text(language.rawValue), .int(chosen)])!
        let stillCandidate = try row.bool("unchosen") || (try row.bool("candidate") && !row.bool("any_unchosen"))
        guard first == drawn.first, stillCandidate else {
            return .toDraw(try await dailyDraw(language: language, among: among, in: session))
        }
        var dayNumber = number
        let taken = try await session.one(
            "SELECT EXISTS (SELECT 1 FROM daily WHERE language = $1 AND number = $2) AS taken",
            [.text(language.rawValue), .int(dayNumber)])!.bool("taken")
        if dayNumber < 1 || taken {
            dayNumber = try await session.one(
                "SELECT COALESCE(MAX(number), 0) + 1 AS next FROM daily WHERE language = $1", [.text(language.rawValue)]
            )!.int("next")
        }
        try await session.execute(
            "INSERT INTO daily (day, language, number, quiz_id, chosen_at) VALUES ($1, $2, $3, $4, $5)",
            [.text(day), .text(language.rawValue), .int(dayNumber), .int(chosen), .text(timestamp(chosenAt))])
        return .chosen(try await daily(day: day, language: language, in: session))
    }

    /// Quizzes with areas of public and seed packages in the language `$1`, only those with a poster the store holds
    /// when asked.
    private static func dailyCandidates(_ among: DailyCandidates) -> String {
        """
        SELECT quiz.id FROM quiz JOIN package p ON p.id = quiz.package_id
        LEFT JOIN publication pub ON pub.package_id = p.id
        WHERE p.language = $1 AND (p.origin = 'seed' OR pub.visibility = 'public')
          AND NOT EXISTS (SELECT 1 FROM hidden_package h WHERE h.package_id = p.id)
          AND EXISTS (SELECT 1 FROM area WHERE area.quiz_id = quiz.id)
        """ + (among == .postersHeld ? " AND quiz.poster_source = 'bundled'" : "")
    }

    private static let unchosenQuiz = " AND quiz.id NOT IN (SELECT quiz_id FROM daily WHERE quiz_id IS NOT NULL)"

    /// The first day `language` had a daily quiz, which its numbers count from.
    private static func firstDailyDay(language: QuizLanguage, in session: Session) async throws -> String? {
        try await session.one(
            "SELECT day FROM daily WHERE language = $1 ORDER BY number LIMIT 1", [.text(language.rawValue)]
        )?.string("day")
    }

    /// The candidates for a new daily quiz in `language` (quizzes with areas of public and seed packages in that
    /// language, not yet chosen for another day; every such quiz again once all have been), and the language's first
    /// daily's day (`nil` before any).
    private static func dailyDraw(
        language: QuizLanguage, among: DailyCandidates, in session: Session
    ) async throws -> DailyDraw {
        let arguments: [Bind] = [.text(language.rawValue)]
        var candidates = try await session.query(
            dailyCandidates(among) + unchosenQuiz + " ORDER BY quiz.id", arguments
        ).map { try $0.int64("id") }
        if candidates.isEmpty {
            candidates = try await session.query(dailyCandidates(among) + " ORDER BY quiz.id", arguments)
                .map { try $0.int64("id") }
        }
        return DailyDraw(candidates: candidates, first: try await firstDailyDay(language: language, in: session))
    }

    public func dailyChoice(day: String, language: QuizLanguage) async throws -> DailyChoice? {
        try await read { session in try await Self.daily(day: day, language: language, in: session) }
    }

    public func dailyArchive(language: QuizLanguage, before day: String, limit: Int) async throws -> [DailyChoice] {
        try await read { session in
            try await session.query(
                Self.dailyColumns + " WHERE daily.language = $1 AND daily.day < $2 ORDER BY daily.day COLLATE \"C\" DESC LIMIT $3",
                [.text(language.rawValue), .text(day), .int(limit)]
            ).map(Self.dailyChoice)
        }
    }

    private static let dailyColumns = """
        SELECT daily.day, daily.language, daily.number, daily.quiz_id, quiz.package_id, quiz.position
        FROM daily LEFT JOIN quiz ON quiz.id = daily.quiz_id
        """

    private static func dailyChoice(_ row: Row) throws -> DailyChoice {
        DailyChoice(
            day: try row.string("day"), language: QuizLanguage(rawValue: try row.string("language")) ?? .en,
            number: try row.int("number"), quizId: try row.int64OrNil("quiz_id"),
            packageId: try row.int64OrNil("package_id"), position: try row.intOrNil("position"))
    }

    static func daily(day: String, language: QuizLanguage, in session: Session) async throws -> DailyChoice? {
        try await session.one(
            dailyColumns + " WHERE daily.day = $1 AND daily.language = $2", [.text(day), .text(language.rawValue)]
        ).map(dailyChoice)
    }

    public func dailyResults(playerId: Int64) async throws -> [(day: String, solved: Bool)] {
        try await read { session in
            try await session.query(
                """
                SELECT play.daily_day,
                       COALESCE((SELECT BOOL_OR(correct) FROM attempt WHERE attempt.play_id = play.id), false)
                       AND play.unranked_reason IS NULL AS solved
                FROM play WHERE play.player_id = $1 AND play.daily_day IS NOT NULL
                ORDER BY play.daily_day COLLATE "C" DESC
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

    /// A player's totals from their kept tallies: a few rows however many plays they made.
    public func playerPlayTotals(playerId: Int64) async throws -> PlayerPlayTotals {
        try await read { session in
            let row = try await session.one(
                "SELECT plays, points, played, solved FROM player_tally WHERE player_id = $1", [.int(playerId)])
            let stages = try await session.query(
                "SELECT stage, solved FROM player_stage_tally WHERE player_id = $1", [.int(playerId)])
            return PlayerPlayTotals(
                plays: try row?.int("plays") ?? 0, points: try row?.int("points") ?? 0,
                solved: try row?.int("solved") ?? 0, played: try row?.int("played") ?? 0,
                solvedPerStage: Dictionary(uniqueKeysWithValues: try stages.map { (try $0.int("stage"), try $0.int("solved")) }))
        }
    }
}

