import Foundation
import HTTPTypes
import Hummingbird
import Logging
import UQuizApp

/// One log line per request, through swift-log: method, path (never the query or headers, so no token or cursor is
/// written), status and duration, with the request id Hummingbird gives the request's logger; the id goes back to the
/// client as `X-Request-Id` so a report can be matched to its line.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    static var requestIdHeader: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        response.headers[Self.requestIdHeader] = context.id
        context.logger.info(
            "request",
            metadata: [
                "http.method": "\(request.method.rawValue)",
                "http.path": "\(request.uri.path)",
                "http.status": "\(response.status.code)",
                "duration.ms": "\(String(format: "%.2f", elapsed.seconds * 1000))",
            ])
        return response
    }
}
