/// Why a poster's pixels could not be had; the front end says it in its own words.
public enum PosterUnavailable: Error, Equatable, Sendable {
    /// A bundled poster is not in the database (`seed merge` restores it).
    case bundledPosterMissing
    /// A TMDB poster is not cached and downloading was not allowed.
    case notCachedOffline
    /// The download failed, for this reason.
    case downloadFailed(String)
    /// The bytes are there but are not a readable JPEG.
    case unreadable
}
