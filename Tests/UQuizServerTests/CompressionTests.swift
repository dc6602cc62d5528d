import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import UQuizServer

/// gzip on the wire: the web player's assets and the API's larger answers for clients that take it, the same bytes
/// once decompressed; small answers, clients that do not take gzip and `--compression off` get them as they are.
@Suite("Compressed answers")
struct CompressionTests {
    static func gunzip(_ body: ByteBuffer) throws -> ByteBuffer {
        var body = body
        return try body.decompress(with: .gzip())
    }

    @Test func assetsGoCompressedToClientsThatTakeGzipAndWholeToOthers() async throws {
        let web = try WebPlayer(directory: WebPlayerTests.repositoryWeb)
        try await TestServer().test(configuration: .init(web: web)) { client in
            for name in ["app.js", "play.js", "app.css", "icon.svg"] {
                let uri = "/assets/\(web.version)/\(name)"
                let whole = try await client.execute(uri: uri, method: .get)
                let gzipped = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip, deflate, br"])
                #expect(whole.headers[.contentEncoding] == nil, "\(name)")
                #expect(gzipped.headers[.contentEncoding] == "gzip", "\(name)")
                #expect(whole.headers[.vary] == "Accept-Encoding" && gzipped.headers[.vary] == "Accept-Encoding", "\(name)")
                #expect(gzipped.headers[.contentType] == whole.headers[.contentType], "\(name)")
                #expect(gzipped.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(try Self.gunzip(gzipped.body) == whole.body, "\(name) decompresses to the file")
                if whole.body.readableBytes >= 1024 {
                    #expect(gzipped.body.readableBytes * 2 < whole.body.readableBytes, "\(name): \(gzipped.body.readableBytes) of \(whole.body.readableBytes) bytes")
                }
            }
            let refused = try await client.execute(
                uri: "/assets/\(web.version)/app.js", method: .get, headers: [.acceptEncoding: "gzip;q=0, identity"])
            #expect(refused.headers[.contentEncoding] == nil, "q=0 refuses gzip")
            let stale = try await client.execute(uri: "/assets/0123456789abcdef/app.js", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(stale.status == .notFound, "another version is not served, compressed or not")
        }
    }

    @Test func largerAnswersOfTheAPIGoCompressedSmallerOnesAsTheyAre() async throws {
        try await TestServer().test { client in
            let whole = try await client.execute(uri: "/openapi.yaml", method: .get)
            let gzipped = try await client.execute(uri: "/openapi.yaml", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(gzipped.headers[.vary] == "Accept-Encoding" && whole.headers[.vary] == "Accept-Encoding")
            #expect(try Self.gunzip(gzipped.body) == whole.body)
            #expect(gzipped.body.readableBytes * 3 < whole.body.readableBytes)
            let token = try await client.newPlayer()
            let headers: HTTPFields = [.acceptEncoding: "gzip", .authorization: "Bearer \(token)"]
            // A play of a package of 25 quizzes, started, then read again as it is and compressed.
            let started = try await client.execute(uri: "/v1/packages/FE7NWW/plays", method: .post, headers: headers)
            #expect(started.status == .created && started.headers[.contentEncoding] == "gzip")
            let id = try #require(try JSONSerialization.jsonObject(with: Data(Self.gunzip(started.body).readableBytesView)) as? [String: Any])["id"] as? String
            let play = try await client.execute(uri: "/v1/plays/\(try #require(id))", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(play.body.readableBytes >= 1024 && play.headers[.contentEncoding] == nil)
            let playGzipped = try await client.execute(uri: "/v1/plays/\(try #require(id))", method: .get, headers: headers)
            #expect(playGzipped.headers[.contentEncoding] == "gzip")
            // The play's clock moved between the two reads: the same play, with its 25 quizzes.
            let read = try #require(try JSONSerialization.jsonObject(with: Data(Self.gunzip(playGzipped.body).readableBytesView)) as? [String: Any])
            #expect(read["id"] as? String == id && (read["quizzes"] as? [Any])?.count == 25)
            let health = try await client.execute(uri: "/healthz", method: .get, headers: headers)
            #expect(health.status == .ok && health.headers[.contentEncoding] == nil, "under 1 KiB: as it is")
        }
    }

    @Test func compressionOffSendsEverythingAsItIs() async throws {
        let web = try WebPlayer(directory: WebPlayerTests.repositoryWeb)
        var configuration = ServerConfiguration(web: web)
        configuration.compression = false
        try await TestServer().test(configuration: configuration) { client in
            for uri in ["/openapi.yaml", "/assets/\(web.version)/app.js"] {
                let response = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip"])
                #expect(response.status == .ok && response.headers[.contentEncoding] == nil, "\(uri)")
            }
        }
    }
}
