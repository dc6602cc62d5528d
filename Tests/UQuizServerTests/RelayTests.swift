import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalUseCases
import ServerUseCases
import Testing

@testable import UQuizServer

/// A request one instance forwards to the instance holding a room: trusted only when signed with the shared secret.
@Suite("Requests forwarded between instances")
struct RelayTests {
    @Test func aSignatureHoldsForItsRequestItsClientAndItsMomentOnly() throws {
        let signature = try #require(RelaySignature(secret: "shared secret"))
        let header = signature.header(method: "POST", path: "/v1/rooms/K7QF/reports", client: "203.0.113.9", seconds: 1_800_000_000)
        #expect(signature.client(from: header, method: "POST", path: "/v1/rooms/K7QF/reports", now: 1_800_000_030) == "203.0.113.9")
        #expect(signature.client(from: header, method: "GET", path: "/v1/rooms/K7QF/reports", now: 1_800_000_030) == nil)
        #expect(signature.client(from: header, method: "POST", path: "/v1/rooms/M3XZ/reports", now: 1_800_000_030) == nil)
        #expect(signature.client(from: header, method: "POST", path: "/v1/rooms/K7QF/reports", now: 1_800_000_061) == nil, "stale")
        let otherClient = header.replacingOccurrences(of: "203.0.113.9", with: "203.0.113.10")
        #expect(signature.client(from: otherClient, method: "POST", path: "/v1/rooms/K7QF/reports", now: 1_800_000_030) == nil)
        let otherSecret = try #require(RelaySignature(secret: "another"))
        #expect(otherSecret.client(from: header, method: "POST", path: "/v1/rooms/K7QF/reports", now: 1_800_000_030) == nil)
        for forged in ["1", "", "203.0.113.9 1800000000", "203.0.113.9 1800000000 AAAA", "a b c d"] {
            #expect(signature.client(from: forged, method: "POST", path: "/v1/rooms/K7QF/reports", now: 1_800_000_030) == nil)
        }
        #expect(RelaySignature(secret: nil) == nil && RelaySignature(secret: "") == nil)
    }

    /// The header a client writes itself skips no limit: the eleventh report in a row is refused as any would be.
    @Test func aForwardedHeaderFromAClientSkipsNoLimit() async throws {
        try await TestServer().test(configuration: ServerConfiguration(), monotonicNow: ManualClock().now) { client in
            let statuses = try await Self.reports(11, client: client, header: { _ in "1" })
            #expect(statuses.prefix(10).allSatisfy { $0 != .tooManyRequests } && statuses.last == .tooManyRequests, "\(statuses)")
        }
    }

    /// A request signed with the shared secret had its limits taken by the instance that forwarded it.
    @Test func aSignedForwardedRequestIsNotLimitedTwice() async throws {
        let signature = try #require(RelaySignature(secret: "shared secret"))
        var configuration = ServerConfiguration()
        configuration.instanceSecret = "shared secret"
        try await TestServer().test(configuration: configuration, monotonicNow: ManualClock().now) { client in
            let statuses = try await Self.reports(12, client: client) { path in
                signature.header(method: "POST", path: path, client: "203.0.113.9", seconds: Int64(Date().timeIntervalSince1970))
            }
            #expect(!statuses.contains(.tooManyRequests), "\(statuses)")
        }
    }

    /// `count` reports of a name in a room nobody holds here, each with the `UQuiz-Forwarded` header `header` makes.
    static func reports(
        _ count: Int, client: some TestClientProtocol, header: (String) -> String
    ) async throws -> [HTTPResponse.Status] {
        let token = try await client.newPlayer("Reporter")
        let path = "/v1/rooms/ZZZZ/reports"
        var statuses: [HTTPResponse.Status] = []
        for _ in 0..<count {
            var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(token)"]
            headers[RoomForwarding.header] = header(path)
            let response = try await client.execute(
                uri: path, method: .post, headers: headers,
                body: ByteBuffer(string: #"{"name": "Rude", "reason": "spam"}"#))
            statuses.append(response.status)
        }
        return statuses
    }
}
