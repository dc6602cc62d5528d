import Foundation
import QuizCore

/// One movie of a search page.
public struct MovieSummary: Sendable, Hashable, Codable {
    public var id: Int
    public var title: String
    public var originalTitle: String
    /// `YYYY-MM-DD`; `nil` when TMDB sends null or "".
    public var releaseDate: String?
    public var posterPath: String?
    public var genreIds: [Int]

    public var releaseYear: String? { releaseDate.map { String($0.prefix(4)) } }
}

public struct SearchPage: Sendable, Hashable, Codable {
    public var page: Int
    public var totalPages: Int
    public var totalResults: Int
    public var results: [MovieSummary]
}

public struct MovieDetails: Sendable, Hashable {
    public var summary: MovieSummary
    public var genreIds: [Int]
}

/// One poster of `/movie/{id}/images`.
public struct PosterImage: Sendable, Hashable, Codable {
    public var filePath: String
    /// ISO 639-1 language of the poster's text; `nil` for textless posters.
    public var language: String?
    public var width: Int
    public var height: Int
    public var voteAverage: Double
    public var voteCount: Int
}

/// Image sizes from `/configuration`.
public struct ImageConfiguration: Sendable, Hashable, Codable {
    public var posterSizes: [String]

    /// The smallest `wNNN` size at least `width` pixels wide, else the largest one, else `original`.
    public func posterSize(atLeast width: Int) -> String {
        let widths = posterSizes.compactMap { size -> (String, Int)? in
            guard size.hasPrefix("w"), let value = Int(size.dropFirst()) else { return nil }
            return (size, value)
        }.sorted { $0.1 < $1.1 }
        if let fitting = widths.first(where: { $0.1 >= width }) { return fitting.0 }
        return posterSizes.contains("original") ? "original" : (widths.last?.0 ?? "original")
    }
}

// MARK: - Wire shapes, decoded the way real TMDB data demands

/// TMDB sends `null` or `""` for an absent date or path.
struct PresentString: Decodable {
    var value: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = container.decodeNil() ? nil : try container.decode(String.self)
        value = text?.isEmpty == false ? text : nil
    }
}

/// A title from the server, held to the weight every stored text has (`PackageDocument.maxTextScalars` Unicode scalars):
/// a 13 MB title of one letter and millions of combining marks makes its element undecodable, so a page skips it.
struct WireTitle: Decodable {
    var value: String

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard text.unicodeScalars.count <= PackageDocument.maxTextScalars else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a title of more than \(PackageDocument.maxTextScalars) scalars"))
        }
        value = text
    }
}

/// An array whose undecodable elements are skipped rather than failing the whole page.
struct LossyArray<Element: Decodable>: Decodable {
    var elements: [Element] = []

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            if let element = try? container.decode(Element.self) {
                elements.append(element)
            } else {
                _ = try? container.decode(Discard.self)
            }
        }
    }

    private struct Discard: Decodable {}
}

struct MovieWire: Decodable {
    var id: Int
    var title: WireTitle?
    /// Collections mixed into results have `name` instead of `title`.
    var name: WireTitle?
    var originalTitle: WireTitle?
    var releaseDate: PresentString?
    var posterPath: PresentString?
    var genreIds: [Int]?
    var genres: [Genre]?

    struct Genre: Decodable { var id: Int }

    var summary: MovieSummary {
        let title = self.title?.value ?? name?.value ?? originalTitle?.value ?? "untitled \(id)"
        return MovieSummary(
            id: id, title: title, originalTitle: originalTitle?.value ?? title, releaseDate: releaseDate?.value,
            posterPath: posterPath?.value.flatMap { PosterPath.isTMDBPath($0) ? $0 : nil },
            genreIds: genreIds ?? genres?.map(\.id) ?? [])
    }
}

struct SearchPageWire: Decodable {
    var page: Int
    var results: LossyArray<MovieWire>
    var totalPages: Int?
    var totalResults: Int?
}

struct ImagesWire: Decodable {
    var posters: LossyArray<Poster>?

    struct Poster: Decodable {
        var filePath: String
        /// `iso_639_1` after `.convertFromSnakeCase`.
        var iso6391: String?
        var width: Int?
        var height: Int?
        var voteAverage: Double?
        var voteCount: Int?
    }
}

struct AlternativeTitlesWire: Decodable {
    var titles: LossyArray<Title>?

    struct Title: Decodable { var title: WireTitle }
}

struct ConfigurationWire: Decodable {
    var images: Images

    struct Images: Decodable { var posterSizes: [String]? }
}

/// TMDB's error bodies: `{status_code, status_message[, success]}`, or `{errors: [...]}` for validation failures.
struct ErrorWire: Decodable {
    var statusCode: Int?
    var statusMessage: String?
    var errors: [String]?
}
