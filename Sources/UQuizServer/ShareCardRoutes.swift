// Share cards: what a link to a package (`/p/{code}`) or to a finished play (`/s/{id}`) shows where it is pasted. Chat
// apps and social sites read the link's HTML without running its script, so the page carries Open Graph tags written
// by the server (`SharePageTags`), whose image is a card drawn on the server (`GET /v1/cards/...`): a square a quiz
// coloured as the share line's squares, or a dark poster a quiz; no title, poster or answer of any quiz.

import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PosterArt
import PosterGrid
import QuizCore
import ServerUseCases
import UQuizStorage

/// `GET /v1/results/{id}` (a finished play's result as its page shows it), `GET /v1/cards/s/{id}.jpg` and
/// `GET /v1/cards/p/{code}.jpg` (the pictures). Readable by anyone with the link: nothing in them tells an answer.
struct ShareCardRoutes {
    let cards: ShareCards
    let misses: LookupMissLimit

    /// A finished play never changes; a day lets a chat app keep its preview.
    static let resultCacheControl = "public, max-age=86400"
    /// A package may be updated (its quiz count) or removed.
    static let packageCacheControl = "public, max-age=600"

    func add(to router: Router<ServerRequestContext>) {
        router.get("v1/results/{id}") { _, context in
            let id = try context.parameters.require("id")
            guard let card = try await cards.result(playId: id) else { throw Self.noResult }
            var response = JSONBody.response(ResultJSON(card))
            response.headers[.cacheControl] = Self.packageCacheControl
            return response
        }
        router.get("v1/cards/s/{id}.jpg") { _, context in
            let id = try context.parameters.require("id")
            guard let jpeg = try await cards.resultPicture(playId: id) else { throw Self.noResult }
            return Self.jpegResponse(jpeg, cacheControl: Self.resultCacheControl)
        }
        router.get("v1/cards/p/{code}.jpg") { _, context in
            let code = try context.parameters.require("code")
            let jpeg = try await misses.lookup(from: context.clientAddress) { try await cards.packagePicture(shareCode: code) }
            return Self.jpegResponse(jpeg, cacheControl: Self.packageCacheControl)
        }
    }

    static let noResult = APIError.notFound(
        "no finished play with this id here: a play has a result once it is over (a daily play's link is /d)")

    static func jpegResponse(_ jpeg: Data, cacheControl: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: cacheControl],
            body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
    }

    /// A result as `GET /v1/results/{id}` answers it.
    struct ResultJSON: Encodable {
        struct QuizJSON: Encodable {
            var outcome: String
            var stageReached: Int
            var stageCount: Int
            var hinted: Bool
        }

        var id: String
        var shareCode: String
        var packageTitle: String
        var maker: String
        var level: String
        var score: Int
        var solved: Int
        var quizCount: Int
        var shareLine: String
        var quizzes: [QuizJSON]

        init(_ card: ResultCard) {
            id = card.playId
            shareCode = card.shareCode
            packageTitle = card.packageTitle
            maker = card.maker
            level = card.level.rawValue
            score = card.score
            solved = card.solved
            quizCount = card.results.count
            shareLine = card.shareLine
            quizzes = zip(card.results, card.stageCounts).map { result, stages in
                QuizJSON(
                    outcome: result.outcome.rawValue, stageReached: result.stageReached, stageCount: stages,
                    hinted: result.hintsUsed > 0)
            }
        }
    }
}

/// The Open Graph (and Twitter) tags of a shared page, with every text from outside (a title, a maker's name)
/// escaped for an attribute, and absolute URLs on the origin the request names (`SharePageTags.origin`).
struct SharePageTags {
    var title: String
    var description: String
    /// The page's own URL and its card's, both absolute; `nil` when the request named no usable origin.
    var url: String?
    var image: String?
    var imageAlt: String

    /// The `<meta>` lines for the page's head.
    var html: String {
        var lines = [
            meta(property: "og:type", "website"),
            meta(property: "og:site_name", "UQuiz"),
            meta(property: "og:title", title),
            meta(property: "og:description", description),
            meta(name: "description", description),
        ]
        if let url { lines.append(meta(property: "og:url", url)) }
        if let image {
            lines += [
                meta(property: "og:image", image),
                meta(property: "og:image:type", "image/jpeg"),
                meta(property: "og:image:width", String(CardPicture.width)),
                meta(property: "og:image:height", String(CardPicture.height)),
                meta(property: "og:image:alt", imageAlt),
                meta(name: "twitter:card", "summary_large_image"),
            ]
        } else {
            lines.append(meta(name: "twitter:card", "summary"))
        }
        return lines.joined(separator: "\n")
    }

    private func meta(property: String, _ content: String) -> String {
        "<meta property=\"\(property)\" content=\"\(Self.escaped(content))\">"
    }

