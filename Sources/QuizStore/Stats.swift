internal import GRDB
import UQuizStorage
import QuizCore


extension AppDatabase {
    /// Statistics of every attempt, or of one package's; of one player when `player` is given. Without a player the
    /// counts come from the kept tallies (`quizStageTally`, `packageTally`), in time that follows the quizzes, not
    /// the plays; only the streaks walk the outcomes, one column in order.
    public func stats(packageId: Int64? = nil, player: String? = nil) throws -> PlayStats {
        try stats(packageId: packageId, player: player, countingEveryAttempt: false)
    }

    /// `stats` of every player counted from the attempts, as a player's are: what the tallies must equal (for tests).
    public func statsCountedFromEveryAttempt(packageId: Int64?) throws -> PlayStats {
        try stats(packageId: packageId, player: nil, countingEveryAttempt: true)
    }

    private func stats(packageId: Int64?, player: String?, countingEveryAttempt: Bool) throws -> PlayStats {
        try read { db in
            var conditions = ["1 = 1"]
            var arguments: StatementArguments = []
            if let packageId {
                conditions.append("quiz.packageId = ?")
                arguments += [packageId]
            }
            if let player {
                conditions.append("attempt.player = ?")
                arguments += [player]
            }
            let filter = conditions.joined(separator: " AND ")
            // Streaked over a cursor of one column: reading every attempt into rows took 1.4 s and 100 MB with
            // 100,000 plays.
            let attempts = "FROM attempt JOIN quiz ON quiz.id = attempt.quizId WHERE \(filter)"
            var best = 0
            var current = 0
            let outcomes = try Bool.fetchCursor(
                db, sql: "SELECT attempt.correct \(attempts) ORDER BY attempt.id", arguments: arguments)
            while let correct = try outcomes.next() {
                current = correct ? current + 1 : 0
                best = max(best, current)
            }
            let counts = player == nil && !countingEveryAttempt
                ? try Self.keptCounts(packageId: packageId, in: db)
                : try Self.countedCounts(attempts, filter: filter, arguments: arguments, in: db)
            let solves = counts.solvedAtStage.values.reduce(0, +)
            return PlayStats(
                plays: counts.plays, attempts: counts.attempts, correct: counts.correct, bestStreak: best,
                currentStreak: current,
                averageStage: solves == 0
                    ? nil : Double(counts.solvedAtStage.map { $0.key * $0.value }.reduce(0, +)) / Double(solves),
                solvedAtStage: counts.solvedAtStage, packages: counts.packages, hardest: counts.hardest)
        }
    }

    /// What `stats` counts, but the streaks.
    private struct StatsCounts {
        var plays: Int
        var attempts: Int
        var correct: Int
        var solvedAtStage: [Int: Int]
        var packages: [PlayStats.PackageLine]
        var hardest: [PlayStats.HardQuiz]
    }

