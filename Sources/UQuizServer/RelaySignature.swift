import Crypto
import Foundation

/// What an instance forwarding a request to the instance holding a room says about it in `UQuiz-Forwarded`: the
/// client's address and the moment, signed with the instances' shared secret (HMAC-SHA256 of the method, the path, the
/// address and the moment). The holder trusts a header that verifies: it counts the request under the client's own
/// address and does not take the limits the forwarding instance took already. Any other value of the header (a client
/// writing one, or instances without a shared secret, which send `1`) only stops the request from being forwarded again.
struct RelaySignature: Sendable {
    private let key: SymmetricKey
    /// How far a header's moment may be from the holder's clock, in seconds.
    static let tolerance: Int64 = 60

    /// `nil` without a secret: relayed requests are then never trusted.
    init?(secret: String?) {
        guard let secret, !secret.isEmpty else { return nil }
        key = SymmetricKey(data: Data(secret.utf8))
    }

    /// The header for `method path` forwarded on behalf of `client` at `seconds` (Unix time).
    func header(method: String, path: String, client: String, seconds: Int64) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Self.message(method, path, client, seconds), using: key)
        return "\(client) \(seconds) \(Data(code).base64EncodedString())"
    }

    /// The client address a header signed for `method path` carries, when it verifies and is fresh at `seconds`.
    func client(from header: String, method: String, path: String, now seconds: Int64) -> String? {
        let parts = header.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, let stamp = Int64(parts[1]), abs(seconds - stamp) <= Self.tolerance,
            let code = Data(base64Encoded: String(parts[2]))
        else { return nil }
        let client = String(parts[0])
        guard HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Self.message(method, path, client, stamp), using: key)
        else { return nil }
        return client
    }

    private static func message(_ method: String, _ path: String, _ client: String, _ seconds: Int64) -> Data {
        Data("\(method) \(path) \(client) \(seconds)".utf8)
    }
}
