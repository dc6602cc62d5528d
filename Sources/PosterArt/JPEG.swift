import CTurboJPEG
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
    case tooLarge(width: Int, height: Int)
    case encodingFailed(String)

    public var description: String {
        switch self {
        case let .notAJPEG(detail): "the poster is not a readable JPEG (\(detail))"
        case let .tooLarge(width, height): "the poster is \(width) x \(height) pixels: more than uquiz decodes (8000 x 8000)"
        case let .encodingFailed(detail): "could not encode a JPEG (\(detail))"
        }
    }
}

/// JPEG decoding and encoding through libjpeg-turbo's TurboJPEG API.
public enum JPEG {
    /// Posters are a few hundred pixels wide; anything past this is refused rather than allocated.
    static let maxSide = 8000

    public static func decode(_ data: Data) throws(PosterArtError) -> RGBImage {
        guard let handle = tjInitDecompress() else { throw .notAJPEG("TurboJPEG could not start") }
        defer { tjDestroy(handle) }
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
        guard width > 0, height > 0, width <= maxSide, height <= maxSide else {
            throw .tooLarge(width: Int(width), height: Int(height))
        }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
        let result = data.withUnsafeBytes { bytes in
            pixels.withUnsafeMutableBufferPointer { output in
                tjDecompress2(
                    handle, bytes.bindMemory(to: UInt8.self).baseAddress, UInt(data.count), output.baseAddress, width, 0,
                    height, Int32(TJPF_RGB.rawValue), 0)
            }
        }
        // A warning (a slightly damaged but decodable file) still gives an image; only errors refuse it.
        if result != 0 && tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
            throw .notAJPEG(String(cString: tjGetErrorStr2(handle)))
        }
        return RGBImage(width: Int(width), height: Int(height), pixels: pixels)
    }

    /// Whether `data` decodes as `decode` reads posters for play: the judge of a poster worth caching.
    public static func isReadable(_ data: Data) -> Bool {
        (try? decode(data)) != nil
    }

    public static func encode(_ image: RGBImage, quality: Int = 85) throws(PosterArtError) -> Data {
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
