import Foundation
import QuizCore

#if canImport(Glibc)
    import Glibc
#endif

/// Poster JPEGs on disk under `<cache>/posters/<size>/<file>`, written atomically and kept under a size cap by evicting
/// the least recently used (a hit refreshes the file's modification time).
///
/// Only posters are kept: `isPoster` judges every body before it is stored and every cached file before it is used or
/// counted as cached, and a cached file it refuses (a body cut short, a disk that lost blocks) is deleted, so it is
/// fetched again instead of being "already cached" for ever. This module knows HTTP, not JPEG: the application layer
/// supplies a decoder (`checking(_:)`, or `PosterFetcher`'s `isPoster`); the default only looks at the JPEG magic bytes.
public struct PosterCache: Sendable {
    public let directory: URL
    public let capBytes: Int
    public private(set) var isPoster: @Sendable (Data) -> Bool

    /// A JPEG's first bytes: all that can be judged without decoding.
    public static let startsLikeJPEG: @Sendable (Data) -> Bool = { $0.starts(with: [0xFF, 0xD8, 0xFF]) }

    public init(directory: URL, capBytes: Int = 200 << 20, isPoster: @escaping @Sendable (Data) -> Bool = startsLikeJPEG) {
        self.directory = directory
        self.capBytes = capBytes
        self.isPoster = isPoster
    }

    /// The same cache, judging posters with `isPoster`.
    public func checking(_ isPoster: @escaping @Sendable (Data) -> Bool) -> PosterCache {
        var cache = self
        cache.isPoster = isPoster
        return cache
    }

    /// A body `isPoster` refused.
    public struct NotAPoster: Error, LocalizedError {
        public var posterPath: String
        public var errorDescription: String? { "\(posterPath) is not a readable image" }
    }

    /// Where a poster is cached; `nil` for a path that is not `/` and a file name (`/..` is no poster, never cached).
    public func file(for posterPath: String, size: String) -> URL? {
        // A size is TMDB's `w342` or `original`: letters and digits only, so it cannot leave the cache folder either.
        guard PosterPath.isTMDBPath(posterPath), !size.isEmpty,
            size.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) })
        else { return nil }
        return directory.appendingPathComponent(size).appendingPathComponent(String(posterPath.dropFirst()))
    }

    /// The cached bytes, marking them as just used; `nil` (and the file deleted) when they are no poster.
    public func data(for posterPath: String, size: String) -> Data? {
        guard let url = file(for: posterPath, size: size) else { return nil }
        guard let data = try? Data(contentsOf: url) else { return nil }
        guard isPoster(data) else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        return data
    }

    /// Whether a poster is cached: a file is there and it is a poster (one that is not is deleted).
    public func contains(_ posterPath: String, size: String) -> Bool {
        guard let url = file(for: posterPath, size: size), FileManager.default.fileExists(atPath: url.path) else {
            return false
        }
        guard let data = try? Data(contentsOf: url), isPoster(data) else {
            try? FileManager.default.removeItem(at: url)
            return false
        }
        return true
    }

    /// Writes `.<file>.<pid>.partial` beside the final file and renames it, so no reader ever sees a partial poster;
    /// then evicts the least recently used posters while the cache is over its cap. The writer's pid in the name lets
    /// a later store remove the partial file of a process that was killed mid-write, and only that.
    public func store(_ data: Data, for posterPath: String, size: String) throws {
        guard let url = file(for: posterPath, size: size) else {
            throw CocoaError(.fileWriteInvalidFileName, userInfo: [NSFilePathErrorKey: posterPath])
        }
        guard isPoster(data) else { throw NotAPoster(posterPath: posterPath) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial")
        do {
            try data.write(to: partial)
            guard rename(partial.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        evict(keeping: url)
    }

    /// Whether `url` is a partial file whose writer is gone (killed before it could rename it).
    static func isAbandonedPartial(_ url: URL) -> Bool {
        let parts = url.lastPathComponent.split(separator: ".")
        guard url.lastPathComponent.hasPrefix("."), parts.count >= 3, parts.last == "partial",
            let pid = pid_t(parts[parts.count - 2])
        else { return false }
        return kill(pid, 0) == -1 && errno == ESRCH
    }

    /// Deletes abandoned partial files, then the oldest posters until the total is under the cap; `keeping` (the one
    /// just written) goes last.
    public func evict(keeping: URL? = nil) {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: keys) else { return }
        var files: [(url: URL, size: Int, used: Date)] = []
        for case let url as URL in enumerator {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            if Self.isAbandonedPartial(url) {
                try? FileManager.default.removeItem(at: url)
                continue
            }
            files.append((url.standardizedFileURL, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast))
        }
        var total = files.reduce(0) { $0 + $1.size }
        guard total > capBytes else { return }
        let kept = keeping?.standardizedFileURL
        let oldestFirst = files.sorted { ($0.url == kept ? 1 : 0, $0.used) < ($1.url == kept ? 1 : 0, $1.used) }
        for file in oldestFirst where total > capBytes {
            if (try? FileManager.default.removeItem(at: file.url)) != nil { total -= file.size }
        }
    }
}
