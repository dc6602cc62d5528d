import Foundation
internal import GRDB
import UQuizStorage

/// Reports, hidden packages and banned players (`ModerationStorage`), each inside the transaction it is handed.
extension AppDatabase {
    static func insertReport(_ report: NewReport, autoHide: AutoHide?, at date: Date, in db: Database) throws -> ReportFiled {
        let (key, packageId, room) = (report.target.key, report.target.packageId, report.target.room)
        try db.execute(
            sql: """
                INSERT INTO report (targetKind, targetKey, packageId, roomCode, roomName, roomPlayerId, reporterId, reason,
                                    text, createdAt, reporterGroup)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (reporterId, targetKind, targetKey) DO NOTHING
                """,
            arguments: [
                report.target.kind, key, packageId, room?.code, room?.name, room?.playerId, report.reporterId,
                report.reason.rawValue, report.text, timestamp(date), report.reporterGroup,
            ])
        guard db.changesCount == 1 else { return .duplicate }
        let id = db.lastInsertedRowID
        let reporters = try Int.fetchOne(
            db, sql: "SELECT COUNT(DISTINCT reporterId) FROM report WHERE targetKind = ? AND targetKey = ?",
            arguments: [report.target.kind, key])!
        var hidden = false
        if let packageId, let autoHide, reporters >= autoHide.reporters,
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(DISTINCT COALESCE(r.reporterGroup, 'player ' || r.reporterId))
                    FROM report r JOIN player ON player.id = r.reporterId
                    WHERE r.targetKind = ? AND r.targetKey = ? AND player.createdAt <= ?
                      AND r.createdAt > COALESCE(
                          (SELECT MAX(a.at) FROM moderationAction a JOIN package ON package.shareCode = a.target
                           WHERE a.kind = 'restore' AND package.id = ?), '')
                      AND (SELECT COUNT(*) FROM (SELECT 1 FROM play WHERE play.playerId = r.reporterId LIMIT ?)) >= ?
                    """,
                arguments: [
                    report.target.kind, key, timestamp(autoHide.madeBy), packageId, autoHide.reporterPlays,
                    autoHide.reporterPlays,
                ])! >= autoHide.reporters,
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT package.origin = 'seed'
                        OR COALESCE((SELECT plays FROM packageTally WHERE packageId = package.id), 0) >= ?
                        OR EXISTS (SELECT 1 FROM daily JOIN quiz ON quiz.id = daily.quizId
                                   WHERE daily.day = ? AND quiz.packageId = package.id)
                    FROM package WHERE package.id = ?
                    """,
                arguments: [autoHide.protectedPlays, autoHide.day, packageId]) == false
        {
            try db.execute(
                sql: "INSERT INTO hiddenPackage (packageId, reason, hiddenAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [packageId, HiddenReason.reports.rawValue, timestamp(date)])
            if db.changesCount == 1 {
                hidden = true
                let code = try String.fetchOne(db, sql: "SELECT shareCode FROM package WHERE id = ?", arguments: [packageId])
                try record(
                    ModerationAction(
                        at: timestamp(date), kind: .hide, target: code ?? "\(packageId)",
                        reason: "reported by \(reporters) players; pending review", actor: "server"),
                    in: db)
            }
        }
        return .filed(id: id, reporters: reporters, hidden: hidden)
    }

