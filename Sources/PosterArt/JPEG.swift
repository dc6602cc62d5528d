internal import CTurboJPEG
import Foundation

/// Pixels as 8-bit RGB triples, row by row from the top left.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGBImage needs width * height * 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

public enum PosterArtError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAJPEG(String)
    /// The header gives a size past the caller's limit; nothing was decoded.
    case tooLarge(width: Int, height: Int, maxWidth: Int, maxHeight: Int)
    case invalidQuality(Int)
    case encodingFailed(String)

    public var description: String {
        switch self {
        case let .notAJPEG(detail): "the poster is not a readable JPEG (\(detail))"
        case let .tooLarge(width, height, maxWidth, maxHeight):
            "the poster is \(width) x \(height) pixels: more than uquiz decodes here (\(maxWidth) x \(maxHeight))"
        case let .invalidQuality(quality): "JPEG quality \(quality) is invalid: it must be \(JPEG.qualities.lowerBound) to \(JPEG.qualities.upperBound)"
        case let .encodingFailed(detail): "could not encode a JPEG (\(detail))"
        }
    }
}

/// JPEG decoding and encoding through libjpeg-turbo's TurboJPEG API (the 2.x `tj` functions: the installed
/// libturbojpeg0-dev 2.1 has no `tj3` API).
public enum JPEG {
    /// Posters are a few hundred pixels wide; anything past this is refused rather than allocated.
    public static let maxSide = 8000
    /// The qualities TurboJPEG encodes at.
    public static let qualities = 1...100
    /// A progressive JPEG may hold any number of scans, each a pass over the whole image: a small hostile file could keep
    /// the decoder busy for minutes. TurboJPEG's limit (500 scans, far more than any encoder writes) refuses it instead.
    static let decodeFlags = Int32(TJFLAG_LIMITSCANS)

    /// The size a JPEG's header gives, read without decoding any pixel.
    public static func size(of data: Data) throws(PosterArtError) -> (width: Int, height: Int) {
        guard let handle = tjInitDecompress() else { throw .notAJPEG("TurboJPEG could not start") }
        defer { tjDestroy(handle) }
        return try readHeader(data, handle)
    }

    private static func readHeader(_ data: Data, _ handle: tjhandle) throws(PosterArtError) -> (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let header = data.withUnsafeBytes { bytes in
            tjDecompressHeader3(
                handle, bytes.bindMemory(to: UInt8.self).baseAddress, UInt(data.count), &width, &height, &subsampling,
                &colorspace)
        }
        guard header == 0 else { throw .notAJPEG(String(cString: tjGetErrorStr2(handle))) }
        guard width > 0, height > 0 else { throw .notAJPEG("the header gives \(width) x \(height) pixels") }
        return (Int(width), Int(height))
    }

    /// Decodes to RGB, refusing from the header alone (before allocating or decoding anything) an image wider than
    /// `maxWidth` or taller than `maxHeight`.
    public static func decode(
        _ data: Data, maxWidth: Int = maxSide, maxHeight: Int = maxSide
    ) throws(PosterArtError) -> RGBImage {
        guard let handle = tjInitDecompress() else { throw .notAJPEG("TurboJPEG could not start") }
        defer { tjDestroy(handle) }
        let (width, height) = try readHeader(data, handle)
        guard width <= maxWidth, height <= maxHeight else {
            throw .tooLarge(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let result = data.withUnsafeBytes { bytes in
            pixels.withUnsafeMutableBufferPointer { output in
                tjDecompress2(
                    handle, bytes.bindMemory(to: UInt8.self).baseAddress, UInt(data.count), output.baseAddress,
                    Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue), decodeFlags)
            }
        }
        // A warning (a slightly damaged but decodable file) still gives an image; only errors refuse it.
        if result != 0 && tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
            throw .notAJPEG(String(cString: tjGetErrorStr2(handle)))
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Whether `data` decodes as `decode` reads posters for play: the judge of a poster worth caching.
    public static func isReadable(_ data: Data) -> Bool {
        (try? decode(data)) != nil
    }

    /// Encodes baseline 4:2:0 at `quality` (1...100). The result holds pixels only: no metadata of any source.
    public static func encode(_ image: RGBImage, quality: Int = 85) throws(PosterArtError) -> Data {
        guard qualities.contains(quality) else { throw .invalidQuality(quality) }
        guard image.width > 0, image.height > 0, image.width <= 65_500, image.height <= 65_500 else {
            throw .encodingFailed("a JPEG cannot be \(image.width) x \(image.height) pixels")
        }
        guard let handle = tjInitCompress() else { throw .encodingFailed("TurboJPEG could not start") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue), &output,
                &size, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        defer { tjFree(output) }
        guard result == 0, let output else { throw .encodingFailed(String(cString: tjGetErrorStr2(handle))) }
        return Data(bytes: output, count: Int(size))
    }
}
