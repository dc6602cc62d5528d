import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import ServerUseCases
import Synchronization
import UQuizWire

/// Live rooms: opening one, its lobby, its WebSocket and its stage posters. The rules live in `Rooms`
/// and `RoomConnection` (ServerUseCases); these routes carry bytes between them and the sockets.
struct RoomRoutes {
    let environment: ServerEnvironment
    let rooms: Rooms
    let forwarding: RoomForwarding
    let openings: PlayerAndAddressLimit
    let misses: LookupMissLimit

    /// The largest message read off a room's socket: past `RoomConnectionGuard.maxMessageBytes` so the guard, not the
    /// WebSocket layer, refuses a big one, with the room's own close code; the frame limit (16 KiB) bounds it anyway.
    static let maxReadBytes = 16 << 10

    func add(to router: Router<ServerRequestContext>) {
        let group = router.group("v1/rooms")
        group.post { request, context in
            let host = try await request.authenticatedPlayer(environment)
            try await openings.take(host, address: context.clientAddress)
            let body = try JSONBody.decode(RoomWire.OpenRequest.self, from: try await JSONBody.bytes(of: request))
            let code = try await rooms.open(shareCode: body.shareCode, host: host)
            return JSONBody.response(
                RoomWire.Opened(code: code.value, wsURL: "/v1/rooms/\(code.value)/ws"), status: .created)
        }
        group.get("{code}") { request, context in
            let code = try context.parameters.require("code")
            return try await misses.lookup(from: context.clientAddress) {
                if let holder = try await holder(of: code, request) {
                    return try await forwarding.answer(request, of: context.clientAddress, from: holder)
                }
                return JSONBody.response(try await rooms.info(code: code))
            }
        }
        group.get("{code}/quizzes/{quiz}/poster") { request, context in
            if let holder = try await holder(of: try context.parameters.require("code"), request) {
                return try await forwarding.answer(request, of: context.clientAddress, from: holder)
            }
            let quiz = try QueryValue.wholeNumber(context.parameters.require("quiz"), name: "quiz")
            let stage = try request.uri.queryParameters.get("stage").map { try QueryValue.wholeNumber($0, name: "stage") }
            let jpeg = try await rooms.poster(code: try context.parameters.require("code"), quiz: quiz, stage: stage)
            return JPEGBody.response(jpeg)
        }
        group.ws("{code}/ws") { request, context in
            // An unknown room is refused before any upgrade: a plain GET gets the JSON 404, while a request asking to
            // upgrade gets the WebSocket library's bare 400 (it writes every refused upgrade itself), so clients ask
            // `GET /v1/rooms/{code}` first for a clear answer. A plain GET to a room is told what to ask.
            let code = try context.parameters.require("code")
            try await misses.lookup(from: context.clientAddress) {
                var known = rooms.exists(code: code)
                // Asking where the room is may take it over here (its lease had ended).
                if !known { known = try await holder(of: code, request) != nil || rooms.exists(code: code) }
                guard known else { throw ServerRoomError.unknownRoom }
            }
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                throw APIError(
                    status: .upgradeRequired, code: "upgrade_required",
                    message: "this is the room's WebSocket: connect with an upgrade to websocket", headers: [.upgrade: "websocket"])
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let code = context.requestContext.parameters.get("code") ?? ""
            if !rooms.exists(code: code) {
                switch try await rooms.whereabouts(code: code) {
                case .elsewhere(let holder):
                    try await forwarding.relay(
                        inbound, outbound, code: code, of: context.requestContext.clientAddress, holder: holder)
                    return
                case .moving:
                    try await outbound.close(.unknown(RoomWire.CloseReason.moved.code), reason: RoomWire.CloseReason.moved.text)
                    return
                case .here, .nowhere:
                    break
                }
            }
            try await play(code: code, inbound, outbound, channel: context.requestContext.connection, logger: context.logger)
        }
    }

    /// The base URL of the instance holding room `code`, when another instance does and `request` was not forwarded
    /// already; `nil` when the room is here (taken over just now, perhaps) or nowhere (the local route then says 404).
    /// A room moving between instances is a 503 to ask again in a moment.
    private func holder(of code: String, _ request: Request) async throws -> String? {
        guard !RoomForwarding.isForwarded(request) else { return nil }
        switch try await rooms.whereabouts(code: code) {
        case .elsewhere(let holder): return holder
        case .moving: throw APIError.roomMoving
        case .here, .nowhere: return nil
        }
    }

