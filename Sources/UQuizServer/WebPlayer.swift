// The web player: plain HTML, CSS and JavaScript modules from the repository's `Web/` folder, served beside
// the API with no build step. The page talks to the documented `/v1` API only, like any other client.

import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import ServerUseCases

/// The web player's files: `index.html` (the one page, a template) and `assets/` (scripts, styles, icon).
///
/// Asset URLs carry a version, `/assets/<version>/app.js`, where the version is a hash of every file of the folder
/// taken when the server starts. A browser may then keep an asset for a year without asking again, and a changed file
/// gets a new URL (after a restart). Because the version is a folder, the modules import each other by relative paths
/// (`./i18n.js`) with no rewriting. The page itself is never cached without asking: it names the current version.
public struct WebPlayer: Sendable {
    public static let pageFileName = "index.html"
    public static let assetsFolderName = "assets"

    public let directory: URL
    /// The first 16 hex digits of the SHA-256 of every file's relative path and bytes, in path order.
    public let version: String
    /// `index.html` with `{{assets}}` already replaced; `{{lang}}`, `{{title}}` and `{{meta}}` (a shared link's Open
    /// Graph tags) are filled per request.
    let pageTemplate: String
    /// The text assets gzip-compressed, by file name, for the clients that take gzip.
    let compressedAssets: [String: CompressedAsset]

    struct CompressedAsset: Sendable {
        var contentType: String
        var gzip: ByteBuffer
    }

    /// The types of the assets that are text, by file extension.
    static let textTypes = [
        "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml; charset=utf-8",
    ]

    public var assetsDirectory: URL { directory.appendingPathComponent(Self.assetsFolderName) }
    public var assetsPath: String { "/assets/\(version)" }

    /// Reads the folder once: its page and the hash of all its files.
    public init(directory: URL) throws {
        self.directory = directory.standardizedFileURL
        let page = self.directory.appendingPathComponent(Self.pageFileName)
        guard let pageData = FileManager.default.contents(atPath: page.path) else {
            throw WebPlayerProblem.notAWebFolder(path: self.directory.path)
        }
        var hasher = SHA256()
        var compressed: [String: CompressedAsset] = [:]
        let assetsPrefix = Self.assetsFolderName + "/"
        for (relative, data) in try Self.files(under: self.directory) {
            hasher.update(data: Data(relative.utf8))
            hasher.update(data: Data([0]))
            hasher.update(data: data)
            guard relative.hasPrefix(assetsPrefix), let type = Self.textTypes[URL(fileURLWithPath: relative).pathExtension],
                let gzip = try? ResponseCompression.gzip(ByteBuffer(bytes: data)), gzip.readableBytes < data.count
            else { continue }
            compressed[String(relative.dropFirst(assetsPrefix.count))] = CompressedAsset(contentType: type, gzip: gzip)
        }
        compressedAssets = compressed
        version = hasher.finalize().prefix(8).lowercaseHex
        pageTemplate = String(decoding: pageData, as: UTF8.self).replacingOccurrences(of: "{{assets}}", with: "/assets/\(version)")
    }

    /// Every regular file under `root` as (path relative to root, bytes), sorted by path.
    static func files(under root: URL) throws -> [(String, Data)] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else {
            throw WebPlayerProblem.notAWebFolder(path: root.path)
        }
        var files: [(String, Data)] = []
        while let relative = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = root.appendingPathComponent(relative).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                let data = FileManager.default.contents(atPath: path)
            else { continue }
            files.append((relative, data))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// Where the web player is: `override` (`--web` or the `web` setting) when given; else `share/uquiz/web` beside the
    /// executable's `bin/`; else a `Web/` folder in one of the executable's parent folders, which covers `swift run` and
    /// binaries under `.build/` (the same search as the seed bundle's). `nil` when none holds an `index.html`.
    public static func locate(override: String?, executable: URL) throws -> WebPlayer? {
        if let override, !override.isEmpty {
            return try WebPlayer(directory: URL(fileURLWithPath: override))
        }
        for directory in candidateDirectories(executable: executable)
        where FileManager.default.fileExists(atPath: directory.appendingPathComponent(pageFileName).path) {
            return try WebPlayer(directory: directory)
        }
        return nil
    }

