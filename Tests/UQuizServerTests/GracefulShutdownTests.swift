import NIOCore
import NIOEmbedded
import Testing
@testable import UQuizServer

/// On graceful shutdown a connection that has not sent its first request yet is not cut off: the quiesce event waits
/// for its first read (then Hummingbird answers that request before closing) or closes the connection after the grace.
@Suite("Graceful shutdown of fresh connections")
struct GracefulShutdownTests {
    /// What reaches the handlers after `QuiesceAfterFirstRead`, in order.
    final class Recorder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var seen: [String] = []

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            seen.append("read \(String(buffer: unwrapInboundIn(data)))")
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            seen.append(event is ChannelShouldQuiesceEvent ? "quiesce" : "other event")
        }
    }

    static func connection() throws -> (EmbeddedChannel, Recorder) {
        let channel = EmbeddedChannel()
        let recorder = Recorder()
        try channel.pipeline.syncOperations.addHandlers(QuiesceAfterFirstRead(grace: .seconds(1)), recorder)
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 8080), promise: nil)
        return (channel, recorder)
    }

    @Test func aFreshConnectionGetsTheQuiesceRightAfterItsFirstRequestArrives() throws {
        let (channel, recorder) = try Self.connection()
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(recorder.seen.isEmpty && channel.isActive)
        try channel.writeInbound(ByteBuffer(string: "POST /v1/players HTTP/1.1\r\n"))
        #expect(recorder.seen == ["read POST /v1/players HTTP/1.1\r\n", "quiesce"])
        // The held close is cancelled: the connection stays open for its answer.
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(channel.isActive)
        try channel.writeInbound(ByteBuffer(string: "\r\n"))
        #expect(recorder.seen.count == 3)
    }

    @Test func aFreshConnectionThatStaysSilentIsClosedAfterTheGrace() throws {
        let (channel, recorder) = try Self.connection()
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive && recorder.seen.isEmpty)
    }

    @Test func aConnectionThatHasReadGetsTheQuiesceAtOnce() throws {
        let (channel, recorder) = try Self.connection()
        try channel.writeInbound(ByteBuffer(string: "GET /healthz HTTP/1.1\r\n\r\n"))
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(recorder.seen == ["read GET /healthz HTTP/1.1\r\n\r\n", "quiesce"])
    }
}
