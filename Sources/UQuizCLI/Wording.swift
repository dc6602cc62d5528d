import MovieSearch
import PosterGrid
import RemoteClient
import UQuizRules

/// The CLI's words for what the application layer reports as types.
enum Wording {
    /// "1 quiz", "3 quizzes".
    static func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number) \(number == 1 ? one : many)"
    }

    /// Areas as `uquiz create --quiz areas=` and `uquiz edit --areas` read them: `row:column`, stage 1 first.
    static func areas(_ cells: [Cell]) -> String {
        cells.map { "\($0.row):\($0.column)" }.joined(separator: ",")
    }

    static func posterUnavailable(_ problem: PosterUnavailable) -> String {
        switch problem {
        case .bundledPosterMissing: "the bundled poster is missing; uquiz seed merge restores it"
        case .notCachedOffline: "it is not cached and --offline was given (uquiz fetch-posters caches it)"
        case .downloadFailed(let reason): "it could not be downloaded: \(reason)"
        case .unreadable: "the cached file is not a readable JPEG"
        }
    }

    static func offlineReason(_ reason: OfflineReason) -> String {
        switch reason {
        case .asked: "--offline"
        case .noCredentials: "no TMDB credentials (set TMDB_API_KEY or TMDB_READ_ACCESS_TOKEN)"
        case .unreachable(let why): why
        }
    }

    static func movieLookup(_ problem: MovieLookupProblem) -> String {
        switch problem {
        case let .notInCatalog(reference, hadCredentials):
            let why = hadCredentials ? "and TMDB could not be reached" : "and there are no TMDB credentials"
            return "\(reference) is not in the local catalog \(why); find it with `uquiz search`"
        }
    }

    /// A server's refusal in its own words (which name the field and what to do), with the status for scripts and
    /// people who report it; a failure to reach it says which server.
    static func server(_ problem: ServerClientError, at url: String) -> String {
        let server = Redaction.redact(url: url)
        switch problem {
        case .badAddress(let address):
            return "\"\(Redaction.redact(url: address))\" is not a server address: use http://HOST:PORT or https://HOST"
        case .unreachable(let error):
            return "the server \(server) did not answer: \(error.localizedDescription)"
        case let .refused(status, _, message, retryAfter):
            let wait = retryAfter.map { "; try again in \($0) s" } ?? ""
            return "the server refused (HTTP \(status)): \(message)\(wait)"
        case .notAServer(let status):
            return "\(server) answered HTTP \(status) but is not a UQuiz server (check the address)"
        case .notLoggedIn:
            return "not logged in to \(server): run uquiz login --server \(server) first"
        }
    }
}
