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
            let outcomes = try Row.fetchAll(
                db,
                sql: "SELECT attempt.correct, attempt.stageReached FROM attempt JOIN quiz ON quiz.id = attempt.quizId WHERE \(filter) ORDER BY attempt.id",
                arguments: arguments)
            var best = 0
            var run = 0
            var stages: [Int] = []
            for row in outcomes {
                if row["correct"] as Bool {
                    run += 1
                    best = max(best, run)
                    stages.append(row["stageReached"])
                } else {
                    run = 0
                }
            }
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
                plays: plays,
                attempts: outcomes.count, correct: outcomes.filter { $0["correct"] as Bool }.count, bestStreak: best,
                currentStreak: run, averageStage: stages.isEmpty ? nil : Double(stages.reduce(0, +)) / Double(stages.count),
                solvedAtStage: stages.reduce(into: [:]) { $0[$1, default: 0] += 1 }, packages: packages, hardest: hardest)
        }
    }
}
