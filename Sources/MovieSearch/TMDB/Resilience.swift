import Foundation
import Synchronization

/// Time as the client sees it: injected so tests run retries and rate limits with no real waiting.
public struct ClientClock: Sendable {
    /// A monotonic reading.
    public var now: @Sendable () -> Duration
    public var sleep: @Sendable (Duration) -> Void
    /// Wall-clock time, for cache freshness that must survive across processes.
    public var wallTime: @Sendable () -> Date
    /// A number in 0..<1 for jitter.
    public var random: @Sendable () -> Double

    public init(
        now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) -> Void,
        wallTime: @escaping @Sendable () -> Date, random: @escaping @Sendable () -> Double
    ) {
        self.now = now
        self.sleep = sleep
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
    /// When the requests of the last `window` started. A caller that must wait keeps the mutex while it sleeps, so the
    /// callers behind it queue up instead of all waking at once.
    private let recentStarts = Mutex<[Duration]>([])

    /// TMDB publishes about 40 requests per second.
    public init(limit: Int = 40, window: Duration = .seconds(1)) {
        self.limit = limit
        self.window = window
    }

    func acquire(clock: ClientClock) {
        recentStarts.withLock { recent in
            var now = clock.now()
            recent.removeAll { now - $0 >= window }
            if recent.count >= limit, let oldest = recent.first {
                clock.sleep(window - (now - oldest))
                now = clock.now()
                recent.removeAll { now - $0 >= window }
            }
            recent.append(now)
        }
    }
}

/// Responses on disk by URL (credentials never part of it), honouring `Cache-Control: max-age` and `ETag`.
public struct HTTPCache: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    struct Entry: Codable {
        var url: String
        var storedAt: Date
        var maxAge: Double
        var etag: String?
        var body: Data
    }

    func file(for url: String) -> URL {
        let hash = url.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return directory.appendingPathComponent(String(hash, radix: 16) + ".json")
    }

    func entry(for url: String) -> Entry? {
        guard let data = try? Data(contentsOf: file(for: url)),
            let entry = try? JSONDecoder().decode(Entry.self, from: data), entry.url == url
        else { return nil }
        return entry
    }

    /// Forgets the entry of `url`, one that no longer decodes.
    func remove(_ url: String) {
        try? FileManager.default.removeItem(at: file(for: url))
    }

    /// Written to a temporary file and renamed, so a reader never sees half an entry.
    func store(_ entry: Entry) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try JSONEncoder().encode(entry).write(to: file(for: entry.url), options: .atomic)
        } catch {
            // A cache that cannot be written only costs a request next time.
        }
    }

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
