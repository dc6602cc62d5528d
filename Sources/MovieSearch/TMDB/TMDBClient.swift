import Foundation
import QuizCore

/// How to reach a TMDB-compatible API.
public struct TMDBSettings: Sendable {
    public enum Credentials: Sendable, Equatable {
        /// A v4 read access token, sent as `Authorization: Bearer`.
        case readAccessToken(String)
        /// A v3 API key, sent as the `api_key` query item (never part of a cache key or a printed URL).
        case apiKey(String)
    }

    public var apiURL: String
    public var imageURL: String
    public var credentials: Credentials?

    public static let defaultAPIURL = "https://api.themoviedb.org/3"
    public static let defaultImageURL = "https://image.tmdb.org/t/p"

    public init(apiURL: String = defaultAPIURL, imageURL: String = defaultImageURL, credentials: Credentials?) {
        self.apiURL = apiURL.hasSuffix("/") ? String(apiURL.dropLast()) : apiURL
        self.imageURL = imageURL.hasSuffix("/") ? String(imageURL.dropLast()) : imageURL
        self.credentials = credentials
    }
}

/// The TMDB endpoints uquiz uses, with caching, retries, a client-side rate limit and, where given, a circuit breaker.
/// Every call waits without holding a thread, and cancelling the calling task stops its transfer.
public final class TMDBClient: Sendable {
    public let settings: TMDBSettings
    let transport: any HTTPTransport
    let cache: (any ResponseCache)?
    let clock: ClientClock
    let retry: RetryPolicy
    let limiter: RequestPacer
    /// Stops asking the API (not the image server) after repeated failures; `nil` always asks.
    let breaker: CircuitBreaker?
    /// Called with each request's redacted URL, for `--verbose`; nil when nobody listens, so the lines are not built.
    let logSink: (@Sendable (String) -> Void)?

    public init(
        settings: TMDBSettings, transport: any HTTPTransport, cache: (any ResponseCache)?, clock: ClientClock = .live,
        retry: RetryPolicy = .standard, limiter: RequestPacer = RequestPacer(), breaker: CircuitBreaker? = nil,
        log: (@Sendable (String) -> Void)? = nil
    ) {
        self.settings = settings
        self.transport = transport
        self.cache = cache
        self.clock = clock
        self.retry = retry
        self.limiter = limiter
        self.breaker = breaker
        self.logSink = log
    }

    func log(_ message: @autoclosure () -> String) {
        logSink?(message())
    }

    static func tmdbLanguage(_ language: QuizLanguage) -> String {
        switch language {
        case .ko: "ko-KR"
        case .en: "en-US"
        }
    }

    public func search(
        _ query: String, language: QuizLanguage, page: Int = 1, year: Int? = nil
    ) async throws(MovieSearchError) -> SearchPage {
        guard (1...500).contains(page) else { throw .invalidRequest("page \(page) is out of range: TMDB pages are 1...500") }
        var items = [
            ("query", query), ("language", Self.tmdbLanguage(language)), ("page", String(page)),
            ("include_adult", "false"),
        ]
        if let year { items.append(("year", String(year))) }
        return try await decoded("/search/movie", items) { body throws(MovieSearchError) in
            try TMDBDecoding.searchPage(body, endpoint: "/search/movie")
        }
    }

    public func movie(id: Int, language: QuizLanguage) async throws(MovieSearchError) -> MovieDetails {
        let endpoint = "/movie/\(id)"
        return try await decoded(endpoint, [("language", Self.tmdbLanguage(language))]) { body throws(MovieSearchError) in
            try TMDBDecoding.movie(body, endpoint: endpoint)
        }
    }

    /// Posters in the quiz language, English and textless ones, best voted first.
    public func posters(movieID: Int, language: QuizLanguage) async throws(MovieSearchError) -> [PosterImage] {
        let languages = Array(Set([language.rawValue, "en"])).sorted() + ["null"]
        let endpoint = "/movie/\(movieID)/images"
        return try await decoded(endpoint, [("include_image_language", languages.joined(separator: ","))]) {
            body throws(MovieSearchError) in try TMDBDecoding.posters(body, endpoint: endpoint)
        }
    }

    public func alternativeTitles(movieID: Int) async throws(MovieSearchError) -> [String] {
        let endpoint = "/movie/\(movieID)/alternative_titles"
        return try await decoded(endpoint, []) { body throws(MovieSearchError) in
            try TMDBDecoding.alternativeTitles(body, endpoint: endpoint)
        }
    }

    /// Image sizes, cached for at least a day: they change about never.
    public func imageConfiguration() async throws(MovieSearchError) -> ImageConfiguration {
        try await decoded("/configuration", [], minimumFreshness: 86_400) { body throws(MovieSearchError) in
            try TMDBDecoding.imageConfiguration(body, endpoint: "/configuration")
        }
    }

    /// Counts against TMDB, for its breaker, a call its caller stopped waiting for at the caller's own deadline: TMDB
    /// did not answer in time, which the transfer (cancelled, not timed out) cannot tell by itself.
    public func recordUnanswered() {
        breaker?.record(failed: true, at: clock.now())
    }

