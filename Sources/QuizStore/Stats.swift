internal import GRDB
import UQuizStorage
import QuizCore


extension AppDatabase {
    /// Statistics of every attempt, or of one package's; of one player when `player` is given.
    public func stats(packageId: Int64? = nil, player: String? = nil) throws -> PlayStats {
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
            // Counted in SQL and streaked over a cursor of one column: reading every attempt into rows took 1.4 s
            // and 100 MB with 100,000 plays.
            let attempts = "FROM attempt JOIN quiz ON quiz.id = attempt.quizId WHERE \(filter)"
            let totals = try Row.fetchOne(
                db, sql: "SELECT COUNT(*) AS attempts, COALESCE(SUM(attempt.correct), 0) AS correct \(attempts)",
                arguments: arguments)!
            var best = 0
            var current = 0
            let outcomes = try Bool.fetchCursor(
                db, sql: "SELECT attempt.correct \(attempts) ORDER BY attempt.id", arguments: arguments)
            while let correct = try outcomes.next() {
                current = correct ? current + 1 : 0
                best = max(best, current)
            }
            let solvedAtStage = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql: "SELECT attempt.stageReached AS stage, COUNT(*) AS n \(attempts) AND attempt.correct GROUP BY 1",
                    arguments: arguments
                ).map { ($0["stage"] as Int, $0["n"] as Int) })
            let solves = solvedAtStage.values.reduce(0, +)
            let packages = try Row.fetchAll(
                db,
                sql: """
                    SELECT package.shareCode, package.title,
                           COUNT(DISTINCT attempt.playId) AS plays, COUNT(*) AS attempts, SUM(attempt.correct) AS correct,
                           (SELECT MAX(score) FROM play WHERE play.packageId = package.id) AS bestScore
                    FROM attempt JOIN quiz ON quiz.id = attempt.quizId JOIN package ON package.id = quiz.packageId
                    WHERE \(filter) GROUP BY package.id ORDER BY package.id
                    """, arguments: arguments
            ).map { row in
                PlayStats.PackageLine(
                    shareCode: row["shareCode"], title: row["title"], plays: row["plays"], attempts: row["attempts"],
                    correct: row["correct"], bestScore: row["bestScore"])
            }
            let hardest = try Row.fetchAll(
                db,
                sql: """
                    SELECT package.shareCode, quiz.position, quiz.title, COUNT(*) AS attempts, SUM(attempt.correct) AS correct
                    FROM attempt JOIN quiz ON quiz.id = attempt.quizId JOIN package ON package.id = quiz.packageId
                    WHERE \(filter) GROUP BY quiz.id
                    ORDER BY CAST(SUM(attempt.correct) AS REAL) / COUNT(*), COUNT(*) DESC, quiz.id LIMIT 5
                    """, arguments: arguments
            ).map { row in
                PlayStats.HardQuiz(
                    package: row["shareCode"], position: (row["position"] as Int) + 1, title: row["title"],
                    attempts: row["attempts"], correct: row["correct"])
            }
            let plays = try Int.fetchOne(
                db,
                sql: "SELECT COUNT(DISTINCT attempt.playId) FROM attempt JOIN quiz ON quiz.id = attempt.quizId WHERE \(filter)",
                arguments: arguments) ?? 0
            return PlayStats(
                plays: plays, attempts: totals["attempts"], correct: totals["correct"], bestStreak: best,
                currentStreak: current,
                averageStage: solves == 0 ? nil : Double(solvedAtStage.map { $0.key * $0.value }.reduce(0, +)) / Double(solves),
                solvedAtStage: solvedAtStage, packages: packages, hardest: hardest)
        }
    }
}
