import Foundation
import MovieSearch
import QuizCore
import UQuizStorage
import UQuizWire

/// A UQuiz server as a front end reaches it: the REST API (`openapi.yaml`) over the same HTTP transport as TMDB
/// (libcurl live), with the same retries, and every failure as a `ServerClientError` a front end can say in one line.
public struct ServerClient: Sendable {
    /// Scheme, host and port, without a trailing slash: `http://127.0.0.1:8080`.
    public let baseURL: String
    /// The bearer token of this player on this server, if logged in.
    public let token: String?
    let transport: any BlockingHTTPTransport
    let retry: RetryPolicy
    let clock: ClientClock

    public init(
        baseURL: String, token: String?, transport: any BlockingHTTPTransport, retry: RetryPolicy = .standard,
        clock: ClientClock = .live
    ) throws(ServerClientError) {
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let components = URLComponents(string: trimmed), ["http", "https"].contains(components.scheme ?? ""),
            components.host?.isEmpty == false, components.query == nil, components.fragment == nil
        else { throw .badAddress(baseURL) }
        self.baseURL = trimmed
        self.token = token
        self.transport = transport
        self.retry = retry
        self.clock = clock
    }

    // MARK: - Players

    /// Makes a guest player; the token in the answer is the only copy there will be.
    public func register(name: String) throws(ServerClientError) -> ServerAPI.NewPlayer {
        try call("POST", "/v1/players", body: ServerAPI.NewPlayerRequest(name: name), authenticated: false)
    }

    /// A one-time code that gives this player to another device (10 minutes, once).
    public func makeLinkCode() throws(ServerClientError) -> ServerAPI.LinkCodeAnswer {
        try call("POST", "/v1/players/me/link-codes", body: Optional<ServerAPI.LinkRequest>.none, authenticated: true)
    }

    /// Becomes, here, the player a link code from another device was made for: their id, name and a token of this
    /// device's own.
    public func link(code: String) throws(ServerClientError) -> ServerAPI.NewPlayer {
        try call("POST", "/v1/players/link", body: ServerAPI.LinkRequest(code: code), authenticated: false)
    }

    // MARK: - Packages

    /// Publishes a package spec as this player's; returns its share code.
    public func publish(_ spec: PackageSpec, visibility: Visibility) throws(ServerClientError) -> ServerAPI.Published {
        try call("POST", "/v1/packages", body: ServerAPI.PublishRequest(spec: spec, visibility: visibility), authenticated: true)
    }

    /// Replaces this player's package `shareCode` with `spec` under the same code; `visibility` changes it when given.
    public func update(shareCode: String, with spec: PackageSpec, visibility: Visibility?) throws(ServerClientError)
        -> ServerAPI.PackageMetadata
    {
        try call(
            "PUT", "/v1/packages/" + Self.pathSegment(shareCode), body: ServerAPI.UpdateRequest(spec: spec, visibility: visibility),
            authenticated: true)
    }

    /// Uploads a JPEG poster; the answer's `poster` is the name a spec's quiz gives it.
    public func uploadPoster(_ jpeg: Data) throws(ServerClientError) -> ServerAPI.UploadedPoster {
        let reply = try exchange("POST", "/v1/posters", data: jpeg, contentType: "image/jpeg", authenticated: true)
        do {
            return try JSONDecoder().decode(ServerAPI.UploadedPoster.self, from: reply.body)
        } catch {
            throw .notAServer(status: reply.status)
        }
    }

    /// One page of public packages, newest first or (`sort` `popular`) most played first.
    public func browse(
        sort: String? = nil, level: String? = nil, language: String? = nil, search: String? = nil, limit: Int? = nil,
        cursor: String? = nil
    ) throws(ServerClientError) -> ServerAPI.PackagePage {
        var query = URLComponents()
        query.queryItems = [
            sort.map { URLQueryItem(name: "sort", value: $0) }, level.map { URLQueryItem(name: "level", value: $0) },
            language.map { URLQueryItem(name: "language", value: $0) }, search.map { URLQueryItem(name: "q", value: $0) },
            limit.map { URLQueryItem(name: "limit", value: String($0)) }, cursor.map { URLQueryItem(name: "cursor", value: $0) },
        ].compactMap { $0 }
        let suffix = query.queryItems!.isEmpty ? "" : "?" + (query.percentEncodedQuery ?? "")
        return try call("GET", "/v1/packages" + suffix, body: Self.noBody, authenticated: false)
    }

