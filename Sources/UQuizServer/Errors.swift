import Foundation
import Hummingbird
import Logging
import NIOCore
import QuizCore
import ServerUseCases
import UQuizRules
import UQuizStorage
import UQuizWire

/// An error as the client sees it: a status, a stable code, a message that names what was wrong and never holds a
/// secret, and any headers the status calls for (`WWW-Authenticate`, `Retry-After`).
struct APIError: Error {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> APIError { .init(status: .badRequest, code: "bad_request", message: message) }

    static func brokenRule(_ problem: SpecProblem) -> APIError {
        .init(status: .unprocessableContent, code: "broken_rule", message: problem.description)
    }

    static func unauthorized(_ message: String) -> APIError {
        .init(status: .unauthorized, code: "unauthorized", message: message, headers: [.wwwAuthenticate: "Bearer"])
    }

    static func notFound(_ message: String) -> APIError { .init(status: .notFound, code: "not_found", message: message) }

    static let tooLarge = APIError(status: .contentTooLarge, code: "too_large", message: "the body is larger than this server accepts")

    static func notReady(retryAfterSeconds: Int) -> APIError {
        .init(
            status: .serviceUnavailable, code: "not_ready", message: "the store does not answer; try again later",
            headers: [.retryAfter: String(retryAfterSeconds)])
    }

    /// 429 with `Retry-After` in whole seconds, rounded up.
    static func tooManyRequests(_ wait: Duration) -> APIError {
        let seconds = max(1, Int(wait.seconds.rounded(.up)))
        return APIError(
            status: .tooManyRequests, code: "too_many_requests", message: "too many requests; try again in \(seconds) s",
            headers: [.retryAfter: String(seconds)])
    }

    static func conflict(_ message: String) -> APIError { .init(status: .conflict, code: "conflict", message: message) }

    static let internalError = APIError(status: .internalServerError, code: "internal", message: "internal error")

    /// What a use case's error means to a client; anything unforeseen is a 500 whose cause only the log knows.
    static func from(_ error: any Error) -> APIError? {
        switch error {
        case let error as APIError:
            return error
        case PublishError.brokenRule(let problem):
            return .brokenRule(problem)
        case let problem as SpecProblem:
            return .brokenRule(problem)
        case let problem as DraftError:
            return from(problem)
        case PublishError.notFound(let code):
            return .notFound("no package \"\(code)\" here")
        case PublishError.notOwner(let code):
            return .init(status: .forbidden, code: "forbidden", message: "package \(code) is not yours")
        case PublishError.removed(let code):
            return .init(status: .gone, code: "removed", message: "package \(code) was removed by this server's moderators")
        case let problem as ModerationError:
            return from(problem)
        case let PublishError.played(code, plays):
            let judged = plays.map { "\($0) play\($0 == 1 ? " was" : "s were") judged on it" } ?? "it is being played now"
            return .conflict(
                "package \(code): \(judged), so its quizzes, level and language stay; only its title, maker and visibility may change (delete it and publish anew for a new leaderboard)")
        case let problem as PosterUploadError:
            return from(problem)
        case let MoviePosterError.noSuchPoster(number, count):
            return .notFound("poster \(number): this movie has \(count) poster\(count == 1 ? "" : "s") here (GET /v1/movies/posters lists them)")
        case MoviePosterError.notSearched:
            return .notFound("poster: not a poster of a movie a search answered in the last 10 minutes (GET /v1/movies)")
        case MoviePosterError.unavailable:
            return .init(
                status: .serviceUnavailable, code: "not_ready", message: "the poster cannot be had now; try again later",
                headers: [.retryAfter: "5"])
        case MovieLookupProblem.notInCatalog(let movie, _):
            return .notFound("\(movie) is unknown to this server")
        case BrowseError.cursorOfAnotherOrder(let order):
            return .badRequest("cursor: given out for sort=\(order.rawValue); start again without it")
        case let problem as PlayError:
            return from(problem)
        case let problem as ServerRoomError:
            return from(problem)
        case PlayerError.unknownToken:
            return .unauthorized("the bearer token is not one this server gave out")
        case PlayerError.unknownLinkCode:
            return .notFound("no such link code: it lasts 10 minutes and works once; make a new one on the other device")
        case let problem as SpecProblem:
            return .brokenRule(problem)
        case StoreError.locked:
            return .init(
                status: .serviceUnavailable, code: "not_ready", message: "the store is busy; try again",
                headers: [.retryAfter: "1"])
        case StoreError.unavailable:
            // The database is down or restarting: said at once rather than after a long wait, and nothing was done.
            return .init(
                status: .serviceUnavailable, code: "not_ready",
                message: "the database cannot be reached now; nothing was done; try again shortly",
                headers: [.retryAfter: "2"])
        case StoreError.noFreeShareCode:
            return .init(status: .conflict, code: "conflict", message: "no free share code was found; try again")
        case is NIOTooManyBytesError:
            return .tooLarge
        case let error as HTTPError:
            return .init(status: error.status, code: code(for: error.status), message: error.status.reasonPhrase.lowercased())
        default:
            return nil
        }
    }

