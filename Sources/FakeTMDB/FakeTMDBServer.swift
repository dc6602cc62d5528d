import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// A TMDB-compatible server for tests, benchmarks and offline demos: `/3/...` answers like api.themoviedb.org/3 and
/// `/t/p/{size}/{file}` like image.tmdb.org/t/p, with TMDB's response and error shapes and on-demand faults.
public final class FakeTMDBServer: Sendable {
    public struct Configuration: Sendable {
        /// When set, API requests need `api_key=KEY` or `Authorization: Bearer KEY`, as TMDB checks them.
        public var apiKey: String?
        public var catalog: [FakeMovie]
        /// The posters it holds, by file name: `/t/p/{size}/{name}` serves the one named so.
        public var posterFiles: [String: Data]
        /// Served for a catalog movie's poster path that `posterFiles` lacks; `nil` answers those 404, as TMDB does
        /// for a file it does not have. It is a stand-in, never the movie's poster.
        public var standInPoster: Data?
        public var faults: [FaultRule]
        /// Every request is appended here as one line: `GET /3/search/movie?query=…` (credentials redacted).
        public var requestLog: String?

        /// A tiny grey JPEG: what answers for every catalog poster unless told otherwise.
        public static var greyStandIn: Data { TMDBShapes.tinyJPEG }

        public init(
            apiKey: String? = nil, catalog: [FakeMovie] = FakeMovie.defaultCatalog, posterFiles: [String: Data] = [:],
            standInPoster: Data? = Configuration.greyStandIn, faults: [FaultRule] = [], requestLog: String? = nil
        ) {
            self.apiKey = apiKey
            self.catalog = catalog
            self.posterFiles = posterFiles
            self.standInPoster = standInPoster
            self.faults = faults
            self.requestLog = requestLog
        }
    }

    let configuration: Configuration
    let server: HTTPServer
    let faultBook: FaultBook
    let log: RequestLog?

    public init(port: UInt16, configuration: Configuration) {
        self.configuration = configuration
        // 127.0.0.1 exactly: FlyingFox's `.loopback` is the IPv6 one.
        server = HTTPServer(address: try! .inet(ip4: "127.0.0.1", port: port), timeout: 30, logger: .disabled)
        faultBook = FaultBook(rules: configuration.faults)
        log = configuration.requestLog.map(RequestLog.init)
    }

    /// Serves until cancelled.
    public func run() async throws {
        let router = Router(server: self)
        await server.appendRoute("*") { request in await router.respond(to: request) }
        try await server.run()
    }

    public func waitUntilListening() async throws {
        try await server.waitUntilListening()
        if let port = await port { Self.disableNagle(listeningOn: port) }
    }

    /// FlyingFox writes a response's headers and body separately; with Nagle's algorithm the body then waits for the
    /// client's delayed ACK, 40 ms a request on a reused connection, for every client alike. FlyingFox has no hook for
    /// socket options, but on Linux accepted sockets copy TCP_NODELAY from the listening one, so it is set there.
    static func disableNagle(listeningOn port: UInt16) {
        for fd in Int32(0)..<1024 {
            var listening: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening == 1 else { continue }
            var address = sockaddr_in()
            var addressLength = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &addressLength) }
            }
            guard named == 0, UInt16(bigEndian: address.sin_port) == port else { continue }
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    public var port: UInt16? {
        get async {
            guard case let .ip4(_, port) = await server.listeningAddress else { return nil }
            return port
        }
    }
}

/// Appends request lines to a file, for tests that count what reached the server.
final class RequestLog: Sendable {
    /// The file's path, behind a mutex so that lines of concurrent requests are appended one at a time, never mixed.
    private let path: Mutex<String>

    init(path: String) {
        self.path = Mutex(path)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
    }

    func append(_ line: String) {
        path.withLock { path in
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            handle.seekToEndOfFile()
            handle.write(Data((line + "\n").utf8))
            try? handle.close()
        }
    }
}

struct Router: Sendable {
    let server: FakeTMDBServer

