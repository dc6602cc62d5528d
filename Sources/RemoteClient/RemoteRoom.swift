import Foundation
import UQuizWire

/// What woke the room's loop.
public enum RoomInputEvent: Sendable, Equatable {
    case line(String)
    /// The socket has something to read.
    case socket
    case deadline
    /// No more input will come (the room goes on without it).
    case ended
    /// The player asked to stop (Ctrl-C).
    case interrupted
}

/// The keyboard (or standard input) and the socket waited on together, on a monotonic clock.
public protocol RoomInput {
    func now() -> Duration
    /// The next line typed before `deadline` (`nil`: no deadline), or `.socket` as soon as `socket` is readable. With
    /// `keyboard` false only the socket, the deadline and Ctrl-C are waited for.
    func next(until deadline: Duration?, socket: Int32, keyboard: Bool) -> RoomInputEvent
}

/// What a front end shows of a live room; every call gives the session as it is after the event.
public protocol RoomObserver {
    /// How often to redraw while nothing happens (a countdown on screen); `nil` redraws on events only.
    var redrawEvery: Duration? { get }
    /// Whether posters are fetched; without a screen the announcement is enough to be ready.
    var showsPosters: Bool { get }
    /// The host's room is open on the server, before anyone is in it.
    func opened(_ room: RoomWire.Opened)
    func received(_ message: RoomWire.ServerMessage, session: RoomSession)
    func poster(_ jpeg: Result<Data, ServerClientError>, quiz: Int, stage: Int?, session: RoomSession)
    /// A typed line that was not sent, and why.
    func refused(_ reason: String, session: RoomSession)
    /// The connection dropped; the seat is held while connecting again.
    func reconnecting(session: RoomSession)
    func tick(session: RoomSession)
}

/// Playing in a live room from a client: opens the room for a host or checks it for a joiner over REST, then
/// carries a `RoomSession` over the room's WebSocket: the server's messages in, the player's lines out, the pings
/// answered, the posters fetched, and after a dropped socket a `resume` on a new one within the seat hold.
public struct RemoteRoom {
    public let client: ServerClient
    public let connector: any RoomSocketConnector
    public let input: any RoomInput
    public let observer: any RoomObserver
    /// Typed lines may be JSON client messages (`--json` bots).
    public let json: Bool

    /// The longest the last messages (a `leave`) and the close may take to go out at the end.
    static let goodbyeWait: Duration = .seconds(2)
    /// The wait between two attempts to connect again.
    static let reconnectPause: Duration = .milliseconds(500)
    /// A server that says nothing for this long is gone without a close (it pings a quiet connection after 15 s and
    /// drops one silent for 45 s): the socket is given up and the seat resumed on a new one.
    public static let silenceLimit: Duration = .seconds(45)

    public init(
        client: ServerClient, connector: any RoomSocketConnector, input: any RoomInput, observer: any RoomObserver,
        json: Bool = false
    ) {
        self.client = client
        self.connector = connector
        self.input = input
        self.observer = observer
        self.json = json
    }

    /// Opens a room on the package `shareCode` and plays in it as its host (the player of the client's token).
    public func host(shareCode: String, name: String) throws(ServerClientError) -> RoomSession {
        guard let token = client.token else { throw .notLoggedIn }
        let opened = try client.openRoom(shareCode: shareCode)
        observer.opened(opened)
        return play(code: opened.code, name: name, token: token)
    }

    /// Joins the room `code` by name (with the client's token, when logged in, so the result counts in their stats).
    public func join(code: String, name: String) throws(ServerClientError) -> RoomSession {
        // The lobby first: an unknown room or a server that is down is said plainly, before any WebSocket.
        let info = try client.room(code: code)
        if info.phase == "expired" {
            var session = RoomSession(code: info.code, name: name, playerToken: nil)
            _ = session.receive(.roomExpired(.init(reason: "ended")), at: input.now())
            return session
        }
        return play(code: info.code, name: name, token: client.token)
    }