    /// What a play's problem means to a client. A message may say when a quiz starts, never what its answer is.
    static func from(_ problem: PlayError) -> APIError {
        switch problem {
        case .unknownPlay:
            return .notFound("no play with this id here (POST /v1/packages/{code}/plays starts one)")
        case .notYours:
            return .init(status: .forbidden, code: "forbidden", message: "this play is another player's")
        case let .noSuchQuiz(quiz, count):
            return .badRequest("quiz: \(quiz) is not a quiz of this play: use 1 to \(count)")
        case let .noSuchStage(stage, count):
            return .badRequest("stage: \(stage) is not a stage of this quiz: use 1 to \(count)")
        case let .quizNotStarted(quiz, startsIn):
            let when = startsIn.map { " (it starts in \(Int(($0 / .milliseconds(1)).rounded(.up))) ms)" } ?? ""
            return .conflict("quiz \(quiz) has not started\(when); ask again once it has")
        case .quizOver(let quiz):
            return .conflict("quiz \(quiz) is over; GET the play for its answer")
        case .nothingToPlay:
            return .init(
                status: .unprocessableContent, code: "broken_rule", message: "this package has no quiz with areas to play")
        case .full:
            return .init(
                status: .serviceUnavailable, code: "not_ready", message: "the server holds all the plays it can; try again later",
                headers: [.retryAfter: "30"])
        case .posterUnavailable:
            return .init(
                status: .serviceUnavailable, code: "not_ready", message: "the poster cannot be had now; try again later",
                headers: [.retryAfter: "5"])
        case .noDaily(let language):
            return .notFound("no public quiz in \(language.rawValue) to choose a daily quiz from; try the other language")
        case .noArchivedDaily(let day):
            return .notFound("no past daily quiz of \(day) in this language; see GET /v1/daily/archive")
        case .dailyDeleted(let number):
            return .notFound("daily quiz #\(number) was deleted by its maker; come back tomorrow")
        case .dailyAlreadyPlayed(let playId):
            return .conflict(
                "you have played today's daily quiz already" + (playId.map { "; see GET /v1/plays/\($0)" } ?? ""))
        case .packageChanging:
            return .init(
                status: .serviceUnavailable, code: "not_ready", message: "the package is being changed by its maker; try again",
                headers: [.retryAfter: "1"])
        }
    }

    /// What an upload's problem means to a client: too big (413), not a JPEG at all (415), or a JPEG this server will
    /// not take (422).
    static func from(_ problem: PosterUploadError) -> APIError {
        switch problem {
        case .tooManyBytes:
            return .init(
                status: .contentTooLarge, code: "too_large",
                message: "a poster is at most \(PosterUploads.maxBytes / 1024 / 1024) MiB")
        case .notAJPEG:
            return .unsupportedMediaType("the body is not a JPEG")
        case .undecodable(let detail):
            return .init(status: .unprocessableContent, code: "broken_rule", message: "the JPEG does not decode: \(detail)")
        case let .badSize(width, height, minWidth, minHeight):
            return .init(
                status: .unprocessableContent, code: "broken_rule",
                message:
                    "the poster is \(width) x \(height) pixels: use \(minWidth) x \(minHeight) to \(PosterUploads.maxWidth) x \(PosterUploads.maxHeight)")
        case let .overQuota(held, quota, upload):
            return .init(
                status: .init(code: 507, reasonPhrase: "Insufficient Storage"), code: "quota_exceeded",
                message:
                    "your uploaded posters hold \(held) bytes and this one is \(upload): at most \(quota) in all; publish with the ones you have (unused ones go after a day)")
        }
    }

