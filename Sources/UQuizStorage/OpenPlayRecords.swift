import Foundation
import PosterGrid
import QuizCore

/// A play the server is running, as every server instance sees it: who plays what, when it started on the servers'
/// shared clock, and what the player did (guesses, hints, skips) at which instant. Its state (the quiz on, the stage,
/// the score) is not stored: any instance rebuilds it by replaying these events through the same `QuizRound`, which is
/// a pure function of them and the clock, so no instance's memory holds the truth.
public struct OpenPlayRecord: Equatable, Sendable, Codable {
    public var id: String
    public var playerId: Int64
    public var playerName: String
    public var packageId: Int64
    /// The stored ids of the quizzes played, in order: the plan the play was started on. A package's quizzes cannot be
    /// replaced while one of its plays is open, so these stay valid until the play ends.
    public var quizIds: [Int64]
    /// The daily quiz's day (`yyyy-MM-dd`, UTC) and number, when this play is one.
    public var dailyDay: String?
    public var dailyNumber: Int?
    /// The day (`yyyy-MM-dd`, UTC) of the past daily quiz this play plays again from the archive, unranked, when it is
    /// one: a play of that one quiz of its package.
    public var archivedDailyDay: String?
    /// Wall time of the start, for the record.
    public var startedAt: Date
    /// The start on the shared clock (microseconds; see `SharedClock`).
    public var startMicros: Int64
    /// A time on the shared clock by which the play has surely ended (every quiz timed out): sweeps record plays past it.
    public var endsByMicros: Int64
    /// What the player did, in the order it was judged.
    public var events: [PlayerAction]

    public init(
        id: String, playerId: Int64, playerName: String, packageId: Int64, quizIds: [Int64], dailyDay: String?,
        dailyNumber: Int?, archivedDailyDay: String? = nil, startedAt: Date, startMicros: Int64, endsByMicros: Int64,
        events: [PlayerAction] = []
    ) {
        self.id = id
        self.playerId = playerId
        self.playerName = playerName
        self.packageId = packageId
        self.quizIds = quizIds
        self.dailyDay = dailyDay
        self.dailyNumber = dailyNumber
        self.archivedDailyDay = archivedDailyDay
        self.startedAt = startedAt
        self.startMicros = startMicros
        self.endsByMicros = endsByMicros
        self.events = events
    }
}

/// One thing a player did in a play, at an instant of the shared clock.
public struct PlayerAction: Equatable, Sendable, Codable {
    public enum Kind: String, Sendable, Codable {
        case guess, hint, skip
    }

    public var kind: Kind
    /// 1-based quiz number.
    public var quiz: Int
    /// The guess's text; `nil` for hints and skips.
    public var text: String?
    public var atMicros: Int64

    public init(kind: Kind, quiz: Int, text: String? = nil, atMicros: Int64) {
        self.kind = kind
        self.quiz = quiz
        self.text = text
        self.atMicros = atMicros
    }
}

/// A finished server play, ready to be recorded (see `recordServerPlay`).
public struct FinishedServerPlay: Sendable {
    public var publicId: String
    public var packageId: Int64
    public var player: Player
    public var startedAt: Date
    public var finishedAt: Date
    public var score: Int
    public var elapsedSeconds: Double
    public var dailyDay: String?
    public var attempts: [PlayAttempt]
    /// Why it cannot be ranked whatever else holds (its player may have known an answer); `nil` when it may be.
    public var unrankedReason: UnrankedReason?

    public init(
        publicId: String, packageId: Int64, player: Player, startedAt: Date, finishedAt: Date, score: Int,
        elapsedSeconds: Double, dailyDay: String?, attempts: [PlayAttempt], unrankedReason: UnrankedReason? = nil
    ) {
        self.unrankedReason = unrankedReason
        self.publicId = publicId
        self.packageId = packageId
        self.player = player
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.score = score
        self.elapsedSeconds = elapsedSeconds
        self.dailyDay = dailyDay
        self.attempts = attempts
    }
}

/// What a change to an open play leaves behind: the play with its new events, or, when it has ended, nothing open and
/// the finished play recorded in the same transaction.
public enum OpenPlayChange: Sendable {
    case keep(OpenPlayRecord)
    case finish(FinishedServerPlay)
}

/// Why an open play could not be inserted.
public enum OpenPlayRefusal: Error, Equatable, Sendable {
    /// `maxOpen` plays are open already.
    case full
    /// The player has an open play of that day's daily quiz (its id).
    case dailyOpen(playId: String)
    /// The player has an open play of the package (its id): a player plays a package once at a time, so that skips in
    /// one play cannot show the answers typed into another.
    case packageOpen(playId: String)
    /// The package's quizzes with areas are no longer the ones the play was planned on: plan again.
    case outdatedPlan
}

/// One token bucket's arithmetic, the same for every store: refill by elapsed time, then take one token if there is one.
public struct RateBucket: Equatable, Sendable {
    public var tokens: Double
    public var atMicros: Int64
    /// Set by `taking`: `nil` when a token was taken, else microseconds until one is there.
    public var waitMicros: Int64?

    public init(tokens: Double, atMicros: Int64) {
        self.tokens = tokens
        self.atMicros = atMicros
    }

