import Foundation
import QuizCore
import UQuizStorage

/// How the server's moderation runs.
public struct ModerationRules: Sendable, Equatable {
    /// A package reported by players with standing from this many networks (`AddressGroup`) hides itself until a
    /// moderator looks; 0 never.
    public var hideAfterReports: Int
    /// A reporter counts toward hiding once their player is this old and has finished `reporterPlays` plays.
    public var reporterAge: Duration
    public var reporterPlays: Int
    /// Packages played this many times, bundled packages and today's daily quiz's package are never hidden by reports.
    public var protectedPlays: Int

    public init(hideAfterReports: Int = 5, reporterAge: Duration = .seconds(24 * 3600), reporterPlays: Int = 1, protectedPlays: Int = 1000) {
        self.hideAfterReports = hideAfterReports
        self.reporterAge = reporterAge
        self.reporterPlays = reporterPlays
        self.protectedPlays = protectedPlays
    }

    /// The store's rule for a report filed at `date`; `nil` when reports never hide.
    func autoHide(at date: Date) -> AutoHide? {
        guard hideAfterReports > 0 else { return nil }
        return AutoHide(
            reporters: hideAfterReports, madeBy: date.addingTimeInterval(-Double(reporterAge.components.seconds)),
            reporterPlays: reporterPlays, protectedPlays: protectedPlays, day: Plays.dayText(date))
    }

    /// The most characters a report's own words may have.
    public static let maxReportText = 500
}

/// Why a report or a moderator's action is refused.
public enum ModerationError: Error, Equatable {
    /// A banned player tried to change something.
    case banned
    /// This player reported this target already.
    case alreadyReported
    /// The report's words break a rule (what, in the message).
    case badReport(String)
    /// Nobody in the room has this name.
    case nameNotInRoom(String)
    case unknownPlayer(Int64)
    case unknownPackage(String)
    /// A moderator's action needs a reason, which is kept with it.
    case reasonRequired
}

/// Players' reports of packages and of names taken in live rooms.
public struct Reports: Sendable {
    public let environment: SharingEnvironment
    public let rules: ModerationRules

    public init(environment: SharingEnvironment, rules: ModerationRules) {
        self.environment = environment
        self.rules = rules
    }

    /// Reports a published or seed package (a removed one is `PublishError.removed`): one report per player, and a
    /// package reported by players with standing from `rules.hideAfterReports` networks is hidden at once, pending
    /// review.
    public func reportPackage(
        shareCode: String, by player: Player, from address: String, reason: ReportReason, text: String?
    ) async throws -> ReportFiled {
        let package = try await Packages(environment: environment).package(shareCode: shareCode)
        return try await file(.package(id: package.id), by: player, from: address, reason: reason, text: text)
    }

    /// Reports a name someone took in room `code`, which this instance holds (`ServerRoomError.unknownRoom` else):
    /// the name as the room shows it, and the account of whoever took it when they joined with a token.
    public func reportName(
        _ name: String, inRoom code: String, rooms: Rooms, by player: Player, from address: String,
        reason: ReportReason, text: String?
    ) async throws -> ReportFiled {
        guard let taker = try rooms.taker(of: name, inRoom: code) else { throw ModerationError.nameNotInRoom(name) }
        return try await file(
            .room(code: code.uppercased(), name: taker.name, playerId: taker.playerId), by: player, from: address,
            reason: reason, text: text)
    }

    /// Files a report by `player` from the client address `address`, of which only its network is kept.
    private func file(
        _ target: ReportTarget, by player: Player, from address: String, reason: ReportReason, text: String?
    ) async throws -> ReportFiled {
        var words: String?
        if let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            guard text.count <= ModerationRules.maxReportText else {
                throw ModerationError.badReport("the text has \(text.count) characters: at most \(ModerationRules.maxReportText)")
            }
            guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) else {
                throw ModerationError.badReport("the text contains control characters")
            }
            words = ReadableName.normalized(text)
        }
        let now = environment.now()
        let filed = try await environment.store().insertReport(
            NewReport(
                target: target, reporterId: player.id, reason: reason, text: words,
                reporterGroup: AddressGroup.of(address)),
            autoHide: rules.autoHide(at: now), at: now)
        guard filed != .duplicate else { throw ModerationError.alreadyReported }
        return filed
    }
}

/// What a moderator does with `uquiz admin` on the server's database: read reports, hide and restore packages, ban
/// and unban players. Every action is recorded with its time, reason and actor.
public struct ModerationDesk: Sendable {
    let store: any ModerationStorage
    let actor: String
    let now: @Sendable () -> Date

    public init(store: any ModerationStorage, actor: String, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.actor = actor
        self.now = now
    }

    public func reports(limit: Int) async throws -> [ReportedTarget] {
        try await store.reportedTargets(limit: limit)
    }

    public func actions(limit: Int) async throws -> [ModerationAction] {
        try await store.moderationActions(limit: limit)
    }

    /// Hides (or shows again) a package; false when it was so already (the action is recorded all the same).
    public func setHidden(shareCode text: String, _ hidden: Bool, reason: String) async throws -> Bool {
        let reason = try checked(reason)
        let code = ShareCode(text)?.value ?? text
        guard
            let changed = try await store.setPackageHidden(
                shareCode: code, hidden, action: action(hidden ? .hide : .restore, target: code, reason: reason))
        else { throw ModerationError.unknownPackage(text) }
        return changed
    }

    public func setBanned(playerId: Int64, _ banned: Bool, reason: String) async throws -> BanChange {
        let reason = try checked(reason)
        guard
            let change = try await store.setPlayerBanned(
                id: playerId, banned, action: action(banned ? .ban : .unban, target: "\(playerId)", reason: reason))
        else { throw ModerationError.unknownPlayer(playerId) }
        return change
    }

    private func checked(_ reason: String) throws -> String {
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ModerationError.reasonRequired }
        return trimmed
    }

    private func action(_ kind: ModerationAction.Kind, target: String, reason: String) -> ModerationAction {
        ModerationAction(at: ISO8601DateFormatter().string(from: now()), kind: kind, target: target, reason: reason, actor: actor)
    }
}