    static func from(_ problem: ModerationError) -> APIError {
        switch problem {
        case .banned:
            .init(
                status: .forbidden, code: "banned",
                message: "this player is banned from this server by its moderators: they may read, not write")
        case .alreadyReported:
            .conflict("you reported this already; the moderators see it")
        case .badReport(let message):
            .init(status: .unprocessableContent, code: "broken_rule", message: message)
        case .nameNotInRoom(let name):
            .notFound("nobody in this room is named \"\(name)\"")
        case .unknownPlayer(let id):
            .notFound("no player \(id) here")
        case .unknownPackage(let code):
            .notFound("no package \"\(code)\" here")
        case .reasonRequired:
            .badRequest("give a reason")
        }
    }

    static func unsupportedMediaType(_ message: String) -> APIError {
        .init(status: .unsupportedMediaType, code: "unsupported_media_type", message: message)
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .badRequest: "bad_request"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .conflict: "conflict"
        case .gone: "removed"
        case .contentTooLarge: "too_large"
        case .unsupportedMediaType: "unsupported_media_type"
        case .unprocessableContent: "broken_rule"
        case .requestTimeout: "request_timeout"
        case .tooManyRequests: "too_many_requests"
        case .serviceUnavailable: "not_ready"
        default: status.code < 500 ? "bad_request" : "internal"
        }
    }

    var response: Response {
        var response = JSONBody.response(ServerAPI.ErrorBody(code: code, message: message), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}

/// Turns every error a route throws into the JSON error shape; an unforeseen one is logged (with the request id the
/// logger carries) and answered as a bare 500, so no detail of it reaches the client.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if let known = APIError.from(error) { return known.response }
            context.logger.error("unexpected error", metadata: ["error.type": "\(type(of: error))", "error": "\(error)"])
            return APIError.internalError.response
        }
    }
}

/// Reads every request's body up to the limit before any route sees it, so a route never holds more than the limit
/// and an oversized body is a 413 wherever it is sent.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    var maxBytes: Int
    /// Paths whose bodies have a limit of their own (poster uploads, which are larger than any JSON body).
    var maxBytesByPath: [String: Int] = [:]
    /// The longest a body may take to arrive whole. The idle timeout closes a connection that sends nothing, but each
    /// byte of a body restarts it: without this, a client trickling a byte a second would hold a request open for
    /// days.
    var bodyTimeout: Duration = .seconds(60)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        let limit = maxBytesByPath[request.uri.path] ?? maxBytes
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError(status: .contentTooLarge, code: "too_large", message: Self.message(limit))
        }
        // Without a length or chunks there is no body to wait for (a GET): no timer, so reads cost what they did.
        let length = request.headers[.contentLength].flatMap(Int.init)
        if request.headers[.transferEncoding] == nil, length == nil || length == 0 {
            _ = try await request.collectBody(upTo: limit)
            return try await next(request, context)
        }
        do {
            let body = request.body
            let timeout = bodyTimeout
            // Whichever ends first: the body, or the time it may take (the reading is then cancelled).
            let collected = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await body.collect(upTo: limit) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let collected else {
                throw APIError(
                    status: .requestTimeout, code: "request_timeout",
                    message: "the body did not arrive within \(timeout.components.seconds) s")
            }
            request.body = .init(buffer: collected)
        } catch let error as APIError {
            throw error
        } catch is NIOTooManyBytesError {
            throw APIError(status: .contentTooLarge, code: "too_large", message: Self.message(limit))
        } catch {
            // The body stream fails when the client sends malformed HTTP in it or stops before its end (the connection
            // closed on it, by the client or by the idle timeout): the client's fault, not the server's, so a 400 (if
            // anyone is still there to read it) and no "unexpected error" in the log.
            throw APIError.badRequest("the request body could not be read: it ended early or is not well-formed HTTP")
        }
        return try await next(request, context)
    }

    static func message(_ limit: Int) -> String {
        limit % (1 << 20) == 0
            ? "the body is larger than this server accepts here (\(limit >> 20) MiB)"
            : "the body is larger than this server accepts here (\(limit) bytes)"
    }
}

