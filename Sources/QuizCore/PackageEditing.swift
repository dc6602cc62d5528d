import PosterGrid

/// One change to a package (`uquiz edit`'s flags make them); quizzes are numbered from 1 as `show` numbers them.
public enum PackageEdit: Sendable, Equatable {
    case title(String)
    case maker(String)
    case level(Level)
    case areas(quiz: Int, [Cell])
    case poster(quiz: Int, path: String)
    case remove(quiz: Int)
    case move(quiz: Int, to: Int)
}

/// A rule an edit would break: which part of the edit, and why. A front end names the part its own way (the CLI: the
/// flag that gave it).
public struct EditProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Part: String, Sendable {
        case title, maker, level, quiz, areas, poster, remove, moveTo
    }

    public var part: Part
    public var problem: String

    public init(_ part: Part, _ problem: String) {
        self.part = part
        self.problem = problem
    }

    public var description: String { "\(part.rawValue): \(problem)" }
}

extension QuizPackage {
    /// The package with `edits` applied in order, or the first rule the result would break (in words a maker can act
    /// on: lowering a level that would leave too many areas names the quiz).
    public func applying(_ edits: [PackageEdit], levels: LevelRules) throws(EditProblem) -> QuizPackage {
        var result = self
        func index(_ quiz: Int, _ part: EditProblem.Part) throws(EditProblem) -> Int {
            guard (1...result.quizzes.count).contains(quiz) else {
                throw EditProblem(part, "there is no quiz \(quiz): the package has \(result.quizzes.count)")
            }
            return quiz - 1
        }
        /// A text or poster rule's problem, said of `part`.
        func check(_ part: EditProblem.Part, _ rule: () throws(SpecProblem) -> Void) throws(EditProblem) {
            do { try rule() } catch { throw EditProblem(part, error.problem) }
        }
        for edit in edits {
            switch edit {
            case .title(let title):
                try check(.title) { () throws(SpecProblem) in try PackageDocument.checkText(title, path: "", name: "title") }
                result.title = title
            case .maker(let maker):
                try check(.maker) { () throws(SpecProblem) in try PackageDocument.checkText(maker, path: "", name: "maker") }
                result.maker = maker
            case .level(let level):
                result.level = level
            case let .areas(quiz, cells):
                let position = try index(quiz, .quiz)
                do {
                    _ = try AreaSelection(
                        geometry: result.quizzes[position].geometry, limit: levels[result.level].areaCount, centres: cells)
                } catch {
                    throw EditProblem(.areas, "quiz \(quiz): \(error.description)")
                }
                result.quizzes[position].areas = cells
            case let .poster(quiz, path):
                let position = try index(quiz, .quiz)
                try check(.poster) { () throws(SpecProblem) in try PosterPath.check(path, at: "") }
                result.quizzes[position].posterPath = path
                result.quizzes[position].posterSource = .tmdb
            case .remove(let quiz):
                let position = try index(quiz, .quiz)
                guard result.quizzes.count > 1 else {
                    throw EditProblem(.remove, "quiz \(quiz) is the only one: delete the package instead")
                }
                result.quizzes.remove(at: position)
            case let .move(quiz, to):
                let position = try index(quiz, .quiz)
                let target = try index(to, .moveTo)
                result.quizzes.insert(result.quizzes.remove(at: position), at: target)
            }
        }
        let limit = levels[result.level].areaCount
        for (position, quiz) in result.quizzes.enumerated() where quiz.areas.count > limit {
            throw EditProblem(
                .level,
                "quiz \(position + 1) (\(quiz.title)) has \(quiz.areas.count) areas but \(result.level.rawValue) allows \(limit); "
                    + "give it fewer areas first")
        }
        return result
    }
}
