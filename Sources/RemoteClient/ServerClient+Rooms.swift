import Foundation
import QuizCore
import UQuizWire

/// Live rooms through the REST API beside their WebSocket.
extension ServerClient {
    /// Opens a room on the package `shareCode` hosted by this player; the host then joins its WebSocket first.
    public func openRoom(shareCode: String) throws(ServerClientError) -> RoomWire.Opened {
        try call("POST", "/v1/rooms", body: RoomWire.OpenRequest(shareCode: shareCode), authenticated: true)
    }

    /// The lobby of room `code` as anyone with the code sees it.
    public func room(code: String) throws(ServerClientError) -> RoomWire.RoomInfo {
        try call("GET", "/v1/rooms/" + Self.pathSegment(code), body: Self.noBody, authenticated: false)
    }

    /// A room's poster at a path the server gave (`/v1/rooms/K7QF/quizzes/1/poster?stage=2`): a JPEG. Only the
    /// server's own room poster paths are fetched, so a message cannot send the client anywhere else.
    public func roomPoster(path: String) throws(ServerClientError) -> Data {
        guard path.hasPrefix("/v1/rooms/"), !path.contains(".."), !path.contains("//") else { throw .notAServer(status: 200) }
        return try exchange("GET", path, body: Self.noBody, authenticated: false).body
    }
}
