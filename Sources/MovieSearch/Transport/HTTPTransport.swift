/// The HTTP the clients need: one request at a time, or many GETs at once. `CurlTransport` is the live one; tests put
/// an in-memory one in its place, so the clients' retries, errors and logging run without a server.
public protocol HTTPTransport: Sendable {
    /// Sends one request and waits for the whole reply.
    func send(_ request: HTTPRequest) throws(TransportError) -> HTTPReply

    /// Sends every request and returns the outcomes in the order given, each failure on its own. `finished` is called
    /// with the count done so far after each transfer, for progress bars.
    func sendAll(_ requests: [HTTPRequest], finished: (Int) -> Void) -> [Result<HTTPReply, TransportError>]
}

extension HTTPTransport {
    /// Every request, with nobody following the progress.
    public func sendAll(_ requests: [HTTPRequest]) -> [Result<HTTPReply, TransportError>] {
        sendAll(requests, finished: { _ in })
    }
}

/// How the live transport talks HTTP: what a front end configures, without naming the library behind it.
public struct HTTPTransportOptions: Sendable {
    public var userAgent: String
    public var connectTimeout: Double
    public var totalTimeout: Double
    public var maxConnectionsPerHost: Int

    public init(userAgent: String, connectTimeout: Double = 5, totalTimeout: Double = 20, maxConnectionsPerHost: Int = 20) {
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxConnectionsPerHost = maxConnectionsPerHost
    }

    /// The transport of the product, ready to use: libcurl, loaded when it first sends.
    public func liveTransport() -> any HTTPTransport {
        CurlTransport(options: self)
    }
}
