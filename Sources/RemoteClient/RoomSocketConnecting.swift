import Foundation

// The application's port for a live room's socket: RemoteRoom drives a room over these, the RoomSocket module is the
// real adapter (SwiftNIO, linked only into `uquiz-net`), and tests pass fakes.

/// What came off a live room's socket: a text message, or its end with the close code the server gave (`nil`: the
/// socket broke, or never opened).
public enum RoomSocketEvent: Sendable, Equatable {
    case text(String)
    case closed(code: UInt16?)
}

/// One WebSocket to a live room, as a synchronous game loop uses it: texts go out in order, what comes in waits in a
/// queue, and `wakeDescriptor` becomes readable when something waits, so the loop sleeps in `poll` on the keyboard and
/// the socket at once.
public protocol RoomSocketConnection: AnyObject, Sendable {
    var wakeDescriptor: Int32 { get }
    func send(_ text: String)
    /// Everything received since the last call, in order; `.closed` is the last event there will be.
    func take() -> [RoomSocketEvent]
    /// Closes from this side (a normal closure); a `.closed` event follows.
    func close()
    /// Closes, and waits up to `timeout` for what was sent and the close to go out: the last words before the process
    /// ends (a `leave`) would otherwise be lost with it.
    func close(waitingUpTo timeout: Duration)
}

/// Opens connections: the real one on a network, a fake in tests.
public protocol RoomSocketConnector: Sendable {
    /// A connection to `url` (`ws://` or `wss://`). It never fails here: a socket that cannot be opened reports
    /// `.closed(code: nil)` as its only event.
    func connect(url: String) -> any RoomSocketConnection
}