    private func meta(name: String, _ content: String) -> String {
        "<meta name=\"\(name)\" content=\"\(Self.escaped(content))\">"
    }

    /// `text` safe inside a double- or single-quoted attribute and as element text.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // Control characters have no place in a tag (a name or title never holds them, but be sure).
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: - Where the links point

    /// `scheme://host[:port]` as the client reached this server: the `Host` header (behind a trusted proxy, its
    /// `X-Forwarded-Host` and `X-Forwarded-Proto`, else `Forwarded`'s `host=` and `proto=`); `nil` when the host is
    /// not a plain host name or address with an optional port, so nothing a client writes there reaches the page but
    /// such a name.
    static func origin(of request: Request, viaTrustedProxy: Bool) -> String? {
        var scheme = "http"
        var host = request.head.authority
        if viaTrustedProxy {
            if let forwarded = request.headers[values: HTTPField.Name("X-Forwarded-Host")!].last {
                host = forwarded.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
            } else if let value = forwardedParameter("host", request.headers) {
                host = value
            }
            let proto = request.headers[values: HTTPField.Name("X-Forwarded-Proto")!].last
                .flatMap { $0.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }
                ?? forwardedParameter("proto", request.headers)?.lowercased()
            if proto == "https" { scheme = "https" }
        }
        guard let host, isHost(host) else { return nil }
        return "\(scheme)://\(host.lowercased())"
    }

    /// The first `name=` of the last `Forwarded` header, unquoted.
    static func forwardedParameter(_ name: String, _ headers: HTTPFields) -> String? {
        guard let forwarded = headers[values: HTTPField.Name("Forwarded")!].last,
            let first = forwarded.split(separator: ",").first
        else { return nil }
        for pair in first.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == name {
                return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    /// A DNS name or IPv4 address (letters, digits, dots, hyphens) or a bracketed IPv6 address, with an optional port.
    static func isHost(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 260 else { return false }
        var name = Substring(text)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            let address = name[name.index(after: name.startIndex)..<close]
            guard !address.isEmpty, address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
            name = name[name.index(after: close)...]
            if name.isEmpty { return true }
            guard name.hasPrefix(":") else { return false }
            return isPort(name.dropFirst())
        }
        let parts = name.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let hostName = parts.first, !hostName.isEmpty, hostName.utf8.count <= 253,
            hostName.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }),
            !hostName.hasPrefix("-"), !hostName.hasPrefix(".")
        else { return false }
        return parts.count == 1 || isPort(parts[1])
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) && (Int(text) ?? 0) <= 65_535
    }

    // MARK: - The pages' words

    /// A package's card: its title, maker, level and how many quizzes, never a quiz of it.
    static func package(_ card: PublishedPackage, language: String, origin: String?) -> SharePageTags {
        let code = card.shareCode
        let count = card.quizCount
        let description: String
        let alt: String
        if language == "ko" {
            description = "영화 포스터 \(count)개 맞히기 · \(koreanLevel(card.level)) · \(card.maker) 제작"
            alt = "어두운 포스터 \(count)장: 아직 아무것도 보이지 않습니다"
        } else {
            description = "\(count) movie poster\(count == 1 ? "" : "s") to guess · \(card.level.rawValue) · by \(card.maker)"
            alt = "\(count) dark poster\(count == 1 ? "" : "s"): nothing shown yet"
        }
        return SharePageTags(
            title: "\(card.title) — UQuiz", description: description,
            url: origin.map { "\($0)/p/\(pathSafe(code))" }, image: origin.map { "\($0)/v1/cards/p/\(pathSafe(code)).jpg" },
            imageAlt: alt)
    }

    static func result(_ card: ResultCard, language: String, origin: String?) -> SharePageTags {
        let count = card.results.count
        let title =
            language == "ko"
            ? "UQuiz: \(card.packageTitle)에서 \(card.solved)/\(count)"
            : "UQuiz: \(card.solved)/\(count) in \(card.packageTitle)"
        let alt =
            language == "ko"
            ? "퀴즈마다 한 칸: 초록은 정답, 노랑은 힌트를 보고 정답, 빨강은 놓침"
            : "A square a quiz: green solved, yellow solved with the hint, red missed"
        return SharePageTags(
            title: title, description: card.shareLine,
            url: origin.map { "\($0)/s/\(pathSafe(card.playId))" },
            image: origin.map { "\($0)/v1/cards/s/\(pathSafe(card.playId)).jpg" }, imageAlt: alt)
    }

    static func koreanLevel(_ level: Level) -> String {
        switch level {
        case .beginner: "초급"
        case .intermediate: "중급"
        case .expert: "고급"
        }
    }

    /// A share code or play id as a path segment: they are letters, digits, `-` and `_` only, anything else encoded.
    static func pathSafe(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: pathCharacters) ?? ""
    }

    private static let pathCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
}