    /// The tokens the bucket holds at `nowMicros`, refilled by the time since it was last touched, at most `burst`.
    public func tokens(atMicros nowMicros: Int64, burst: Int, intervalMicros: Int64) -> Double {
        // A clock read a little earlier by another instance must not take tokens back.
        let now = max(nowMicros, atMicros)
        let refill = intervalMicros > 0 ? Double(now - atMicros) / Double(intervalMicros) : Double(burst)
        return min(Double(burst), tokens + refill)
    }

    public func taking(burst: Int, intervalMicros: Int64, nowMicros: Int64) -> RateBucket {
        var next = RateBucket(
            tokens: tokens(atMicros: nowMicros, burst: burst, intervalMicros: intervalMicros),
            atMicros: max(nowMicros, atMicros))
        if next.tokens >= 1 {
            next.tokens -= 1
        } else {
            next.waitMicros = Int64((Double(intervalMicros) * (1 - next.tokens)).rounded(.up))
        }
        return next
    }
}

extension OpenPlayRecord {
    /// Whether the play is of one quiz of its package (the daily quiz, today's or an archived day's) rather than of
    /// all its quizzes.
    public var playsOneQuiz: Bool { dailyDay != nil || archivedDailyDay != nil }

    /// The open play as every store keeps it: JSON with dates in milliseconds, read back as the same record. Written
    /// and read by code made for it (every request of a play reads it): the same JSON as its `Codable` form with
    /// `.millisecondsSince1970` dates, which reads it too (the storage tests compare both ways).
    public func storedJSON() throws -> String {
        var json = JSONWriter(reservingCapacity: 256 + events.count * 64)
        json.object { json in
            json.member("id", id)
            json.member("playerId", Int(playerId))
            json.member("playerName", playerName)
            json.member("packageId", Int(packageId))
            json.member("quizIds", quizIds.map { Int($0) })
            json.member("dailyDay", ifPresent: dailyDay)
            json.member("dailyNumber", ifPresent: dailyNumber)
            json.member("archivedDailyDay", ifPresent: archivedDailyDay)
            json.member("startedAt", 1000.0 * startedAt.timeIntervalSince1970)
            json.member("startMicros", Int(startMicros))
            json.member("endsByMicros", Int(endsByMicros))
            json.key("events")
            json.array(events) { json, event in
                json.object { json in
                    json.member("kind", event.kind.rawValue)
                    json.member("quiz", event.quiz)
                    json.member("text", ifPresent: event.text)
                    json.member("atMicros", Int(event.atMicros))
                }
            }
        }
        return String(decoding: json.bytes, as: UTF8.self)
    }

    public init(storedJSON json: String) throws {
        self = try JSONReader.read(json) { reader in
            var id: String?, playerId: Int64?, playerName: String?, packageId: Int64?, quizIds: [Int64]?
            var dailyDay: String?, dailyNumber: Int?, archivedDailyDay: String?, startedAt: Date?, startMicros: Int64?, endsByMicros: Int64?
            var events: [PlayerAction]?
            try reader.members { reader, key in
                switch key {
                case "id": id = try reader.string()
                case "playerId": playerId = try reader.int64()
                case "playerName": playerName = try reader.string()
                case "packageId": packageId = try reader.int64()
                case "quizIds": quizIds = try reader.elements { try $0.int64() }
                case "dailyDay": dailyDay = try reader.null() ? nil : try reader.string()
                case "dailyNumber": dailyNumber = try reader.null() ? nil : try reader.int()
                case "archivedDailyDay": archivedDailyDay = try reader.null() ? nil : try reader.string()
                case "startedAt": startedAt = Date(timeIntervalSince1970: try reader.double() / 1000.0)
                case "startMicros": startMicros = try reader.int64()
                case "endsByMicros": endsByMicros = try reader.int64()
                case "events": events = try reader.elements(PlayerAction.init(reading:))
                default: try reader.skipValue()
                }
            }
            guard let id, let playerId, let playerName, let packageId, let quizIds, let startedAt, let startMicros,
                let endsByMicros, let events
            else { throw StoredRecordProblem.missingMember("an open play") }
            return OpenPlayRecord(
                id: id, playerId: playerId, playerName: playerName, packageId: packageId, quizIds: quizIds,
                dailyDay: dailyDay, dailyNumber: dailyNumber, archivedDailyDay: archivedDailyDay, startedAt: startedAt, startMicros: startMicros,
                endsByMicros: endsByMicros, events: events)
        }
    }
}

extension PlayerAction {
    fileprivate init(reading reader: inout JSONReader) throws {
        var kind: Kind?, quiz: Int?, text: String?, atMicros: Int64?
        try reader.members { reader, key in
            switch key {
            case "kind":
                let name = try reader.string()
                guard let known = Kind(rawValue: name) else { throw StoredRecordProblem.unknownValue(name) }
                kind = known
            case "quiz": quiz = try reader.int()
            case "text": text = try reader.null() ? nil : try reader.string()
            case "atMicros": atMicros = try reader.int64()
            default: try reader.skipValue()
            }
        }
        guard let kind, let quiz, let atMicros else { throw StoredRecordProblem.missingMember("a player's action") }
        self.init(kind: kind, quiz: quiz, text: text, atMicros: atMicros)
    }
}

/// A stored record that is JSON but not the record it should be.
public enum StoredRecordProblem: Error, Equatable {
    case missingMember(String)
    case unknownValue(String)
}
