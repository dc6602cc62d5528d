import Foundation
import HummingbirdWSClient
import Logging
import NIOWebSocket
import RemoteClient
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The real connector: HummingbirdWSClient (SwiftNIO) on its own threads, handing messages to the caller's loop.
public struct WebSocketRoomConnector: RoomSocketConnector {
    public init() {}

    public func connect(url: String) -> any RoomSocketConnection {
        WebSocketRoomConnection(url: url)
    }
}

final class WebSocketRoomConnection: RoomSocketConnection {
    let wakeDescriptor: Int32
    private let signalDescriptor: Int32
    private let events = Mutex<[RoomSocketEvent]>([])
    private let outgoing: AsyncStream<String>.Continuation
    /// Set when the socket has ended (after its `.closed` event is delivered).
    private let ended = Atomic<Bool>(false)

    /// The largest message read: a snapshot of a full room is a few KiB; the server's own limit on frames is 16 KiB.
    static let maxMessageBytes = 1 << 20

    init(url: String) {
        var descriptors: [Int32] = [-1, -1]
        _ = pipe(&descriptors)
        _ = fcntl(descriptors[0], F_SETFL, fcntl(descriptors[0], F_GETFL) | O_NONBLOCK)
        wakeDescriptor = descriptors[0]
        signalDescriptor = descriptors[1]
        let (stream, continuation) = AsyncStream<String>.makeStream()
        outgoing = continuation
        Task { [self] in await run(url: url, outgoing: stream) }
    }

    deinit {
        outgoing.finish()
        close(descriptor: wakeDescriptor)
        close(descriptor: signalDescriptor)
    }

    private func close(descriptor: Int32) { _ = Glibc.close(descriptor) }

    func send(_ text: String) { outgoing.yield(text) }

    func close() { outgoing.finish() }

    /// Closes and waits, as the terminal's loop waits for anything, in `poll` on `wakeDescriptor`: each event the
    /// socket delivers wakes it, the last one (`.closed`) ends the wait. Events are left for `take`.
    func close(waitingUpTo timeout: Duration) {
        outgoing.finish()
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var drain = [UInt8](repeating: 0, count: 256)
        while !ended.load(ordering: .acquiring) {
            let left = deadline - clock.now
            guard left > .zero else { return }
            var entry = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(max(1, min(left / .milliseconds(1), 1_000))))
            while read(wakeDescriptor, &drain, drain.count) > 0 {}
        }
    }

    func take() -> [RoomSocketEvent] {
        var drain = [UInt8](repeating: 0, count: 256)
        while read(wakeDescriptor, &drain, drain.count) > 0 {}
        return events.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }

    private func deliver(_ event: RoomSocketEvent) {
        events.withLock { $0.append(event) }
        var byte: UInt8 = 1
        _ = write(signalDescriptor, &byte, 1)
    }

    private func run(url: String, outgoing: AsyncStream<String>) async {
        var logger = Logger(label: "uquiz.room.socket")
        logger.logLevel = .critical
        var code: UInt16?
        do {
            let frame = try await WebSocketClient.connect(
                url: url, configuration: .init(maxFrameSize: 1 << 16), logger: logger
            ) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await message in inbound.messages(maxSize: Self.maxMessageBytes) {
                            if case .text(let text) = message { self.deliver(.text(text)) }
                        }
                    }
                    group.addTask {
                        for await text in outgoing { try await outbound.writeTextMessage(text) }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                    // Either side ending ends the connection: the server's close, or ours.
                    try await group.next()
                    group.cancelAll()
                }
            }
            code = frame.map { UInt16(webSocketErrorCode: $0.closeCode) }
        } catch {}
        ended.store(true, ordering: .releasing)
        deliver(.closed(code: code))
    }
}