    /// What anyone may read of one package.
    public func package(shareCode: String) throws(ServerClientError) -> ServerAPI.PackageMetadata {
        try call("GET", "/v1/packages/" + Self.pathSegment(shareCode), body: Self.noBody, authenticated: false)
    }

    // MARK: - Plays judged by the server

    /// Starts a play of a package on the server's clock; its first quiz starts a few seconds later.
    public func startPlay(shareCode: String) throws(ServerClientError) -> ServerAPI.PlayState {
        try call("POST", "/v1/packages/\(Self.pathSegment(shareCode))/plays", body: Self.noBody, authenticated: true)
    }

    /// Starts today's daily quiz in `language` (one daily a day per player).
    public func startDaily(language: QuizLanguage) throws(ServerClientError) -> ServerAPI.PlayState {
        try call("POST", "/v1/daily/plays?language=\(language.rawValue)", body: Self.noBody, authenticated: true)
    }

    /// Starts a play of a past day's daily quiz in `language` from the archive (unranked, as often as you like).
    public func startArchivedDaily(day: String, language: QuizLanguage) throws(ServerClientError) -> ServerAPI.PlayState {
        try call(
            "POST", "/v1/daily/archive/\(Self.pathSegment(day))/plays?language=\(language.rawValue)", body: Self.noBody,
            authenticated: true)
    }

    /// The play as the server's clock has it now.
    public func play(id: String) throws(ServerClientError) -> ServerAPI.PlayState {
        try call("GET", "/v1/plays/\(Self.pathSegment(id))", body: Self.noBody, authenticated: true)
    }

    /// Movie titles suggested for what the player has typed (`GET /v1/titles`), in `language`.
    public func titles(for typed: String, language: QuizLanguage) throws(ServerClientError) -> ServerAPI.TitleSuggestions {
        var query = URLComponents()
        query.queryItems = [URLQueryItem(name: "q", value: typed), URLQueryItem(name: "language", value: language.rawValue)]
        return try call("GET", "/v1/titles?" + (query.percentEncodedQuery ?? ""), body: Self.noBody, authenticated: true)
    }

    /// The poster of quiz `quiz` (1-based) as revealed at `stage`, or now when `nil`: a JPEG.
    public func poster(playId: String, quiz: Int, stage: Int? = nil) throws(ServerClientError) -> Data {
        let query = stage.map { "?stage=\($0)" } ?? ""
        return try exchange("GET", "/v1/plays/\(Self.pathSegment(playId))/quizzes/\(quiz)/poster\(query)", body: Self.noBody, authenticated: true).body
    }

    public func guess(playId: String, quiz: Int, text: String) throws(ServerClientError) -> ServerAPI.GuessAnswer {
        try call(
            "POST", "/v1/plays/\(Self.pathSegment(playId))/guesses", body: ServerAPI.GuessRequest(quiz: quiz, text: text),
            authenticated: true)
    }

    public func hint(playId: String, quiz: Int) throws(ServerClientError) -> ServerAPI.HintAnswer {
        try call("POST", "/v1/plays/\(Self.pathSegment(playId))/hints", body: ServerAPI.QuizRequest(quiz: quiz), authenticated: true)
    }

    public func skip(playId: String, quiz: Int) throws(ServerClientError) -> ServerAPI.PlayState {
        try call("POST", "/v1/plays/\(Self.pathSegment(playId))/skips", body: ServerAPI.QuizRequest(quiz: quiz), authenticated: true)
    }

    // MARK: - Leaderboards and the daily quiz

    /// The top of a package's ranked plays, and the caller's own line when logged in.
    public func leaderboard(shareCode: String) throws(ServerClientError) -> ServerAPI.Leaderboard {
        let around = token == nil ? "" : "?around=me"
        return try call(
            "GET", "/v1/packages/\(Self.pathSegment(shareCode))/leaderboard\(around)", body: Self.noBody, authenticated: token != nil)
    }

    /// Today's daily quiz in `language`, and the caller's streak when logged in.
    public func daily(language: QuizLanguage) throws(ServerClientError) -> ServerAPI.Daily {
        try call("GET", "/v1/daily?language=\(language.rawValue)", body: Self.noBody, authenticated: token != nil)
    }

    /// The past daily quizzes in `language` before `before` (today when `nil`), newest first.
    public func dailyArchive(language: QuizLanguage, before: String? = nil) throws(ServerClientError) -> ServerAPI.DailyArchive {
        let after = before.map { "&before=\(Self.pathSegment($0))" } ?? ""
        return try call(
            "GET", "/v1/daily/archive?language=\(language.rawValue)\(after)", body: Self.noBody, authenticated: false)
    }

