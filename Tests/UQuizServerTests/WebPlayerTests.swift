import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import UQuizServer

/// The web player's files as the server serves them: the page at its four paths in the language asked for, assets
/// under a version that changes with their bytes, strict headers everywhere; and where the server finds the folder.
@Suite("The web player's files")
struct WebPlayerTests {
    static let repositoryWeb = repositoryRoot.appendingPathComponent("Web")

    /// A copy of the repository's `Web/` in a temporary folder, to change it.
    static func copyOfWeb() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-web-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: repositoryWeb, to: folder)
        return folder
    }

    @Test func thePageIsServedAtItsPathsWithStrictHeadersInTheAskedLanguage() async throws {
        let web = try WebPlayer(directory: Self.repositoryWeb)
        try await TestServer().test(configuration: .init(web: web)) { client in
            for path in ["/", "/p/FE7NWW", "/d", "/r/K7QF"] {
                let response = try await client.execute(uri: path, method: .get, headers: [.acceptLanguage: "ko-KR,ko;q=0.9,en;q=0.8"])
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(response.headers[.vary]?.hasPrefix("Accept-Language") == true)
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
                #expect(!policy.contains("unsafe-inline"))
                let html = String(buffer: response.body)
                #expect(html.contains("<html lang=\"ko\">"))
                #expect(html.contains("src=\"/assets/\(web.version)/app.js\""))
                #expect(!html.contains("{{"), "every placeholder is filled")
            }
            let english = try await client.execute(uri: "/", method: .get, headers: [.acceptLanguage: "fr, en;q=0.5, ko;q=0.3"])
            #expect(String(buffer: english.body).contains("<html lang=\"en\">"))
            let none = try await client.execute(uri: "/", method: .get)
            #expect(String(buffer: none.body).contains("<html lang=\"en\">"))
        }
    }

    @Test func assetsAreServedUnderTheirVersionOnlyWithTypesAndLongCaching() async throws {
        let web = try WebPlayer(directory: Self.repositoryWeb)
        try await TestServer().test(configuration: .init(web: web)) { client in
            let script = try await client.execute(uri: "/assets/\(web.version)/app.js", method: .get)
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(script.headers[.xContentTypeOptions] == "nosniff")
            let style = try await client.execute(uri: "/assets/\(web.version)/app.css", method: .get)
            #expect(style.headers[.contentType] == "text/css; charset=utf-8")
            let stale = try await client.execute(uri: "/assets/0123456789abcdef/app.js", method: .get)
            #expect(stale.status == .notFound)
            let outside = try await client.execute(uri: "/assets/\(web.version)/../index.html", method: .get)
            #expect(outside.status == .badRequest || outside.status == .notFound)
            // The API keeps its JSON errors, now with the same headers.
            let missing = try await client.execute(uri: "/v1/nothing", method: .get)
            #expect(missing.status == .notFound)
            #expect(missing.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(missing.headers[.contentSecurityPolicy] != nil)
        }
    }

    /// A path a person types that the server has no page for: the web page (which says so) with a 404 for a browser,
    /// the JSON error for anything else and for every API or asset path.
    @Test func aBrowserAskingForAPathWithNoPageGetsThePageWithA404() async throws {
        let web = try WebPlayer(directory: Self.repositoryWeb)
        try await TestServer().test(configuration: .init(web: web)) { client in
            let html: HTTPFields = [.accept: "text/html,application/xhtml+xml,*/*;q=0.8"]
            let typed = try await client.execute(uri: "/nothing/here", method: .get, headers: html)
            #expect(typed.status == .notFound)
            #expect(typed.headers[.contentType] == "text/html; charset=utf-8")
            #expect(String(buffer: typed.body).contains("/assets/\(web.version)/app.js"))
            #expect(typed.headers[.contentSecurityPolicy] != nil)
            let script = try await client.execute(uri: "/nothing/here", method: .get)
            #expect(script.status == .notFound)
            #expect(script.headers[.contentType]?.hasPrefix("application/json") == true)
            for path in ["/v1/nothing", "/assets/\(web.version)/nothing.js"] {
                let kept = try await client.execute(uri: path, method: .get, headers: html)
                #expect(kept.status == .notFound)
                #expect(kept.headers[.contentType]?.hasPrefix("application/json") == true, "\(path)")
            }
        }
    }

    @Test func withoutAWebPlayerThePagesAreNotFound() async throws {
        try await TestServer().test { client in
            let home = try await client.execute(uri: "/", method: .get)
            let package = try await client.execute(uri: "/p/FE7NWW", method: .get)
            #expect(home.status == .notFound)
            #expect(package.status == .notFound)
        }
    }

    @Test func theVersionChangesWithAnyFileAndNotOtherwise() async throws {
        let folder = try Self.copyOfWeb()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try WebPlayer(directory: folder).version
        #expect(before.count == 16 && before.allSatisfy(\.isHexDigit))
        #expect(try WebPlayer(directory: folder).version == before)
        let script = folder.appendingPathComponent("assets/app.js")
        try (try String(contentsOf: script, encoding: .utf8) + "\n// changed\n").write(to: script, atomically: true, encoding: .utf8)
        #expect(try WebPlayer(directory: folder).version != before)
    }

    @Test func theFolderIsFoundBesideTheBinaryOrInAnInstallPrefixOrNamed() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-web-find-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        // A checkout: the binary under .build/debug, the folder at the top.
        let checkout = root.appendingPathComponent("checkout")
        try FileManager.default.createDirectory(at: checkout.appendingPathComponent(".build/debug"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repositoryWeb, to: checkout.appendingPathComponent("Web"))
        let found = try #require(try WebPlayer.locate(override: nil, executable: checkout.appendingPathComponent(".build/debug/uquiz")))
        #expect(found.directory.path == checkout.appendingPathComponent("Web").standardizedFileURL.path)
        // An install prefix: bin/uquiz and share/uquiz/web.
        let prefix = root.appendingPathComponent("prefix")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("share/uquiz"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repositoryWeb, to: prefix.appendingPathComponent("share/uquiz/web"))
        let installed = try #require(try WebPlayer.locate(override: nil, executable: prefix.appendingPathComponent("bin/uquiz")))
        #expect(installed.directory.path == prefix.appendingPathComponent("share/uquiz/web").standardizedFileURL.path)
        // Nowhere: no web player, and no error.
        let bare = root.appendingPathComponent("bare/bin")
        try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
        #expect(try WebPlayer.locate(override: nil, executable: bare.appendingPathComponent("uquiz")) == nil)
        // Named: used as it is, and a folder without the page is refused.
        let named = try #require(try WebPlayer.locate(override: Self.repositoryWeb.path, executable: bare.appendingPathComponent("uquiz")))
        #expect(named.directory.path == Self.repositoryWeb.standardizedFileURL.path)
        #expect(throws: WebPlayerProblem.self) { try WebPlayer.locate(override: bare.path, executable: bare.appendingPathComponent("uquiz")) }
    }
}
