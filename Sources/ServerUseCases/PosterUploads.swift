internal import Crypto
import Foundation
import PosterArt
import PosterGrid
import QuizCore
import UQuizStorage

/// The poster upload use case: a maker's own JPEG, for a quiz on a movie TMDB has no fitting poster for. The bytes must
/// be a JPEG TurboJPEG decodes, no larger than the caps below; what is stored is the image re-encoded from its pixels,
/// so nothing of the uploaded file but its pixels (no EXIF, no GPS position, no comment, no thumbnail) is ever served
/// to a player. It is kept among the database's poster images, as the bundled posters are, under a name made of the
/// stored bytes' SHA-256: a spec names it as a quiz's `poster`, and the same image uploaded twice is one image.
public struct PosterUploads: Sendable {
    public let environment: SharingEnvironment
    public let geometry: GridGeometry
    /// The most bytes one player's uploads may hold together.
    public let quotaBytes: Int

    /// 20 MiB a player: some fifty posters at TMDB's largest size.
    public static let defaultQuotaBytes = 20 << 20

    /// The most bytes an upload may have: TMDB's largest posters (2000 x 3000) are a few hundred KB.
    public static let maxBytes = 2 << 20
    /// The largest image accepted, TMDB's original size; refused from the header before anything is decoded.
    public static let maxWidth = 2000
    public static let maxHeight = 3000
    /// The quality it is re-encoded at: a little above what stage posters are cut at, so cutting loses little.
    public static let quality = 90

    public init(environment: SharingEnvironment, geometry: GridGeometry, quotaBytes: Int = PosterUploads.defaultQuotaBytes) {
        self.environment = environment
        self.geometry = geometry
        self.quotaBytes = quotaBytes
    }

    /// A stored poster: the name a spec's `poster` gives it, and its size.
    public struct Uploaded: Sendable, Equatable {
        public var name: String
        public var width: Int
        public var height: Int
        /// False when the same image was stored already.
        public var isNew: Bool
    }

    /// Stores `data` for `player` (who is named in the image's attribution, for whoever runs the server).
    public func upload(_ data: Data, by player: Player) async throws -> Uploaded {
        guard data.count <= Self.maxBytes else { throw PosterUploadError.tooManyBytes(data.count) }
        // Every JPEG starts with the SOI marker and then another marker.
        guard data.count >= 3, data.prefix(3).elementsEqual([0xFF, 0xD8, 0xFF]) else { throw PosterUploadError.notAJPEG }
        let image: RGBImage
        do {
            image = try JPEG.decode(data, maxWidth: Self.maxWidth, maxHeight: Self.maxHeight)
        } catch .tooLarge(let width, let height, _, _) {
            throw PosterUploadError.badSize(width: width, height: height, minWidth: geometry.columns, minHeight: geometry.rows)
        } catch {
            throw PosterUploadError.undecodable(error.description)
        }
        guard image.width >= geometry.columns, image.height >= geometry.rows else {
            throw PosterUploadError.badSize(
                width: image.width, height: image.height, minWidth: geometry.columns, minHeight: geometry.rows)
        }
        let jpeg = try JPEG.encode(image, quality: Self.quality)
        let name = Self.name(of: jpeg)
        let now = environment.now()
        let stored = try await environment.store().storeUpload(
            fileName: name, jpeg: jpeg,
            attribution: "uploaded by player \(player.id) at \(ISO8601DateFormatter().string(from: now))",
            owner: player.id, at: now, quotaBytes: quotaBytes)
        if case .overQuota(let held) = stored {
            ServerCounters.quotaRefused("uploads")
            throw PosterUploadError.overQuota(heldBytes: held, quotaBytes: quotaBytes, uploadBytes: jpeg.count)
        }
        return Uploaded(name: name, width: image.width, height: image.height, isNew: stored == .stored)
    }

    /// `upload-` and the SHA-256 of the stored bytes in hex: a file name `PosterPath.isBundledName` accepts.
    static func name(of jpeg: Data) -> String {
        "upload-" + SHA256.hash(data: jpeg).lowercaseHex + ".jpg"
    }
}

/// Why a poster upload is refused.
public enum PosterUploadError: Error, Equatable {
    /// More than `maxBytes`.
    case tooManyBytes(Int)
    /// The bytes do not begin as a JPEG does (a PNG, text, nothing).
    case notAJPEG
    /// They begin as one but TurboJPEG cannot decode them.
    case undecodable(String)
    /// The image is larger than `maxWidth` x `maxHeight` or smaller than the grid (one pixel per cell at least).
    case badSize(width: Int, height: Int, minWidth: Int, minHeight: Int)
    /// The player's uploads hold `heldBytes`; with this one they would pass `quotaBytes`.
    case overQuota(heldBytes: Int, quotaBytes: Int, uploadBytes: Int)
}

extension PosterUploads {
    /// Removes uploaded posters no quiz uses that were stored more than `grace` ago: an upload is meant for a package,
    /// and one never published with (or left by every package) should not be kept for ever.
    public static func removeUnused(environment: SharingEnvironment, grace: Duration) async throws -> [String] {
        let cutoff = environment.now().addingTimeInterval(-Double(grace.components.seconds))
        return try await environment.store().deleteUnusedUploads(storedBefore: cutoff)
    }
}
