import FlyingFox
import FlyingSocks
import Synchronization
import Foundation

/// A fault the server injects into requests whose path starts with `pathPrefix` (`*` for every path), for the next
/// `times` of them (all of them when `nil`).
///
/// Written on the command line as `PATH[;key=value]...`, e.g. `/3/search/movie;status=503;retry-after=1;times=2`.
/// Keys: `status`, `retry-after`, `delay-ms` (before answering), `drip-ms` (between 16-byte chunks), `truncate` (declare
/// the full length, send half, close), `close` (send the headers, then close), `malformed` (broken JSON), `huge=BYTES`,
/// `content-type`, `echo-url` (an error's message repeats the request's path and query, key included, as some gateways'
/// do), `times`.
public struct FaultRule: Sendable, Equatable {
    public var pathPrefix: String
    public var status: Int?
    public var retryAfter: String?
    public var delayMilliseconds: Int = 0
    public var dripMilliseconds: Int?
    public var truncate = false
    public var close = false
    public var malformed = false
    public var hugeBytes: Int?
    public var contentType: String?
    public var echoURL = false
    public var times: Int?

    public init(pathPrefix: String) {
        self.pathPrefix = pathPrefix
    }

    public init(parsing text: String) throws {
        let parts = text.split(separator: ";").map(String.init)
        guard let prefix = parts.first, !prefix.isEmpty else { throw FaultParseError(text: text, reason: "no path") }
        self.init(pathPrefix: prefix)
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            let key = pair[0]
            let value = pair.count > 1 ? pair[1] : ""
            func number() throws -> Int {
                guard let number = Int(value), number >= 0 else {
                    throw FaultParseError(text: text, reason: "\(key) needs a whole number")
                }
                return number
            }
            switch key {
            case "status": status = try number()
            case "retry-after": retryAfter = value
            case "delay-ms": delayMilliseconds = try number()
            case "drip-ms": dripMilliseconds = try number()
            case "truncate": truncate = true
            case "close": close = true
            case "malformed": malformed = true
            case "huge": hugeBytes = try number()
            case "content-type": contentType = value
            case "echo-url": echoURL = true
            case "times": times = try number()
            default: throw FaultParseError(text: text, reason: "unknown key \(key)")
            }
        }
    }

    func applies(to path: String) -> Bool {
        pathPrefix == "*" || path.hasPrefix(pathPrefix)
    }

    /// The faulty answer to a request for `target` (its path and query as sent).
    func response(to target: String) async -> HTTPResponse {
        if delayMilliseconds > 0 { try? await Task.sleep(for: .milliseconds(delayMilliseconds)) }
        let status = self.status ?? 200
        var headers: HTTPHeaders = [.contentType: contentType ?? "application/json;charset=utf-8"]
        if let retryAfter { headers[HTTPHeader("Retry-After")] = retryAfter }
        var body: Data
        if malformed {
            body = Data(#"{"page": 1, "results": [{"id": 27205, "title": "Incep"#.utf8)
        } else if let hugeBytes {
            body = Data(repeating: UInt8(ascii: " "), count: hugeBytes)
        } else if status >= 400 {
            body = TMDBShapes.errorBody(status: status, repeating: echoURL ? target : nil)
        } else {
            body = Data(#"{"page":1,"results":[],"total_pages":1,"total_results":0}"#.utf8)
        }
        if close {
            return HTTPResponse(
                statusCode: HTTPStatusCode(status, phrase: "Fault"), headers: headers,
                body: HTTPBodySequence(
                    from: ChunkedBytes(data: Data(), chunk: 1, pause: nil, failAtEnd: true), count: body.count))
        }
        if truncate {
            // Promise the whole body, send half, then end the stream: the client sees a connection closed mid-body.
            let half = body.prefix(max(1, body.count / 2))
            return HTTPResponse(
                statusCode: HTTPStatusCode(status, phrase: "Fault"), headers: headers,
                body: HTTPBodySequence(
                    from: ChunkedBytes(data: Data(half), chunk: half.count, pause: nil, failAtEnd: true), count: body.count))
        }
        if let drip = dripMilliseconds {
            return HTTPResponse(
                statusCode: HTTPStatusCode(status, phrase: "Fault"), headers: headers,
                body: HTTPBodySequence(
                    from: ChunkedBytes(data: body, chunk: 16, pause: .milliseconds(drip)), count: body.count))
        }
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Fault"), headers: headers, body: body)
    }
}

public struct FaultParseError: Error, CustomStringConvertible {
    var text: String
    var reason: String
    public var description: String { "bad --fault \"\(text)\": \(reason)" }
}

/// The faults still to inject, shared by every connection.
final class FaultBook: Sendable {
    private let state: Mutex<[FaultRule]>

    init(rules: [FaultRule]) {
        state = Mutex(rules)
    }

    /// The first rule for `path` that still has uses, counting this one.
    func take(for path: String) -> FaultRule? {
        state.withLock { rules in
            guard let index = rules.firstIndex(where: { $0.applies(to: path) && $0.times != 0 }) else { return nil }
            if let times = rules[index].times { rules[index].times = times - 1 }
            return rules[index]
        }
    }
}

/// Bytes handed out in fixed chunks, optionally pausing before each: a slow drip, or a body that ends early.
struct ChunkedBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let data: Data
    let chunk: Int
    let pause: Duration?
    /// Fail instead of ending, so the server drops the connection with the promised bytes unsent.
    var failAtEnd = false

    func makeAsyncIterator() -> Iterator { Iterator(data: data, chunk: chunk, pause: pause, failAtEnd: failAtEnd) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let data: Data
        let chunk: Int
        let pause: Duration?
        let failAtEnd: Bool
        var offset = 0

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            guard offset < data.count else {
                if failAtEnd { throw SocketError.disconnected }
                return nil
            }
            if let pause { try await Task.sleep(for: pause) }
            let end = Swift.min(data.count, offset + Swift.min(chunk, Swift.max(1, count)))
            defer { offset = end }
            return Array(data[data.startIndex + offset..<data.startIndex + end])
        }
    }
}
