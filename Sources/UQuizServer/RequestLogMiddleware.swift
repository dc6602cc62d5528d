import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import QuizCore

/// One log line per request, through swift-log: method, path (never the query or headers, so no token or cursor is
/// written), route template, status and duration, with the request id Hummingbird gives the request's logger; the id
/// goes back to the client as `X-Request-Id` so a report can be matched to its line. A request with a bearer token
/// carries `player.hash`, 12 hex digits of a hash of the token that is not the one the store keeps: the lines of one
/// player can be followed, and nothing in them opens their account.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    static var requestIdHeader: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        response.headers[Self.requestIdHeader] = context.id
        // The values are made into text by the log's own thread (`DeferredLogHandler`), not on the request's time.
        var metadata: Logger.Metadata = [
            "http.method": .stringConvertible(request.method.rawValue),
            "http.path": .stringConvertible(request.uri.path),
            "http.route": .stringConvertible(context.endpointPath ?? "-"),
            "http.status": .stringConvertible(response.status.code),
            "duration.ms": .stringConvertible(Milliseconds(elapsed)),
        ]
        if let header = request.headers[.authorization], header.prefix(7).lowercased() == "bearer " {
            metadata["player.hash"] = .stringConvertible(PlayerHash(token: header.dropFirst(7)))
        }
        context.logger.info("request", metadata: metadata)
        return response
    }

    /// A duration in milliseconds with two decimals, as its log line shows it.
    struct Milliseconds: CustomStringConvertible, Sendable {
        let duration: Duration
        init(_ duration: Duration) { self.duration = duration }
        var description: String {
            let hundredths = Int((duration / .microseconds(10)).rounded())
            let fraction = hundredths % 100
            return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
        }
    }

    /// Who asked, as a log line may say it: the first 6 bytes of a salted SHA-256 of the bearer token, never the token.
    struct PlayerHash: CustomStringConvertible, Sendable {
        let token: Substring

        var description: String {
            SHA256.hash(data: Array("uquiz.log:".utf8) + Array(Request.withoutOptionalWhitespace(token).utf8))
                .prefix(6).lowercaseHex
        }
    }
}
