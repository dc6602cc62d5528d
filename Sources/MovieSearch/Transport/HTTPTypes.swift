import Foundation

/// One request as the transport sends it: a GET for TMDB and posters; a POST or DELETE with a JSON body for a UQuiz
/// server.
public struct HTTPRequest: Sendable, Hashable {
    public var method: String
    public var url: String
    /// Header lines in the order given; names are sent as written.
    public var headers: [HTTPHeader]
    /// Sent as is (with the headers saying its type); `nil` sends none.
    public var body: Data?
    /// The most body bytes accepted; a larger body fails with `TransportError.bodyTooLarge`.
    public var maxBodyBytes: Int

    public init(method: String = "GET", url: String, headers: [HTTPHeader] = [], body: Data? = nil, maxBodyBytes: Int = 8 << 20) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maxBodyBytes = maxBodyBytes
    }

    /// Whether sending it again cannot change anything on the server, so a lost reply may be retried.
    public var isIdempotent: Bool { ["GET", "HEAD", "PUT", "DELETE"].contains(method) }
}

public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

public struct HTTPReply: Sendable, Hashable {
    public var status: Int
    /// Header names in lower case; a repeated header keeps its last value.
    public var headers: [String: String]
    public var body: Data
    /// Connections libcurl had to open for this exchange: 0 when it reused one.
    public var newConnections: Int

    public init(status: Int, headers: [String: String], body: Data, newConnections: Int = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.newConnections = newConnections
    }
}

/// Why a request got no HTTP reply. Messages name the host, never the full URL: URLs may carry the API key.
public enum TransportError: Error, Equatable, Sendable {
    /// The host could not be resolved or connected to: no network, or the server is down.
    case offline(host: String, detail: String)
    case timeout(host: String, seconds: Double)
    case tls(host: String, detail: String)
    case bodyTooLarge(host: String, limit: Int)
    /// The connection broke during the exchange (reset, closed early, truncated body).
    case connectionLost(host: String, detail: String)
    case failed(host: String, detail: String)
    /// The caller went away before the reply came; the transfer was stopped.
    case cancelled(host: String)
    /// Too many requests to this upstream were waiting: this one waited its longest for a turn and was not sent.
    case busy(host: String, waitedSeconds: Double)

    /// Whether sending the same request again may succeed.
    public var isRetryable: Bool {
        switch self {
        case .connectionLost, .timeout: true
        case .offline, .tls, .bodyTooLarge, .failed, .cancelled, .busy: false
        }
    }
}

extension TransportError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case let .offline(host, detail): "cannot reach \(host) (\(detail)); check the network"
        case let .timeout(host, seconds): "\(host) did not answer within \(Self.format(seconds)) s; try again later"
        case let .tls(host, detail): "secure connection to \(host) failed (\(detail)); check the system's certificates"
        case let .bodyTooLarge(host, limit): "\(host) sent more than \(limit) bytes; refusing the response"
        case let .connectionLost(host, detail): "the connection to \(host) broke (\(detail)); try again"
        case let .failed(host, detail): "request to \(host) failed (\(detail))"
        case let .cancelled(host): "the request to \(host) was cancelled"
        case let .busy(host, waited):
            "too many requests to \(host) at once: this one waited \(Self.format(waited)) s for its turn; try again later"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Hides credentials in URLs before they reach a message, a log, a cache entry or a displayed setting: the one function
/// every URL that is shown goes through.
public enum Redaction {
    static let secretParameters: Set<String> = ["api_key", "apikey", "access_token", "token", "password", "secret"]
    static let redacted = "REDACTED"

    /// The URL with the user and password of its authority (`https://user:password@host`) and the value of every secret
    /// parameter replaced by `REDACTED`. Read as text rather than parsed: a URL that `URLComponents` refuses, or whose
    /// parameters sit after a `#` (a fragment, where a configured `…/3#` puts every query the client appends), is
    /// redacted all the same. Parameters are found after the first `?` or `#`, separated by `?`, `&`, `#` or `;`.
    public static func redact(url: String) -> String {
        var result = ""
        var rest = Substring(url)
        // The authority: what follows `scheme://` up to the path, query or fragment; its credentials end at the last `@`.
        if let schemeEnd = rest.range(of: "://") {
            result += rest[..<schemeEnd.upperBound]
            rest = rest[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                result += redacted
                rest = rest[at...]
            }
        }
        guard let parametersStart = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return result + rest }
        result += rest[..<parametersStart]
        var parameter = ""
        func flush() {
            if let equals = parameter.firstIndex(of: "="),
                secretParameters.contains(
                    (parameter[..<equals].removingPercentEncoding ?? String(parameter[..<equals])).lowercased())
            {
                result += parameter[...equals] + redacted
            } else {
                result += parameter
            }
            parameter = ""
        }
        for character in rest[parametersStart...] {
            if "?&#;".contains(character) {
                flush()
                result.append(character)
            } else {
                parameter.append(character)
            }
        }
        flush()
        return result
    }

    /// Free text (an upstream's error message, say) with every URL in it redacted as `redact(url:)` does, and any
    /// `secret=value` pair outside a URL too: a message that repeats the request it answers must not carry its key.
    public static func redact(text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard word.contains("=") || word.contains("://") else { return String(word) }
            if word.contains("?") || word.contains("#") || word.contains("://") { return redact(url: String(word)) }
            // A bare `key=value` (or several joined by &) is read as parameters.
            let redacted = redact(url: "?" + word)
            return String(redacted.dropFirst())
        }
        return words.joined(separator: " ")
    }

    public static func host(of url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host else { return "the server" }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}

/// One header line as libcurl hands it over (`Name: value\r\n`), read from its bytes: called for every header of every
/// response, where going through `String` trimming and `NSString` cost more than the rest of a search.
enum HeaderLine: Equatable {
    case statusLine
    /// The name lowercased, the value without surrounding spaces, tabs and line ends.
    case field(name: String, value: String)
    case other

    init(_ bytes: UnsafeRawBufferPointer) {
        let colon = UInt8(ascii: ":")
        if bytes.starts(with: "HTTP/".utf8) {
            self = .statusLine
        } else if let split = bytes.firstIndex(of: colon) {
            let name = Self.trimmed(bytes[..<split]).map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
            self = .field(
                name: String(decoding: name, as: UTF8.self),
                value: String(decoding: Self.trimmed(bytes[(split + 1)...]), as: UTF8.self))
        } else {
            self = .other
        }
    }

    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.startIndex..<bytes.startIndex] }
        return bytes[first...last]
    }
}
