import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import ServerUseCases
import Synchronization
import UQuizStorage

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

    /// Poster uploads per client address: 30 at once, then 1 every 20 s, so that guests made in turn do not each bring
    /// their own uploads and quota.
    public static let posterUploadsPerAddress = RateLimit(burst: 30, interval: .seconds(20))

    /// Movie searches, per player: 10 at once, then 1 a second; TMDB's own limit is shared by every maker.
    public static let movieSearches = RateLimit(burst: 10, interval: .seconds(1))

    /// Title suggestions while typing a guess, per player: 30 at once, then 5 a second, which a quick typist's pauses
    /// stay within (the page asks once typing pauses); each is answered from memory, TMDB asked only for what it lacks.
    public static let titleSuggestions = RateLimit(burst: 30, interval: .milliseconds(200))

    /// Failed authentications (a bearer token nobody has, an Authorization header that is not one), per client address:
    /// 20 at once, then 1 a second. A token is 32 random bytes, so guessing one is hopeless anyway; the limit keeps a
    /// script from making the server hash and look up tokens without end, and a client that keeps sending a stale
    /// token is told to stop. Right tokens never use it up.
    public static let failedAuthentications = RateLimit(burst: 20, interval: .seconds(1))

    /// Publishing a package, per player: 10 at once, then 1 a minute; and per client address, so that
    /// guests made in turn do not each get their own: 30 at once, then 1 every 20 s. Each is kept for good.
    public static let publishesPerPlayer = RateLimit(burst: 10, interval: .seconds(60))
    public static let publishesPerAddress = RateLimit(burst: 30, interval: .seconds(20))

    /// New drafts, per player: 10 at once, then 1 every 6 s; per client address: 30 at once, then 1 every 20 s, so that
    /// guests made in turn from one address store at most a few MiB an hour (each draft is kept until it expires).
    /// Saving a draft is not limited: the maker's page saves as they type.
    public static let newDraftsPerPlayer = RateLimit(burst: 10, interval: .seconds(6))
    public static let newDraftsPerAddress = RateLimit(burst: 30, interval: .seconds(20))

    /// Spending link codes, per client address: 10 at once, then 1 every 6 s. A code has 30^8 values and lasts 10
    /// minutes: at this pace one address tries 110 of them in its life.
    public static let linkCodes = RateLimit(burst: 10, interval: .seconds(6))

    /// Reports, per player: 10 at once, then 1 a minute; per client address: 30 at once, then 1 every 20 s. Each
    /// target takes one report per player anyway: these bound how many targets one person reports.
    public static let reportsPerPlayer = RateLimit(burst: 10, interval: .seconds(60))
    public static let reportsPerAddress = RateLimit(burst: 30, interval: .seconds(20))

    /// Opening live rooms, per player: 5 at once, then 1 a minute; per client address: 20 at once, then 1 every 15 s.
    /// A room holds memory on its instance until it ends or expires.
    public static let roomOpeningsPerPlayer = RateLimit(burst: 5, interval: .seconds(60))
    public static let roomOpeningsPerAddress = RateLimit(burst: 20, interval: .seconds(15))

    /// Lookups of a room or package code that name nothing, per client address: 30 at once, then 1 a second. Codes
    /// are short (a room's is 4 characters of 30), so a script trying them all is stopped long before it finds one;
    /// a person mistyping a code never meets it. Once used up, every lookup from the address waits, found or not, so
    /// that the answer does not tell a found code from a missing one.
    public static let lookupMisses = RateLimit(burst: 30, interval: .seconds(1))

    /// A limit no client reaches, for `uquiz serve --rate-limits off` (benchmarks, load tests). The limiter still runs
    /// (a bucket looked up and refilled per request), so a benchmark measures what a request costs with limits on,
    /// only without the 429s.
    public static let unlimited = RateLimit(burst: .max, interval: .nanoseconds(1))
}

/// Token buckets per client (an address, a player), on the server's clock that tests can drive, kept in this
/// process's memory or in the store.
///
/// In memory (one instance, SQLite), memory stays bounded: past `maxClients` clients, the ones whose buckets have
/// refilled (they would allow a full burst anyway) are forgotten. In the store (several instances on PostgreSQL), a
/// limit holds across instances: each take is one atomic update of the client's bucket row, named after the limit.
final class RateLimiter: Sendable {
    let limit: RateLimit
    private let now: @Sendable () -> Duration
    /// The store's buckets and this limit's name in them, or `nil` for buckets in `memory`.
    private let shared: (name: String, store: @Sendable () throws -> any RateLimitStorage)?
    private let memory = Mutex<[String: RateBucket]>([:])
    /// For buckets in the store: until when (microseconds on the server's clock) each client's was last found empty.
    private let emptyUntil = Mutex<[String: Int64]>([:])
    /// When this limiter last dropped full buckets from the store.
    private let lastCleanup = Mutex<Int64?>(nil)
    static let maxClients = 10_000