    public static func candidateDirectories(executable: URL) -> [URL] {
        let binDirectory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [binDirectory.deletingLastPathComponent().appendingPathComponent("share/uquiz/web")]
        var folder = binDirectory
        while folder.path != "/" && !folder.path.isEmpty {
            candidates.append(folder.appendingPathComponent("Web"))
            folder.deleteLastPathComponent()
        }
        return candidates.map(\.standardizedFileURL)
    }

    /// The languages the page has a text table for; the first is the fallback.
    static let languages = ["en", "ko"]

    /// The page's language from `Accept-Language`: the listed language with the highest weight that the page has,
    /// English when none is.
    static func language(acceptLanguage header: String?) -> String {
        guard let header else { return languages[0] }
        var best: (language: String, weight: Double)?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first?.lowercased(), !tag.isEmpty else { continue }
            let primary = String(tag.split(separator: "-").first ?? "")
            guard languages.contains(primary) else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            if weight > 0, weight > (best?.weight ?? 0) { best = (primary, weight) }
        }
        return best?.language ?? languages[0]
    }

    /// The page in the language `acceptLanguage` asks for, titled `title` (already escaped for HTML) with `meta` (whole
    /// `<meta>` elements, their texts escaped) in its head.
    func page(acceptLanguage: String?, title: String = "UQuiz", meta: String = "") -> String {
        pageTemplate.replacingOccurrences(of: "{{lang}}", with: Self.language(acceptLanguage: acceptLanguage))
            .replacingOccurrences(of: "{{title}}", with: title)
            .replacingOccurrences(of: "{{meta}}", with: meta)
    }
}

public enum WebPlayerProblem: Error, Equatable, CustomStringConvertible {
    case notAWebFolder(path: String)

    public var description: String {
        switch self {
        case .notAWebFolder(let path): "\(path) is not a web player folder (it has no readable \(WebPlayer.pageFileName))"
        }
    }
}

/// The pages of the web player, `/`, `/p/{code}`, `/s/{id}` (a finished play's result), `/d`, `/r/{code}` (a live
/// room) and `/r/{code}/screen` (its big screen), `/me` and `/make` (the maker): one HTML page whose script shows what the path asks for. A package's page and
/// a result's carry their share card's Open Graph tags (`SharePageTags`), for the link previews of apps that read the
/// HTML without running its script; an unknown code or id gets the plain page with the API's status for it (404, or
/// 410 for a removed package), and a store that does not answer the plain page as it is.
/// Its assets come from `FileMiddleware` under the versioned path.
struct WebRoutes {
    let web: WebPlayer
    /// Whether the assets go gzip-compressed to the clients that take it.
    let compress: Bool
    let cards: ShareCards
    /// Package codes looked up for a page count with the API's lookups that name nothing.
    let misses: LookupMissLimit

    /// A year: the longest a browser is asked to keep an asset, which never changes under its versioned URL.
    static let assetMaxAge = 31_536_000

    func add(to router: Router<ServerRequestContext>) {
        router.get("/") { request, _ in page(request) }
        router.get("p/{code}") { request, context in await packagePage(request, context) }
        router.get("s/{id}") { request, context in await resultPage(request, context) }
        router.get("d") { request, _ in page(request) }
        router.get("me") { request, _ in page(request) }
        router.get("make") { request, _ in page(request) }
        router.get("r/{code}") { request, _ in page(request) }
        router.get("r/{code}/screen") { request, _ in page(request) }
        router.add(middleware: PageForPeopleMiddleware { request in page(request, status: .notFound) })
        if compress {
            router.add(
                middleware: CompressedAssetsMiddleware(web: web, cacheControl: "public, max-age=\(Self.assetMaxAge), immutable"))
        }
        router.add(
            middleware: FileMiddleware(
                web.assetsDirectory.path, urlBasePath: web.assetsPath,
                cacheControl: .init([(MediaType(type: .any), [.public, .maxAge(Self.assetMaxAge), .immutable])])))
    }

