import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PosterArt
import PosterGrid
import QuizCore
import QuizStore
import ServerUseCases
import Synchronization
import Testing
import UQuizServer
import UQuizStorage

/// A JPEG of `width` x `height` pixels in a gradient (so that cutting it shows something), encoded by TurboJPEG.
func gradientJPEG(width: Int = 100, height: Int = 150, quality: Int = 90) throws -> Data {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let index = (y * width + x) * 3
            pixels[index] = UInt8(x * 255 / max(1, width - 1))
            pixels[index + 1] = UInt8(y * 255 / max(1, height - 1))
            pixels[index + 2] = UInt8((x + y) % 256)
        }
    }
    return try JPEG.encode(RGBImage(width: width, height: height, pixels: pixels), quality: quality)
}

/// `jpeg` with marker segments inserted just after its start marker: what a camera or an editor adds (EXIF in APP1,
/// comments), which decoders skip.
func withSegments(_ jpeg: Data, _ segments: [(marker: UInt8, payload: Data)]) -> Data {
    var bytes = Data(jpeg.prefix(2))
    for segment in segments {
        let length = segment.payload.count + 2
        bytes += [0xFF, segment.marker, UInt8(length >> 8), UInt8(length & 0xFF)]
        bytes += segment.payload
    }
    return bytes + jpeg.dropFirst(2)
}

extension TestClientProtocol {
    /// Sends `body` as the poster upload, as `contentType`.
    func uploadPoster(_ body: Data, token: String?, contentType: String = "image/jpeg") async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: contentType]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: "/v1/posters", method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }
}

/// The spec of `validSpec` with the quiz's poster named.
func specWithPoster(_ poster: String, title: String = "My own picture") -> [String: Any] {
    var spec = validSpec(title: title)
    spec["quizzes"] = [["movie": 862, "poster": poster, "areas": seedAreas]]
    return spec
}