    /// The limit's name, as `--limit` and the refusals' metric give it.
    let name: String

    /// Buckets in this process's memory.
    init(limit: RateLimit, name: String = "limit", now: @escaping @Sendable () -> Duration) {
        self.limit = limit
        self.name = name
        self.now = now
        shared = nil
    }

    /// Buckets in `store`, under keys `name:client`.
    init(
        limit: RateLimit, name: String, store: @escaping @Sendable () throws -> any RateLimitStorage,
        now: @escaping @Sendable () -> Duration
    ) {
        self.limit = limit
        self.name = name
        self.now = now
        // An unlimited limit never refuses: no need to ask the store.
        shared = limit == .unlimited ? nil : (name, store)
    }

    /// How long until `client` has a token, without taking it (and without asking the store: it is checked before
    /// every request it guards); `nil` when it has one now. With buckets in the store, a client is known to have none
    /// once one of this instance's takes found the store's bucket empty, until the wait the store gave has passed: a
    /// client spread over several instances gets one refused take more on each, not a budget of its own on each.
    func wait(for client: String) -> Duration? {
        let nowMicros = now().wholeMicroseconds
        if shared != nil {
            return emptyUntil.withLock { until in
                guard let end = until[client] else { return nil }
                guard end > nowMicros else {
                    until[client] = nil
                    return nil
                }
                return .microseconds(end - nowMicros)
            }
        }
        let intervalMicros = limit.interval.wholeMicroseconds
        return memory.withLock { buckets in
            guard let bucket = buckets[client] else { return nil }
            let tokens = bucket.tokens(atMicros: nowMicros, burst: limit.burst, intervalMicros: intervalMicros)
            return tokens >= 1 ? nil : .microseconds(Int64((Double(intervalMicros) * (1 - tokens)).rounded(.up)))
        }
    }

    /// Takes one token for `client`; `nil` when allowed, else how long until the next token.
    func take(for client: String) async throws -> Duration? {
        let wait = try await takeToken(for: client)
        if wait != nil { ServerCounters.rateLimited(name) }
        return wait
    }

    private func takeToken(for client: String) async throws -> Duration? {
        let nowMicros = now().wholeMicroseconds
        let intervalMicros = limit.interval.wholeMicroseconds
        if let (name, store) = shared {
            let store = try store()
            try await forgetFullBuckets(in: store, nowMicros: nowMicros)
            let wait = try await store.takeToken(
                key: "\(name):\(client)", burst: limit.burst, intervalMicros: intervalMicros, nowMicros: nowMicros)
            if let wait {
                emptyUntil.withLock { until in
                    if until.count >= Self.maxClients { until = until.filter { $0.value > nowMicros } }
                    until[client] = nowMicros + wait
                }
            }
            return wait.map { .microseconds($0) }
        }
        return memory.withLock { buckets in
            let bucket = (buckets[client] ?? RateBucket(tokens: Double(limit.burst), atMicros: nowMicros))
                .taking(burst: limit.burst, intervalMicros: intervalMicros, nowMicros: nowMicros)
            buckets[client] = bucket
            if bucket.waitMicros == nil, buckets.count > Self.maxClients {
                buckets = buckets.filter {
                    $0.value.tokens(atMicros: nowMicros, burst: limit.burst, intervalMicros: intervalMicros)
                        < Double(limit.burst)
                }
            }
            return bucket.waitMicros.map { .microseconds($0) }
        }
    }

    /// Once a minute, drops the store's buckets untouched for an hour, so the table holds recent clients only. Every
    /// limit's bucket refills within a minute, so those are full anyway, whichever limit they belong to.
    private func forgetFullBuckets(in store: any RateLimitStorage, nowMicros: Int64) async throws {
        let due = lastCleanup.withLock { last -> Bool in
            guard nowMicros - (last ?? .min / 2) >= 60_000_000 else { return false }
            last = nowMicros
            return true
        }
        guard due else { return }
        try await store.forgetBuckets(untouchedSince: nowMicros - 3_600_000_000)
    }
}