    /// The counts of every play (of one package when `packageId` is given) from the tallies the triggers keep.
    private static func keptCounts(packageId: Int64?, in db: Database) throws -> StatsCounts {
        let scope = packageId == nil ? "" : " AND quiz.packageId = ?"
        let arguments: StatementArguments = packageId.map { [$0] } ?? []
        let tallies = """
            FROM quizStageTally t JOIN quiz ON quiz.id = t.quizId JOIN package ON package.id = quiz.packageId
            WHERE t.attempts > 0\(scope)
            """
        let solvedAtStage = Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(
                db, sql: "SELECT t.stage, SUM(t.solved) AS n \(tallies) GROUP BY t.stage HAVING SUM(t.solved) > 0",
                arguments: arguments
            ).map { ($0["stage"] as Int, $0["n"] as Int) })
        let packages = try Row.fetchAll(
            db,
            sql: """
                SELECT package.shareCode, package.title, SUM(t.attempts) AS attempts, SUM(t.solved) AS correct,
                       (SELECT plays FROM packageTally WHERE packageTally.packageId = package.id) AS plays,
                       (SELECT MAX(score) FROM play WHERE play.packageId = package.id) AS bestScore
                \(tallies) GROUP BY package.id ORDER BY package.id
                """, arguments: arguments
        ).map(packageLine)
        let hardest = try Row.fetchAll(
            db,
            sql: """
                SELECT package.shareCode, quiz.position, quiz.title, SUM(t.attempts) AS attempts, SUM(t.solved) AS correct
                \(tallies)
                GROUP BY quiz.id ORDER BY CAST(SUM(t.solved) AS REAL) / SUM(t.attempts), SUM(t.attempts) DESC, quiz.id
                LIMIT 5
                """, arguments: arguments
        ).map(hardQuiz)
        return StatsCounts(
            plays: packages.reduce(0) { $0 + $1.plays }, attempts: packages.reduce(0) { $0 + $1.attempts },
            correct: packages.reduce(0) { $0 + $1.correct }, solvedAtStage: solvedAtStage, packages: packages,
            hardest: hardest)
    }

    /// The counts of the attempts `filter` keeps, counted from them.
    private static func countedCounts(
        _ attempts: String, filter: String, arguments: StatementArguments, in db: Database
    ) throws -> StatsCounts {
        let totals = try Row.fetchOne(
            db, sql: "SELECT COUNT(*) AS attempts, COALESCE(SUM(attempt.correct), 0) AS correct \(attempts)",
            arguments: arguments)!
        let solvedAtStage = Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(
                db,
                sql: "SELECT attempt.stageReached AS stage, COUNT(*) AS n \(attempts) AND attempt.correct GROUP BY 1",
                arguments: arguments
            ).map { ($0["stage"] as Int, $0["n"] as Int) })
        let packages = try Row.fetchAll(
            db,
            sql: """
                SELECT package.shareCode, package.title,
                       COUNT(DISTINCT attempt.playId) AS plays, COUNT(*) AS attempts, SUM(attempt.correct) AS correct,
                       (SELECT MAX(score) FROM play WHERE play.packageId = package.id) AS bestScore
                FROM attempt JOIN quiz ON quiz.id = attempt.quizId JOIN package ON package.id = quiz.packageId
                WHERE \(filter) GROUP BY package.id ORDER BY package.id
                """, arguments: arguments
        ).map(packageLine)
        let hardest = try Row.fetchAll(
            db,
            sql: """
                SELECT package.shareCode, quiz.position, quiz.title, COUNT(*) AS attempts, SUM(attempt.correct) AS correct
                FROM attempt JOIN quiz ON quiz.id = attempt.quizId JOIN package ON package.id = quiz.packageId
                WHERE \(filter) GROUP BY quiz.id
                ORDER BY CAST(SUM(attempt.correct) AS REAL) / COUNT(*), COUNT(*) DESC, quiz.id LIMIT 5
                """, arguments: arguments
        ).map(hardQuiz)
        let plays = try Int.fetchOne(
            db, sql: "SELECT COUNT(DISTINCT attempt.playId) \(attempts)", arguments: arguments) ?? 0
        return StatsCounts(
            plays: plays, attempts: totals["attempts"], correct: totals["correct"], solvedAtStage: solvedAtStage,
            packages: packages, hardest: hardest)
    }

    private static func packageLine(_ row: Row) -> PlayStats.PackageLine {
        PlayStats.PackageLine(
            shareCode: row["shareCode"], title: row["title"], plays: row["plays"], attempts: row["attempts"],
            correct: row["correct"], bestScore: row["bestScore"])
    }

    private static func hardQuiz(_ row: Row) -> PlayStats.HardQuiz {
        PlayStats.HardQuiz(
            package: row["shareCode"], position: (row["position"] as Int) + 1, title: row["title"],
            attempts: row["attempts"], correct: row["correct"])
    }
}
