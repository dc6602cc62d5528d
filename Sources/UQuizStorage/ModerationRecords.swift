import Foundation

/// Why a player reports a package or a room's name: a short list, so that reports group and sort.
public enum ReportReason: String, CaseIterable, Sendable, Codable {
    /// Hateful, sexual, violent or otherwise offensive words or images.
    case offensive
    /// Advertising, gibberish, or the same package over and over.
    case spam
    /// A quiz's answer is wrong or its poster is not the film's.
    case wrongAnswer = "wrong_answer"
    /// Someone else's work published as one's own, or a poster that may not be shown.
    case copyright
    case other
}

/// What a report is about: a published package (by its id), or a name someone took in a live room (the room's code,
/// the name, and the player behind it when they joined with a token).
public enum ReportTarget: Hashable, Sendable {
    case package(id: Int64)
    case room(code: String, name: String, playerId: Int64?)

    /// The kind, as stored.
    public var kind: String {
        switch self {
        case .package: "package"
        case .room: "room"
        }
    }

    /// What makes a target one, for "one report per player and target": a package's id, or a room's code with the
    /// name and its player (a code is reused by later rooms).
    public var key: String {
        switch self {
        case .package(let id): "\(id)"
        case let .room(code, name, playerId): "\(code)\u{1F}\(playerId.map(String.init) ?? "")\u{1F}\(name)"
        }
    }

    public var packageId: Int64? {
        if case .package(let id) = self { id } else { nil }
    }

    public var room: (code: String, name: String, playerId: Int64?)? {
        if case let .room(code, name, playerId) = self { (code, name, playerId) } else { nil }
    }
}

/// A report as a player files it.
public struct NewReport: Sendable {
    public var target: ReportTarget
    public var reporterId: Int64
    public var reason: ReportReason
    /// What the reporter adds in their own words, if anything.
    public var text: String?
    /// The network the report came from (`AddressGroup`), if known: reports from one network count once toward hiding.
    public var reporterGroup: String?

    public init(target: ReportTarget, reporterId: Int64, reason: ReportReason, text: String?, reporterGroup: String? = nil) {
        self.target = target
        self.reporterId = reporterId
        self.reason = reason
        self.text = text
        self.reporterGroup = reporterGroup
    }
}

/// When reports hide a package by themselves, pending a moderator's review: reports of players with standing, since
/// the package was last restored, and never a package many people play.
public struct AutoHide: Sendable, Equatable {
    /// Networks (distinct `reporterGroup`s) of reporters with standing needed.
    public var reporters: Int
    /// A reporter has standing when their player was made at or before this and has finished `reporterPlays` plays:
    /// guests made a moment ago, or made only to report, do not count.
    public var madeBy: Date
    public var reporterPlays: Int
    /// Packages with at least this many plays, bundled packages and the package of the daily quiz of `day` are never
    /// hidden by reports (a moderator still sees them reported).
    public var protectedPlays: Int
    public var day: String

    public init(reporters: Int, madeBy: Date, reporterPlays: Int, protectedPlays: Int, day: String) {
        self.reporters = reporters
        self.madeBy = madeBy
        self.reporterPlays = reporterPlays
        self.protectedPlays = protectedPlays
        self.day = day
    }
}

/// What became of a report (`ModerationStorage.insertReport`).
public enum ReportFiled: Equatable, Sendable {
    /// Stored; `reporters` distinct players have reported the target now, and `hidden` says whether this report
    /// hid the package (its reporters reached the threshold).
    case filed(id: Int64, reporters: Int, hidden: Bool)
    /// This player had reported this target already: nothing was stored.
    case duplicate
}

/// Why a package is hidden from everyone.
public enum HiddenReason: String, Sendable, Codable {
    /// Reported by enough distinct players: hidden until a moderator looks.
    case reports
    /// Hidden by a moderator.
    case moderator
    /// Its owner was banned (restored when they are unbanned).
    case ownerBanned = "owner_banned"
}

/// One action a moderator (or the server, hiding a package after its reports) took: kept for good, with its time
/// and reason.
public struct ModerationAction: Hashable, Sendable, Codable {
    public enum Kind: String, Sendable, Codable {
        case hide, restore, ban, unban
    }