    var configuration: FakeTMDBServer.Configuration { server.configuration }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let query = Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        let shownQuery = request.query.map { "\($0.name)=\($0.name == "api_key" ? "REDACTED" : $0.value)" }
        server.log?.append(
            "\(request.method.rawValue) \(request.path)\(shownQuery.isEmpty ? "" : "?" + shownQuery.joined(separator: "&"))"
                + (request.headers[HTTPHeader("If-None-Match")].map { " if-none-match=\($0)" } ?? "")
                + (request.headers[.authorization].map { _ in " authorization=REDACTED" } ?? "")
                + (request.headers[HTTPHeader("User-Agent")].map { " user-agent=\($0)" } ?? ""))
        if let fault = server.faultBook.take(for: request.path) {
            let sent = request.query.map { "\($0.name)=\($0.value)" }
            return await fault.response(to: request.path + (sent.isEmpty ? "" : "?" + sent.joined(separator: "&")))
        }
        let response: HTTPResponse
        if request.path.hasPrefix("/t/p/") {
            response = poster(path: request.path)
        } else if request.path.hasPrefix("/3/") {
            if let denied = checkCredentials(request, query: query) { return denied }
            response = api(path: String(request.path.dropFirst(2)), query: query, request: request)
        } else {
            response = TMDBShapes.error(status: 404, code: 34, message: "The resource you requested could not be found.")
        }
        return response
    }

    private func checkCredentials(_ request: HTTPRequest, query: [String: String]) -> HTTPResponse? {
        guard let key = configuration.apiKey else { return nil }
        if query["api_key"] == key || request.headers[.authorization] == "Bearer \(key)" { return nil }
        return TMDBShapes.error(status: 401, code: 7, message: "Invalid API key: You must be granted a valid key.")
    }

    private func api(path: String, query: [String: String], request: HTTPRequest) -> HTTPResponse {
        let parts = path.split(separator: "/").map(String.init)
        switch parts.count {
        case 1 where parts[0] == "configuration":
            return TMDBShapes.json(TMDBShapes.configuration(), maxAge: 43_200, request: request)
        case 2 where parts == ["search", "movie"]:
            return search(query: query, request: request)
        case 2 where parts[0] == "movie":
            guard let movie = movie(parts[1]) else { return notFound }
            return TMDBShapes.json(movie.details(language: query["language"]), maxAge: 600, request: request)
        case 3 where parts[0] == "movie" && parts[2] == "images":
            guard let movie = movie(parts[1]) else { return notFound }
            let languages = query["include_image_language"].map { Set($0.split(separator: ",").map(String.init)) }
            return TMDBShapes.json(movie.images(languages: languages), maxAge: 600, request: request)
        case 3 where parts[0] == "movie" && parts[2] == "alternative_titles":
            guard let movie = movie(parts[1]) else { return notFound }
            return TMDBShapes.json(movie.alternativeTitlesJSON(), maxAge: 600, request: request)
        default:
            return notFound
        }
    }

    private var notFound: HTTPResponse {
        TMDBShapes.error(status: 404, code: 34, message: "The resource you requested could not be found.")
    }

    private func movie(_ id: String) -> FakeMovie? {
        guard let id = Int(id) else { return nil }
        return configuration.catalog.first { $0.id == id }
    }

    private func search(query: [String: String], request: HTTPRequest) -> HTTPResponse {
        guard let text = query["query"], !text.isEmpty else {
            return TMDBShapes.errors(status: 422, ["query must be provided"])
        }
        let page = Int(query["page"] ?? "1") ?? 0
        guard (1...500).contains(page) else {
            return TMDBShapes.errors(status: 422, ["page must be less than or equal to 500"])
        }
        let year = query["year"].flatMap(Int.init)
        let matches = configuration.catalog.filter { $0.matches(text, year: year) }
        let pageSize = 20
        let slice = matches.dropFirst((page - 1) * pageSize).prefix(pageSize)
        let body: [String: Any] = [
            "page": page,
            "results": slice.map { $0.searchResult(language: query["language"]) },
            "total_pages": max(1, (matches.count + pageSize - 1) / pageSize),
            "total_results": matches.count,
        ]
        return TMDBShapes.json(body, maxAge: 600, request: request)
    }

    private func poster(path: String) -> HTTPResponse {
        // /t/p/{size}/{file}
        let parts = path.split(separator: "/")
        guard parts.count == 4, let file = parts.last else { return notFound }
        let filePath = "/" + file
        let held = configuration.posterFiles[String(file)]
        let standIn = configuration.catalog.contains(where: { $0.posterPaths.contains(filePath) })
            ? configuration.standInPoster : nil
        guard let image = held ?? standIn else {
            return HTTPResponse(statusCode: .notFound, headers: [.contentType: "text/plain"], body: Data("Not Found".utf8))
        }
        return HTTPResponse(
            statusCode: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "public, max-age=31536000"],
            body: image)
    }
}
