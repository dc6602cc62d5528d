/// The HTTP the movie-search client needs: requests sent without holding a thread while they travel, many at once.
/// `CurlTransport` is the live one; tests put an in-memory one in its place, so the client's retries, errors and
/// logging run without a server.
public protocol HTTPTransport: Sendable {
    /// Sends one request and waits for the whole reply. Cancelling the calling task stops the transfer (its connection
    /// is closed) and throws `TransportError.cancelled`.
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPReply
}

extension HTTPTransport {
    /// Sends every request at once (the transport bounds how many travel together) and returns the outcomes in the
    /// order given, each failure on its own. `finished` is called with the count done so far after each transfer, for
    /// progress bars, on the calling task.
    public func sendAll(
        _ requests: [HTTPRequest], finished: (Int) -> Void = { _ in }
    ) async -> [Result<HTTPReply, TransportError>] {
        await withTaskGroup(of: (Int, Result<HTTPReply, TransportError>).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    do throws(TransportError) {
                        return (index, .success(try await send(request)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results = [Result<HTTPReply, TransportError>?](repeating: nil, count: requests.count)
            var done = 0
            for await (index, result) in group {
                results[index] = result
                done += 1
                finished(done)
            }
            return results.map { $0! }
        }
    }
}

/// The same exchange for a caller that has a thread of its own to wait on: the command line's client of a UQuiz
/// server, whose commands run synchronously on the process's main thread. Never for the server's code, which runs on
/// Swift's cooperative threads and must not hold one.
public protocol BlockingHTTPTransport: Sendable {
    func sendBlocking(_ request: HTTPRequest) throws(TransportError) -> HTTPReply
}

/// How the live transport talks HTTP: what a front end configures, without naming the library behind it.
public struct HTTPTransportOptions: Sendable {
    public var userAgent: String
    public var connectTimeout: Double
    public var totalTimeout: Double
    public var maxConnectionsPerHost: Int
    /// At most this many transfers travel at once; the others wait their turn, first come first served.
    public var maxTransfersInFlight: Int
    /// A transfer that has waited this many seconds for its turn fails with `TransportError.busy` instead of
    /// starting; `nil` waits as long as it takes (a command downloading hundreds of posters wants them all).
    public var queueTimeout: Double?

    public init(
        userAgent: String, connectTimeout: Double = 5, totalTimeout: Double = 20, maxConnectionsPerHost: Int = 20,
        maxTransfersInFlight: Int = 20, queueTimeout: Double? = nil
    ) {
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.maxTransfersInFlight = maxTransfersInFlight
        self.queueTimeout = queueTimeout
    }

    /// The transport of the product, ready to use: libcurl, loaded when it first sends.
    public func liveTransport() -> CurlTransport {
        CurlTransport(options: self)
    }
}
