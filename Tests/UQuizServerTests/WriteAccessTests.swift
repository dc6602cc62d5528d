import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalUseCases
import ServerUseCases
import Testing
import UQuizServer
import UQuizStorage

/// Every write of the API (POST, PUT, PATCH, DELETE) refuses a request without a token (401), with a token nobody has
/// (401), and, where it acts on something a player owns, with another player's token (403), always as a JSON error;
/// and a refused write changes nothing: not the database, not the files beside it, not a play in memory. The table is
/// checked against the router's own routes, so a new write endpoint fails this suite until it is listed here.
@Suite("Writes need the right token")
struct WriteAccessTests {
    /// Who may call a write.
    enum Access: Sendable {
        /// Anyone: it is how a player is made.
        case open
        /// Any player: it makes something of the caller's own (a package, a poster, a play).
        case anyPlayer
        /// Only the player who owns what the path names; anyone else gets this status.
        case owner(HTTPResponse.Status)
    }

    struct Write: Sendable {
        var access: Access
        /// The concrete path, from the owner's package code, play id and draft id.
        var path: @Sendable (_ code: String, _ play: String, _ draft: String) -> String
        var body: Data?
        var contentType = "application/json"
    }

    static func json(_ value: Any) -> Data { try! JSONSerialization.data(withJSONObject: value) }

    /// Every write route, by the router's own `METHOD /path`, with a body that would be accepted with the right token.
    static func writes() throws -> [String: Write] {
        [
            "POST /v1/players": Write(access: .open, path: { _, _, _ in "/v1/players" }, body: json(["name": "Mallory"])),
            "PATCH /v1/players/me": Write(access: .anyPlayer, path: { _, _, _ in "/v1/players/me" }, body: json(["name": "Mallory"])),
            "POST /v1/packages": Write(access: .anyPlayer, path: { _, _, _ in "/v1/packages" }, body: json(validSpec(title: "Mine now"))),
            "PUT /v1/packages/{code}": Write(
                access: .owner(.forbidden), path: { code, _, _ in "/v1/packages/\(code)" }, body: json(validSpec(title: "Stolen"))),
            "DELETE /v1/packages/{code}": Write(access: .owner(.forbidden), path: { code, _, _ in "/v1/packages/\(code)" }),
            "POST /v1/posters": Write(
                access: .anyPlayer, path: { _, _, _ in "/v1/posters" }, body: try gradientJPEG(), contentType: "image/jpeg"),
            "POST /v1/packages/{code}/plays": Write(access: .anyPlayer, path: { code, _, _ in "/v1/packages/\(code)/plays" }),
            "POST /v1/plays/{id}/guesses": Write(
                access: .owner(.forbidden), path: { _, id, _ in "/v1/plays/\(id)/guesses" },
                body: json(["quiz": 1, "text": "Metropolis"])),
            "POST /v1/plays/{id}/hints": Write(
                access: .owner(.forbidden), path: { _, id, _ in "/v1/plays/\(id)/hints" }, body: json(["quiz": 1])),
            "POST /v1/plays/{id}/skips": Write(
                access: .owner(.forbidden), path: { _, id, _ in "/v1/plays/\(id)/skips" }, body: json(["quiz": 1])),
            "POST /v1/daily/plays": Write(access: .anyPlayer, path: { _, _, _ in "/v1/daily/plays" }),
            "POST /v1/daily/archive/{day}/plays": Write(
                access: .anyPlayer, path: { _, _, _ in "/v1/daily/archive/2026-11-20/plays?language=en" }),
            "POST /v1/rooms": Write(access: .anyPlayer, path: { _, _, _ in "/v1/rooms" }, body: json(["shareCode": "FE7NWW"])),
            "POST /v1/players/me/link-codes": Write(access: .anyPlayer, path: { _, _, _ in "/v1/players/me/link-codes" }),
            "POST /v1/players/link": Write(access: .open, path: { _, _, _ in "/v1/players/link" }, body: json(["code": "ABCD-EFGH"])),
            "POST /v1/packages/{code}/reports": Write(
                access: .anyPlayer, path: { code, _, _ in "/v1/packages/\(code)/reports" }, body: json(["reason": "spam"])),
            "POST /v1/drafts": Write(access: .anyPlayer, path: { _, _, _ in "/v1/drafts" }, body: json(["title": "Mine"])),
            // Another player's draft is none of theirs: not even whether it exists.
            "PUT /v1/drafts/{id}": Write(
                access: .owner(.notFound), path: { _, _, draft in "/v1/drafts/\(draft)" }, body: json(["title": "Stolen"])),
            "DELETE /v1/drafts/{id}": Write(access: .owner(.notFound), path: { _, _, draft in "/v1/drafts/\(draft)" }),
            "POST /v1/drafts/{id}/publish": Write(
                access: .owner(.notFound), path: { _, _, draft in "/v1/drafts/\(draft)/publish" }),
            "POST /v1/rooms/{code}/reports": Write(
                access: .anyPlayer, path: { _, _, _ in "/v1/rooms/K7QF/reports" }, body: json(["reason": "spam", "name": "Ann"])),
        ]
    }

