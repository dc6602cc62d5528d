import Foundation
import PosterGrid
import QuizCore
import UQuizStorage

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

    /// `POST /v1/players/me/link-codes` answer: the code to type on the other device, and how long it lasts.
    public struct LinkCodeAnswer: Codable, Sendable, Equatable {
        public var code: String
        public var expiresInSeconds: Int
        public init(code: String, expiresInSeconds: Int) {
            self.code = code
            self.expiresInSeconds = expiresInSeconds
        }
    }

    /// `POST /v1/players/link` body.
    public struct LinkRequest: Codable, Sendable {
        public var code: String
        public init(code: String) { self.code = code }
    }

    /// `PATCH /v1/players/me` body.
    public struct RenamePlayerRequest: Codable, Sendable {
        public var name: String
        public init(name: String) { self.name = name }
    }

    /// `POST /v1/packages/{code}/reports` and `POST /v1/rooms/{code}/reports` body; `name` (the name taken in the
    /// room) for a room only.
    public struct ReportRequest: Codable, Sendable {
        public var reason: ReportReason
        public var text: String?
        public var name: String?
        public init(reason: ReportReason, text: String? = nil, name: String? = nil) {
            self.reason = reason
            self.text = text
            self.name = name
        }
    }

    /// A report's answer: its id, and whether the package is hidden now (its reports reached the threshold).
    public struct ReportAnswer: Codable, Sendable, Equatable {
        public var id: Int64
        public var hidden: Bool
        public init(id: Int64, hidden: Bool) {
            self.id = id
            self.hidden = hidden
        }
    }

    /// `PATCH /v1/players/me` answer.
    public struct PlayerName: Codable, Sendable, Equatable {
        public var id: Int64
        public var name: String
        public init(id: Int64, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// `GET /v1/players/me`: who the token is, their plays and live rooms added up, and their daily streak.
    public struct PlayerStats: Codable, Sendable, Equatable {
        public struct Plays: Codable, Sendable, Equatable {
            public var plays: Int
            public var points: Int
            public var solved: Int
            public var played: Int
            /// The mean stage of the quizzes solved; absent while none is.
            public var averageStage: Double?
            /// How many quizzes were solved at each stage, from stage 1 to the latest one solved at.
            public var solvedAtStage: [StageCount]?
        }

        public struct PlayResult: Codable, Sendable, Equatable {
            public var playId: String
            /// The package's share code; absent for a daily play.
            public var shareCode: String?
            public var title: String
            public var score: Int
            public var solved: Int
            public var played: Int
            public var ranked: Bool
            /// `yyyy-MM-dd` (UTC) when it was that day's daily quiz.
            public var dailyDay: String?
            /// ISO 8601, UTC.
            public var finishedAt: String
        }

        public struct Daily: Codable, Sendable, Equatable {
            public var streak: Int
            public var bestStreak: Int
            /// The days of the last `DailyStreak.calendarDays` (UTC, today included) on which a daily play finished,
            /// oldest first.
            public var days: [DailyStreak.Day]?
        }

        public struct Rooms: Codable, Sendable, Equatable {
            public var rooms: Int
            /// Rooms finished first (ties included).
            public var wins: Int
            public var points: Int
            public var solved: Int
            public var played: Int
        }

        public struct RoomResult: Codable, Sendable, Equatable {
            public var roomCode: String
            public var rank: Int
            public var score: Int
            public var solved: Int
            public var played: Int
            public var shareLine: String?
            /// ISO 8601, UTC.
            public var finishedAt: String
        }

        public var id: Int64
        public var name: String
        public var plays: Plays
        /// The latest plays, newest first.
        public var recentPlays: [PlayResult]
        public var daily: Daily
        public var rooms: Rooms
        /// The latest room results, newest first.
        public var recentRooms: [RoomResult]

        package init(
            player: Player, plays: PlayerPlayTotals, recentPlays: [PlayerPlayRow], streak: DailyStreak,
            rooms: RoomStats, recent: [RoomResultRow]
        ) {
            id = player.id
            name = player.name
            self.plays = Plays(
                plays: plays.plays, points: plays.points, solved: plays.solved, played: plays.played,
                averageStage: plays.averageStage, solvedAtStage: Distribution.stages(plays.solvedAtStage))
            self.recentPlays = recentPlays.map {
                PlayResult(
                    playId: $0.publicId, shareCode: $0.shareCode, title: $0.title, score: $0.score, solved: $0.solved,
                    played: $0.played, ranked: $0.ranked, dailyDay: $0.dailyDay, finishedAt: $0.finishedAt)
            }
            daily = Daily(streak: streak.current, bestStreak: streak.best, days: streak.recentDays)
            self.rooms = Rooms(rooms: rooms.rooms, wins: rooms.wins, points: rooms.points, solved: rooms.solved, played: rooms.played)
            recentRooms = recent.map {
                RoomResult(
                    roomCode: $0.roomCode, rank: $0.rank, score: $0.score, solved: $0.solved, played: $0.played,
                    shareLine: $0.shareLine, finishedAt: $0.finishedAt.formatted(.iso8601))
            }
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
        /// Solved quizzes over quizzes played in plays the server judged, 0 to 1; `null` (never absent from the
        /// server's JSON) while nobody has played it there. Optional when decoding, so a client reads older servers.
        public var solveRate: Double?
        public var createdAt: String

        public init(_ package: PublishedPackage) {
            shareCode = package.shareCode
            title = package.title
            maker = package.maker
            level = package.level
            language = package.language
            quizCount = package.quizCount
            plays = package.plays
            solveRate = package.serverAttempts == 0 ? nil : Double(package.serverSolves) / Double(package.serverAttempts)
            createdAt = package.createdAt
        }

        enum CodingKeys: String, CodingKey {
            case shareCode, title, maker, level, language, quizCount, plays, solveRate, createdAt
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(shareCode, forKey: .shareCode)
            try container.encode(title, forKey: .title)
            try container.encode(maker, forKey: .maker)
            try container.encode(level, forKey: .level)
            try container.encode(language, forKey: .language)
            try container.encode(quizCount, forKey: .quizCount)
            try container.encode(plays, forKey: .plays)
            try container.encode(solveRate, forKey: .solveRate)
            try container.encode(createdAt, forKey: .createdAt)
        }
    }

    /// `GET /v1/players/me/packages` answer: the packages the player published, newest first, as their maker sees them.
    public struct OwnedPackages: Encodable, Sendable {
        public struct Owned: Encodable, Sendable {
            public var package: PackageMetadata
            public var visibility: Visibility
            /// Hidden by the moderators or its reports: nobody may see or play it.
            public var removed: Bool

            public func encode(to encoder: any Encoder) throws {
                try package.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(visibility, forKey: .visibility)
                try container.encode(removed, forKey: .removed)
            }

            enum CodingKeys: String, CodingKey { case visibility, removed }
        }

        public var packages: [Owned]
        /// The `cursor` of the next page; `null` on the last.
        public var nextCursor: String?

        public init(_ packages: [PublishedPackage], nextCursor: String?) {
            self.packages = packages.map {
                Owned(package: PackageMetadata($0), visibility: $0.visibility, removed: $0.hidden != nil)
            }
            self.nextCursor = nextCursor
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(packages, forKey: .packages)
            // Written as null on the last page, as a page of public packages writes it.
            try container.encode(nextCursor, forKey: .nextCursor)
        }

        enum CodingKeys: CodingKey { case packages, nextCursor }
    }

    /// `POST /v1/posters` answer: the name a spec's `poster` gives the uploaded image, and its size in pixels.
    public struct UploadedPoster: Codable, Sendable, Equatable {
        public var poster: String
        public var width: Int
        public var height: Int

        public init(poster: String, width: Int, height: Int) {
            self.poster = poster
            self.width = width
            self.height = height
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

    /// `PUT /v1/packages/{code}` body: the new spec, and the visibility only when it is to change.
    public struct UpdateRequest: Encodable, Sendable {
        public var spec: PackageSpec
        public var visibility: Visibility?

        public init(spec: PackageSpec, visibility: Visibility?) {
            self.spec = spec
            self.visibility = visibility
        }

        enum CodingKeys: CodingKey { case visibility }

        public func encode(to encoder: any Encoder) throws {
            try spec.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(visibility, forKey: .visibility)
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

extension ServerAPI {
    /// A draft in `GET /v1/drafts`: enough to pick it, without its quizzes.
    public struct DraftSummary: Codable, Sendable {
        public var id: Int64
        public var createdAt: String
        public var updatedAt: String
        public var expiresAt: String
        public var title: String
        public var quizCount: Int
        /// Whether the draft keeps every rule a publish checks (its movies and posters aside).
        public var ready: Bool

        package init(
            id: Int64, createdAt: String, updatedAt: String, expiresAt: String, title: String, quizCount: Int, ready: Bool
        ) {
            self.id = id
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.expiresAt = expiresAt
            self.title = title
            self.quizCount = quizCount
            self.ready = ready
        }
    }

    /// `GET /v1/drafts` answer.
    public struct DraftList: Codable, Sendable {
        public var drafts: [DraftSummary]
        package init(drafts: [DraftSummary]) { self.drafts = drafts }
    }

    /// A draft as its maker edits it (`GET`, `POST`, `PUT` of `/v1/drafts…`), with this server's rules: the level
    /// rules and the grid the maker's page places areas by and plays its preview at.
    public struct Draft: Codable, Sendable {
        public struct Problem: Codable, Sendable {
            /// The JSON path of the part that breaks the rule.
            public var path: String
            public var message: String
        }

        public struct LevelRule: Codable, Sendable {
            public var areas: Int
            public var stageSeconds: Double
        }

        public struct Grid: Codable, Sendable {
            public var columns: Int
            public var rows: Int
            public var areaSize: Int
            public var margin: Int
        }

        public var id: Int64
        public var createdAt: String
        public var updatedAt: String
        public var expiresAt: String
        /// The document as saved.
        public var document: JSONValue
        /// The first rule a publish of it would break; `null` (said, not left out) when it keeps every rule.
        public var problem: Problem?
        /// By level's name.
        public var levels: [String: LevelRule]
        public var timeLimitSeconds: Double
        public var grid: Grid

        package init(
            id: Int64, createdAt: String, updatedAt: String, expiresAt: String, document: JSONValue,
            problem: (path: String, message: String)?, levels: [String: (areas: Int, stageSeconds: Double)],
            timeLimitSeconds: Double, grid: (columns: Int, rows: Int, areaSize: Int, margin: Int)
        ) {
            self.id = id
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.expiresAt = expiresAt
            self.document = document
            self.problem = problem.map { Problem(path: $0.path, message: $0.message) }
            self.levels = levels.mapValues { LevelRule(areas: $0.areas, stageSeconds: $0.stageSeconds) }
            self.timeLimitSeconds = timeLimitSeconds
            self.grid = Grid(columns: grid.columns, rows: grid.rows, areaSize: grid.areaSize, margin: grid.margin)
        }

        private enum CodingKeys: String, CodingKey {
            case id, createdAt, updatedAt, expiresAt, document, problem, levels, timeLimitSeconds, grid
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(updatedAt, forKey: .updatedAt)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encode(document, forKey: .document)
            try container.encode(problem, forKey: .problem)
            try container.encode(levels, forKey: .levels)
            try container.encode(timeLimitSeconds, forKey: .timeLimitSeconds)
            try container.encode(grid, forKey: .grid)
        }
    }
}

extension ServerAPI {
    /// `GET /v1/packages/{code}/spec` answer: the spec's fields and its visibility side by side, as the body of a
    /// publish or an update is written.
    public struct SpecAndVisibility: Encodable, Sendable {
        public var spec: PackageSpec
        public var visibility: Visibility

        package init(spec: PackageSpec, visibility: Visibility) {
            self.spec = spec
            self.visibility = visibility
        }

        private enum CodingKeys: String, CodingKey {
            case visibility
        }

        public func encode(to encoder: any Encoder) throws {
            try spec.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(visibility, forKey: .visibility)
        }
    }
}