    /// The session from the first hello to its ending.
    public func play(code: String, name: String, token: String?) -> RoomSession {
        var session = RoomSession(code: code, name: name, playerToken: token)
        let url = RoomWire.socketURL(baseURL: client.baseURL, code: code)
        var connection = connector.connect(url: url)
        send(session.hello(at: input.now()), on: connection)
        var keyboard = true
        var lastHeard = input.now()
        while session.ending == nil {
            let silentAt = lastHeard + Self.silenceLimit
            let deadline = min(observer.redrawEvery.map { input.now() + $0 } ?? silentAt, silentAt)
            switch input.next(until: deadline, socket: connection.wakeDescriptor, keyboard: keyboard) {
            case .interrupted:
                // Ctrl-C leaves for good: a seat held for a player who chose to go would only keep the room waiting.
                if case .send(let messages) = session.typed("/leave") { send(messages, on: connection) }
            case .ended:
                keyboard = false
            case .deadline where input.now() >= silentAt:
                // Nothing heard, not even a heartbeat: the socket is given up as broken, and the seat resumed.
                connection.close()
                if let next = connectAgain(after: nil, session: &session, url: url) {
                    connection = next
                    lastHeard = input.now()
                }
            case .deadline:
                observer.tick(session: session)
            case .line(let line):
                switch session.typed(line, json: json) {
                case .send(let messages): send(messages, on: connection)
                case .refused(let reason): observer.refused(reason, session: session)
                case .nothing: break
                }
                observer.tick(session: session)
            case .socket:
                for event in connection.take() {
                    switch event {
                    case .text(let text):
                        // Something that is not a message of this version is skipped: the room goes on.
                        lastHeard = input.now()
                        guard let message = try? RoomWire.decodeServer(text) else { continue }
                        let actions = session.receive(message, at: input.now())
                        observer.received(message, session: session)
                        perform(actions, session: session, on: connection)
                    case .closed(let code):
                        if let next = connectAgain(after: code, session: &session, url: url) {
                            connection = next
                            lastHeard = input.now()
                        }
                    }
                }
            }
        }
        connection.close(waitingUpTo: Self.goodbyeWait)
        return session
    }

    /// After the socket closed with `code` (`nil`: broke): a new connection resuming the seat, after a short pause;
    /// `nil` when the session ended instead (a close that ends it, the seat hold over, or Ctrl-C).
    private func connectAgain(
        after code: UInt16?, session: inout RoomSession, url: String
    ) -> (any RoomSocketConnection)? {
        guard case .reconnect(let deadline) = session.socketClosed(code: code, at: input.now()) else { return nil }
        observer.reconnecting(session: session)
        guard pause(until: min(deadline, input.now() + Self.reconnectPause)) else {
            session.gaveUp()
            return nil
        }
        let connection = connector.connect(url: url)
        send(session.hello(at: input.now()), on: connection)
        return connection
    }

    private func send(_ messages: [RoomWire.ClientMessage], on connection: any RoomSocketConnection) {
        for message in messages { connection.send(RoomWire.text(message)) }
    }

    private func perform(_ actions: [RoomSession.Action], session: RoomSession, on connection: any RoomSocketConnection) {
        for action in actions {
            switch action {
            case .send(let message):
                send([message], on: connection)
            case let .fetchPoster(path, quiz, stage):
                if observer.showsPosters {
                    let jpeg = Result { () throws(ServerClientError) in try client.roomPoster(path: path) }
                    observer.poster(jpeg, quiz: quiz, stage: stage, session: session)
                }
                // Ready even without the poster: the title can be typed, and the room need not wait for this player.
                for follow in session.posterShown(quiz: quiz, stage: stage) {
                    if case .send(let message) = follow { send([message], on: connection) }
                }
            }
        }
    }

    /// Waits (Ctrl-C aside) until `deadline`; `false` when the player asked to stop.
    private func pause(until deadline: Duration) -> Bool {
        while input.now() < deadline {
            if input.next(until: deadline, socket: -1, keyboard: false) == .interrupted { return false }
        }
        return true
    }
}
