/// The limits one player's connection to a room lives under, kept by the server beside the socket: how big and how
/// frequent its messages may be, and whether it is still alive. Pure, on the server's injected clock, like `Room`.
///
/// A connection that breaks a limit is cut off: the server closes it and tells the room `drop(player)`, so the room goes
/// on and the player keeps their seat for `RoomRules.seatHold` like anyone whose connection broke (a client that floods
/// because of a bug gets its seat back on resuming; one that floods on purpose pays a reconnect each time).
public struct RoomConnectionGuard: Sendable {
    /// The largest message a client sends: a guess of `RoomRules.maxGuessLength` characters, 4 bytes each in UTF-8,
    /// fits with its envelope; nothing a client has to say is bigger.
    public static let maxMessageBytes = 4096
    /// Messages a client may send at once (a burst of typing, a reconnect's catch-up).
    public static let burst = 20
    /// Messages per second a client may keep sending: far above a human guessing, far below a flood.
    public static let sustainedPerSecond = 5
    /// How often the server pings a quiet connection.
    public static let heartbeatInterval: Duration = .seconds(15)
    /// A connection not heard from (any message or pong) for three heartbeats is dead.
    public static let deadAfter: Duration = heartbeatInterval * 3

    public enum Verdict: Equatable, Sendable {
        case accept
        /// Close the connection and `drop` the player from the room.
        case cutOff(CutOff)
    }

    public enum CutOff: Equatable, Sendable {
        case messageTooLarge(limit: Int)
        case flooding
    }

    /// Messages that may still be sent now, fractions included, up to `burst`.
    private var allowance: Double
    private var allowanceAt: Duration
    /// The last instant anything arrived on the connection.
    public private(set) var lastHeard: Duration

    public init(openedAt: Duration) {
        allowance = Double(Self.burst)
        allowanceAt = openedAt
        lastHeard = openedAt
    }

    /// A message of `bytes` arrived at `now`: whether to take it.
    public mutating func receive(bytes: Int, at now: Duration) -> Verdict {
        heard(at: now)
        guard bytes <= Self.maxMessageBytes else { return .cutOff(.messageTooLarge(limit: Self.maxMessageBytes)) }
        let elapsed = max(.zero, now - allowanceAt) / .seconds(1)
        allowance = min(Double(Self.burst), allowance + elapsed * Double(Self.sustainedPerSecond))
        allowanceAt = max(allowanceAt, now)
        guard allowance >= 1 else { return .cutOff(.flooding) }
        allowance -= 1
        return .accept
    }

    /// A pong (or any sign of life that is not a message) arrived.
    public mutating func heard(at now: Duration) {
        lastHeard = max(lastHeard, now)
    }

    /// Whether the server pings now: nothing heard for a heartbeat interval.
    public func needsPing(at now: Duration) -> Bool { now - lastHeard >= Self.heartbeatInterval }

    /// Whether the connection is dead: the server closes it and `drop`s the player.
    public func isDead(at now: Duration) -> Bool { now - lastHeard >= Self.deadAfter }
}