/// JSON in and out, in one style: keys sorted so responses are byte-for-byte stable.
enum JPEGBody {
    /// A poster for one player: a stage poster is theirs alone and changes as the clock runs, so no shared cache may
    /// keep it.
    static func response(_ jpeg: Data) -> Response {
        Response(
            status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
    }
}

enum JSONBody {
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        response(encoded: encoded(value), status: status)
    }

    /// A value that writes its own JSON (a play's state and the answers that carry it): no reflection on the way.
    static func response(_ value: some JSONWritable & Encodable, status: HTTPResponse.Status = .ok) -> Response {
        response(encoded: ByteBuffer(bytes: JSONWriter.write(value)), status: status)
    }

    /// `value` as the bytes of a JSON body.
    static func encoded(_ value: some Encodable) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own response types cannot fail; if it ever did, the client gets an empty object, not a trap.
        return ByteBuffer(bytes: (try? encoder.encode(value)) ?? Data("{}".utf8))
    }

    /// A JSON body already encoded.
    static func response(encoded body: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
    }

    /// The request's body (already collected by `BodyLimitMiddleware`).
    static func bytes(of request: Request) async throws -> Data {
        Data(try await request.body.collect(upTo: .max).readableBytesView)
    }

    /// Reads a body in its plain form by hand (`JSONReadable`), any other as `decode` below does.
    static func decode<Value: JSONReadable>(_ type: Value.Type, from data: Data) throws -> Value {
        if let value = Value.readPlainJSON(data) { return value }
        return try decoded(type, from: data)
    }

    /// Decodes a body, saying in a 400 which field (as a JSON path) is missing or of the wrong type.
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try decoded(type, from: data)
    }

    private static func decoded<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        do {
            return try JSONDecodingProblem.decode(type, from: data)
        } catch let problem as JSONDecodingProblem {
            let what = switch problem.kind {
            case .missing: "missing"
            case .wrongType: "wrong type"
            case .null: "null where a value is needed"
            case .invalid, .refused: "invalid value"
            case .notJSON: "not JSON"
            }
            throw APIError.badRequest("\(problem.pathOfValue): \(what)")
        }
    }
}

extension APIError {
    /// What a draft's problem means to a client.
    static func from(_ problem: DraftError) -> APIError {
        switch problem {
        case .notFound(let id):
            return .notFound("you have no draft \(id) (GET /v1/drafts lists yours)")
        case .tooMany(let limit):
            return .conflict("you keep \(limit) drafts already: publish or delete one first")
        case .tooLarge(let limit):
            return .init(status: .contentTooLarge, code: "too_large", message: "a draft holds at most \(limit) bytes")
        case let .overQuota(held, quota, document):
            return .init(
                status: .init(code: 507, reasonPhrase: "Insufficient Storage"), code: "quota_exceeded",
                message:
                    "your other drafts hold \(held) bytes and this one is \(document): at most \(quota) in all; delete a draft you no longer need")
        case .notAnObject:
            return .badRequest("$: a draft is a JSON object (the body POST /v1/packages takes, whole or not yet)")
        case let .noSuchQuiz(quiz, count):
            return .badRequest("quiz: \(quiz) is not a quiz of this draft: use 1 to \(count)")
        case let .noSuchStage(stage, count):
            return .badRequest("stage: \(stage) is not a stage of this quiz: use 1 to \(count)")
        case .posterUnavailable:
            return .init(
                status: .serviceUnavailable, code: "not_ready", message: "the poster cannot be had now; try again",
                headers: [.retryAfter: "5"])
        }
    }
}
