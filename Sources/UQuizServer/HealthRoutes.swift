import Foundation
import Hummingbird

/// Health for process supervisors and the contract for clients: `/healthz` says the process answers, `/readyz` that
/// the store does too, `/openapi.yaml` is the document the routes were built from.
struct HealthRoutes {
    let environment: ServerEnvironment

    /// How long a load balancer should wait before asking a server that is not ready again.
    static let retryAfterSeconds = 5

    struct Status: Encodable {
        var status: String
        /// Whether TMDB's image server answers (`/readyz` only): `unknown`, `reachable` or `unreachable`.
        var tmdbImages: String?
    }

    func add(to router: Router<ServerRequestContext>) {
        router.get("healthz") { _, _ in JSONBody.response(Status(status: "ok")) }
        router.get("readyz") { _, _ in
            // Opening the store may fail (a locked or unreadable file); that is "not ready", not an error of the request.
            guard let store = try? environment.sharing.store(), await store.answers() else {
                throw APIError.notReady(retryAfterSeconds: Self.retryAfterSeconds)
            }
            return JSONBody.response(Status(status: "ready", tmdbImages: environment.sharing.imageReach.current.rawValue))
        }
        router.get("openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
        }
    }
}

/// The REST contract, `openapi.yaml` of this module, embedded at build time (SwiftPM's `embedInCode`), so the binary
/// serves exactly the file in the repository with nothing to install beside it.
public enum OpenAPIDocument {
    public static var bytes: [UInt8] { PackageResources.openapi_yaml }
    public static var text: String { String(decoding: bytes, as: UTF8.self) }
}
