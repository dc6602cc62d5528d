import Foundation
import UQuizStorage

/// Reports, hidden packages and banned players, as AppDatabase's Moderation.swift.
extension PostgresQuizStore: ModerationStorage {
    public func insertReport(_ report: NewReport, autoHide: AutoHide?, at date: Date) async throws -> ReportFiled {
        let (key, packageId, room) = (report.target.key, report.target.packageId, report.target.room)
        let at = Self.timestamp(date)
        return try await write { session in
            // The target's row of reports is taken in order: two reports of one package at once both count each other.
            try await session.execute("SELECT pg_advisory_xact_lock(hashtext($1))", [.text(report.target.kind + key)])
            guard
                let inserted = try await session.one(
                    """
                    INSERT INTO report (target_kind, target_key, package_id, room_code, room_name, room_player_id,
                                        reporter_id, reason, text, created_at, reporter_group)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                    ON CONFLICT (reporter_id, target_kind, target_key) DO NOTHING RETURNING id
                    """,
                    [
                        .text(report.target.kind), .text(key), .int(packageId), .text(room?.code), .text(room?.name),
                        .int(room?.playerId), .int(report.reporterId), .text(report.reason.rawValue), .text(report.text),
                        .text(at), .text(report.reporterGroup),
                    ])
            else { return .duplicate }
            let reporters = try await session.one(
                "SELECT COUNT(DISTINCT reporter_id) AS n FROM report WHERE target_kind = $1 AND target_key = $2",
                [.text(report.target.kind), .text(key)])!.int("n")
            var hidden = false
            if let packageId, let autoHide, reporters >= autoHide.reporters,
                try await session.one(
                    """
                    SELECT COUNT(DISTINCT COALESCE(r.reporter_group, 'player ' || r.reporter_id)) AS n
                    FROM report r JOIN player ON player.id = r.reporter_id
                    WHERE r.target_kind = $1 AND r.target_key = $2 AND player.created_at <= $3
                      AND r.created_at > COALESCE(
                          (SELECT MAX(a.at) FROM moderation_action a JOIN package ON package.share_code = a.target
                           WHERE a.kind = 'restore' AND package.id = $4), '')
                      AND (SELECT COUNT(*) FROM (SELECT 1 FROM play WHERE play.player_id = r.reporter_id LIMIT $5) AS made) >= $5
                    """,
                    [
                        .text(report.target.kind), .text(key), .text(Self.timestamp(autoHide.madeBy)), .int(packageId),
                        .int(Int64(autoHide.reporterPlays)),
                    ])!.int("n") >= autoHide.reporters,
                try await session.one(
                    """
                    SELECT package.origin = 'seed'
                        OR COALESCE((SELECT plays FROM package_tally WHERE package_id = package.id), 0) >= $1
                        OR EXISTS (SELECT 1 FROM daily JOIN quiz ON quiz.id = daily.quiz_id
                                   WHERE daily.day = $2 AND quiz.package_id = package.id) AS protected
                    FROM package WHERE package.id = $3
                    """,
                    [.int(Int64(autoHide.protectedPlays)), .text(autoHide.day), .int(packageId)]
                )?.bool("protected") == false
            {
                let hid = try await session.one(
                    """
                    INSERT INTO hidden_package (package_id, reason, hidden_at) VALUES ($1, $2, $3)
                    ON CONFLICT DO NOTHING RETURNING (SELECT share_code FROM package WHERE id = $1) AS code
                    """,
                    [.int(packageId), .text(HiddenReason.reports.rawValue), .text(at)])
                if let hid {
                    hidden = true
                    try await Self.record(
                        ModerationAction(
                            at: at, kind: .hide, target: try hid.stringOrNil("code") ?? "\(packageId)",
                            reason: "reported by \(reporters) players; pending review", actor: "server"),
                        in: session)
                }
            }
            return .filed(id: try inserted.int64("id"), reporters: reporters, hidden: hidden)
        }
    }

