import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PosterArt
import QuizCore
import Testing
@testable import UQuizServer

/// Share cards: the Open Graph tags of a package's page and of a finished play's result page, written by the server
/// for link previews, and the card pictures they name; none of it tells an answer.
@Suite("Share cards")
struct ShareCardTests {
    static let web = try! WebPlayer(directory: repositoryRoot.appendingPathComponent("Web"))
    static let html: HTTPFields = [.accept: "text/html,application/xhtml+xml,*/*;q=0.8", .acceptLanguage: "en-US,en;q=0.9"]

    /// Three quizzes, beginner: Toy Story, Metropolis, Nosferatu.
    static func threeQuizSpec(title: String, maker: String) -> [String: Any] {
        var spec = validSpec(title: title)
        spec["maker"] = maker
        spec["quizzes"] = [862, 19, 653].map { ["movie": $0, "areas": seedAreas] }
        return spec
    }

    /// The `<meta>` tags of a page by their `property` or `name`, their contents unescaped.
    static func tags(in html: String) -> [String: String] {
        var tags: [String: String] = [:]
        let pattern = try! NSRegularExpression(pattern: #"<meta (?:property|name)="([^"]+)" content="([^"]*)">"#)
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let key = String(html[Range(match.range(at: 1), in: html)!])
            let value = String(html[Range(match.range(at: 2), in: html)!])
            tags[key] = unescaped(value)
        }
        return tags
    }

