// gzip on the wire: a phone on a slow network loads the web player's first page in a fraction of its bytes. The
// assets, which never change under their versioned URLs, are compressed once when the server starts; the API's
// answers above `ResponseCompression.minimumBytes` as they go out. Behind a proxy that compresses, `uquiz serve
// --compression off` leaves it to the proxy.

import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

enum ResponseCompression {
    /// Smaller answers (a guess's, a health check's) go as they are: gzip's header and a compressor would cost more
    /// than they save.
    static let minimumBytes = 1024

    /// The types worth compressing: text.
    static func isCompressible(contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return false }
        return type.hasPrefix("application/json") || type.hasPrefix("text/") || type.hasPrefix("image/svg+xml")
            || type.hasPrefix("application/yaml")
    }

    /// Whether `Accept-Encoding` takes gzip: named (or `*`) without `q=0`.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "*" else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
        return false
    }

    static func gzip(_ bytes: ByteBuffer) throws -> ByteBuffer {
        var input = bytes
        return try input.compress(with: .gzip())
    }

    /// Adds `Accept-Encoding` to the response's `Vary`: the same URL answers in two encodings.
    static func varyOnEncoding(_ headers: inout HTTPFields) {
        let vary = headers[.vary]
        if vary?.lowercased().contains("accept-encoding") == true { return }
        headers[.vary] = vary.map { "\($0), Accept-Encoding" } ?? "Accept-Encoding"
    }
}

/// Compresses a text answer of at least `ResponseCompression.minimumBytes` for a client that takes gzip; the web
/// player's assets are left to `CompressedAssetsMiddleware`, which has them compressed already.
struct ResponseCompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    let assetsPath: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard response.headers[.contentEncoding] == nil,
            ResponseCompression.isCompressible(contentType: response.headers[.contentType]),
            let length = response.body.contentLength, length >= ResponseCompression.minimumBytes,
            assetsPath.map({ !request.uri.path.hasPrefix($0 + "/") }) ?? true
        else { return response }
        ResponseCompression.varyOnEncoding(&response.headers)
        guard ResponseCompression.acceptsGzip(request.headers[.acceptEncoding]) else { return response }
        let collected = CollectedBody()
        try await response.body.write(CollectingWriter(collected: collected))
        response.body = ResponseBody(byteBuffer: try ResponseCompression.gzip(collected.buffer))
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = nil
        return response
    }
}

/// A body's bytes as written, for compressing it whole.
private final class CollectedBody: @unchecked Sendable {
    // Written by one writer, in one task, before it is read.
    var buffer = ByteBuffer()
}

private struct CollectingWriter: ResponseBodyWriter {
    let collected: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        collected.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// The web player's assets, gzip-compressed when the server started, for the clients that take gzip; the others get
/// the files from `FileMiddleware`, told apart by `Vary: Accept-Encoding`.
struct CompressedAssetsMiddleware<Context: RequestContext>: RouterMiddleware {
    let web: WebPlayer
    let cacheControl: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let prefix = web.assetsPath + "/"
        guard request.uri.path.hasPrefix(prefix) else { return try await next(request, context) }
        let name = String(request.uri.path.dropFirst(prefix.count))
        if ResponseCompression.acceptsGzip(request.headers[.acceptEncoding]), let asset = web.compressedAssets[name] {
            return Response(
                status: .ok,
                headers: [
                    .contentType: asset.contentType, .contentEncoding: "gzip", .cacheControl: cacheControl,
                    .vary: "Accept-Encoding",
                ],
                body: .init(byteBuffer: asset.gzip))
        }
        var response = try await next(request, context)
        if web.compressedAssets[name] != nil { ResponseCompression.varyOnEncoding(&response.headers) }
        return response
    }
}
