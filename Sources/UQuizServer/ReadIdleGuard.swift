import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import ServerUseCases
import Synchronization
import UQuizWire

/// The server's connections with the WebSocket upgrade, closed when the client sends nothing for `idleTimeout`.
///
/// Why: with the upgrade, Hummingbird adds its idle timer only once a request's head has been read whole (it must first
/// know whether the request upgrades), so a client that sends half a head, or nothing, would hold its connection for
/// ever. This handler sits first in every connection's pipeline from the start and closes a connection on which nothing
/// was read for that long: a slow client never finishing its request, an idle keep-alive connection (as before), or a
/// room's socket whose client stopped answering the room's heartbeats (they come every 15 s, well within it). Beside
/// it, the limit of connections per address, and `RequestHeadDeadline` after the HTTP decoder for heads that trickle.
struct ReadIdleGuardedChannel: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let base: HTTP1WebSocketUpgradeChannel.Value
        /// True once the connection's first request head was read; false if it closed before.
        let firstHead: EventLoopFuture<Bool>
        var channel: any Channel { base.channel }
    }

    let base: HTTP1WebSocketUpgradeChannel
    let idleTimeout: Duration
    let headTimeout: Duration
    let connections: ConnectionsPerAddress

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let firstHead = channel.eventLoop.makePromise(of: Bool.self)
        let limit = TimeAmount.milliseconds(Int64(headTimeout / .milliseconds(1)))
        return channel.eventLoop.makeCompletedFuture {
            let deadline = RequestHeadDeadline(limit: limit, firstHead: firstHead)
            try channel.pipeline.syncOperations.addHandlers(
                LimitConnectionsPerAddress(connections: connections),
                IdleStateHandler(readTimeout: .milliseconds(Int64(idleTimeout / .milliseconds(1)))), CloseOnReadIdle(),
                QuiesceAfterFirstRead(), NoticeIncomingBytes(deadline: deadline))
            return NIOLoopBound(deadline, eventLoop: channel.eventLoop)
        }.flatMap { deadline in
            base.setup(channel: channel, logger: logger).flatMapThrowing { value in
                let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
                try channel.pipeline.syncOperations.addHandler(deadline.value, position: .after(decoder))
                return Value(base: value, firstHead: firstHead.futureResult)
            }
        }
    }

    func handle(value: Value, logger: Logger) async {
        // A connection closed before its first request was read whole (refused by the limit per address, its head
        // late or malformed, or the client gone) has no upgrade result: routine for a public server, not the error
        // Hummingbird would log for it.
        guard (try? await value.firstHead.get()) == true else { return }
        await base.handle(value: value.base, logger: logger)
    }
}

/// The connections open from each client address in this process, at most `limit` each: one address holding hundreds
/// of connections that never finish a request would use up the server's descriptors for everyone. Trusted proxies
/// (every client behind them shares their address) are not limited.
public final class ConnectionsPerAddress: Sendable {
    public let limit: Int
    let exempt: Set<String>
    private let open = Mutex<[String: Int]>([:])

    public init(limit: Int, exempt: Set<String> = []) {
        self.limit = limit
        self.exempt = exempt
    }

    /// Counts a new connection from `address`; false (not counted) when the address has `limit` open already.
    func enter(_ address: String) -> Bool {
        guard !exempt.contains(address) else { return true }
        return open.withLock { open in
            guard open[address, default: 0] < limit else { return false }
            open[address, default: 0] += 1
            return true
        }
    }

    func leave(_ address: String) {
        guard !exempt.contains(address) else { return }
        open.withLock { open in
            let left = open[address, default: 1] - 1
            open[address] = left > 0 ? left : nil
        }
    }
}