    /// The tags of a share card (Open Graph's and Twitter's), beside the page's own (viewport, color-scheme).
    static func cardTags(in html: String) -> [String: String] {
        tags(in: html).filter { $0.key.hasPrefix("og:") || $0.key.hasPrefix("twitter:") || $0.key == "description" }
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The path of an absolute URL on this test server.
    static func path(of url: String?) throws -> String {
        let url = try #require(url)
        #expect(url.hasPrefix("http://localhost/"), "\(url)")
        return String(url.dropFirst("http://localhost".count))
    }

    static func pixel(_ image: RGBImage, _ point: (x: Int, y: Int)) -> (r: Int, g: Int, b: Int) {
        let index = (point.y * image.width + point.x) * 3
        return (Int(image.pixels[index]), Int(image.pixels[index + 1]), Int(image.pixels[index + 2]))
    }

    /// Plays the three quizzes: the first solved at stage 1, the second missed (its time runs out), the third skipped.
    static func finishPlay(
        _ code: String, token: String, clock: ManualClock, client: some TestClientProtocol
    ) async throws -> String {
        let id = try await client.playOneQuiz(code, token: token, clock: clock, guess: "Toy Story", after: .milliseconds(500))
        clock.advance(.seconds(3) + .seconds(21))
        _ = try await client.send(.get, "/v1/plays/\(id)", token: token)
        clock.advance(.seconds(3) + .milliseconds(100))
        let skipped = try await client.send(.post, "/v1/plays/\(id)/skips", json: ["quiz": 3], token: token)
        #expect(skipped.play["finished"] as? Bool == true, "\(skipped.text)")
        return id
    }

    @Test func aPackagesPageCarriesItsCardsTagsInThePagesLanguage() async throws {
        let server = try TestServer()
        try await server.test(configuration: .init(web: Self.web)) { client in
            let maker = try await client.newPlayer("Maker")
            let code = try await client.publish(Self.threeQuizSpec(title: "Silent night", maker: "Ada Maker"), token: maker)
            let page = try await client.execute(uri: "/p/\(code.lowercased())", method: .get, headers: Self.html)
            #expect(page.status == .ok)
            let tags = Self.tags(in: page.text)
            #expect(tags["og:title"] == "Silent night — UQuiz")
            #expect(tags["og:description"] == "3 movie posters to guess · beginner · by Ada Maker")
            #expect(tags["og:type"] == "website" && tags["twitter:card"] == "summary_large_image")
            #expect(tags["og:url"] == "http://localhost/p/\(code)")
            #expect(tags["og:image:width"] == "1200" && tags["og:image:height"] == "630")
            #expect(page.text.contains("<title>Silent night — UQuiz</title>"))
            #expect(!page.text.contains("{{"))

            let image = try await client.execute(uri: try Self.path(of: tags["og:image"]), method: .get)
            #expect(image.status == .ok && image.headers[.contentType] == "image/jpeg")
            #expect(image.headers[.cacheControl]?.hasPrefix("public, max-age=") == true)
            let picture = try JPEG.decode(Data(image.body.readableBytesView))
            #expect(picture.width == 1200 && picture.height == 630)
            // A dark poster a quiz: nothing bright at their centres.
            for frame in CardPicture.tileFrames(count: 3, shape: .poster, footer: true) {
                let (r, g, b) = Self.pixel(picture, frame.centre)
                #expect(max(r, g, b) < 90, "tile at \(frame): \(r),\(g),\(b)")
            }

            let korean = try await client.execute(
                uri: "/p/\(code)", method: .get, headers: [.accept: "text/html", .acceptLanguage: "ko-KR,ko;q=0.9"])
            #expect(Self.tags(in: korean.text)["og:description"] == "영화 포스터 3개 맞히기 · 초급 · Ada Maker 제작")

            for secret in ["Toy Story", "Metropolis", "Nosferatu", "862", ".jpg\" content=\"/"] {
                #expect(!page.text.contains(secret), "\(secret)")
            }
            // A code that names nothing: the plain page (the script says so) with the API's 404, and no card.
            let unknown = try await client.execute(uri: "/p/ZZZZZZ", method: .get, headers: Self.html)
            #expect(unknown.status == .notFound)
            #expect(unknown.text.contains("<title>UQuiz</title>") && Self.cardTags(in: unknown.text).isEmpty)
            #expect(try await client.execute(uri: "/v1/cards/p/ZZZZZZ.jpg", method: .get).status == .notFound)
        }
    }

    @Test func aFinishedPlaysResultPageShowsItsScoreAndACardOfItsOutcomesOnly() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(configuration: .init(web: Self.web), monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            let code = try await client.publish(Self.threeQuizSpec(title: "Silent night", maker: "Ada Maker"), token: maker)
            let quizTitles = try (1...3).map { try server.quiz(code, $0).title }
            #expect(quizTitles.contains("Toy Story") && quizTitles.contains("Metropolis"))
            let player = try await client.newPlayer("Bo")
            let id = try await Self.finishPlay(code, token: player, clock: clock, client: client)

            let page = try await client.execute(uri: "/s/\(id)", method: .get, headers: Self.html)
            #expect(page.status == .ok)
            let tags = Self.tags(in: page.text)
            #expect(tags["og:title"] == "UQuiz: 1/3 in Silent night")
            let description = try #require(tags["og:description"])
            #expect(description.hasPrefix("UQuiz \(code) 1/3 🟩🟥🟥 ") && description.hasSuffix(" pts"), "\(description)")
            #expect(tags["og:url"] == "http://localhost/s/\(id)")
            #expect(tags["twitter:card"] == "summary_large_image")
            for secret in quizTitles { #expect(!page.text.contains(secret), "\(secret) is not in the result's page") }

            let result = try await client.execute(uri: "/v1/results/\(id)", method: .get)
            #expect(result.status == .ok)
            #expect(result.json["shareLine"] as? String == description)
            #expect(result.json["shareCode"] as? String == code && result.json["solved"] as? Int == 1)
            #expect((result.json["quizzes"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["solved", "missed", "skipped"])
            for secret in quizTitles + ["862", "poster", "areas"] {
                #expect(!result.text.contains(secret), "\(secret) is not in the result")
            }

            let image = try await client.execute(uri: try Self.path(of: tags["og:image"]), method: .get)
            #expect(image.status == .ok && image.headers[.contentType] == "image/jpeg")
            #expect(image.headers[.cacheControl] == "public, max-age=86400")
            let picture = try JPEG.decode(Data(image.body.readableBytesView))
            #expect(picture.width == 1200 && picture.height == 630)
            let frames = CardPicture.tileFrames(count: 3, shape: .square, footer: true)
            let solved = Self.pixel(picture, frames[0].centre)
            #expect(solved.g > solved.r + 40 && solved.g > solved.b + 40, "solved is green: \(solved)")
            let missed = Self.pixel(picture, frames[1].centre)
            #expect(missed.r > missed.g + 80 && missed.r > missed.b + 60, "missed is red: \(missed)")
            let skipped = Self.pixel(picture, frames[2].centre)
            #expect(max(skipped.r, skipped.g, skipped.b) < 60, "a skip is a frame around the ground: \(skipped)")
            let skippedFrame = Self.pixel(picture, (frames[2].x + 8, frames[2].y + frames[2].height / 2))
            #expect(skippedFrame.r > skippedFrame.g + 80, "its frame is red: \(skippedFrame)")
            // Kept: the same bytes again.
            let again = try await client.execute(uri: try Self.path(of: tags["og:image"]), method: .get)
            #expect(again.body == image.body)
            let head = try await client.execute(uri: "/v1/cards/s/\(id).jpg", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
        }
    }

    @Test func aPlayNotFinishedHasNoResult() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(configuration: .init(web: Self.web), monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            let code = try await client.publish(Self.threeQuizSpec(title: "Silent night", maker: "Ada Maker"), token: maker)
            let player = try await client.newPlayer("Cy")
            let open = try await client.playOneQuiz(code, token: player, clock: clock, guess: "Toy Story", after: .milliseconds(500))
            for id in [open, "AAAAAAAAAAAAAAAAAAAAAA", "not-an-id"] {
                let page = try await client.execute(uri: "/s/\(id)", method: .get, headers: Self.html)
                #expect(page.status == .notFound, "\(id)")
                #expect(Self.cardTags(in: page.text).isEmpty && page.text.contains("/assets/\(Self.web.version)/app.js"))
                #expect(try await client.execute(uri: "/v1/results/\(id)", method: .get).status == .notFound)
                #expect(try await client.execute(uri: "/v1/cards/s/\(id).jpg", method: .get).status == .notFound)
            }
            // Its link is not a result yet, and says nothing of the quiz solved.
            #expect(!(try await client.execute(uri: "/s/\(open)", method: .get, headers: Self.html).text.contains("Toy Story")))
        }
    }

    @Test func textFromOutsideIsEscapedInTheTags() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let title = #"Tom & "Jerry's" <b>night</b>"#
        let maker = #"<img src=x onerror="alert(1)">"#
        try await server.test(configuration: .init(web: Self.web), monotonicNow: clock.now) { client in
            let token = try await client.newPlayer("Maker")
            let code = try await client.publish(Self.threeQuizSpec(title: title, maker: maker), token: token)
            let player = try await client.newPlayer("Dee")
            let id = try await Self.finishPlay(code, token: player, clock: clock, client: client)
            for path in ["/p/\(code)", "/s/\(id)"] {
                let page = try await client.execute(uri: path, method: .get, headers: Self.html)
                #expect(page.status == .ok)
                for raw in ["<b>", "<img", "\"Jerry", "onerror=\"", "& "] { #expect(!page.text.contains(raw), "\(path): \(raw)") }
                #expect(page.text.contains("Tom &amp; &quot;Jerry&#39;s&quot; &lt;b&gt;night&lt;/b&gt;"), "\(path)")
                let tags = Self.tags(in: page.text)
                #expect(tags["og:title"]?.contains(title) == true, "\(path): \(tags)")
            }
            #expect(Self.tags(in: try await client.execute(uri: "/p/\(code)", method: .get, headers: Self.html).text)["og:description"]
                == "3 movie posters to guess · beginner · by \(maker)")
        }
    }