    public func reportedTargets(limit: Int) async throws -> [ReportedTarget] {
        try await readTogether { session in
            let targets = try await session.query(
                """
                SELECT target_kind, target_key, MAX(id) AS newest FROM report
                GROUP BY target_kind, target_key ORDER BY newest DESC LIMIT $1
                """, [.int(limit)])
            var found: [ReportedTarget] = []
            for target in targets {
                let kind = try target.string("target_kind")
                let reports = try await session.query(
                    """
                    SELECT r.id, r.reporter_id, player.name AS reporter_name, r.reason, r.text, r.created_at, r.package_id,
                           r.room_code, r.room_name, r.room_player_id, r.reporter_group,
                           player.created_at AS reporter_made_at,
                           (SELECT COUNT(*) FROM play WHERE play.player_id = r.reporter_id) AS reporter_plays
                    FROM report r JOIN player ON player.id = r.reporter_id
                    WHERE r.target_kind = $1 AND r.target_key = $2 ORDER BY r.id DESC
                    """, [.text(kind), .text(try target.string("target_key"))])
                let first = reports[0]
                var reported = ReportedTarget(
                    kind: kind, code: try first.stringOrNil("room_code") ?? "", title: try first.stringOrNil("room_name") ?? "",
                    ownerId: try first.int64OrNil("room_player_id"), ownerName: nil, hidden: nil,
                    reports: try reports.map { row in
                        ReportedTarget.Report(
                            id: try row.int64("id"), reporterId: try row.int64("reporter_id"),
                            reporterName: try row.string("reporter_name"), reason: try Self.decodeEnum(try row.string("reason")),
                            text: try row.stringOrNil("text"), createdAt: try row.string("created_at"),
                            reporterMadeAt: try row.string("reporter_made_at"), reporterPlays: try row.int("reporter_plays"),
                            reporterGroup: try row.stringOrNil("reporter_group"))
                    })
                if let packageId = try first.int64OrNil("package_id"),
                    let package = try await session.one(
                        """
                        SELECT p.share_code, p.title, pub.owner_id, h.reason AS hidden FROM package p
                        LEFT JOIN publication pub ON pub.package_id = p.id LEFT JOIN hidden_package h ON h.package_id = p.id
                        WHERE p.id = $1
                        """, [.int(packageId)])
                {
                    reported.code = try package.string("share_code")
                    reported.title = try package.string("title")
                    reported.ownerId = try package.int64OrNil("owner_id")
                    reported.hidden = try package.stringOrNil("hidden").flatMap(HiddenReason.init(rawValue:))
                }
                if let owner = reported.ownerId {
                    reported.ownerName = try await session.one("SELECT name FROM player WHERE id = $1", [.int(owner)])?
                        .string("name")
                }
                found.append(reported)
            }
            return found
        }
    }

    public func setPackageHidden(shareCode: String, _ hidden: Bool, action: ModerationAction) async throws -> Bool? {
        try await write { session in
            guard
                let packageId = try await session.one(
                    """
                    SELECT p.id FROM package p LEFT JOIN publication pub ON pub.package_id = p.id
                    WHERE p.share_code = $1 AND (p.origin = 'seed' OR pub.package_id IS NOT NULL)
                    """, [.text(shareCode)])?.int64("id")
            else { return nil }
            let changed: Bool
            if hidden {
                changed = try await session.one(
                    """
                    INSERT INTO hidden_package (package_id, reason, hidden_at) VALUES ($1, $2, $3)
                    ON CONFLICT DO NOTHING RETURNING package_id
                    """, [.int(packageId), .text(HiddenReason.moderator.rawValue), .text(action.at)]) != nil
            } else {
                changed = try await session.one(
                    "DELETE FROM hidden_package WHERE package_id = $1 RETURNING package_id", [.int(packageId)]) != nil
            }
            try await Self.record(action, in: session)
            return changed
        }
    }

    public func setPlayerBanned(id: Int64, _ banned: Bool, action: ModerationAction) async throws -> BanChange? {
        try await write { session in
            guard let name = try await session.one("SELECT name FROM player WHERE id = $1", [.int(id)])?.string("name") else {
                return nil
            }
            let changed: Bool
            let packages: Int
            if banned {
                changed = try await session.one(
                    """
                    INSERT INTO banned_player (player_id, banned_at) VALUES ($1, $2) ON CONFLICT DO NOTHING
                    RETURNING player_id
                    """, [.int(id), .text(action.at)]) != nil
                packages = try await session.query(
                    """
                    INSERT INTO hidden_package (package_id, reason, hidden_at)
                    SELECT package_id, $1, $2 FROM publication WHERE owner_id = $3 ON CONFLICT DO NOTHING
                    RETURNING package_id
                    """, [.text(HiddenReason.ownerBanned.rawValue), .text(action.at), .int(id)]).count
            } else {
                changed = try await session.one(
                    "DELETE FROM banned_player WHERE player_id = $1 RETURNING player_id", [.int(id)]) != nil
                packages = try await session.query(
                    """
                    DELETE FROM hidden_package WHERE reason = $1
                      AND package_id IN (SELECT package_id FROM publication WHERE owner_id = $2)
                    RETURNING package_id
                    """, [.text(HiddenReason.ownerBanned.rawValue), .int(id)]).count
            }
            try await Self.record(action, in: session)
            return BanChange(player: Player(id: id, name: name, banned: banned), changed: changed, packages: packages)
        }
    }

    public func moderationActions(limit: Int) async throws -> [ModerationAction] {
        try await read { session in
            try await session.query(
                "SELECT id, at, kind, target, reason, actor FROM moderation_action ORDER BY id DESC LIMIT $1", [.int(limit)]
            ).map { row in
                ModerationAction(
                    id: try row.int64("id"), at: try row.string("at"), kind: try Self.decodeEnum(try row.string("kind")),
                    target: try row.string("target"), reason: try row.string("reason"), actor: try row.string("actor"))
            }
        }
    }

    private static func record(_ action: ModerationAction, in session: Session) async throws {
        try await session.execute(
            "INSERT INTO moderation_action (at, kind, target, reason, actor) VALUES ($1, $2, $3, $4, $5)",
            [.text(action.at), .text(action.kind.rawValue), .text(action.target), .text(action.reason), .text(action.actor)])
    }
}