/// Refuses a request with 429 and `Retry-After` (whole seconds, rounded up) when its client is over the limit.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let wait = try await limiter.take(for: context.clientAddress) { throw APIError.tooManyRequests(wait) }
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

    /// How long until the client has a failed attempt left; `nil` while it has one. Checked before a token is looked
    /// up in the store, so a right token found by trying is no faster to find.
    func lockedFor() -> Duration? { limiter.wait(for: client) }

    /// One failed attempt: a token nobody has, or an Authorization header that is not a bearer token.
    func failed() async { _ = try? await limiter.take(for: client) }
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

/// One limit counted twice, per player and per client address: a write that costs the server for good (a publication,
/// a room) is refused with 429 when either count is used up, so that guests made in turn from one address share it.
struct PlayerAndAddressLimit: Sendable {
    let perPlayer: RateLimiter
    let perAddress: RateLimiter

    func take(_ player: Player, address: String) async throws {
        // The player's own count first: a player over their limit does not use up their address's.
        if let wait = try await perPlayer.take(for: "player:\(player.id)") { throw APIError.tooManyRequests(wait) }
        if let wait = try await perAddress.take(for: "address:\(address)") { throw APIError.tooManyRequests(wait) }
    }
}

/// Lookups of codes that name nothing, counted per client address (in the store with several instances): `lookup` runs
/// only while the address has misses left (else 429, whatever the code), and a miss (a 404) uses one up.
struct LookupMissLimit: Sendable {
    let limiter: RateLimiter

    func lookup<Answer>(from address: String, _ body: () async throws -> Answer) async throws -> Answer {
        if let wait = limiter.wait(for: address) { throw APIError.tooManyRequests(wait) }
        do {
            return try await body()
        } catch {
            if APIError.from(error)?.status == .notFound { _ = try await limiter.take(for: address) }
            throw error
        }
    }
}

/// Behind a reverse proxy every request comes from the proxy's address, so limits per address would count everyone
/// together. For a request from one of `trustedProxies`, the client is the address the proxy forwarded: in
/// `X-Forwarded-For` the right-most that is not itself a trusted proxy, else `Forwarded`'s `for=`. From any other
/// address those headers are ignored (a client could write anything there).
///
/// A request another instance forwarded, signed with the shared secret (`RelaySignature`), names its client too: that
/// is the address its limits count, the route knows its limits were taken by the forwarding instance, and its
/// connection no longer counts among the forwarding instance's (`LimitConnectionsPerAddress`).
struct ForwardedClientMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let trustedProxies: Set<String>
    let relaySignature: RelaySignature?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.viaTrustedProxy = trustedProxies.contains(context.clientAddress)
        if context.viaTrustedProxy, let client = forwardedClient(request.headers) {
            context.clientAddress = client
        }
        if let relaySignature, let header = request.headers[RoomForwarding.header],
            let client = relaySignature.client(
                from: header, method: request.method.rawValue, path: request.uri.description,
                now: Int64(Date().timeIntervalSince1970))
        {
            context.clientAddress = client
            context.relayedByInstance = true
            // The relaying instance's connections are its clients', each limited there: not counted against its address.
            context.connection.pipeline.fireUserInboundEventTriggered(LimitConnectionsPerAddress.RelayedByInstance())
        }
        return try await next(request, context)
    }

    func forwardedClient(_ headers: HTTPFields) -> String? {
        if let list = headers[values: HTTPField.Name("X-Forwarded-For")!].last {
            let hops = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if let client = hops.last(where: { !trustedProxies.contains($0) }) ?? hops.first { return client }
        }
        if let forwarded = headers[values: HTTPField.Name("Forwarded")!].last {
            let hops = forwarded.split(separator: ",").compactMap { element -> String? in
                for pair in element.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2, parts[0].lowercased() == "for" else { continue }
                    var value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    // "[2001:db8::1]:4711" and "192.0.2.60:4711" name an address and a port.
                    if value.hasPrefix("["), let end = value.firstIndex(of: "]") {
                        value = String(value[value.index(after: value.startIndex)..<end])
                    } else if value.filter({ $0 == ":" }).count == 1, let colon = value.firstIndex(of: ":") {
                        value = String(value[..<colon])
                    }
                    return value
                }
                return nil
            }
            if let client = hops.last(where: { !trustedProxies.contains($0) }) ?? hops.first { return client }
        }
        return nil
    }
}
