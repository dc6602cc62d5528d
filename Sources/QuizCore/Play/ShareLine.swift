/// The line a solver pastes anywhere after a package: a square per quiz, the score and the code to find it by.
public enum ShareLine {
    /// 🟩 solved, 🟨 solved with a hint, 🟥 missed or skipped.
    public static func square(for result: QuizResult) -> String {
        result.solved ? (result.hintsUsed > 0 ? "🟨" : "🟩") : "🟥"
    }

    public static func text(code: ShareCode, results: [QuizResult]) -> String {
        let squares = results.map(square(for:)).joined()
        let solved = results.filter(\.solved).count
        return "UQuiz \(code) \(solved)/\(results.count) \(squares) \(results.reduce(0) { $0 + $1.score }) pts"
    }

    /// The daily quiz's line: its number instead of a share code, so everyone who played that day pastes the same.
    public static func daily(number: Int, result: QuizResult) -> String {
        "UQuiz daily #\(number) \(result.solved ? 1 : 0)/1 \(square(for: result)) \(result.score) pts"
    }
}
