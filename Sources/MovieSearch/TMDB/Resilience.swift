import Foundation
import Synchronization

/// Time as the client sees it: injected so tests run retries and rate limits with no real waiting.
public struct ClientClock: Sendable {
    /// A monotonic reading.
    public var now: @Sendable () -> Duration
    /// Waits, holding the thread: only for the command line's synchronous client of a UQuiz server.
    public var sleep: @Sendable (Duration) -> Void
    /// Waits without holding a thread (the movie-search client's backoff and pacing); returns early when the task is
    /// cancelled.
    public var wait: @Sendable (Duration) async -> Void
    /// Wall-clock time, for cache freshness that must survive across processes.
    public var wallTime: @Sendable () -> Date
    /// A number in 0..<1 for jitter.
    public var random: @Sendable () -> Double

    /// `wait`, when not given, is `sleep`: right for a test clock that only records what it is asked to wait.
    public init(
        now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) -> Void,
        wait: (@Sendable (Duration) async -> Void)? = nil,
        wallTime: @escaping @Sendable () -> Date, random: @escaping @Sendable () -> Double
    ) {
        self.now = now
        self.sleep = sleep
        self.wait = wait ?? { sleep($0) }
        self.wallTime = wallTime
        self.random = random
    }

    public static let live: ClientClock = {
        let clock = ContinuousClock()
        let origin = clock.now
        return ClientClock(
            now: { clock.now - origin },
            sleep: { duration in
                let (seconds, attoseconds) = duration.components
                Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            },
            wait: { duration in try? await Task.sleep(for: duration) },
            wallTime: { Date() },
            random: { Double.random(in: 0..<1) })
    }()
}

/// Which failures are tried again, how often and how long in all.
public struct RetryPolicy: Sendable, Equatable {
    public var maxAttempts: Int
    /// Waiting never goes past this much time since the first attempt.
    public var totalBudget: Duration
    public var baseDelay: Duration
    public var maxDelay: Duration

    public static let standard = RetryPolicy(
        maxAttempts: 3, totalBudget: .seconds(10), baseDelay: .milliseconds(500), maxDelay: .seconds(4))

    public init(maxAttempts: Int, totalBudget: Duration, baseDelay: Duration, maxDelay: Duration) {
        self.maxAttempts = maxAttempts
        self.totalBudget = totalBudget
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Exponential backoff with jitter: between half and all of `base * 2^(attempt-1)`, capped.
    func backoff(afterAttempt attempt: Int, random: Double) -> Duration {
        let exponential = baseDelay * (1 << min(attempt - 1, 16))
        let capped = min(exponential, maxDelay)
        return capped * (0.5 + 0.5 * random)
    }

    /// What went wrong with one attempt, as far as trying again is concerned.
    public enum Failure: Sendable {
        /// A reply with this status (and its `Retry-After` in seconds).
        case reply(status: Int, retryAfterSeconds: Int?)
        /// No reply.
        case transport(TransportError)
    }

    /// The wait before the next attempt, or `nil` to give up: 429 (after its `Retry-After`), 5xx and a broken
    /// connection are tried again; nothing else is. Only requests that are safe to repeat come here.
    public func delay(afterAttempt attempt: Int, failure: Failure, elapsed: Duration, random: Double) -> Duration? {
        guard attempt < maxAttempts else { return nil }
        let wait: Duration
        switch failure {
        case let .reply(status, retryAfter) where status == 429:
            wait = retryAfter.map { .seconds($0) } ?? backoff(afterAttempt: attempt, random: random)
        case let .reply(status, _) where status >= 500:
            wait = backoff(afterAttempt: attempt, random: random)
        case let .transport(error) where error.isRetryable:
            wait = backoff(afterAttempt: attempt, random: random)
        default:
            return nil
        }
        return elapsed + wait <= totalBudget ? wait : nil
    }

    /// The same for the TMDB client's errors. Only idempotent GETs come here, and never 401/404.
    func delay(afterAttempt attempt: Int, failure: MovieSearchError, elapsed: Duration, random: Double) -> Duration? {
        switch failure {
        case let .http(status, _, _, _, retryAfter):
            delay(afterAttempt: attempt, failure: RetryPolicy.Failure.reply(status: status, retryAfterSeconds: retryAfter), elapsed: elapsed, random: random)
        case let .transport(error):
            delay(afterAttempt: attempt, failure: RetryPolicy.Failure.transport(error), elapsed: elapsed, random: random)
        default:
            nil
        }
    }
}

/// Keeps requests to TMDB under its rate: at most `limit` in any `window`, waiting (on the injected clock) when needed,
/// where the server's `RateLimiter` refuses instead.
public final class RequestPacer: Sendable {
    let limit: Int
    let window: Duration
    /// When the requests of the last `window` start, including those still waiting for their moment: each caller
    /// books its moment under the mutex, then waits for it without holding anything.
    private let bookedStarts = Mutex<[Duration]>([])

