import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWSClient
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import UQuizWire

/// Rooms across several instances. A room lives in the memory of the instance that opened it (its holder),
/// which the store's room directory names by base URL. Another instance asked about the room forwards: a lobby or
/// poster request is sent on to the holder and its answer passed back as it is, and a WebSocket is relayed message by
/// message over a socket of its own to the holder, so the room's clock, judge and order of messages stay in one place.
/// A relayed player's messages take one more loopback or LAN hop; nothing about the room is decided here.
///
/// A forwarded request carries `UQuiz-Forwarded`; an instance given one answers from its own memory only, so a stale
/// directory can never make two instances forward to each other forever. Signed with the instances' shared secret
/// (`RelaySignature`), the header also names the client, whom the holder then counts under their own address.
struct RoomForwarding: Sendable {
    static let header = HTTPField.Name("UQuiz-Forwarded")!

    /// The most a forwarded answer may hold: a poster JPEG is a few hundred KB.
    static let maxAnswerBytes = 8 << 20
    static let timeout: TimeAmount = .seconds(10)

    /// The application's client for other instances, shut down with it.
    let client: InstanceClient
    let logger: Logger
    /// `nil` without a shared secret: the header then says `1`, and the holder trusts nothing of it.
    let signature: RelaySignature?

    /// The header for `method path` forwarded on behalf of `client`.
    func header(method: String, path: String, client: String) -> String {
        signature?.header(method: method, path: path, client: client, seconds: Int64(Date().timeIntervalSince1970)) ?? "1"
    }

    /// Whether this request came from another instance (and so must not be forwarded again).
    static func isForwarded(_ request: Request) -> Bool { request.headers[header] != nil }

    /// The holder's answer to the same request of `requester` (the client's address) (path and query as asked; a POST with `body` and the
    /// client's Authorization), with the headers that say what it is.
    func answer(_ request: Request, of requester: String, from holder: String, body: ByteBuffer? = nil) async throws -> Response {
        var outgoing = HTTPClientRequest(url: holder + request.uri.description)
        outgoing.method = body == nil ? .GET : .POST
        outgoing.headers.add(
            name: Self.header.rawName,
            value: header(method: body == nil ? "GET" : "POST", path: request.uri.description, client: requester))
        if let body {
            outgoing.body = .bytes(body)
            outgoing.headers.add(name: "Content-Type", value: "application/json")
        }
        if let authorization = request.headers[.authorization] {
            outgoing.headers.add(name: "Authorization", value: authorization)
        }
        let answer: HTTPClientResponse
        let body: ByteBuffer
        do {
            answer = try await client.client().execute(outgoing, timeout: Self.timeout)
            body = try await answer.body.collect(upTo: Self.maxAnswerBytes)
        } catch {
            logger.warning("room request not forwarded to \(holder): \(error)")
            throw APIError.roomUnreachable
        }
        var headers = HTTPFields()
        for name in [HTTPField.Name.contentType, .cacheControl, .retryAfter, .wwwAuthenticate] {
            if let value = answer.headers.first(name: name.rawName) { headers[name] = value }
        }
        return Response(status: .init(code: Int(answer.status.code)), headers: headers, body: .init(byteBuffer: body))
    }