    public var id: Int64?
    /// ISO 8601 in UTC.
    public var at: String
    public var kind: Kind
    /// A package's share code, or a player's id as text.
    public var target: String
    public var reason: String
    /// Who acted: "server" for a package hidden after its reports, else who ran `uquiz admin`.
    public var actor: String

    public init(id: Int64? = nil, at: String, kind: Kind, target: String, reason: String, actor: String) {
        self.id = id
        self.at = at
        self.kind = kind
        self.target = target
        self.reason = reason
        self.actor = actor
    }
}

/// One reported target with its reports, as `uquiz admin reports` lists them.
public struct ReportedTarget: Hashable, Sendable, Codable {
    public struct Report: Hashable, Sendable, Codable {
        public var id: Int64
        public var reporterId: Int64
        public var reporterName: String
        public var reason: ReportReason
        public var text: String?
        public var createdAt: String
        /// When the reporter's player was made, and how many plays they have finished: their standing.
        public var reporterMadeAt: String
        public var reporterPlays: Int
        /// The network the report came from (a /24 or /48), when known.
        public var reporterGroup: String?

        public init(
            id: Int64, reporterId: Int64, reporterName: String, reason: ReportReason, text: String?, createdAt: String,
            reporterMadeAt: String, reporterPlays: Int, reporterGroup: String?
        ) {
            self.id = id
            self.reporterId = reporterId
            self.reporterName = reporterName
            self.reason = reason
            self.text = text
            self.createdAt = createdAt
            self.reporterMadeAt = reporterMadeAt
            self.reporterPlays = reporterPlays
            self.reporterGroup = reporterGroup
        }
    }

    /// "package" or "room".
    public var kind: String
    /// The package's share code, or the room's code.
    public var code: String
    /// The package's title, or the name taken in the room.
    public var title: String
    /// Who made the package or took the name (`nil` for a seed package, or a room's guest without a token).
    public var ownerId: Int64?
    public var ownerName: String?
    /// Why the package is hidden, if it is.
    public var hidden: HiddenReason?
    /// Newest first.
    public var reports: [Report]

    public init(
        kind: String, code: String, title: String, ownerId: Int64?, ownerName: String?, hidden: HiddenReason?,
        reports: [Report]
    ) {
        self.kind = kind
        self.code = code
        self.title = title
        self.ownerId = ownerId
        self.ownerName = ownerName
        self.hidden = hidden
        self.reports = reports
    }
}

/// What banning or unbanning a player did.
public struct BanChange: Equatable, Sendable {
    public var player: Player
    /// Whether the player's state changed (false: banned already, or not banned).
    public var changed: Bool
    /// The player's packages hidden (ban) or shown again (unban) with it.
    public var packages: Int

    public init(player: Player, changed: Bool, packages: Int) {
        self.player = player
        self.changed = changed
        self.packages = packages
    }
}

/// Reports, hidden packages and banned players: what moderation keeps, shared by every instance on the store.
public protocol ModerationStorage: Sendable {
    /// Stores a report unless its reporter reported the target already; a package reported by players with standing
    /// from `autoHide.reporters` networks (`NewReport.reporterGroup`; each player without one counts as one) since it
    /// was last restored (or more), not protected and not hidden yet, is hidden
    /// with `HiddenReason.reports` in the same transaction, the hiding recorded as an action of "server".
    func insertReport(_ report: NewReport, autoHide: AutoHide?, at date: Date) async throws -> ReportFiled
    /// The reported targets, the one with the newest report first, each with its reports (newest first).
    func reportedTargets(limit: Int) async throws -> [ReportedTarget]
    /// Hides or shows again the published or seed package with this share code, recording `action`; `nil` when no
    /// such package, else whether its state changed. Hiding one hidden already keeps its first reason.
    func setPackageHidden(shareCode: String, _ hidden: Bool, action: ModerationAction) async throws -> Bool?
    /// Bans or unbans a player, recording `action`: a ban hides their published packages (`ownerBanned`), an unban
    /// shows again those it hid. `nil` when no such player.
    func setPlayerBanned(id: Int64, _ banned: Bool, action: ModerationAction) async throws -> BanChange?
    /// The actions taken, newest first.
    func moderationActions(limit: Int) async throws -> [ModerationAction]
}