    // MARK: - The exchange

    /// One API call: the body as JSON, the bearer token when `authenticated`, retries for what is safe to repeat, the
    /// answer decoded or the error said.
    func call<Answer: Decodable, Body: Encodable>(
        _ method: String, _ path: String, body: Body?, authenticated: Bool
    ) throws(ServerClientError) -> Answer {
        let reply = try exchange(method, path, body: body, authenticated: authenticated)
        do {
            return try JSONDecoder().decode(Answer.self, from: reply.body)
        } catch {
            throw .notAServer(status: reply.status)
        }
    }

    /// A request without a body.
    static let noBody: ServerAPI.QuizRequest? = nil

    /// One exchange whose reply is a success (2xx), with its body as it came.
    func exchange<Body: Encodable>(
        _ method: String, _ path: String, body: Body?, authenticated: Bool
    ) throws(ServerClientError) -> HTTPReply {
        try exchange(
            method, path, data: body.flatMap { try? JSONEncoder().encode($0) }, contentType: "application/json",
            authenticated: authenticated)
    }

    /// One exchange with `data` as the body, of `contentType`, when there is one.
    func exchange(
        _ method: String, _ path: String, data: Data?, contentType: String, authenticated: Bool
    ) throws(ServerClientError) -> HTTPReply {
        var headers = [HTTPHeader("Accept", "application/json")]
        if authenticated {
            guard let token else { throw .notLoggedIn }
            headers.append(HTTPHeader("Authorization", "Bearer \(token)"))
        }
        if data != nil { headers.append(HTTPHeader("Content-Type", contentType)) }
        let request = HTTPRequest(method: method, url: baseURL + path, headers: headers, body: data, maxBodyBytes: 4 << 20)
        let reply = try send(request)
        guard (200..<300).contains(reply.status) else { throw Self.problem(reply) }
        return reply
    }

    /// Sends with retries: a GET after 429, 5xx or a broken connection; anything else only after 429 or 503, which say
    /// the server did nothing with it.
    private func send(_ request: HTTPRequest) throws(ServerClientError) -> HTTPReply {
        let started = clock.now()
        var attempt = 0
        while true {
            attempt += 1
            do {
                let reply = try transport.sendBlocking(request)
                let safeToRepeat = request.isIdempotent || reply.status == 429 || reply.status == 503
                guard safeToRepeat, reply.status == 429 || reply.status >= 500 else { return reply }
                let failure = RetryPolicy.Failure.reply(
                    status: reply.status, retryAfterSeconds: reply.headers["retry-after"].flatMap { Int($0) })
                guard let wait = retry.delay(
                    afterAttempt: attempt, failure: failure, elapsed: clock.now() - started, random: clock.random())
                else { return reply }
                clock.sleep(wait)
            } catch {
                guard request.isIdempotent, let wait = retry.delay(
                    afterAttempt: attempt, failure: .transport(error), elapsed: clock.now() - started, random: clock.random())
                else { throw .unreachable(error) }
                clock.sleep(wait)
            }
        }
    }

    static func problem(_ reply: HTTPReply) -> ServerClientError {
        guard let body = try? JSONDecoder().decode(ServerAPI.ErrorBody.self, from: reply.body) else {
            return .notAServer(status: reply.status)
        }
        return .refused(
            status: reply.status, code: body.error.code, message: body.error.message,
            retryAfterSeconds: reply.headers["retry-after"].flatMap { Int($0) })
    }

    /// A share code or id as one path segment: anything but ASCII letters, digits, `-`, `_` and `~` escaped (dots too,
    /// so `..` cannot climb), so it cannot change the path; ids are base64url, which needs `-` and `_` as they are.
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? ""
    }

    private static let segmentCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_~")
}

/// What went wrong talking to a UQuiz server, as its user is told.
public enum ServerClientError: Error, Equatable {
    /// The address is not an `http://` or `https://` URL with a host.
    case badAddress(String)
    /// No reply: the server is down, the network is out, or it took too long.
    case unreachable(TransportError)
    /// The server answered with its JSON error: its status, stable code and message.
    case refused(status: Int, code: String, message: String, retryAfterSeconds: Int?)
    /// Something answered that does not speak this API (a web page, an empty body, another server).
    case notAServer(status: Int)
    /// The call needs a player's token and none is configured.
    case notLoggedIn
}
