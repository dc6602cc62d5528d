import Foundation
import PosterGrid
import QuizCore
import QuizStore

/// An opaque place in a browse: where the next page starts. Its text is base64url of the last package's creation time
/// and id, so a client can only hand it back; a forged or damaged one is refused, never misread.
public struct BrowseCursor: Hashable, Sendable {
    public var position: BrowsePosition

    public init(position: BrowsePosition) {
        self.position = position
    }

    public var text: String {
        Base64URL.encode(Data("\(position.createdAt)|\(position.id)".utf8))
    }

    /// The cursor a `text` stands for, or `nil` when it is not one this server gave out.
    public init?(text: String) {
        guard text.utf8.count <= 200, let data = Base64URL.decode(text), let decoded = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = decoded.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int64(parts[1]), ISO8601DateFormatter().date(from: String(parts[0])) != nil
        else { return nil }
        position = BrowsePosition(createdAt: String(parts[0]), id: id)
    }
}

/// The find use case: public packages newest first, a page at a time, and any readable package by its share code,
/// as metadata only (no quiz of it).
public struct BrowsePackages: Sendable {
    public let environment: SharingEnvironment

    /// Page sizes a client may ask for, and the one it gets when it does not say.
    public static let pageSizes = 1...100
    public static let defaultPageSize = 20

    public init(environment: SharingEnvironment) {
        self.environment = environment
    }

    public struct Page: Sendable {
        public var packages: [PublishedPackage]
        /// Where the next page starts; `nil` on the last page.
        public var next: BrowseCursor?
    }

    public func page(level: Level?, language: QuizLanguage?, after cursor: BrowseCursor?, limit: Int) throws -> Page {
        let size = min(max(limit, Self.pageSizes.lowerBound), Self.pageSizes.upperBound)
        // One more than the page, to know whether another page follows without a second query.
        var packages = try environment.store().publicPackages(
            level: level, language: language, after: cursor?.position, limit: size + 1)
        var next: BrowseCursor?
        if packages.count > size {
            packages.removeLast(packages.count - size)
            next = packages.last.map { BrowseCursor(position: BrowsePosition(createdAt: $0.createdAt, id: $0.id)) }
        }
        return Page(packages: packages, next: next)
    }

    /// A public, unlisted or seed package by its share code (any case).
    public func package(shareCode text: String) throws -> PublishedPackage {
        guard let code = ShareCode(text), let package = try environment.store().publishedPackage(shareCode: code) else {
            throw PublishPackage.Problem.notFound(text)
        }
        return package
    }
}