    /// Relays a player's socket to the holder's socket of room `code` until either ends: the holder's close code
    /// (kicked, flooding, room gone, moved…) reaches the player as the holder sent it; a player who goes is a closed
    /// socket to the holder, which holds their seat as for anyone who dropped. A holder that does not answer, or whose
    /// socket breaks with no close, has stopped or died: the player is told the room moves, reconnects, and finds the
    /// room where an instance took it over from its checkpoint.
    func relay(
        _ player: WebSocketInboundStream, _ toPlayer: WebSocketOutboundWriter, code: String, of requester: String, holder: String
    ) async throws {
        let path = "/v1/rooms/\(code)/ws"
        let url = holder.replacingOccurrences(of: "http://", with: "ws://") + path
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: RoomRoutes.maxReadBytes, additionalHeaders: [Self.header: header(method: "GET", path: path, client: requester)],
            closeTimeout: .seconds(5),
            autoPing: .disabled)
        let closing: WebSocketCloseFrame?
        let playerBroke = Mutex<(any Error)?>(nil)
        do {
            closing = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) {
                fromHolder, toHolder, _ in
                let broken = try await Self.pipe(player: player, toPlayer: toPlayer, fromHolder: fromHolder, toHolder: toHolder)
                playerBroke.withLock { $0 = broken }
            }
        } catch {
            logger.warning("room socket not relayed to \(holder): \(error)")
            try? await toPlayer.close(.unknown(RoomWire.CloseReason.moved.code), reason: RoomWire.CloseReason.moved.text)
            return
        }
        // What broke the player's socket (a message past the read limit, a protocol error) is the WebSocket layer's to
        // say in its close code, as for a player on the holder itself; the holder was told the player went.
        if let broken = playerBroke.withLock({ $0 }) {
            logger.info("a relayed room socket ended: \(broken)", metadata: ["room": .string(code)])
            throw broken
        }
        guard let closing else {
            try? await toPlayer.close(.unknown(RoomWire.CloseReason.moved.code), reason: RoomWire.CloseReason.moved.text)
            return
        }
        try? await toPlayer.close(closing.closeCode, reason: closing.reason)
    }

    private enum Side { case holderEnded, playerEnded }

    /// Both directions at once. The holder ending ends the relay (the player is then closed with its code); the player
    /// ending closes the socket to the holder, and the relay ends when the holder has answered that close. What broke
    /// the player's socket, if something did.
    private static func pipe(
        player: WebSocketInboundStream, toPlayer: WebSocketOutboundWriter,
        fromHolder: WebSocketInboundStream, toHolder: WebSocketOutboundWriter
    ) async throws -> (any Error)? {
        try await withThrowingTaskGroup(of: (side: Side, broken: (any Error)?).self) { group in
            // A side's error (a broken socket, or the cancelled read) only ends that side: thrown out of the handler
            // it would make the client library drop the holder's close code.
            group.addTask {
                do {
                    for try await message in fromHolder.messages(maxSize: RoomRoutes.maxReadBytes) {
                        try await toPlayer.write(message.outbound)
                    }
                } catch {}
                return (.holderEnded, nil)
            }
            group.addTask {
                var broken: (any Error)?
                do {
                    for try await message in player.messages(maxSize: RoomRoutes.maxReadBytes) {
                        // The holder's socket gone: its close, not this write's error, is what the player is told.
                        do { try await toHolder.write(message.outbound) } catch { break }
                    }
                } catch {
                    // A reading cancelled because the holder went is no fault of the player's socket.
                    if !Task.isCancelled { broken = error }
                }
                try? await toHolder.close(.normalClosure, reason: "the player went")
                return (.playerEnded, broken)
            }
            var playerBroke: (any Error)?
            while let ended = try await group.next() {
                // The player's reading is cancelled only once the holder is gone: nothing more can be relayed.
                if ended.side == .holderEnded { group.cancelAll() }
                if let broken = ended.broken { playerBroke = broken }
            }
            return playerBroke
        }
    }
}

extension WebSocketMessage {
    fileprivate var outbound: WebSocketOutboundWriter.OutboundFrame {
        switch self {
        case .text(let text): .text(text)
        case .binary(let buffer): .binary(buffer)
        }
    }
}

extension APIError {
    static let roomUnreachable = APIError(
        status: .badGateway, code: "room_unreachable",
        message: "the server instance holding this room does not answer; another instance takes the room over within seconds: ask again",
        headers: [.retryAfter: "5"])
}

/// The application's HTTP client for other instances, made when first needed (most servers run alone and never
/// need one) and shut down with the application by the `Service` it also is: services stop after the server, so no
/// request that forwards is still using it then.
final class InstanceClient: Service, Sendable {
    private let made = Mutex<HTTPClient?>(nil)
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Connecting gives up after 2 s (the library retries a refused connection until then): an instance that does
    /// not answer is reported quickly rather than waited for.
    func client() -> HTTPClient {
        made.withLock { made in
            if let made { return made }
            var configuration = HTTPClient.Configuration()
            configuration.timeout = .init(connect: .seconds(2), read: .seconds(10))
            configuration.redirectConfiguration = .disallow
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            made = client
            return client
        }
    }

    func run() async throws {
        // Cancelled rather than shut down: the process is being torn down, and the client with it.
        try? await gracefulShutdown()
        guard let client = made.withLock({ $0 }) else { return }
        do {
            try await client.shutdown()
        } catch {
            logger.warning("the client for other instances did not shut down cleanly (\(error))")
        }
    }
}