/// Refuses a new connection at once when its address has `ConnectionsPerAddress.limit` open already; counts it while
/// it is open otherwise, unless another instance turns out to relay its clients on it (`RelayedByInstance`). The refusal is a JSON 503 with `Retry-After` naming the limit (as nginx's `limit_conn`
/// answers), written before the client's request is read: the server then stops writing, drops what the client sends
/// and closes once the client has read it and closed, or after `lingering` (a close with unread bytes would be a
/// reset that loses the answer).
final class LimitConnectionsPerAddress: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundOut = ByteBuffer
    static let lingering = TimeAmount.seconds(2)
    static let retryAfterSeconds = 5
    let connections: ConnectionsPerAddress
    private var counted: String?
    private var decided = false
    private var refused = false

    init(connections: ConnectionsPerAddress) {
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { decide(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        decide(context)
        context.fireChannelActive()
    }

    private func decide(_ context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        if connections.enter(address) {
            counted = address
        } else {
            refuse(context)
        }
    }

    private func refuse(_ context: ChannelHandlerContext) {
        refused = true
        ServerCounters.rateLimited("connections_per_address")
        let body = JSONBody.encoded(ServerAPI.ErrorBody(
            code: "too_many_connections",
            message: "this address has \(connections.limit) connections open to this server, the most one address may "
                + "(--max-connections-per-address); close one and try again"))
        var response = context.channel.allocator.buffer(capacity: 256 + body.readableBytes)
        response.writeString(
            "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\n"
                + "content-length: \(body.readableBytes)\r\nretry-after: \(Self.retryAfterSeconds)\r\nconnection: close\r\n\r\n")
        response.writeImmutableBuffer(body)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(response)).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: Self.lingering) { channel.close(promise: nil) }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A refused connection's request goes nowhere.
        if !refused { context.fireChannelRead(data) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let counted { connections.leave(counted) }
        counted = nil
        context.fireChannelInactive()
    }

    /// Sent through a connection's pipeline when a request on it was forwarded by another instance, signed with the
    /// shared secret: the connection carries that instance's clients, whom it limits itself, so it stops counting
    /// against the instance's address (many relayed players would otherwise fill it, and refuse its own requests).
    struct RelayedByInstance: Sendable {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is RelayedByInstance else { return context.fireUserInboundEventTriggered(event) }
        if let counted { connections.leave(counted) }
        counted = nil
    }
}

/// Closes the connection on `IdleStateHandler`'s read-idle event; passes every other event on.
final class CloseOnReadIdle: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Holds the server's quiesce event (graceful shutdown) back from a connection on which nothing was read yet, until its
/// first bytes arrive or `grace` passes.
///
/// Why: on shutdown Hummingbird closes at once every connection with no request in progress. A client that connected
/// just before the listener closed has usually sent its request already, but the server has not read it yet: closing
/// then cuts off a request the client sent (curl's "empty reply"), which it cannot safely resend if it was a POST.
/// Passing the event on right after the first read lets Hummingbird see the request in progress, answer it and only
/// then close. A connection that stays silent is closed after `grace`.
final class QuiesceAfterFirstRead: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let grace: TimeAmount
    private var hasRead = false
    private var heldQuiesce: Scheduled<Void>?

    init(grace: TimeAmount = .seconds(1)) {
        self.grace = grace
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        guard !hasRead else { return }
        hasRead = true
        if let held = heldQuiesce {
            held.cancel()
            heldQuiesce = nil
            context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent, !hasRead else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard heldQuiesce == nil else { return }
        let channel = context.channel
        heldQuiesce = context.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        heldQuiesce?.cancel()
        heldQuiesce = nil
        context.fireChannelInactive()
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the upgrade to WebSockets routed by `router`, every connection under `ReadIdleGuardedChannel`.
    static func http1WebSocketUpgrade<Router: HTTPResponderBuilder & _HB_SendableMetatype>(
        guarding router: Router, idleTimeout: Duration, headTimeout: Duration, webSocket: WebSocketServerConfiguration,
        connections: ConnectionsPerAddress
    ) -> HTTPServerBuilder where Router.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = router.buildResponder()
        return HTTPServerBuilder { responder in
            ReadIdleGuardedChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(http1: .init(idleTimeout: .milliseconds(Int64(idleTimeout / .milliseconds(1)))), ws: webSocket)),
                idleTimeout: idleTimeout, headTimeout: headTimeout, connections: connections)
        }
    }
}
