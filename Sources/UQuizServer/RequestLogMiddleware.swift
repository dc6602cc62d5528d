import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import UQuizApp

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
        var metadata: Logger.Metadata = [
            "http.method": "\(request.method.rawValue)",
            "http.path": "\(request.uri.path)",
            "http.route": "\(context.endpointPath ?? "-")",
            "http.status": "\(response.status.code)",
            "duration.ms": "\(String(format: "%.2f", elapsed.seconds * 1000))",
        ]
        if let hash = Self.playerHash(request) { metadata["player.hash"] = "\(hash)" }
        context.logger.info("request", metadata: metadata)
        return response
    }

    static func playerHash(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else { return nil }
        let digest = SHA256.hash(data: Data(("uquiz.log:" + header.dropFirst(7).trimmingCharacters(in: .whitespaces)).utf8))
        return digest.prefix(6).map { String(format: "%02x", $0) }.joined()
    }
}
