import Foundation
import LocalUseCases
import MovieSearch
import QuizCore
import RemoteClient
import Synchronization
import Testing
import UQuizWire

/// A transport that answers from a script, one outcome per request, and remembers what was sent.
final class ScriptedTransport: BlockingHTTPTransport {
    private let state: Mutex<(script: [Result<HTTPReply, TransportError>], sent: [HTTPRequest])>

    init(_ script: [Result<HTTPReply, TransportError>]) {
        state = Mutex((script, []))
    }

    var sent: [HTTPRequest] { state.withLock { $0.sent } }

    func sendBlocking(_ request: HTTPRequest) throws(TransportError) -> HTTPReply {
        let outcome = state.withLock { state in
            state.sent.append(request)
            return state.script.isEmpty ? .failure(.failed(host: "script", detail: "no more replies")) : state.script.removeFirst()
        }
        return try outcome.get()
    }
}

/// A clock whose sleeps only add up.
final class SleepCounter: Sendable {
    private let sleeps = Mutex<[Duration]>([])

    var slept: [Duration] { sleeps.withLock { $0 } }

    var clock: ClientClock {
        ClientClock(
            now: { self.slept.reduce(.zero, +) }, sleep: { duration in self.sleeps.withLock { $0.append(duration) } },
            wallTime: { Date(timeIntervalSince1970: 0) }, random: { 0.5 })
    }
}