    /// TMDB allows about 50 requests a second from one address.
    public init(limit: Int = 50, window: Duration = .seconds(1)) {
        self.limit = limit
        self.window = window
    }

    /// The moment a request asked for at `now` may start: now, or when the oldest of the last `limit` starts leaves
    /// the window.
    func book(at now: Duration) -> Duration {
        bookedStarts.withLock { booked in
            booked.removeAll { now - $0 >= window }
            let start = booked.count >= limit ? max(now, booked[booked.count - limit] + window) : now
            booked.append(start)
            return start
        }
    }

    func acquire(clock: ClientClock) async {
        let now = clock.now()
        let start = book(at: now)
        if start > now { await clock.wait(start - now) }
    }
}

/// Stops asking an upstream that keeps failing: after `failures` timeouts or server errors in a row it refuses at once
/// for `cooldown` (the caller answers from what it has), then lets one request through as a probe; the probe's success
/// closes it again, its failure starts another cooldown.
public final class CircuitBreaker: Sendable {
    public struct Policy: Sendable, Equatable {
        public var failures: Int
        public var cooldown: Duration

        public static let standard = Policy(failures: 5, cooldown: .seconds(30))

        public init(failures: Int, cooldown: Duration) {
            self.failures = failures
            self.cooldown = cooldown
        }
    }

    public enum State: Sendable, Equatable {
        case closed(failures: Int)
        case open(until: Duration)
        /// One request is trying the upstream again, since the moment given.
        case probing(since: Duration)
    }

    public enum Permission: Sendable, Equatable {
        case allowed
        case refused(retryIn: Duration)
    }

    public let policy: Policy
    private let state = Mutex(State.closed(failures: 0))

    public init(policy: Policy = .standard) {
        self.policy = policy
    }

    public var current: State { state.withLock { $0 } }

    /// Whether a request may go now; the first one after a cooldown becomes the probe. A probe that never reports
    /// (its caller went away) is replaced by another after a cooldown.
    public func permit(at now: Duration) -> Permission {
        state.withLock { state in
            switch state {
            case .closed:
                return .allowed
            case .open(let until) where now < until:
                return .refused(retryIn: until - now)
            case .probing(let since) where now - since < policy.cooldown:
                return .refused(retryIn: policy.cooldown - (now - since))
            case .open, .probing:
                state = .probing(since: now)
                return .allowed
            }
        }
    }

    /// What a permitted request came to: `failed` for a timeout, no connection or a 5xx; anything else the upstream
    /// answered counts as a success.
    public func record(failed: Bool, at now: Duration) {
        state.withLock { state in
            switch (state, failed) {
            case (_, false):
                state = .closed(failures: 0)
            case (.closed(let failures), true) where failures + 1 < policy.failures:
                state = .closed(failures: failures + 1)
            case (_, true):
                state = .open(until: now + policy.cooldown)
            }
        }
    }

