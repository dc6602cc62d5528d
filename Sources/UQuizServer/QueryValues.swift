import Foundation
import Hummingbird
import PosterGrid
import QuizCore
import ServerUseCases

/// Reading a path or query value, with the one 400 a client gets for each kind of bad value (naming the parameter).
enum QueryValue {
    static func language(_ text: String) throws -> QuizLanguage {
        guard let language = QuizLanguage(rawValue: text) else {
            throw APIError.badRequest("language: \"\(text)\" is not a language: use ko or en")
        }
        return language
    }

    /// The language a request asks for: its `language` query value, else its `Accept-Language` as the web page reads
    /// it (English when it names neither language).
    static func language(of request: Request) throws -> QuizLanguage {
        if let text = request.uri.queryParameters.get("language") { return try language(text) }
        return QuizLanguage(rawValue: WebPlayer.language(acceptLanguage: request.headers[.acceptLanguage])) ?? .en
    }

    /// A UTC day written `yyyy-MM-dd`, 400 otherwise.
    static func day(_ text: String) throws -> String {
        let digits = text.utf8.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard text.utf8.count == 10, digits else {
            throw APIError.badRequest("day: \"\(text)\" is not a day written yyyy-MM-dd")
        }
        return text
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

    /// A page's size from `limit`, the default when there is none; 400 outside `Packages.pageSizes`.
    static func pageSize(_ text: String?) throws -> Int {
        try text.map { try wholeNumber($0, name: "limit", in: Packages.pageSizes) } ?? Packages.defaultPageSize
    }

    /// Where a page starts from `cursor`: `nil` for the first page, 400 for a text this server did not give out.
    static func pageCursor(_ text: String?) throws -> BrowseCursor? {
        guard let text else { return nil }
        guard let cursor = BrowseCursor(text: text) else { throw APIError.badRequest("cursor: not a cursor this server gave out") }
        return cursor
    }

    /// A search text without control characters, 400 naming `name` otherwise. A store cuts a text at a NUL (SQLite
    /// reads its C string to there: "unterminated string", a 500), and no title or maker holds a control character.
    static func searchText(_ text: String, name: String) throws -> String {
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError.badRequest("\(name): control characters are not searched for")
        }
        return text
    }
}

/// A path with a control character (`%00` above all) names nothing this server has: refused as a 400 before any route
/// or the asset files see it (a NUL in an asset's name was served with another type).
struct ControlCharacterPathMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        // Printable ASCII without a percent sign holds no control character, raw or escaped: nothing to decode.
        if path.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") }) { return try await next(request, context) }
        let decoded = path.removingPercentEncoding ?? path
        guard !decoded.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError.badRequest("the path has a control character: no page, file or route has one")
        }
        return try await next(request, context)
    }
}