@Suite("Uploading posters")
struct PosterUploadTests {
    @Test func anUploadedPosterIsStoredByItsHashAndPlaysAsStagePosters() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let secret = "GPS 37.5665 N 126.9780 E, Ada's phone"
        let upload = withSegments(try gradientJPEG(), [
            (0xE1, Data("Exif\0\0\(secret)".utf8)), (0xFE, Data("a comment: \(secret)".utf8)),
        ])
        try await server.test(monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            let stored = try await client.uploadPoster(upload, token: maker)
            #expect(stored.status == .created, "\(stored.text)")
            let name = try #require(stored.json["poster"] as? String)
            #expect(name.wholeMatch(of: /upload-[0-9a-f]{64}\.jpg/) != nil, "\(name)")
            #expect(stored.json["width"] as? Int == 100 && stored.json["height"] as? Int == 150)
            let again = try await client.uploadPoster(upload, token: try await client.newPlayer("Someone else"))
            #expect(again.status == .ok && again.json["poster"] as? String == name, "the same image is one image")

            let kept = try #require(try await server.database.bundledPoster(fileName: name))
            #expect(JPEG.isReadable(kept))
            #expect(kept.range(of: Data("Ada's phone".utf8)) == nil, "only the pixels are kept: no EXIF, no comment")

            let code = try await client.publish(specWithPoster(name), token: maker)
            let metadata = try await client.send(.get, "/v1/packages/\(code)")
            #expect(metadata.status == .ok)
            for secret in [name, "upload-", "Toy Story", "862", "poster"] {
                #expect(!metadata.text.contains(secret), "\(secret) is not in the package's metadata")
            }
            let quiz = try server.quiz(code, 1)
            #expect(quiz.posterSource == .bundled && quiz.posterPath == name)

            let solver = try await client.newPlayer("Solver")
            let id = try #require(try await client.send(.post, "/v1/packages/\(code)/plays", token: solver).json["id"] as? String)
            clock.advance(PlayTests.interlude)
            let stage1 = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster?stage=1", token: solver)
            #expect(stage1.status == .ok && stage1.headers[.contentType] == "image/jpeg")
            let expected = try StagePoster.cut(jpeg: kept, geometry: quiz.geometry, revealed: Array(quiz.areas.prefix(1)))
            #expect(Data(stage1.body.readableBytesView) == expected, "cut from the uploaded poster, stage 1 only")
            #expect(Data(stage1.body.readableBytesView) != kept)
            #expect(try await client.send(.post, "/v1/plays/\(id)/skips", json: ["quiz": 1], token: solver).status == .ok)
            let whole = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster", token: solver)
            #expect(Data(whole.body.readableBytesView) == kept, "the whole poster once the quiz has ended")
        }
    }

    @Test func whatIsNotAJPEGOrBreaksItsLimitsIsRefused() async throws {
        let server = try TestServer()
        let jpeg = try gradientJPEG()
        try await server.test { client in
            let token = try await client.newPlayer()
            let anonymous = try await client.uploadPoster(jpeg, token: nil)
            #expect(anonymous.status == .unauthorized && anonymous.errorCode == "unauthorized")

            let asJSON = try await client.uploadPoster(jpeg, token: token, contentType: "application/json")
            #expect(asJSON.status == .unsupportedMediaType && asJSON.errorCode == "unsupported_media_type")
            #expect(asJSON.errorMessage.contains("image/jpeg"))
            let withParameter = try await client.uploadPoster(jpeg, token: token, contentType: "Image/JPEG; q=1")
            #expect(withParameter.status == .created, "the media type is read in any case, parameters aside")

            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 0, count: 64)
            for body in [png, Data(), Data("not an image".utf8)] {
                let refused = try await client.uploadPoster(body, token: token)
                #expect(refused.status == .unsupportedMediaType, "\(body.prefix(8) as NSData)")
                #expect(refused.errorMessage == "the body is not a JPEG")
            }

            let broken = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0x42, count: 500)
            let undecodable = try await client.uploadPoster(broken, token: token)
            #expect(undecodable.status == .unprocessableContent && undecodable.errorCode == "broken_rule")
            #expect(undecodable.errorMessage.hasPrefix("the JPEG does not decode"))

            let tiny = try await client.uploadPoster(try gradientJPEG(width: 40, height: 60), token: token)
            #expect(tiny.status == .unprocessableContent)
            #expect(tiny.errorMessage == "the poster is 40 x 60 pixels: use 50 x 75 to 2000 x 3000")
            let wide = try await client.uploadPoster(try gradientJPEG(width: 2001, height: 80), token: token)
            #expect(wide.status == .unprocessableContent && wide.errorMessage.hasPrefix("the poster is 2001 x 80 pixels"))
        }
    }

    @Test func postersHaveTheirOwnBodyCapOf2MiB() async throws {
        // 1.5 MiB of comment segments around a valid JPEG: past the 1 MiB of every other body, within the poster cap.
        let comment = Data(repeating: UInt8(ascii: "c"), count: 65_000)
        let padded = withSegments(try gradientJPEG(), Array(repeating: (0xFE, comment), count: 25))
        #expect(padded.count > 3 << 19 && padded.count < PosterUploads.maxBytes)
        try await TestServer().test { client in
            let token = try await client.newPlayer()
            let accepted = try await client.uploadPoster(padded, token: token)
            #expect(accepted.status == .created, "\(accepted.text)")

            var tooBig = Data([0xFF, 0xD8, 0xFF])
            tooBig.append(Data(repeating: 0, count: PosterUploads.maxBytes + 1 - tooBig.count))
            let refused = try await client.uploadPoster(tooBig, token: token)
            #expect(refused.status == .contentTooLarge && refused.errorCode == "too_large")
            #expect(refused.errorMessage.contains("2 MiB"))

            let elsewhere = try await client.send(.post, "/v1/packages", raw: String(repeating: " ", count: 3 << 19), token: token)
            #expect(elsewhere.status == .contentTooLarge, "other paths keep the 1 MiB cap")
            #expect(elsewhere.errorMessage.contains("1 MiB"))
        }
    }

    @Test func uploadsAreRateLimitedPerPlayer() async throws {
        let clock = ManualClock()
        let jpeg = try gradientJPEG()
        let limit = RateLimit(burst: 2, interval: .seconds(6))
        try await TestServer().test(configuration: .init(posterUploads: limit), monotonicNow: clock.now) { client in
            let token = try await client.newPlayer()
            #expect(try await client.uploadPoster(jpeg, token: token).status == .created)
            #expect(try await client.uploadPoster(jpeg, token: token).status == .ok)
            let limited = try await client.uploadPoster(jpeg, token: token)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "6")
            #expect(try await client.uploadPoster(jpeg, token: try await client.newPlayer("Other")).status == .ok)
            clock.advance(.seconds(6))
            #expect(try await client.uploadPoster(jpeg, token: token).status == .ok)
        }
    }

    /// Guests made in turn from one address share its upload limit.
    @Test func uploadsAreRateLimitedPerAddressToo() async throws {
        let jpeg = try gradientJPEG()
        let clock = ManualClock()
        var configuration = ServerConfiguration()
        configuration.posterUploadsPerAddress = RateLimit(burst: 3, interval: .seconds(20))
        try await TestServer().test(configuration: configuration, monotonicNow: clock.now) { client in
            for index in 0..<3 {
                #expect(try await client.uploadPoster(jpeg, token: try await client.newPlayer("Guest \(index)")).status != .tooManyRequests)
            }
            let limited = try await client.uploadPoster(jpeg, token: try await client.newPlayer("Guest 4"))
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "20", "\(limited.text)")
        }
    }

    /// A player's uploads hold at most the quota together: past it, 507 with a problem that says how much, and nothing
    /// is kept; the same image again costs nothing, and another player has a quota of their own.
    @Test func uploadsAreHeldToAQuotaPerPlayer() async throws {
        let first = try gradientJPEG(width: 100, height: 150)
        let second = try gradientJPEG(width: 120, height: 180)
        var configuration = ServerConfiguration()
        // Room for the first and not for both (each is a few kilobytes once re-encoded).
        configuration.uploadQuotaBytes = first.count + second.count / 2
        let quota = configuration.uploadQuotaBytes
        let server = try TestServer()
        try await server.test(configuration: configuration) { client in
            let token = try await client.newPlayer()
            #expect(try await client.uploadPoster(first, token: token).status == .created)
            let over = try await client.uploadPoster(second, token: token)
            #expect(over.status.code == 507 && over.errorCode == "quota_exceeded", "\(over.status) \(over.text)")
            #expect(over.errorMessage.contains("at most \(quota)"))
            #expect(try await client.uploadPoster(first, token: token).status == .ok, "the same image again costs nothing")
            #expect(try await client.uploadPoster(second, token: try await client.newPlayer("Other")).status == .created)
        }
    }

    @Test func aSpecNamingAnImageTheServerDoesNotHoldIs422() async throws {
        let server = try TestServer()
        try await server.test { client in
            let token = try await client.newPlayer()
            let missing = "upload-" + String(repeating: "0", count: 64) + ".jpg"
            let response = try await client.send(.post, "/v1/packages", json: specWithPoster(missing), token: token)
            #expect(response.status == .unprocessableContent && response.errorCode == "broken_rule")
            #expect(response.errorMessage.hasPrefix("$.quizzes[0].poster: no poster image \(missing) on this server"))
            let path = try await client.send(.post, "/v1/packages", json: specWithPoster("../secrets.jpg"), token: token)
            #expect(path.status == .unprocessableContent && path.errorMessage.hasPrefix("$.quizzes[0].poster:"))
            // A bundled poster of the seed is a stored image too: a maker may use it.
            let bundled = try server.quiz(silentClassics, 1).posterPath
            #expect(try await client.send(.post, "/v1/packages", json: specWithPoster(bundled), token: token).status == .created)
        }
        #expect(try server.file.packages(matching: .init(origin: .user)).total == 1, "only the good one was saved")
    }
}
