import Foundation
import PosterGrid
import QuizCore
import UQuizStorage
import UQuizWire

/// An opaque place in a browse: where the next page starts, in one order. Its text is base64url of the last package's
/// creation time and id (`new`), or of `popular`, its play count and id, so a client can only hand it back; a forged
/// or damaged one is refused, never misread.
public struct BrowseCursor: Hashable, Sendable {
    public enum Place: Hashable, Sendable {
        case new(BrowsePosition)
        case popular(PopularPosition)
    }

    public var place: Place

    public init(place: Place) {
        self.place = place
    }

    public init(position: BrowsePosition) {
        place = .new(position)
    }

    /// The order this cursor pages through.
    public var order: BrowseOrder {
        switch place {
        case .new: .new
        case .popular: .popular
        }
    }

    public var text: String {
        switch place {
        case .new(let position): Base64URL.encode(Data("\(position.createdAt)|\(position.id)".utf8))
        case .popular(let position): Base64URL.encode(Data("popular|\(position.plays)|\(position.id)".utf8))
        }
    }

    /// The cursor a `text` stands for, or `nil` when it is not one this server gave out.
    public init?(text: String) {
        guard text.utf8.count <= 200, let data = Base64URL.decode(text), let decoded = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = decoded.split(separator: "|", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0] == "popular" {
            guard let plays = Int(parts[1]), plays >= 0, let id = Int64(parts[2]) else { return nil }
            place = .popular(PopularPosition(plays: plays, id: id))
            return
        }
        guard parts.count == 2, let id = Int64(parts[1]), ISO8601DateFormatter().date(from: String(parts[0])) != nil
        else { return nil }
        place = .new(BrowsePosition(createdAt: String(parts[0]), id: id))
    }
}

/// The find use case: public packages newest or most played first, a page at a time, and any readable package by its
/// share code, as metadata only (no quiz of it).
public struct Packages: Sendable {
    public let environment: SharingEnvironment

    /// Page sizes a client may ask for, and the one it gets when it does not say.
    public static let pageSizes = 1...100
    public static let defaultPageSize = 20

    public init(environment: SharingEnvironment) {
        self.environment = environment
    }

    /// A page of the packages `player` published (unlisted and removed ones too), newest first: their maker's list.
    /// `cursor` must be one a page of this list (or of the newest public packages: the same order) gave out.
    public func owned(by player: Player, after cursor: BrowseCursor?, limit: Int) async throws -> Page {
        var position: BrowsePosition?
        switch cursor?.place {
        case .new(let start): position = start
        case .popular: throw BrowseError.cursorOfAnotherOrder(.popular)
        case nil: break
        }
        let size = min(max(limit, Self.pageSizes.lowerBound), Self.pageSizes.upperBound)
        let packages = try await environment.store().ownedPackages(playerId: player.id, after: position, limit: size + 1)
        return Self.page(packages, size: size, order: .new)
    }

    public struct Page: Sendable {
        public var packages: [PublishedPackage]
        /// Where the next page starts; `nil` on the last page.
        public var next: BrowseCursor?
    }

    /// The longest text a page may be searched for, in characters: past any title.
    public static let maxSearchLength = 100

    /// A page in `order`; `cursor` must be one given out for that order. A server that found TMDB's image server
    /// unreachable lists only the packages whose posters it holds: the others would be black canvases.
    public func page(
        order: BrowseOrder = .new, _ filter: BrowseFilter, after cursor: BrowseCursor?, limit: Int
    ) async throws -> Page {
        if let cursor, cursor.order != order { throw BrowseError.cursorOfAnotherOrder(cursor.order) }
        var filter = filter
        if environment.imagesUnreachable { filter.postersHeldOnly = true }
        let size = min(max(limit, Self.pageSizes.lowerBound), Self.pageSizes.upperBound)
        let store = try environment.store()
        let packages: [PublishedPackage]
        switch (order, cursor?.place) {
        case (.popular, .popular(let position)):
            packages = try await store.popularPackages(filter, after: position, limit: size + 1)
        case (.popular, _):
            packages = try await store.popularPackages(filter, after: nil, limit: size + 1)
        case (.new, .new(let position)):
            packages = try await store.publicPackages(filter, after: position, limit: size + 1)
        case (.new, _):
            packages = try await store.publicPackages(filter, after: nil, limit: size + 1)
        }
        return Self.page(packages, size: size, order: order)
    }

    /// The page of `size` among `packages` (read one past it, to know whether another page follows without a second
    /// query), with the cursor of the next one in `order`.
    private static func page(_ packages: [PublishedPackage], size: Int, order: BrowseOrder) -> Page {
        guard packages.count > size else { return Page(packages: packages, next: nil) }
        let shown = Array(packages.prefix(size))
        let next = shown.last.map { last in
            switch order {
            case .new: BrowseCursor(place: .new(BrowsePosition(createdAt: last.createdAt, id: last.id)))
            case .popular: BrowseCursor(place: .popular(PopularPosition(plays: last.plays, id: last.id)))
            }
        }
        return Page(packages: shown, next: next)
    }

    /// A public, unlisted or seed package by its share code (any case); `PublishError.removed` for a hidden one.
    public func package(shareCode text: String) async throws -> PublishedPackage {
        guard let code = ShareCode(text), let package = try await environment.store().publishedPackage(shareCode: code) else {
            throw PublishError.notFound(text)
        }
        guard package.hidden == nil else { throw PublishError.removed(code.value) }
        return package
    }
}

/// Why a browse request is refused.
public enum BrowseError: Error, Equatable {
    /// The cursor was given out for another order than the one asked for.
    case cursorOfAnotherOrder(BrowseOrder)
}
