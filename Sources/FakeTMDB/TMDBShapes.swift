import FlyingFox
import Foundation

/// TMDB's response and error bodies and headers.
enum TMDBShapes {
    static func configuration() -> [String: Any] {
        [
            "images": [
                "base_url": "http://image.tmdb.org/t/p/",
                "secure_base_url": "https://image.tmdb.org/t/p/",
                "backdrop_sizes": ["w300", "w780", "w1280", "original"],
                "logo_sizes": ["w45", "w92", "w154", "w185", "w300", "w500", "original"],
                "poster_sizes": ["w92", "w154", "w185", "w342", "w500", "w780", "original"],
                "profile_sizes": ["w45", "w185", "h632", "original"],
                "still_sizes": ["w92", "w185", "w300", "original"],
            ],
            "change_keys": ["title", "poster_path"],
        ]
    }

    /// A JSON reply with TMDB's caching headers; answers 304 when the client already holds this body.
    static func json(_ object: [String: Any], maxAge: Int, request: HTTPRequest) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        let etag = "\"" + String(body.reduce(UInt64(14695981039346656037)) { ($0 ^ UInt64($1)) &* 1099511628211 }, radix: 16) + "\""
        var headers: HTTPHeaders = [.cacheControl: "public, max-age=\(maxAge)", .eTag: etag]
        if request.headers[HTTPHeader("If-None-Match")] == etag {
            return HTTPResponse(statusCode: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json;charset=utf-8"
        return HTTPResponse(statusCode: .ok, headers: headers, body: body)
    }

    static func error(status: Int, code: Int, message: String) -> HTTPResponse {
        let body = try! JSONSerialization.data(
            withJSONObject: ["success": false, "status_code": code, "status_message": message], options: [.sortedKeys])
        return HTTPResponse(
            statusCode: HTTPStatusCode(status, phrase: "Error"), headers: [.contentType: "application/json;charset=utf-8"],
            body: body)
    }

    /// TMDB's validation errors (422) come as a list instead of a status message.
    static func errors(status: Int, _ messages: [String]) -> HTTPResponse {
        let body = try! JSONSerialization.data(withJSONObject: ["errors": messages], options: [.sortedKeys])
        return HTTPResponse(
            statusCode: HTTPStatusCode(status, phrase: "Error"), headers: [.contentType: "application/json;charset=utf-8"],
            body: body)
    }

    /// The body TMDB sends with a status, for injected faults; with `target`, the message names the request too.
    static func errorBody(status: Int, repeating target: String? = nil) -> Data {
        let (code, message): (Int, String) =
            switch status {
            case 401: (7, "Invalid API key: You must be granted a valid key.")
            case 404: (34, "The resource you requested could not be found.")
            case 429: (25, "Your request count (41) is over the allowed limit of 40.")
            case 503: (9, "Service offline: This service is temporarily offline, try again later.")
            default: (11, "Internal error: Something went wrong, contact TMDb.")
            }
        let said = target.map { "\(message) (\($0))" } ?? message
        return try! JSONSerialization.data(
            withJSONObject: ["success": false, "status_code": code, "status_message": said], options: [.sortedKeys])
    }

    /// An 8 x 12 grey baseline JPEG (made with Pillow), served when no poster images were given.
    static let tinyJPEG = Data(base64Encoded: [
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeX",
        "BkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAM",
        "AAgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhBy",
        "JxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKT",
        "lJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAA",
        "AAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRom",
        "JygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExc",
        "bHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDMooooA//Z"
    ].joined())!
}
