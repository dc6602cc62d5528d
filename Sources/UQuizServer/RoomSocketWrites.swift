import NIOCore
import NIOWebSocket
import Synchronization

/// The texts a room sends to the sockets of one event loop, written there together. A room's broadcast hands a text to
/// each of its players' connections in a loop; through each socket's own writer task that was a task woken, a trip
/// through the WebSocket library's async writer and a hop to the event loop per socket, so the last of 2,000 players of
/// a room got a stage tens of milliseconds after the first. Here the first text of a moment schedules one task on the
/// event loop, and the texts that follow join it, each socket's in the order they were handed over.
///
/// Only texts go this way; a socket's close goes through the library (`WebSocketOutboundWriter.close`), after the texts
/// handed over before it, since both end in this event loop's queue of tasks, in order.
final class RoomSocketWrites: Sendable {
    struct Write {
        let channel: any Channel
        let text: String
        let written: @Sendable () -> Void
    }

    private struct Pending {
        var writes: [Write] = []
        var scheduled = false
    }

    private let eventLoop: any EventLoop
    private let maxFrameSize: Int
    private let pending = Mutex(Pending())

    private init(eventLoop: any EventLoop, maxFrameSize: Int) {
        self.eventLoop = eventLoop
        self.maxFrameSize = maxFrameSize
    }

    /// One batch per event loop, for the life of the process (event loops are few and live as long).
    private static let batches = Mutex<[ObjectIdentifier: RoomSocketWrites]>([:])

    /// The batch of the event loop `channel` is on.
    static func of(_ channel: any Channel, maxFrameSize: Int) -> RoomSocketWrites {
        let loop = channel.eventLoop
        return batches.withLock { batches in
            if let batch = batches[ObjectIdentifier(loop)] { return batch }
            let batch = RoomSocketWrites(eventLoop: loop, maxFrameSize: maxFrameSize)
            batches[ObjectIdentifier(loop)] = batch
            return batch
        }
    }

    /// Writes `text` to `channel` as a WebSocket text message (in frames of at most `maxFrameSize`), and calls
    /// `written` once the socket took it or the channel failed it.
    func write(_ text: String, to channel: any Channel, then written: @escaping @Sendable () -> Void) {
        let schedule = pending.withLock { pending in
            pending.writes.append(Write(channel: channel, text: text, written: written))
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        if schedule { eventLoop.execute { self.writePending() } }
    }

    private func writePending() {
        var writes: [Write] = []
        pending.withLock { pending in
            pending.scheduled = false
            swap(&writes, &pending.writes)
        }
        for write in writes {
            var buffer = write.channel.allocator.buffer(capacity: write.text.utf8.count)
            buffer.writeString(write.text)
            let promise = eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { _ in write.written() }
            var opcode = WebSocketOpcode.text
            while buffer.readableBytes > maxFrameSize, let frame = buffer.readSlice(length: maxFrameSize) {
                write.channel.write(WebSocketFrame(fin: false, opcode: opcode, data: frame), promise: nil)
                opcode = .continuation
            }
            write.channel.write(WebSocketFrame(fin: true, opcode: opcode, data: buffer), promise: promise)
            write.channel.flush()
        }
    }
}
