import CQREncode
import Foundation

/// A QR code of a short text (a join link), made by libqrencode: the well-kept encoder, not one written here.
public struct QRCode: Sendable, Equatable {
    /// Modules per side, without the quiet zone.
    public let size: Int
    /// Row by row, `true` for a dark module.
    public let modules: [Bool]

    /// The longest text encoded: a link to a room or a page of this server is far shorter, and a bound keeps a request
    /// from asking for a huge symbol.
    public static let maxTextBytes = 256

    /// The symbol of `text` at error correction level M (15 %: a photo of a screen across a room reads it); `nil`
    /// when the text is empty, too long, or holds a NUL.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maxTextBytes, !bytes.contains(0) else { return nil }
        // 8-bit mode keeps the text as it is: the automatic parsing would upper-case nothing here, but it may choose
        // Kanji mode for bytes that only look like Shift-JIS.
        guard let symbol = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        // The lowest bit of each byte is the module's colour; the other bits say what the module is part of.
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
        size = width
        modules = data.map { $0 & 1 == 1 }
    }

    public subscript(row: Int, column: Int) -> Bool { modules[row * size + column] }

    /// The symbol as an SVG picture: one path of unit squares, dark on white, with the four-module quiet zone readers
    /// need. It scales to any size without blurring (`shape-rendering: crispEdges`).
    public var svg: String {
        let quiet = 4
        let side = size + 2 * quiet
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard self[row, column] else {
                    column += 1
                    continue
                }
                // A run of dark modules on one row is one rectangle.
                var end = column
                while end < size && self[row, end] { end += 1 }
                path += "M\(column + quiet) \(row + quiet)h\(end - column)v1h-\(end - column)z"
                column = end
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }
}
