import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalUseCases
import ServerUseCases
import Testing
import UQuizServer

/// What a free service needs against floods: writes that cost it for good are limited per player and per address
/// (guests are free to make), and codes cannot be tried one after another. In process, every request comes from one
/// address.
@Suite("Limits of a public service")
struct PublicServiceLimitsTests {
    @Test func guestsMadeInTurnFromOneAddressSharePublishing() async throws {
        let clock = ManualClock()
        var configuration = ServerConfiguration(playerCreation: .unlimited)
        configuration.publishesPerPlayer = RateLimit(burst: 2, interval: .seconds(60))
        configuration.publishesPerAddress = RateLimit(burst: 3, interval: .seconds(60))
        try await TestServer().test(configuration: configuration, monotonicNow: clock.now) { client in
            let ada = try await client.newPlayer("Ada")
            for index in 0..<2 {
                #expect(try await client.send(.post, "/v1/packages", json: validSpec(title: "Ada \(index)"), token: ada).status == .created)
            }
            let adaRefused = try await client.send(.post, "/v1/packages", json: validSpec(title: "Ada 3"), token: ada)
            #expect(adaRefused.status == .tooManyRequests && adaRefused.headers[.retryAfter] != nil, "per player")
            let bo = try await client.newPlayer("Bo")
            #expect(try await client.send(.post, "/v1/packages", json: validSpec(title: "Bo 1"), token: bo).status == .created)
            let boRefused = try await client.send(.post, "/v1/packages", json: validSpec(title: "Bo 2"), token: bo)
            #expect(boRefused.status == .tooManyRequests && boRefused.errorCode == "too_many_requests", "per address: a new guest does not start afresh")
            clock.advance(.seconds(60))
            #expect(try await client.send(.post, "/v1/packages", json: validSpec(title: "Bo 2"), token: bo).status == .created)
        }
    }

    @Test func openingRoomsIsLimitedPerPlayer() async throws {
        let clock = ManualClock()
        var configuration = ServerConfiguration()
        configuration.roomOpeningsPerPlayer = RateLimit(burst: 2, interval: .seconds(60))
        let server = try TestServer()
        try await server.test(configuration: configuration, monotonicNow: clock.now) { client in
            let host = try await client.newPlayer("Host")
            for _ in 0..<2 {
                #expect(try await client.send(.post, "/v1/rooms", json: ["shareCode": "FE7NWW"], token: host).status == .created)
            }
            let refused = try await client.send(.post, "/v1/rooms", json: ["shareCode": "FE7NWW"], token: host)
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] == "60", "\(refused.text)")
        }
    }

    /// Once an address has missed too often, every lookup waits, a code that exists too: the answer must not tell a
    /// found code from a missing one.
    @Test func codesCannotBeTriedOneAfterAnother() async throws {
        let clock = ManualClock()
        var configuration = ServerConfiguration()
        configuration.lookupMisses = RateLimit(burst: 3, interval: .seconds(1))
        try await TestServer().test(configuration: configuration, monotonicNow: clock.now) { client in
            #expect(try await client.send(.get, "/v1/packages/FE7NWW").status == .ok, "a hit uses nothing up")
            for code in ["ZZZZ", "YYYY"] { #expect(try await client.send(.get, "/v1/rooms/\(code)").status == .notFound) }
            #expect(try await client.send(.get, "/v1/packages/ZZZZZZ").status == .notFound)
            let limited = try await client.send(.get, "/v1/rooms/XXXX")
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "1")
            #expect(try await client.send(.get, "/v1/packages/FE7NWW").status == .tooManyRequests)
            clock.advance(.seconds(1))
            #expect(try await client.send(.get, "/v1/packages/FE7NWW").status == .ok)
        }
    }

    /// Behind a trusted proxy the client is the address it forwards, so people behind one proxy are counted apart;
    /// from any other address the header is a client's word and is ignored.
    @Test(arguments: [true, false])
    func aTrustedProxysForwardedAddressIsTheClient(_ trusted: Bool) async throws {
        var configuration = ServerConfiguration(playerCreation: RateLimit(burst: 1, interval: .seconds(60)))
        // In process, every request comes from "unknown".
        if trusted { configuration.trustedProxies = ["unknown", "10.0.0.9"] }
        try await TestServer().test(configuration: configuration) { client in
            func make(_ forwarded: (name: String, value: String)) async throws -> HTTPResponse.Status {
                let headers: HTTPFields = [.contentType: "application/json", HTTPField.Name(forwarded.name)!: forwarded.value]
                return try await client.execute(
                    uri: "/v1/players", method: .post, headers: headers, body: ByteBuffer(string: #"{"name":"Ada"}"#)).status
            }
            let first = try await make(("X-Forwarded-For", "203.0.113.7"))
            let again = try await make(("X-Forwarded-For", "203.0.113.7, 10.0.0.9"))
            let other = try await make(("Forwarded", #"for="[2001:db8::1]:4711";proto=https"#))
            let third = try await make(("X-Forwarded-For", "198.51.100.2"))
            #expect(first == .created)
            #expect(again == .tooManyRequests, "the same client, through two proxies")
            #expect(other == (trusted ? .created : .tooManyRequests))
            #expect(third == (trusted ? .created : .tooManyRequests))
        }
    }

    /// HEAD answers as GET does, without the body: the page, the document, the API, a 404.
    @Test(arguments: ["/healthz", "/v1/packages/FE7NWW", "/openapi.yaml", "/v1/packages/NOPE22"])
    func headAnswersAsGetWithoutTheBody(_ path: String) async throws {
        try await TestServer().test { client in
            let get = try await client.send(.get, path)
            let head = try await client.send(.head, path)
            #expect(head.status == get.status, "\(path)")
            #expect(head.text.isEmpty, "\(path): \(head.text)")
            #expect(head.headers[.contentType] == get.headers[.contentType])
            if get.status == .ok { #expect(head.headers[.contentLength] == String(get.text.utf8.count), "\(path)") }
        }
    }
}