    public func posterURL(path: String, size: String) -> String {
        settings.imageURL + "/" + size + (path.hasPrefix("/") ? path : "/" + path)
    }

    // MARK: - The request cycle

    /// The URL without credentials, query items sorted so one request always has one URL (and one cache entry).
    func url(_ path: String, _ items: [(String, String)]) -> String {
        let query = items.sorted { $0.0 < $1.0 }.map { Self.escaped($0.0) + "=" + Self.escaped($0.1) }.joined(separator: "&")
        return settings.apiURL + path + (query.isEmpty ? "" : "?" + query)
    }

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    /// Percent-encodes all but RFC 3986's unreserved characters, so `+`, `&` and `=` in a title reach TMDB as text.
    static func escaped(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result.unicodeScalars.append(contentsOf: ["%", hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            }
        }
        return result
    }

    /// The decoded answer to a GET of `path`, from the cache when it is fresh. Only an answer that decodes is cached,
    /// and a cached one that no longer decodes (a body cut short, a file damaged on disk) is dropped and asked for
    /// again: a bad body is never served from the cache until its max-age runs out.
    func decoded<Value>(
        _ path: String, _ items: [(String, String)], minimumFreshness: Double = 0,
        _ decode: (Data) throws(MovieSearchError) -> Value
    ) async throws(MovieSearchError) -> Value {
        let url = url(path, items)
        // Entries are filed under the URL as it may be shown: a `user:password@` of the configured API URL stays off disk.
        let cacheKey = Redaction.redact(url: url)
        var cached = cache?.entry(for: cacheKey)
        var cachedValue: Value?
        if let entry = cached {
            cachedValue = try? decode(entry.body)
            if cachedValue == nil {
                cache?.remove(cacheKey)
                cached = nil
            }
        }
        let now = clock.wallTime()
        if let cached, let cachedValue, now.timeIntervalSince(cached.storedAt) < max(cached.maxAge, minimumFreshness) {
            log("cache hit \(cacheKey)")
            return cachedValue
        }
        var headers: [HTTPHeader] = [HTTPHeader("Accept", "application/json")]
        if let etag = cached?.etag { headers.append(HTTPHeader("If-None-Match", etag)) }
        let reply = try await send(url, headers: headers, endpoint: path)
        if reply.status == 304, var cached, let cachedValue {
            cached.storedAt = now
            cached.maxAge = HTTPCache.maxAge(reply.headers["cache-control"]) ?? cached.maxAge
            cache?.store(cached)
            return cachedValue
        }
        guard (200..<300).contains(reply.status) else {
            throw Self.httpError(reply, endpoint: path)
        }
        let value = try decode(reply.body)
        guard let cache else { return value }
        let maxAge = HTTPCache.maxAge(reply.headers["cache-control"])
        if maxAge != nil || reply.headers["etag"] != nil {
            cache.store(.init(url: cacheKey, storedAt: now, maxAge: maxAge ?? 0, etag: reply.headers["etag"], body: reply.body))
        }
        return value
    }

    /// One GET with retries; credentials are added here and only here.
    private func send(_ url: String, headers: [HTTPHeader], endpoint: String) async throws(MovieSearchError) -> HTTPReply {
        var wireURL = url
        var wireHeaders = headers
        switch settings.credentials {
        case let .readAccessToken(token)?: wireHeaders.append(HTTPHeader("Authorization", "Bearer \(token)"))
        case let .apiKey(key)?:
            let encoded = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key
            wireURL += (url.contains("?") ? "&" : "?") + "api_key=" + encoded
        case nil: break
        }
        let started = clock.now()
        var attempt = 0
        while true {
            attempt += 1
            if case .refused(let retryIn)? = breaker?.permit(at: clock.now()) {
                throw .resting(retryInSeconds: Int(retryIn.components.seconds) + 1)
            }
            await limiter.acquire(clock: clock)
            log("GET \(Redaction.redact(url: wireURL))")
            let failure: MovieSearchError
            do {
                let reply = try await transport.send(HTTPRequest(url: wireURL, headers: wireHeaders, maxBodyBytes: 4 << 20))
                breaker?.record(failed: reply.status >= 500, at: clock.now())
                if reply.status == 429 || reply.status >= 500 {
                    failure = Self.httpError(reply, endpoint: endpoint)
                } else {
                    return reply
                }
            } catch {
                if case .cancelled = error { breaker?.abandon(at: clock.now()) } else { breaker?.record(failed: true, at: clock.now()) }
                failure = .transport(error)
            }
            guard !Task.isCancelled, let wait = retry.delay(
                afterAttempt: attempt, failure: failure, elapsed: clock.now() - started, random: clock.random())
            else { throw failure }
            log("retrying \(endpoint) in \(wait) after: \(failure.localizedDescription)")
            await clock.wait(wait)
        }
    }

    static func httpError(_ reply: HTTPReply, endpoint: String) -> MovieSearchError {
        TMDBDecoding.error(
            status: reply.status, body: reply.body, retryAfter: reply.headers["retry-after"], endpoint: endpoint)
    }
}
