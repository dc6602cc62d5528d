import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import UQuizServer

/// A search text with a control character (a NUL above all) is refused as a 400 naming `q`, before any store sees it.
/// Found by contract fuzzing: `GET /v1/movies?q=…%00` reached the catalog search, which SQLite ended at the NUL
/// ("unterminated string"), and the server answered 500.
@Suite("Control characters in search texts")
struct ControlCharacterQueryTests {
    @Test(arguments: ["%00", "a%00b", "toy%1F", "%7F", "%C2%85", "%0Atoy"])
    func aSearchWithAControlCharacterIsA400(_ text: String) async throws {
        try await TestServer().test { client in
            let token = try await client.newPlayer()
            let movies = try await client.send(.get, "/v1/movies?q=\(text)", token: token)
            #expect(movies.status == .badRequest && movies.errorCode == "bad_request", "\(movies.status) \(movies.text)")
            #expect(movies.errorMessage.hasPrefix("q: "), "\(movies.errorMessage)")
            let packages = try await client.send(.get, "/v1/packages?q=\(text)")
            #expect(packages.status == .badRequest && packages.errorCode == "bad_request", "\(packages.status) \(packages.text)")
            #expect(packages.errorMessage.hasPrefix("q: "), "\(packages.errorMessage)")
        }
    }

    @Test(arguments: ["/assets/x/app.js%00.png", "/v1/packages/FE7NWW%00", "/p/FE7%0ANWW", "/%7F"])
    func aPathWithAControlCharacterIsA400(_ path: String) async throws {
        try await TestServer().test { client in
            let response = try await client.send(.get, path)
            #expect(response.status == .badRequest && response.errorCode == "bad_request", "\(path): \(response.status) \(response.text)")
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        }
    }

    @Test func textWithoutControlCharactersIsSearchedAsBefore() async throws {
        try await TestServer().test { client in
            let token = try await client.newPlayer()
            #expect(try await client.send(.get, "/v1/movies?q=toy%20story", token: token).status == .ok)
            #expect(try await client.send(.get, "/v1/movies?q=%EB%AC%B4%EC%84%B1", token: token).status == .ok, "Korean")
            #expect(try await client.send(.get, "/v1/packages?q=%EB%AC%B4%EC%84%B1").status == .ok)
        }
    }
}