    /// A permitted request that ended without an answer either way (its caller went away): a probe's turn passes on.
    public func abandon(at now: Duration) {
        state.withLock { state in
            if case .probing = state { state = .open(until: now) }
        }
    }
}

/// A response the movie-search client keeps, by URL (credentials never part of it), to honour `Cache-Control:
/// max-age` and `ETag`.
public struct CachedResponse: Codable, Sendable {
    var url: String
    var storedAt: Date
    var maxAge: Double
    var etag: String?
    var body: Data
}

/// Where the movie-search client keeps responses: on disk for the command line (`HTTPCache`), in memory for the server
/// (`MemoryResponseCache`), whose requests must not wait on file reads.
public protocol ResponseCache: Sendable {
    func entry(for url: String) -> CachedResponse?
    /// Forgets the entry of `url`, one that no longer decodes.
    func remove(_ url: String)
    func store(_ entry: CachedResponse)
}

/// The latest `capacity` responses in memory; the oldest stored goes first.
public final class MemoryResponseCache: ResponseCache {
    private struct Entries {
        var byURL: [String: CachedResponse] = [:]
        var order: [String] = []
    }
    private let entries = Mutex(Entries())
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    public func entry(for url: String) -> CachedResponse? { entries.withLock { $0.byURL[url] } }

    public func remove(_ url: String) {
        entries.withLock { entries in
            entries.byURL[url] = nil
            entries.order.removeAll { $0 == url }
        }
    }

    public func store(_ entry: CachedResponse) {
        entries.withLock { entries in
            if entries.byURL.updateValue(entry, forKey: entry.url) != nil { entries.order.removeAll { $0 == entry.url } }
            entries.order.append(entry.url)
            while entries.order.count > capacity { entries.byURL[entries.order.removeFirst()] = nil }
        }
    }
}

/// Responses on disk, one file per URL.
public struct HTTPCache: ResponseCache {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    func file(for url: String) -> URL {
        let hash = url.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return directory.appendingPathComponent(String(hash, radix: 16) + ".json")
    }

    public func entry(for url: String) -> CachedResponse? {
        guard let data = try? Data(contentsOf: file(for: url)),
            let entry = try? JSONDecoder().decode(CachedResponse.self, from: data), entry.url == url
        else { return nil }
        return entry
    }

    public func remove(_ url: String) {
        try? FileManager.default.removeItem(at: file(for: url))
    }

    /// Written to a temporary file and renamed, so a reader never sees half an entry.
    public func store(_ entry: CachedResponse) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try JSONEncoder().encode(entry).write(to: file(for: entry.url), options: .atomic)
        } catch {
            // A cache that cannot be written only costs a request next time.
        }
    }
}

extension HTTPCache {
    /// The longest a response is reused: a week, whatever a server says (`max-age=1e300` would pin it for ever).
    static let longestMaxAge = 7 * 86_400

    /// `max-age` from a Cache-Control header, unless `no-store`/`no-cache` forbid reuse; capped at `longestMaxAge`.
    static func maxAge(_ cacheControl: String?) -> Double? {
        guard let cacheControl else { return nil }
        let directives = cacheControl.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if directives.contains("no-store") || directives.contains("no-cache") { return nil }
        guard let value = directives.first(where: { $0.hasPrefix("max-age=") })?.dropFirst(8),
            let seconds = DeltaSeconds.parse(value, cap: longestMaxAge)
        else { return nil }
        return Double(seconds)
    }
}

/// HTTP's delta-seconds (RFC 9110 §1.2), the one reading of every header that counts seconds (`Cache-Control: max-age`,
/// `Retry-After`): digits only, so `nan`, `inf`, `-5`, `1.5` or `1e300` are no number of seconds at all (a wait of
/// "-5 s" is not a wait), and a huge one is `cap`.
enum DeltaSeconds {
    static func parse<Text: StringProtocol>(_ text: Text, cap: Int) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int(digits.prefix(9)).map { min($0, cap) } ?? cap
    }
}