    /// A player's socket to a room this instance holds. The room's texts are written on the socket's event loop
    /// (`RoomSocketWrites`); its close goes through the WebSocket library, which keeps the closing handshake.
    private func play(
        code: String, _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, channel: any Channel,
        logger: Logger
    ) async throws {
        let (closes, closing) = AsyncStream<RoomWire.CloseReason>.makeStream()
        let writes = RoomSocketWrites.of(channel, maxFrameSize: roomSocketConfiguration.maxFrameSize)
        // Set once the room has made the connection; a text is written only after that, so it is there.
        let made = Mutex<RoomConnection?>(nil)
        let connection: RoomConnection
        do {
            connection = try rooms.connect(code: code) { item in
                switch item {
                case .text(let text):
                    writes.write(text, to: channel) { made.withLock { $0 }?.written() }
                case .close(let reason):
                    closing.yield(reason)
                    closing.finish()
                }
            }
        } catch {
            try await outbound.close(.unknown(RoomWire.CloseReason.roomGone.code), reason: "the room is gone")
            return
        }
        made.withLock { $0 = connection }
        // The closer: the close the room asks for, after the texts handed over before it. It is never cancelled: it
        // ends when the room closes the connection or the socket has ended.
        let closer = Task {
            for await reason in closes {
                try? await outbound.close(.unknown(reason.code), reason: reason.text)
                return
            }
        }
        // Heartbeats: the hello deadline, pings on a quiet connection, and dead ones.
        connection.beginHeartbeats()
        // The reader: every message goes to the connection, which judges its size and rate. It ends when the client
        // closes or goes, or as soon as the server has closed the connection.
        var broken: (any Error)?
        do {
            for try await message in inbound.messages(maxSize: Self.maxReadBytes) {
                switch message {
                case .text(let text): await connection.receive(text, bytes: text.utf8.count)
                case .binary(let buffer): await connection.receive(nil, bytes: buffer.readableBytes)
                }
                if connection.isClosed { break }
            }
        } catch {
            broken = error
        }
        await connection.closed()
        closing.finish()
        await closer.value
        // What broke the socket (a message past the read limit, text that is not UTF-8, a protocol error) is the
        // WebSocket layer's to say in its close code; a normal end would tell the client it left.
        if let broken {
            logger.info("a room's socket ended: \(broken)", metadata: ["room": .string(code)])
            throw broken
        }
    }
}

extension APIError {
    /// What a room's problem means to a client. A refusal never says what a hidden stage shows.
    static func from(_ problem: ServerRoomError) -> APIError {
        switch problem {
        case .unknownRoom:
            return .notFound("no room with this code here (POST /v1/rooms opens one)")
        case .tooManyRooms(let limit):
            return .conflict("you host \(limit) open rooms already; finish one first")
        case .full:
            return .init(
                status: .serviceUnavailable, code: "not_ready", message: "this server holds as many rooms as it may; try later",
                headers: [.retryAfter: "60"])
        case .nothingToPlay:
            return .init(status: .unprocessableContent, code: "broken_rule", message: "the package has no quiz to play")
        case let .noSuchQuiz(quiz, count):
            return .badRequest("quiz: \(quiz) is not a quiz of this room: use 1 to \(count)")
        case let .noSuchStage(stage, count):
            return .badRequest("stage: \(stage) is not a stage of this quiz: use 1 to \(count)")
        case let .notRevealed(quiz, stage):
            let what = stage.map { "stage \($0) of quiz \(quiz) has" } ?? "quiz \(quiz) has not ended, so its whole poster has"
            return .init(status: .forbidden, code: "not_revealed", message: "\(what) not been revealed")
        case .posterUnavailable:
            return .init(
                status: .serviceUnavailable, code: "not_ready", message: "the poster cannot be had now; try again",
                headers: [.retryAfter: "5"])
        case .stopping:
            return .init(
                status: .serviceUnavailable, code: "not_ready",
                message: "this server instance is stopping; open the room again (another instance opens it)",
                headers: [.retryAfter: "1"])
        }
    }

    static let roomMoving = APIError(
        status: .serviceUnavailable, code: "room_moving",
        message: "the room is moving to another server instance; ask again in a moment", headers: [.retryAfter: "1"])
}