    /// The links' origin is the request's host, or a trusted proxy's forwarded one; anything that is not a host name
    /// or address (with a port) gives no absolute link rather than text in the page.
    @Test func theOriginComesFromTheHostAndOnlyAPlainOne() {
        func request(authority: String?, headers: HTTPFields = [:]) -> Request {
            Request(
                head: HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/p/FE7NWW", headerFields: headers),
                body: .init(buffer: ByteBuffer()))
        }
        #expect(SharePageTags.origin(of: request(authority: "uquiz.example:8080"), viaTrustedProxy: false) == "http://uquiz.example:8080")
        #expect(SharePageTags.origin(of: request(authority: "[::1]:8080"), viaTrustedProxy: false) == "http://[::1]:8080")
        for hostile in ["evil\"><script>", "a b", "x.example/path", "x.example:99999", "x.example:80:80", "", "-x", "[::1]x"] {
            #expect(SharePageTags.origin(of: request(authority: hostile), viaTrustedProxy: false) == nil, "\(hostile)")
        }
        #expect(SharePageTags.origin(of: request(authority: nil), viaTrustedProxy: false) == nil)
        let forwarded: HTTPFields = [
            HTTPField.Name("X-Forwarded-Host")!: "quiz.example", HTTPField.Name("X-Forwarded-Proto")!: "https",
        ]
        #expect(SharePageTags.origin(of: request(authority: "10.0.0.5:8080", headers: forwarded), viaTrustedProxy: true) == "https://quiz.example")
        #expect(SharePageTags.origin(of: request(authority: "10.0.0.5:8080", headers: forwarded), viaTrustedProxy: false) == "http://10.0.0.5:8080",
            "a client that is no trusted proxy names nothing with those headers")
        let standard: HTTPFields = [HTTPField.Name("Forwarded")!: "for=1.2.3.4;host=quiz.example;proto=https"]
        #expect(SharePageTags.origin(of: request(authority: "10.0.0.5", headers: standard), viaTrustedProxy: true) == "https://quiz.example")
        #expect(SharePageTags.escaped("a\"b'<c>&\u{1}") == "a&quot;b&#39;&lt;c&gt;&amp; ")
    }
}
