import Foundation
import Hummingbird
import NIOCore
import Synchronization
import UQuizApp

/// How often a client may do something: `burst` at once, then one more every `interval`.
public struct RateLimit: Sendable, Equatable {
    public var burst: Int
    public var interval: Duration

    public init(burst: Int, interval: Duration) {
        self.burst = burst
        self.interval = interval
    }

    /// Guest players are free to make, so making them is what a script would hammer: 10 at once, then 1 every 6 s
    /// (10 a minute) per client address.
    public static let playerCreation = RateLimit(burst: 10, interval: .seconds(6))

    /// Starting plays (the daily's too), per player: 10 at once, then 1 every 6 s. A play holds memory until it ends.
    public static let playStarts = RateLimit(burst: 10, interval: .seconds(6))

    /// Guesses, per player across all their plays: 10 at once, then 2 a second. Faster than anyone types, far slower
    /// than a script trying a title list.
    public static let guesses = RateLimit(burst: 10, interval: .milliseconds(500))

    /// Poster uploads, per player: 10 at once, then 1 every 6 s. Each is decoded and re-encoded, and kept for good.
    public static let posterUploads = RateLimit(burst: 10, interval: .seconds(6))

    /// Movie searches, per player: 10 at once, then 1 a second; TMDB's own limit is shared by every maker.
    public static let movieSearches = RateLimit(burst: 10, interval: .seconds(1))

    /// Failed authentications (a bearer token nobody has, an Authorization header that is not one), per client address:
    /// 20 at once, then 1 a second. A token is 32 random bytes, so guessing one is hopeless anyway; the limit keeps a
    /// script from making the server hash and look up tokens without end, and a client that keeps sending a stale
    /// token is told to stop. Right tokens never use it up.
    public static let failedAuthentications = RateLimit(burst: 20, interval: .seconds(1))

    /// A limit no client reaches, for `uquiz serve --rate-limits off` (benchmarks, load tests). The limiter still runs
    /// (a bucket looked up and refilled per request), so a benchmark measures what a request costs with limits on,
    /// only without the 429s.
    public static let unlimited = RateLimit(burst: .max, interval: .nanoseconds(1))
}

/// Token buckets per client address, on a monotonic clock that tests can drive. Memory stays bounded: past
/// `maxClients` addresses, the ones whose buckets have refilled (they would allow a full burst anyway) are forgotten.
final class RateLimiter: Sendable {
    let limit: RateLimit
    private let now: @Sendable () -> Duration
    private let buckets = Mutex<[String: (tokens: Double, at: Duration)]>([:])
    static let maxClients = 10_000

    init(limit: RateLimit, now: @escaping @Sendable () -> Duration) {
        self.limit = limit
        self.now = now
    }

    /// How long until `client` has a token, without taking it; `nil` when it has one now.
    func wait(for client: String) -> Duration? {
        let now = now()
        return buckets.withLock { buckets in
            guard let bucket = buckets[client] else { return nil }
            let tokens = min(Double(limit.burst), bucket.tokens + (now - bucket.at) / limit.interval)
            return tokens >= 1 ? nil : limit.interval * (1 - tokens)
        }
    }

    /// Takes one token for `client`; `nil` when allowed, else how long until the next token.
    func take(for client: String) -> Duration? {
        let now = now()
        let interval = limit.interval
        let burst = Double(limit.burst)
        return buckets.withLock { buckets in
            var bucket = buckets[client] ?? (burst, now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.at) / interval)
            bucket.at = now
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                buckets[client] = bucket
                if buckets.count > Self.maxClients {
                    buckets = buckets.filter { $0.value.tokens + (now - $0.value.at) / interval < burst }
                }
                return nil
            }
            buckets[client] = bucket
            return interval * (1 - bucket.tokens)
        }
    }
}

/// Refuses a request with 429 and `Retry-After` (whole seconds, rounded up) when its client is over the limit.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let wait = limiter.take(for: context.clientAddress) { throw APIError.tooManyRequests(wait) }
        return try await next(request, context)
    }
}

/// The failed-authentication limit of the request being handled: its client's address and the limiter, handed to
/// `Request.authenticatedPlayer` as a task-local so that only authentication is refused (a read that ignores the
/// Authorization header still answers a client that is locked out).
struct AuthenticationGate: Sendable {
    @TaskLocal static var current: AuthenticationGate?

    let limiter: RateLimiter
    let client: String

    /// 429 with `Retry-After` while the client has no failed attempt left; checked before the token is looked at, so a
    /// right token found by trying is no faster to find.
    func check() throws {
        if let wait = limiter.wait(for: client) { throw APIError.tooManyRequests(wait) }
    }

    /// One failed attempt: a token nobody has, or an Authorization header that is not a bearer token.
    func failed() { _ = limiter.take(for: client) }
}

/// Sets the `AuthenticationGate` of each request from the client's address. Only requests whose Authorization header
/// was refused count; one without the header, and a right token, never do.
struct FailedAuthenticationLimitMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await AuthenticationGate.$current.withValue(AuthenticationGate(limiter: limiter, client: context.clientAddress)) {
            try await next(request, context)
        }
    }
}
