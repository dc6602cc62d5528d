import Foundation
import QuizCore

/// Why a TMDB call failed, each said in one line with what to do. Text from the server is stripped of control characters.
public enum MovieSearchError: Error, Equatable, Sendable {
    case transport(TransportError)
    /// An HTTP error status with TMDB's own code and message when its body had them.
    case http(status: Int, endpoint: String, tmdbCode: Int?, message: String?, retryAfter: Int?)
    case malformed(endpoint: String, detail: String)
    case invalidRequest(String)
    /// TMDB failed several times in a row, so it is not asked again for this many seconds (`CircuitBreaker`).
    case resting(retryInSeconds: Int)

    /// Whether the failure says nothing about the movie itself, so that an offline answer is a fair substitute.
    public var isUnreachable: Bool {
        switch self {
        case .transport, .resting: true
        case let .http(status, _, _, _, _): status >= 500 || status == 429
        case .malformed, .invalidRequest: false
        }
    }
}

extension MovieSearchError: LocalizedError {
    /// What went wrong, with any secret TMDB's own message repeated (the request's URL, its `api_key`) redacted.
    public var errorDescription: String? { description(unredacted: ()).map(Redaction.redact(text:)) }

    private func description(unredacted: Void) -> String? {
        switch self {
        case let .transport(error):
            return error.errorDescription
        case let .http(status, endpoint, code, message, retryAfter):
            let said = [code.map { "code \($0)" }, message].compactMap { $0 }
            let detail = said.isEmpty ? "HTTP \(status)" : "HTTP \(status), \(said.joined(separator: ": "))"
            switch status {
            case 401:
                return "TMDB refused the credentials (\(detail)); check TMDB_READ_ACCESS_TOKEN or TMDB_API_KEY"
            case 404:
                return "TMDB has nothing at \(endpoint) (\(detail))"
            case 429:
                let wait = retryAfter.map { "in \($0) s" } ?? "in a moment"
                return "TMDB's rate limit was hit (\(detail)); try again \(wait)"
            case 500...:
                return "TMDB failed at \(endpoint) (\(detail)); try again later"
            default:
                return "TMDB rejected the request to \(endpoint) (\(detail))"
            }
        case let .malformed(endpoint, detail):
            return "TMDB's answer from \(endpoint) was not understood (\(detail)); try again later"
        case let .invalidRequest(detail):
            return detail
        case let .resting(seconds):
            return "TMDB failed several times in a row, so it is not asked again for \(seconds) s"
        }
    }
}
