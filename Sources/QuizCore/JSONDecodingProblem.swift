import Foundation
import PosterGrid

/// Why a JSON document did not decode, and where (`$.quizzes[2].areas`): the one place Foundation's `DecodingError` is
/// taken apart. Each reader words it for its own user: a spec or export file (`SpecProblem`, in `PackageDocument.decodeDocument`), an HTTP body (a 400), the
/// seed source and TMDB's replies (`description`, for developers and logs).
public struct JSONDecodingProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The object at `path` has no `key`.
        case missing(key: String)
        /// A value of another type than `expected` ("text", "a whole number", "a list", …).
        case wrongType(expected: String)
        /// `null` where a value of `expected` is needed.
        case null(expected: String)
        /// A value its type refused at `path`.
        case invalid
        /// A value that broke a rule of its type, which says which (a grid geometry: "area size 4 is invalid: ...").
        case refused(reason: String)
        /// Bytes that are not JSON, or cut short.
        case notJSON
    }

    public var path: String
    public var kind: Kind
    /// Foundation's own words, for developers.
    public var detail: String

    /// The path of the missing key itself (`$.quizzes[0].movie`); `path` otherwise.
    public var pathOfValue: String {
        if case .missing(let key) = kind { path + "." + key } else { path }
    }

    /// For developers' messages and logs: `missing "title" at $.packages[0]`, `not JSON`, or Foundation's detail at
    /// the path.
    public var description: String {
        switch kind {
        case .missing(let key): "missing \"\(key)\" at \(path)"
        case .notJSON: "not JSON"
        default: "\(detail) at \(path)"
        }
    }

    /// `data` decoded as `T`; a decoding failure as a `JSONDecodingProblem`, any other error (thrown by a type's own
    /// `init(from:)`) as it is.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw JSONDecodingProblem(error)
        }
    }

    public init(_ error: DecodingError) {
        switch error {
        case let .keyNotFound(key, context):
            self.init(context, .missing(key: key.stringValue))
        case let .typeMismatch(type, context):
            self.init(context, .wrongType(expected: Self.describe(type)))
        case let .valueNotFound(type, context):
            self.init(context, .null(expected: Self.describe(type)))
        case let .dataCorrupted(context):
            if let broken = context.underlyingError as? GridGeometryError {
                self.init(context, .refused(reason: broken.description))
            } else {
                self.init(context, context.codingPath.isEmpty ? .notJSON : .invalid)
            }
        @unknown default:
            self.init(path: "$", kind: .notJSON, detail: "\(error)")
        }
    }

    public init(path: String, kind: Kind, detail: String) {
        self.path = path
        self.kind = kind
        self.detail = detail
    }

    private init(_ context: DecodingError.Context, _ kind: Kind) {
        self.init(path: Self.jsonPath(context.codingPath), kind: kind, detail: context.debugDescription)
    }

    /// `$.quizzes[2].areas[0]`: where in a JSON document a problem is, as every message of uquiz names it.
    public static func jsonPath(_ path: [any CodingKey]) -> String {
        "$" + path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Int.Type: "a whole number"
        case is [Any].Type, is [[Int]].Type, is [PackageDocument.QuizEntry].Type, is [PackageDocument].Type, is [Int].Type: "a list"
        default: "\(type)"
        }
    }
}
