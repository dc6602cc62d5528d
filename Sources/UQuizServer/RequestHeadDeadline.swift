import NIOCore
import NIOHTTP1
import UQuizWire

/// First in the pipeline: tells the head deadline (which sits after the HTTP decoder) that bytes arrived, so that it
/// knows when a request's head began. Both run on the connection's event loop.
final class NoticeIncomingBytes: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private weak var deadline: RequestHeadDeadline?

    init(deadline: RequestHeadDeadline) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadline?.bytesArrived()
        context.fireChannelRead(data)
    }
}

/// Right after the HTTP decoder: what the server does with request heads before any route sees them.
///
/// - A head must arrive whole within `limit` of its first byte: otherwise the client gets a 408 and the connection is
///   closed. The idle timeout alone cannot do this, since each trickled byte restarts it: a client sending a header
///   byte every few seconds would hold its connection (and a descriptor) for ever.
/// - A head that is not well-formed HTTP gets a 400 at once and the connection is closed. (Hummingbird answers so on
///   a connection's later requests; on the first, while it waits to see whether the request upgrades to a WebSocket,
///   it would only wait for the idle timeout.)
/// - A request that does not keep its connection alive (HTTP/1.0 without `Connection: keep-alive`, or
///   `Connection: close`) is marked `Connection: close` for Hummingbird, which then closes after the response, and
///   the response says so.
///
/// A request that upgrades to a WebSocket takes this handler out of its pipeline: what follows is frames.
final class RequestHeadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Reading {
        /// No part of a request's head has arrived since the last request ended (or the connection opened).
        case betweenRequests
        /// Bytes arrived and the decoder has not made a head of them yet: the deadline runs.
        case head
        /// The head was read; its body (if any) is being read.
        case request
        /// This handler answered and is closing the connection.
        case closing
    }

    private let limit: TimeAmount
    private var reading = Reading.betweenRequests
    /// A response's head was written and its end not yet: nothing else may be written meanwhile.
    private var responding = false
    private var closeAfterResponse = false
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    /// Told whether a first head was read, once it is or the connection closes before.
    private var firstHead: EventLoopPromise<Bool>?

    init(limit: TimeAmount, firstHead: EventLoopPromise<Bool>) {
        self.limit = limit
        self.firstHead = firstHead
    }

    private func tellFirstHead(_ read: Bool) {
        firstHead?.succeed(read)
        firstHead = nil
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        tellFirstHead(false)
        timer?.cancel()
        timer = nil
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        tellFirstHead(false)
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func bytesArrived() {
        guard reading == .betweenRequests, let context else { return }
        reading = .head
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { [weak self] in self?.headTimedOut() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard reading != .closing else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            timer?.cancel()
            timer = nil
            reading = .request
            if !head.isKeepAlive {
                head.headers.replaceOrAdd(name: "connection", value: "close")
                closeAfterResponse = true
            }
            tellFirstHead(true)
            context.fireChannelRead(wrapInboundOut(.head(head)))
            if head.headers.contains(name: "upgrade") {
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            }
        case .body:
            context.fireChannelRead(data)
        case .end:
            reading = .betweenRequests
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            responding = true
            if closeAfterResponse {
                head.headers.replaceOrAdd(name: "connection", value: "close")
                context.write(wrapOutboundOut(.head(head)), promise: promise)
            } else {
                context.write(data, promise: promise)
            }
        case .body:
            context.write(data, promise: promise)
        case .end:
            responding = false
            context.write(data, promise: promise)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A parse error within a body, or while a response is being written, stays Hummingbird's to answer.
        guard let parseError = error as? HTTPParserError, reading != .request, reading != .closing, !responding else {
            context.fireErrorCaught(error)
            return
        }
        answerAndClose(
            context, status: .badRequest, code: "bad_request",
            message: "the request head is not well-formed HTTP/1.1 (\(parseError)); nothing was done")
    }

    private func headTimedOut() {
        guard reading == .head, let context else { return }
        guard !responding else {
            reading = .closing
            context.close(promise: nil)
            return
        }
        answerAndClose(
            context, status: .requestTimeout, code: "request_timeout",
            message: "the request head did not arrive whole within \(limit.nanoseconds / 1_000_000_000) s")
    }

    private func answerAndClose(_ context: ChannelHandlerContext, status: HTTPResponseStatus, code: String, message: String) {
        reading = .closing
        timer?.cancel()
        timer = nil
        let body = JSONBody.encoded(ServerAPI.ErrorBody(code: code, message: message))
        let headers = HTTPHeaders([
            ("content-type", "application/json; charset=utf-8"), ("content-length", String(body.readableBytes)),
            ("connection", "close"),
        ])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
