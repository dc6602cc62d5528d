import PosterGrid
import QuizCore

/// Reading a path or query value, with the one 400 a client gets for each kind of bad value (naming the parameter).
enum QueryValue {
    static func language(_ text: String) throws -> QuizLanguage {
        guard let language = QuizLanguage(rawValue: text) else {
            throw APIError.badRequest("language: \"\(text)\" is not a language: use ko or en")
        }
        return language
    }

    /// A whole number, 400 naming `name` when it is not one.
    static func wholeNumber(_ text: String, name: String) throws -> Int {
        guard let value = Int(text) else { throw APIError.badRequest("\(name): \"\(text)\" is not a whole number") }
        return value
    }

    /// A whole number in `range`, 400 naming `name` and the range otherwise.
    static func wholeNumber(_ text: String, name: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badRequest(
                "\(name): \"\(text)\" is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
