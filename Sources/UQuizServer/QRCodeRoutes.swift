import Foundation
import Hummingbird
import NIOCore
import PosterArt

/// `GET /v1/qr.svg?path=/r/CODE`: a QR code of a link to one of this server's pages, as the client reached the server
/// (the same origin as the share cards' links), drawn by libqrencode as SVG. Only a path is taken, never a whole URL,
/// so the server draws no code that leads elsewhere.
struct QRCodeRoutes {
    /// The longest path taken: a room's page (`/r/ABCD`) or a link code's (`/me?link=...`) is far shorter.
    static let maxPathLength = 100

    func add(to router: Router<ServerRequestContext>) {
        router.get("v1/qr.svg") { request, context in
            guard let path = request.uri.queryParameters.get("path"), Self.isPagePath(path) else {
                throw APIError.badRequest(
                    "path: a page of this server, from /, at most \(Self.maxPathLength) characters of letters, digits and /?=&._-")
            }
            guard let origin = SharePageTags.origin(of: request, viaTrustedProxy: context.viaTrustedProxy),
                let code = QRCode(origin + path)
            else {
                throw APIError.badRequest("Host: the request names no host this server can link to")
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "image/svg+xml",
                    // The link depends on the host the client asked.
                    .vary: "Host, X-Forwarded-Host, X-Forwarded-Proto, Forwarded",
                    .cacheControl: "public, max-age=86400",
                    // A picture of squares: nothing in it may run or load.
                    .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'",
                ],
                body: .init(byteBuffer: ByteBuffer(string: code.svg)))
        }
    }

    /// A path of this server: one "/" first (never "//", which a browser reads as another host), then URL-safe
    /// characters only.
    static func isPagePath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), !path.hasPrefix("//"), path.utf8.count <= maxPathLength else { return false }
        return path.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "="), UInt8(ascii: "&"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
