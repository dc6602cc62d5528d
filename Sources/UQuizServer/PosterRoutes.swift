import Foundation
import Hummingbird
import ServerUseCases
import UQuizStorage
import UQuizWire

/// Poster uploads: `POST /v1/posters` with a JPEG body, for a quiz's `poster` in a spec. The body limit of this path is
/// the upload cap (`PosterUploads.maxBytes`), set where the router is built; the checks and storing are the use case's.
struct PosterRoutes {
    let environment: ServerEnvironment
    /// Per player and per client address.
    let uploads: PlayerAndAddressLimit
    let quotaBytes: Int

    static let path = "/v1/posters"

    func add(to router: Router<ServerRequestContext>) {
        router.post("v1/posters") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            // The media type says what the body is meant to be; the bytes are checked all the same.
            let mediaType = request.headers[.contentType]?.split(separator: ";").first?
                .trimmingCharacters(in: .whitespaces).lowercased()
            guard mediaType == "image/jpeg" else {
                throw APIError.unsupportedMediaType("Content-Type: send the poster as image/jpeg")
            }
            try await uploads.take(player, address: context.clientAddress)
            let uploaded = try await PosterUploads(
                environment: environment.sharing, geometry: environment.geometry, quotaBytes: quotaBytes
            ).upload(try await JSONBody.bytes(of: request), by: player)
            return JSONBody.response(
                ServerAPI.UploadedPoster(poster: uploaded.name, width: uploaded.width, height: uploaded.height),
                status: uploaded.isNew ? .created : .ok)
        }
    }
}