@Suite("The server client: errors and what it retries")
struct ServerClientTests {
    static let page = HTTPReply(status: 200, headers: [:], body: Data(#"{"packages":[],"nextCursor":null}"#.utf8))
    static let lost = TransportError.connectionLost(host: "127.0.0.1", detail: "reset")

    func client(_ transport: ScriptedTransport, token: String? = "tok", clock: ClientClock) throws -> ServerClient {
        try ServerClient(baseURL: "http://127.0.0.1:9/", token: token, transport: transport, retry: .standard, clock: clock)
    }

    @Test func aGetIsTriedAgainAfterABrokenConnection() throws {
        let transport = ScriptedTransport([.failure(Self.lost), .success(Self.page)])
        let page = try client(transport, clock: SleepCounter().clock).browse(level: "expert", cursor: "a b&c")
        #expect(page.packages.isEmpty && page.nextCursor == nil)
        #expect(transport.sent.count == 2)
        #expect(transport.sent[0].url == "http://127.0.0.1:9/v1/packages?level=expert&cursor=a%20b%26c")
        #expect(transport.sent[0].headers.allSatisfy { $0.name != "Authorization" }, "reads carry no token")
    }

    @Test func aPostIsNotRepeatedWhenItsReplyWasLost() throws {
        let transport = ScriptedTransport([.failure(Self.lost), .success(HTTPReply(status: 201, headers: [:], body: Data()))])
        #expect(throws: ServerClientError.unreachable(Self.lost)) {
            try client(transport, clock: SleepCounter().clock).register(name: "Ada")
        }
        #expect(transport.sent.count == 1, "the server may have made the player already")
    }

    @Test func aPostRefusedWith429IsSentAgainAfterRetryAfter() throws {
        let counter = SleepCounter()
        let busy = HTTPReply(
            status: 429, headers: ["retry-after": "2"],
            body: Data(#"{"error":{"code":"too_many_requests","message":"slow down"}}"#.utf8))
        let made = HTTPReply(status: 201, headers: [:], body: Data(#"{"id":1,"name":"Ada","token":"t"}"#.utf8))
        let transport = ScriptedTransport([.success(busy), .success(made)])
        #expect(try client(transport, clock: counter.clock).register(name: "Ada").name == "Ada")
        #expect(counter.slept == [.seconds(2)])
        let body = try JSONSerialization.jsonObject(with: transport.sent[1].body ?? Data()) as? [String: String]
        #expect(body == ["name": "Ada"] && transport.sent[1].method == "POST")
    }

    @Test func refusalsCarryTheServersWordsAndOthersSayTheyAreNoServer() throws {
        let refused = HTTPReply(
            status: 403, headers: [:], body: Data(#"{"error":{"code":"forbidden","message":"package X is not yours"}}"#.utf8))
        #expect(throws: ServerClientError.refused(status: 403, code: "forbidden", message: "package X is not yours", retryAfterSeconds: nil)) {
            try client(ScriptedTransport([.success(refused)]), clock: SleepCounter().clock).package(shareCode: "X")
        }
        let html = HTTPReply(status: 200, headers: [:], body: Data("<html>".utf8))
        #expect(throws: ServerClientError.notAServer(status: 200)) {
            try client(ScriptedTransport([.success(html)]), clock: SleepCounter().clock).package(shareCode: "X")
        }
    }

    @Test func publishingNeedsATokenAndSendsTheSpecBesideItsVisibility() throws {
        let spec = PackageSpec(
            title: "T", maker: nil, level: "beginner", language: "en",
            quizzes: [.init(movie: .tmdb(19), poster: "/p.jpg", areas: [[10, 10]])])
        #expect(throws: ServerClientError.notLoggedIn) {
            try client(ScriptedTransport([]), token: nil, clock: SleepCounter().clock).publish(spec, visibility: .unlisted)
        }
        let transport = ScriptedTransport([.success(HTTPReply(status: 201, headers: [:], body: Data(#"{"shareCode":"ABCDEF"}"#.utf8)))])
        #expect(try client(transport, clock: SleepCounter().clock).publish(spec, visibility: .unlisted).shareCode == "ABCDEF")
        let sent = try #require(transport.sent.first)
        #expect(sent.headers.contains(HTTPHeader("Authorization", "Bearer tok")))
        let body = try JSONSerialization.jsonObject(with: sent.body ?? Data()) as? [String: Any]
        #expect(body?["visibility"] as? String == "unlisted" && body?["title"] as? String == "T")
        #expect(try PackageSpec.decode(sent.body ?? Data()) == spec, "the server reads the spec back as it was")
    }

    @Test func aShareCodeCannotChangeThePath() throws {
        let transport = ScriptedTransport([])
        _ = try? client(transport, clock: SleepCounter().clock).package(shareCode: "../players")
        _ = try? client(transport, clock: SleepCounter().clock).play(id: "a-b_c")
        _ = try? client(transport, clock: SleepCounter().clock).play(id: "한")
        #expect(transport.sent.map(\.url) == [
            "http://127.0.0.1:9/v1/packages/%2E%2E%2Fplayers", "http://127.0.0.1:9/v1/plays/a-b_c",
            "http://127.0.0.1:9/v1/plays/%ED%95%9C",
        ], "a base64url id goes as it is")
    }

    @Test func anUpdateIsAPutOfTheSpecAndAPosterUploadIsTheJPEGItself() throws {
        let metadata = HTTPReply(
            status: 200, headers: [:],
            body: Data(#"{"shareCode":"ABC234","title":"T","maker":"M","level":"expert","language":"en","quizCount":1,"plays":3,"solveRate":0.5,"createdAt":"2027-01-15T08:00:00Z"}"#.utf8))
        let uploaded = HTTPReply(status: 201, headers: [:], body: Data(#"{"poster":"upload-ab.jpg","width":342,"height":513}"#.utf8))
        let transport = ScriptedTransport([.success(metadata), .success(uploaded)])
        let client = try client(transport, clock: SleepCounter().clock)
        let spec = PackageSpec(title: "T", maker: nil, level: "expert", language: "en", quizzes: [.init(movie: .tmdb(862), areas: [[1, 2]])])
        let updated = try client.update(shareCode: "abc234", with: spec, visibility: nil)
        #expect(updated.plays == 3 && updated.solveRate == 0.5)
        #expect(transport.sent[0].method == "PUT" && transport.sent[0].url == "http://127.0.0.1:9/v1/packages/abc234")
        let body = try #require(try JSONSerialization.jsonObject(with: transport.sent[0].body ?? Data()) as? [String: Any])
        #expect(body["title"] as? String == "T" && body["visibility"] == nil, "no visibility: the server keeps it")

        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
        #expect(try client.uploadPoster(jpeg) == ServerAPI.UploadedPoster(poster: "upload-ab.jpg", width: 342, height: 513))
        let upload = transport.sent[1]
        #expect(upload.method == "POST" && upload.url == "http://127.0.0.1:9/v1/posters" && upload.body == jpeg)
        #expect(upload.headers.contains { $0.name == "Content-Type" && $0.value == "image/jpeg" })
        #expect(upload.headers.contains { $0.name == "Authorization" && $0.value == "Bearer tok" })
    }

    @Test func metadataFromAServerWithoutSolveRatesStillDecodes() throws {
        let old = #"{"shareCode":"ABC234","title":"T","maker":"M","level":"expert","language":"en","quizCount":1,"plays":0,"createdAt":"2027-01-15T08:00:00Z"}"#
        let metadata = try JSONDecoder().decode(ServerAPI.PackageMetadata.self, from: Data(old.utf8))
        #expect(metadata.solveRate == nil && metadata.plays == 0)
    }
}
