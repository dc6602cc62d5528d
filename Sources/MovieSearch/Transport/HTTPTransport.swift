/// The HTTP the TMDB client needs: GETs, one at a time or many at once. `CurlTransport` is the live one; tests put an
/// in-memory one in its place, so the client's retries, errors and logging run without a server.
public protocol HTTPTransport: Sendable {
    /// Sends one GET and waits for the whole reply.
    func get(_ request: HTTPGet) throws(TransportError) -> HTTPReply

    /// Sends every GET and returns the outcomes in the order given, each failure on its own. `finished` is called with
    /// the count done so far after each transfer, for progress bars.
    func getAll(_ requests: [HTTPGet], finished: (Int) -> Void) -> [Result<HTTPReply, TransportError>]
}

extension HTTPTransport {
    /// Every GET, with nobody following the progress.
    public func getAll(_ requests: [HTTPGet]) -> [Result<HTTPReply, TransportError>] {
        getAll(requests, finished: { _ in })
    }
}
