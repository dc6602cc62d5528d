import Foundation
import PosterGrid

/// A poster as a player may see it at one stage of a quiz: the areas revealed so far show, everything else is black.
///
/// The server cuts these so that no byte of an unrevealed part of a poster leaves it before its time: the pixels outside
/// the revealed areas are set to black before encoding, and the new JPEG carries only pixels (none of the source file's
/// metadata, comments or thumbnails).
public enum StagePoster {
    /// The largest poster cut: far past any playing-size poster (TMDB's w342 is 342 x 513, the original 2000 x 3000), and
    /// a 75 MB RGB buffer at most.
    public static let maxWidth = 4096
    public static let maxHeight = 6144
    public static let defaultQuality = 85

    /// `image` with every pixel outside the union of the blocks around `revealed` (the centres of the areas revealed so
    /// far, stages 1 to k; none for stage 0) set to black. A cell covers the pixels `CellPixels` gives it, the same ones
    /// the player samples its colour from; centres off the grid reveal only their cells on it.
    public static func mask(_ image: RGBImage, geometry: GridGeometry, revealed: [Cell]) -> RGBImage {
        guard !image.pixels.isEmpty else { return image }
        var shown = [Bool](repeating: false, count: geometry.cellCount)
        for centre in revealed {
            for cell in geometry.block(around: centre) { shown[cell.row * geometry.columns + cell.column] = true }
        }
        let map = CellPixels(geometry: geometry, width: image.width, height: image.height)
        let rowBytes = image.width * 3
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for row in 0..<geometry.rows {
                    var column = 0
                    while column < geometry.columns {
                        guard shown[row * geometry.columns + column] else {
                            column += 1
                            continue
                        }
                        // A run of shown cells is one span of pixels on each of the row's pixel rows.
                        var last = column
                        while last + 1 < geometry.columns && shown[row * geometry.columns + last + 1] { last += 1 }
                        let xs = map.pixelColumns(ofColumn: column).lowerBound..<map.pixelColumns(ofColumn: last).upperBound
                        for y in map.pixelRows(ofRow: row) {
                            let start = y * rowBytes + xs.lowerBound * 3
                            let count = xs.count * 3
                            target.baseAddress!.advanced(by: start)
                                .update(from: source.baseAddress!.advanced(by: start), count: count)
                        }
                        column = last + 1
                    }
                }
            }
        }
        return RGBImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// Decodes `jpeg`, masks it to the areas revealed so far and encodes the result.
    ///
    /// Refuses, from its header and before decoding anything, a poster larger than `maxWidth` x `maxHeight`
    /// (`PosterArtError.tooLarge`); bytes TurboJPEG cannot read give `.notAJPEG`, a quality outside 1...100
    /// `.invalidQuality`.
    public static func cut(
        jpeg: Data, geometry: GridGeometry, revealed: [Cell], quality: Int = defaultQuality
    ) throws(PosterArtError) -> Data {
        guard JPEG.qualities.contains(quality) else { throw .invalidQuality(quality) }
        let image = try JPEG.decode(jpeg, maxWidth: maxWidth, maxHeight: maxHeight)
        return try JPEG.encode(mask(image, geometry: geometry, revealed: revealed), quality: quality)
    }
}
