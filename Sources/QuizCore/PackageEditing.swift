import PosterGrid

/// One change `uquiz edit` makes to a package; quizzes are numbered from 1 as `show` numbers them.
public enum PackageEdit: Sendable, Equatable {
    case title(String)
    case maker(String)
    case level(Level)
    case areas(quiz: Int, [Cell])
    case poster(quiz: Int, path: String)
    case remove(quiz: Int)
    case move(quiz: Int, to: Int)
}

extension QuizPackage {
    /// The package with `edits` applied in order, or the first rule the result would break (in words a maker can act
    /// on: lowering a level that would leave too many areas names the quiz).
    public func applying(_ edits: [PackageEdit], levels: LevelRules) throws(SpecProblem) -> QuizPackage {
        var result = self
        func index(_ quiz: Int, _ flag: String) throws(SpecProblem) -> Int {
            guard (1...result.quizzes.count).contains(quiz) else {
                throw SpecProblem(flag, "there is no quiz \(quiz): the package has \(result.quizzes.count)")
            }
            return quiz - 1
        }
        for edit in edits {
            switch edit {
            case .title(let title):
                try PackageDocument.checkText(title, path: "--title", name: "title")
                result.title = title
            case .maker(let maker):
                try PackageDocument.checkText(maker, path: "--maker", name: "maker")
                result.maker = maker
            case .level(let level):
                result.level = level
            case let .areas(quiz, cells):
                let position = try index(quiz, "--quiz")
                do {
                    _ = try AreaSelection(
                        geometry: result.quizzes[position].geometry, limit: levels[result.level].areaCount, centres: cells)
                } catch {
                    throw SpecProblem("--areas", "quiz \(quiz): \(error.description)")
                }
                result.quizzes[position].areas = cells
            case let .poster(quiz, path):
                let position = try index(quiz, "--quiz")
                try PosterPath.check(path, at: "--poster")
                result.quizzes[position].posterPath = path
                result.quizzes[position].posterSource = .tmdb
            case .remove(let quiz):
                let position = try index(quiz, "--quiz")
                guard result.quizzes.count > 1 else {
                    throw SpecProblem("--remove", "quiz \(quiz) is the only one: delete the package instead")
                }
                result.quizzes.remove(at: position)
            case let .move(quiz, to):
                let position = try index(quiz, "--quiz")
                let target = try index(to, "--move-to")
                result.quizzes.insert(result.quizzes.remove(at: position), at: target)
            }
        }
        let limit = levels[result.level].areaCount
        for (position, quiz) in result.quizzes.enumerated() where quiz.areas.count > limit {
            throw SpecProblem(
                "--level",
                "quiz \(position + 1) (\(quiz.title)) has \(quiz.areas.count) areas but \(result.level.rawValue) allows \(limit); "
                    + "give it fewer areas first")
        }
        return result
    }
}