    @Test func theTableListsEveryWriteRouteOfTheRouterAndTheDocument() async throws {
        let writeMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]
        let routed = Set(try TestServer().router.routes.map { "\($0.method.rawValue) \($0.path)" }.filter {
            writeMethods.contains(String($0.prefix { $0 != " " }))
        })
        let documented = OpenAPIDocumentTests.operations(in: OpenAPIDocument.text).filter {
            writeMethods.contains(String($0.prefix { $0 != " " }))
        }
        let listed = Set(try Self.writes().keys)
        #expect(routed == listed, "routed but not listed: \(routed.subtracting(listed).sorted()); listed but not routed: \(listed.subtracting(routed).sorted())")
        #expect(documented == listed)
    }

    /// What a refused write must leave as it was: the database file and its WAL byte for byte, every file beside
    /// them (uploaded posters), the owner's package as read back, and the owner's play in memory (on a clock that
    /// does not move, so the same state reads the same).
    struct Fingerprint: Equatable {
        var files: [String: Data]
        var package: String
        var play: String
    }

    static func fingerprint(_ server: TestServer, _ client: any TestClientProtocol, owner: String, code: String, play: String)
        async throws -> Fingerprint
    {
        var files: [String: Data] = [:]
        // The database as one state, whichever of its file and its log the pages are in (the store checkpoints the log
        // into the file on a thread of its own): an online backup's bytes.
        let backup = server.folder.deletingLastPathComponent().appendingPathComponent("fingerprint-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: backup) }
        _ = try server.file.backup(to: backup.path)
        files["database"] = FileManager.default.contents(atPath: backup.path)
        let enumerator = FileManager.default.enumerator(atPath: server.folder.path)
        while let name = enumerator?.nextObject() as? String {
            guard !name.hasPrefix("uquiz.sqlite") else { continue }
            var isDirectory: ObjCBool = false
            let path = server.folder.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = FileManager.default.contents(atPath: path)
            }
        }
        let package = try await client.send(.get, "/v1/packages/\(code)")
        let state = try await client.send(.get, "/v1/plays/\(play)", token: owner)
        #expect(package.status == .ok && state.status == .ok)
        return Fingerprint(files: files, package: package.text, play: state.text)
    }

    @Test func everyWriteRefusesAMissingAWrongAndAnotherPlayersTokenAndChangesNothing() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let writes = try Self.writes()
        try await server.test(monotonicNow: clock.now) { client in
            let owner = try await client.newPlayer("Owner")
            let other = try await client.newPlayer("Other")
            let code = try await client.publish(validSpec(), token: owner)
            let started = try await client.send(.post, "/v1/packages/\(code)/plays", token: owner)
            let play = try #require(started.json["id"] as? String)
            let draft = try #require(
                try await client.send(.post, "/v1/drafts", json: validSpec(title: "Draft"), token: owner).json["id"] as? Int)
            clock.advance(PlayTests.interlude)  // the play's first quiz is on: a guess, hint or skip would change it
            let before = try await Self.fingerprint(server, client, owner: owner, code: code, play: play)

            var refused = 0
            for (route, write) in writes.sorted(by: { $0.key < $1.key }) {
                let method = HTTPRequest.Method(String(route.prefix { $0 != " " }))!
                let uri = write.path(code, play, String(draft))
                func send(_ token: String?) async throws -> TestResponse {
                    var headers: HTTPFields = [.contentType: write.contentType]
                    if let token { headers[.authorization] = "Bearer \(token)" }
                    return try await client.execute(
                        uri: uri, method: method, headers: headers, body: write.body.map { ByteBuffer(bytes: $0) })
                }
                var tokens: [(String?, HTTPResponse.Status, String)] = []
                switch write.access {
                case .open:
                    continue
                case .anyPlayer:
                    tokens = [(nil, .unauthorized, "unauthorized"), (String(repeating: "A", count: 43), .unauthorized, "unauthorized")]
                case .owner(let status):
                    tokens = [
                        (nil, .unauthorized, "unauthorized"), (String(repeating: "A", count: 43), .unauthorized, "unauthorized"),
                        (other, status, status == .notFound ? "not_found" : "forbidden"),
                    ]
                }
                for (token, status, code) in tokens {
                    let response = try await send(token)
                    let who = token == nil ? "no token" : token == other ? "another player's token" : "an unknown token"
                    #expect(response.status == status, "\(route) with \(who): \(response.status) \(response.text)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(route) with \(who)")
                    #expect(response.errorCode == code, "\(route) with \(who): \(response.text)")
                    if status == .unauthorized { #expect(response.headers[.wwwAuthenticate] == "Bearer", "\(route)") }
                    refused += 1
                }
            }
            #expect(refused == 2 * 11 + 3 * 8, "every authenticated write was tried")
            let after = try await Self.fingerprint(server, client, owner: owner, code: code, play: play)
            #expect(after.files == before.files, "no refused write touched a file: \(Set(after.files.keys).symmetricDifference(before.files.keys))")
            #expect(after.package == before.package)
            #expect(after.play == before.play, "the owner's play is as it was")
        }
    }

    /// A player the moderators banned may read (their page, a package) and nothing else: every write with their
    /// token is a JSON 403 `banned`, and changes nothing.
    @Test func aBannedPlayerMayReadButEveryWriteIsRefused() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let writes = try Self.writes()
        try await server.test(monotonicNow: clock.now) { client in
            let owner = try await client.newPlayer("Owner")
            let code = try await client.publish(validSpec(), token: owner)
            let started = try await client.send(.post, "/v1/packages/\(code)/plays", token: owner)
            let play = try #require(started.json["id"] as? String)
            let draft = try #require(
                try await client.send(.post, "/v1/drafts", json: validSpec(title: "Draft"), token: owner).json["id"] as? Int)
            clock.advance(PlayTests.interlude)
            // Made, never seen at work by this instance (which remembers players it authenticated for a minute).
            let made = try await client.send(.post, "/v1/players", json: ["name": "Banned"])
            let banned = try #require(made.json["token"] as? String)
            let id = try #require(made.json["id"] as? Int)
            let store = try server.environment.sharing.store()
            let ban = ModerationAction(at: "2026-11-26T12:00:00Z", kind: .ban, target: "\(id)", reason: "test", actor: "test")
            #expect(try await store.setPlayerBanned(id: Int64(id), true, action: ban)?.changed == true)
            let before = try await Self.fingerprint(server, client, owner: owner, code: code, play: play)
            var refused = 0
            for (route, write) in writes.sorted(by: { $0.key < $1.key }) {
                guard case .open = write.access else {
                    let method = HTTPRequest.Method(String(route.prefix { $0 != " " }))!
                    let response = try await client.execute(
                        uri: write.path(code, play, String(draft)), method: method,
                        headers: [.contentType: write.contentType, .authorization: "Bearer \(banned)"],
                        body: write.body.map { ByteBuffer(bytes: $0) })
                    #expect(response.status == .forbidden && response.errorCode == "banned", "\(route): \(response.status) \(response.text)")
                    refused += 1
                    continue
                }
            }
            #expect(refused == writes.count - 2, "all but the two open ones (making a player, spending a link code)")
            #expect(try await client.send(.get, "/v1/players/me", token: banned).status == .ok, "reading is allowed")
            #expect(try await client.send(.get, "/v1/packages/\(code)", token: banned).status == .ok)
            let after = try await Self.fingerprint(server, client, owner: owner, code: code, play: play)
            #expect(after == before, "no refused write changed anything")
        }
    }

    /// Refused tokens are limited per client address: past the burst every request that presents a token this
    /// instance has not found good is a 429 with `Retry-After` (a right one too: it is not looked up), while tokens it
    /// found good in the last day still get in (players behind one address are not locked out by one of them),
    /// and requests without a token pass; the count refills on the server's clock, and right tokens never use it up.
    @Test func refusedTokensAreLimitedPerAddressWithRetryAfter() async throws {
        let clock = ManualClock()
        let limits = ServerConfiguration(failedAuthentications: RateLimit(burst: 3, interval: .seconds(10)))
        try await TestServer().test(configuration: limits, monotonicNow: clock.now) { client in
            let right = try await client.newPlayer()
            let unseen = try await client.newPlayer("Unseen")
            let unseenToo = try await client.newPlayer("Unseen too")
            for _ in 0..<10 {
                #expect(try await client.send(.get, "/v1/daily", token: right).status == .ok, "a right token never counts")
            }
            let wrongs = (0..<3).map { String(repeating: "\($0)", count: 43) }
            for wrong in wrongs {
                #expect(try await client.send(.post, "/v1/daily/plays", token: wrong).status == .unauthorized)
            }
            let notBearer = try await client.send(.post, "/v1/daily/plays", raw: nil, token: nil)
            #expect(notBearer.status == .unauthorized, "no Authorization header: not an attempt, not limited")
            let limited = try await client.send(.post, "/v1/daily/plays", token: "W" + String(repeating: "x", count: 42))
            #expect(limited.status == .tooManyRequests && limited.errorCode == "too_many_requests")
            #expect(limited.headers[.retryAfter] == "10")
            #expect(!limited.text.contains("Wxxx"), "the token is never echoed")
            let notBearerLocked = try await client.send(.get, "/v1/daily", token: nil)
            #expect(notBearerLocked.status == .ok)
            let unseenLocked = try await client.send(.get, "/v1/plays/AAAAAAAAAAAAAAAAAAAAAA", token: unseen)
            #expect(unseenLocked.status == .tooManyRequests, "a token not seen at work is not even looked up while locked out")
            #expect(try await client.send(.get, "/v1/daily", token: right).status == .ok, "a player at work here goes on")
            #expect(try await client.send(.get, "/v1/packages").status == .ok, "reads without a token pass")
            #expect(try await client.send(.get, "/healthz", token: "whatever").status == .ok, "a route that reads no token passes")
            #expect(try await client.send(.post, "/v1/players", json: ["name": "New"]).status == .created)

            clock.advance(.seconds(4))
            #expect(try await client.send(.get, "/v1/daily", token: unseen).headers[.retryAfter] == "6")
            clock.advance(.seconds(6))
            #expect(try await client.send(.get, "/v1/daily", token: unseen).status == .ok, "one attempt came back")
            #expect(try await client.send(.get, "/v1/daily", token: "wrong").status == .unauthorized)
            #expect(try await client.send(.get, "/v1/daily", token: unseenToo).status == .tooManyRequests, "and was used")
        }
    }
}