    private func page(_ request: Request, status: HTTPResponse.Status = .ok, tags: SharePageTags? = nil) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8",
                // Always asked again (cheaply): the page names the assets' current version.
                .cacheControl: "no-cache",
                .vary: "Accept-Language",
            ],
            body: .init(
                byteBuffer: ByteBuffer(
                    string: web.page(
                        acceptLanguage: request.headers[.acceptLanguage],
                        title: tags.map { SharePageTags.escaped($0.title) } ?? "UQuiz", meta: tags?.html ?? ""))))
    }

    private func packagePage(_ request: Request, _ context: ServerRequestContext) async -> Response {
        let code = context.parameters.get("code") ?? ""
        do {
            let card = try await misses.lookup(from: context.clientAddress) { try await cards.package(shareCode: code) }
            return page(request, tags: .package(card, language: language(request), origin: origin(request, context)))
        } catch {
            return plainPage(request, error)
        }
    }

    private func resultPage(_ request: Request, _ context: ServerRequestContext) async -> Response {
        let id = context.parameters.get("id") ?? ""
        do {
            guard let card = try await cards.result(playId: id) else { return page(request, status: .notFound) }
            return page(request, tags: .result(card, language: language(request), origin: origin(request, context)))
        } catch {
            return plainPage(request, error)
        }
    }

    /// The page without tags, with the status the API gives the same lookup when it says the link names nothing (or
    /// too many lookups did); the plain page as it is when the store could not say.
    private func plainPage(_ request: Request, _ error: any Error) -> Response {
        guard let problem = APIError.from(error), [.notFound, .gone, .tooManyRequests].contains(problem.status) else {
            return page(request)
        }
        var response = page(request, status: problem.status)
        for field in problem.headers { response.headers.append(field) }
        return response
    }

    private func language(_ request: Request) -> String {
        WebPlayer.language(acceptLanguage: request.headers[.acceptLanguage])
    }

    private func origin(_ request: Request, _ context: ServerRequestContext) -> String? {
        SharePageTags.origin(of: request, viaTrustedProxy: context.viaTrustedProxy)
    }
}

/// A person who types a path the server has no page for gets the web page, which says so, with a 404, rather than
/// the API's JSON error: for a GET that accepts HTML outside `/v1/` and `/assets/` (scripts and files keep their JSON).
struct PageForPeopleMiddleware<Context: RequestContext>: RouterMiddleware {
    let notFoundPage: @Sendable (Request) -> Response

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path
            guard request.method == .get, request.headers[.accept]?.contains("text/html") == true,
                !path.hasPrefix("/v1/"), !path.hasPrefix("/assets/")
            else { throw error }
            return notFoundPage(request)
        }
    }
}

/// Headers on every response, web page or API: a strict Content-Security-Policy (scripts, styles, images and requests
/// from this server only, no inline script or style, no framing), no MIME sniffing, no referrer; and a charset on the
/// text types `FileMiddleware` sends without one.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// `blob:` images: stage posters are fetched with the player's token and drawn from blobs.
    static var contentSecurityPolicy: String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
            + "manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        if let type = response.headers[.contentType], !type.contains("charset"),
            type.hasPrefix("text/") || type == "application/javascript" || type == "image/svg+xml"
        {
            response.headers[.contentType] = type + "; charset=utf-8"
        }
        return response
    }
}

/// `HEAD` on every GET route, as HTTP asks: the request is routed as a GET and answered with the GET's status and
/// headers, its `Content-Length` included, and no body. Around the router rather than in it, since a router's
/// middleware runs after the route (by method) is found.
public struct HeadAsGetRouter<Base: HTTPResponderBuilder>: HTTPResponderBuilder {
    let base: Base

    public init(_ base: Base) {
        self.base = base
    }

    public func buildResponder() -> HeadAsGetResponder<Base.Responder> {
        HeadAsGetResponder(base: base.buildResponder())
    }
}

public struct HeadAsGetResponder<Base: HTTPResponder>: HTTPResponder {
    let base: Base

    public func respond(to request: Request, context: Base.Context) async throws -> Response {
        guard request.method == .head else { return try await base.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        var response = try await base.respond(to: Request(head: head, body: request.body), context: context)
        let length = response.body.contentLength
        response.body = ResponseBody()
        response.headers[.contentLength] = length.map(String.init)
        return response
    }
}
