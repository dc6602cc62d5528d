import Foundation
import Hummingbird
import ServerUseCases
import UQuizStorage
import UQuizWire

/// Players' reports: of a package (`POST /v1/packages/{code}/reports`) and of a name taken in a live room
/// (`POST /v1/rooms/{code}/reports`, answered by the instance holding the room). The rules live in `Reports`.
struct ReportRoutes {
    let environment: ServerEnvironment
    let reports: Reports
    let rooms: Rooms
    let forwarding: RoomForwarding
    let limit: PlayerAndAddressLimit

    func add(to router: Router<ServerRequestContext>) {
        router.post("v1/packages/{code}/reports") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let body = try JSONBody.decode(ServerAPI.ReportRequest.self, from: try await JSONBody.bytes(of: request))
            try await limit.take(player, address: context.clientAddress)
            let filed = try await reports.reportPackage(
                shareCode: try context.parameters.require("code"), by: player, from: context.clientAddress,
                reason: body.reason, text: body.text)
            return Self.answer(filed)
        }
        router.post("v1/rooms/{code}/reports") { request, context in
            let code = try context.parameters.require("code")
            let player = try await request.authenticatedPlayer(environment)
            let bytes = try await JSONBody.bytes(of: request)
            let body = try JSONBody.decode(ServerAPI.ReportRequest.self, from: bytes)
            guard let name = body.name else { throw APIError.badRequest("$.name: missing (the name taken in the room)") }
            // Counted where the player asked, not again by the instance holding the room: only a request another
            // instance signed skips it here (a header a client writes is no such request).
            if !context.relayedByInstance { try await limit.take(player, address: context.clientAddress) }
            if !RoomForwarding.isForwarded(request), case .elsewhere(let holder) = try await rooms.whereabouts(code: code) {
                return try await forwarding.answer(request, of: context.clientAddress, from: holder, body: .init(data: bytes))
            }
            let filed = try await reports.reportName(
                name, inRoom: code, rooms: rooms, by: player, from: context.clientAddress, reason: body.reason,
                text: body.text)
            return Self.answer(filed)
        }
    }

    private static func answer(_ filed: ReportFiled) -> Response {
        guard case let .filed(id, _, hidden) = filed else { return APIError.from(ModerationError.alreadyReported).response }
        return JSONBody.response(ServerAPI.ReportAnswer(id: id, hidden: hidden), status: .created)
    }
}
