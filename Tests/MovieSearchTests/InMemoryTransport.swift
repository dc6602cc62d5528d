import Foundation
import MovieSearch
import Synchronization

/// An HTTP transport of canned replies, keyed by URL path, that records every request it is given: the TMDB client's
/// request cycle runs against it in process, with no server and no sockets.
final class InMemoryTransport: HTTPTransport {
    typealias Outcome = Result<HTTPReply, TransportError>

    private struct State {
        /// Per path, the outcomes still to give, in order; the last one is given again to every later request.
        var outcomes: [String: [Outcome]]
        var requests: [HTTPRequest] = []
    }

    private let state: Mutex<State>

    init(_ outcomes: [String: [Outcome]]) {
        state = Mutex(State(outcomes: outcomes))
    }

    /// Every request received, in order, exactly as the client sent it (credentials included).
    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func send(_ request: HTTPRequest) throws(TransportError) -> HTTPReply {
        try answer(request).get()
    }

    private func answer(_ request: HTTPRequest) -> Outcome {
        state.withLock { state in
            state.requests.append(request)
            let path = URLComponents(string: request.url)?.path ?? request.url
            guard var queue = state.outcomes[path], let next = queue.first else {
                return .success(Self.json(404, #"{"status_code": 34, "status_message": "no canned reply"}"#))
            }
            if queue.count > 1 {
                queue.removeFirst()
                state.outcomes[path] = queue
            }
            return next
        }
    }

    static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> HTTPReply {
        HTTPReply(status: status, headers: headers.merging(["content-type": "application/json"]) { given, _ in given },
            body: Data(body.utf8))
    }
}