    static func reportedTargets(limit: Int, in db: Database) throws -> [ReportedTarget] {
        let targets = try Row.fetchAll(
            db,
            sql: """
                SELECT targetKind, targetKey, MAX(id) AS newest FROM report
                GROUP BY targetKind, targetKey ORDER BY newest DESC LIMIT ?
                """,
            arguments: [limit])
        return try targets.map { target in
            let kind: String = target["targetKind"]
            let key: String = target["targetKey"]
            let reports = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.id, r.reporterId, player.name AS reporterName, r.reason, r.text, r.createdAt, r.packageId,
                           r.roomCode, r.roomName, r.roomPlayerId, r.reporterGroup, player.createdAt AS reporterMadeAt,
                           (SELECT COUNT(*) FROM play WHERE play.playerId = r.reporterId) AS reporterPlays
                    FROM report r JOIN player ON player.id = r.reporterId
                    WHERE r.targetKind = ? AND r.targetKey = ? ORDER BY r.id DESC
                    """,
                arguments: [kind, key])
            let first = reports[0]
            var reported = ReportedTarget(
                kind: kind, code: first["roomCode"] ?? "", title: first["roomName"] ?? "", ownerId: first["roomPlayerId"],
                ownerName: nil, hidden: nil,
                reports: try reports.map { row in
                    ReportedTarget.Report(
                        id: row["id"], reporterId: row["reporterId"], reporterName: row["reporterName"],
                        reason: try decodeEnum(row["reason"]), text: row["text"], createdAt: row["createdAt"],
                        reporterMadeAt: row["reporterMadeAt"], reporterPlays: row["reporterPlays"],
                        reporterGroup: row["reporterGroup"])
                })
            if let packageId: Int64 = first["packageId"],
                let package = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT p.shareCode, p.title, pub.ownerId, h.reason AS hidden FROM package p
                        LEFT JOIN publication pub ON pub.packageId = p.id LEFT JOIN hiddenPackage h ON h.packageId = p.id
                        WHERE p.id = ?
                        """,
                    arguments: [packageId])
            {
                reported.code = package["shareCode"]
                reported.title = package["title"]
                reported.ownerId = package["ownerId"]
                reported.hidden = (package["hidden"] as String?).flatMap(HiddenReason.init(rawValue:))
            }
            if let owner = reported.ownerId {
                reported.ownerName = try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [owner])
            }
            return reported
        }
    }

    static func setPackageHidden(
        shareCode: String, _ hidden: Bool, action: ModerationAction, in db: Database
    ) throws -> Bool? {
        guard
            let packageId = try Int64.fetchOne(
                db,
                sql: """
                    SELECT p.id FROM package p LEFT JOIN publication pub ON pub.packageId = p.id
                    WHERE p.shareCode = ? AND (p.origin = 'seed' OR pub.packageId IS NOT NULL)
                    """,
                arguments: [shareCode])
        else { return nil }
        if hidden {
            try db.execute(
                sql: "INSERT INTO hiddenPackage (packageId, reason, hiddenAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [packageId, HiddenReason.moderator.rawValue, action.at])
        } else {
            try db.execute(sql: "DELETE FROM hiddenPackage WHERE packageId = ?", arguments: [packageId])
        }
        let changed = db.changesCount == 1
        try record(action, in: db)
        return changed
    }

    static func setPlayerBanned(id: Int64, _ banned: Bool, action: ModerationAction, in db: Database) throws -> BanChange? {
        guard let name = try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [id]) else {
            return nil
        }
        let packages: Int
        if banned {
            try db.execute(
                sql: "INSERT INTO bannedPlayer (playerId, bannedAt) VALUES (?, ?) ON CONFLICT DO NOTHING",
                arguments: [id, action.at])
            let changed = db.changesCount == 1
            try db.execute(
                sql: """
                    INSERT INTO hiddenPackage (packageId, reason, hiddenAt)
                    SELECT packageId, ?, ? FROM publication WHERE ownerId = ? ON CONFLICT DO NOTHING
                    """,
                arguments: [HiddenReason.ownerBanned.rawValue, action.at, id])
            packages = db.changesCount
            try record(action, in: db)
            return BanChange(player: Player(id: id, name: name, banned: true), changed: changed, packages: packages)
        }
        try db.execute(sql: "DELETE FROM bannedPlayer WHERE playerId = ?", arguments: [id])
        let changed = db.changesCount == 1
        try db.execute(
            sql: """
                DELETE FROM hiddenPackage WHERE reason = ?
                  AND packageId IN (SELECT packageId FROM publication WHERE ownerId = ?)
                """,
            arguments: [HiddenReason.ownerBanned.rawValue, id])
        packages = db.changesCount
        try record(action, in: db)
        return BanChange(player: Player(id: id, name: name), changed: changed, packages: packages)
    }

    static func moderationActions(limit: Int, in db: Database) throws -> [ModerationAction] {
        try Row.fetchAll(
            db, sql: "SELECT id, at, kind, target, reason, actor FROM moderationAction ORDER BY id DESC LIMIT ?",
            arguments: [limit]
        ).map { row in
            ModerationAction(
                id: row["id"], at: row["at"], kind: try decodeEnum(row["kind"]), target: row["target"],
                reason: row["reason"], actor: row["actor"])
        }
    }

    private static func record(_ action: ModerationAction, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO moderationAction (at, kind, target, reason, actor) VALUES (?, ?, ?, ?, ?)",
            arguments: [action.at, action.kind.rawValue, action.target, action.reason, action.actor])
    }
}

extension SQLiteServerStore: ModerationStorage {
    public func insertReport(_ report: NewReport, autoHide: AutoHide?, at date: Date) async throws -> ReportFiled {
        try await write { db in try AppDatabase.insertReport(report, autoHide: autoHide, at: date, in: db) }
    }

    public func reportedTargets(limit: Int) async throws -> [ReportedTarget] {
        try await read { db in try AppDatabase.reportedTargets(limit: limit, in: db) }
    }

    public func setPackageHidden(shareCode: String, _ hidden: Bool, action: ModerationAction) async throws -> Bool? {
        try await write { db in try AppDatabase.setPackageHidden(shareCode: shareCode, hidden, action: action, in: db) }
    }

    public func setPlayerBanned(id: Int64, _ banned: Bool, action: ModerationAction) async throws -> BanChange? {
        try await write { db in try AppDatabase.setPlayerBanned(id: id, banned, action: action, in: db) }
    }

    public func moderationActions(limit: Int) async throws -> [ModerationAction] {
        try await read { db in try AppDatabase.moderationActions(limit: limit, in: db) }
    }
}
