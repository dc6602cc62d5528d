import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// The server's connections with the WebSocket upgrade, closed when the client sends nothing for `idleTimeout`.
///
/// Why: with the upgrade, Hummingbird adds its idle timer only once a request's head has been read whole (it must first
/// know whether the request upgrades), so a client that sends half a head, or nothing, would hold its connection for
/// ever. This handler sits first in every connection's pipeline from the start and closes a connection on which nothing
/// was read for that long: a slow client never finishing its request, an idle keep-alive connection (as before), or a
/// room's socket whose client stopped answering the room's heartbeats (they come every 15 s, well within it).
struct ReadIdleGuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let idleTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let milliseconds = Int64(idleTimeout / .milliseconds(1))
            try channel.pipeline.syncOperations.addHandlers(
                IdleStateHandler(readTimeout: .milliseconds(milliseconds)), CloseOnReadIdle(), QuiesceAfterFirstRead())
        }.flatMap { base.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
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
        guarding router: Router, idleTimeout: Duration, webSocket: WebSocketServerConfiguration
    ) -> HTTPServerBuilder where Router.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = router.buildResponder()
        return HTTPServerBuilder { responder in
            ReadIdleGuardedChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(http1: .init(idleTimeout: .milliseconds(Int64(idleTimeout / .milliseconds(1)))), ws: webSocket)),
                idleTimeout: idleTimeout)
        }
    }
}
