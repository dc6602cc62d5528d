import PosterGrid
import QuizCore
import QuizStore

/// The JSON shapes of the server's REST API (described by `openapi.yaml`), shared by the server that encodes them and
/// the CLI that decodes them, so the two cannot drift apart.
public enum ServerAPI {
    /// `POST /v1/players` body.
    public struct NewPlayerRequest: Codable, Sendable {
        public var name: String
        public init(name: String) { self.name = name }
    }

    /// `POST /v1/players` answer: the token is given this once and stored on the server only as its hash.
    public struct NewPlayer: Codable, Sendable {
        public var id: Int64
        public var name: String
        public var token: String
        public init(id: Int64, name: String, token: String) {
            self.id = id
            self.name = name
            self.token = token
        }
    }

    /// What anyone may read of a package: never an answer, a TMDB id, a poster path or an area.
    public struct PackageMetadata: Codable, Sendable, Equatable {
        public var shareCode: String
        public var title: String
        public var maker: String
        public var level: Level
        public var language: QuizLanguage
        public var quizCount: Int
        public var plays: Int
        public var createdAt: String

        public init(_ package: PublishedPackage) {
            shareCode = package.shareCode
            title = package.title
            maker = package.maker
            level = package.level
            language = package.language
            quizCount = package.quizCount
            plays = package.plays
            createdAt = package.createdAt
        }
    }

    /// `GET /v1/packages`: a page, and the cursor of the next one (`null` on the last page, never absent).
    public struct PackagePage: Codable, Sendable {
        public var packages: [PackageMetadata]
        public var nextCursor: String?

        public init(packages: [PackageMetadata], nextCursor: String?) {
            self.packages = packages
            self.nextCursor = nextCursor
        }

        enum CodingKeys: CodingKey { case packages, nextCursor }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(packages, forKey: .packages)
            try container.encode(nextCursor, forKey: .nextCursor)
        }
    }

    /// `POST /v1/packages` body: a package spec (the format `uquiz create --from` reads) and its visibility.
    public struct PublishRequest: Encodable, Sendable {
        public var spec: PackageSpec
        public var visibility: Visibility

        public init(spec: PackageSpec, visibility: Visibility) {
            self.spec = spec
            self.visibility = visibility
        }

        enum CodingKeys: CodingKey { case visibility }

        /// The spec's fields at the top level, beside `visibility`, as the server reads them.
        public func encode(to encoder: any Encoder) throws {
            try spec.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(visibility, forKey: .visibility)
        }
    }

    /// `POST /v1/packages` answer.
    public struct Published: Codable, Sendable {
        public var shareCode: String
        public init(shareCode: String) { self.shareCode = shareCode }
    }

    /// Every error: `{"error": {"code", "message"}}`.
    public struct ErrorBody: Codable, Sendable {
        public struct Detail: Codable, Sendable {
            public var code: String
            public var message: String
        }
        public var error: Detail

        public init(code: String, message: String) { error = Detail(code: code, message: message) }
    }
}
