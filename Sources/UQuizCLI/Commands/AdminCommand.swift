import ArgumentParser
import Foundation
import QuizStore
import ServerUseCases
import UQuizStorage

/// `uquiz admin`: a moderator's work on the server's database (the one `uquiz serve` runs on: `--db`, a SQLite file
/// or a PostgreSQL URL). Every instance on that database follows within a minute.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Moderate a server's database: players' reports, hidden packages, banned players.",
        discussion: """
            Runs on the server's database itself (--db PATH or postgres://…, as uquiz serve takes it), not through \
            its API, so only whoever may open that database may moderate. Every action is kept with its time, reason \
            and who ran it (uquiz admin actions lists them); a package reported by --hide-after-reports distinct \
            players (uquiz serve's setting) is hidden by the server itself, pending review. Running servers see a \
            hidden package at once and a ban within a minute.
            """,
        subcommands: [
            AdminReportsCommand.self, AdminActionsCommand.self, AdminHideCommand.self, AdminRestoreCommand.self,
            AdminBanCommand.self, AdminUnbanCommand.self, AdminBackupCommand.self, AdminRestoreBackupCommand.self,
        ]
    )
}

/// What every `uquiz admin` subcommand shares: the database, and a run on its moderation desk whose refusals are one
/// line each.
protocol AdminSubcommand: AsyncParsableCommand, Sendable {
    var store: StoreOptions { get }
    func run(on desk: ModerationDesk) async throws
}

extension AdminSubcommand {
    func run() async throws {
        let command = self
        try await NetworkCommands.here().moderate(store) { desk in
            do {
                try await command.run(on: desk)
            } catch let problem as ModerationError {
                throw CommandFailure(message: Self.wording(problem))
            }
        }
    }

    static func wording(_ problem: ModerationError) -> String {
        switch problem {
        case .unknownPackage(let code): "no package \(SafeText.clean(code)) on this database: give a share code uquiz admin reports lists"
        case .unknownPlayer(let id): "no player \(id) on this database: give a player's number as uquiz admin reports lists it"
        case .reasonRequired: "give a reason with --reason: it is kept with the action"
        case .banned, .alreadyReported, .badReport, .nameNotInRoom: "\(problem)"
        }
    }
}

/// What the listing subcommands (`reports`, `actions`) take: how many, and JSON instead of a table.
struct AdminListOptions: ParsableArguments {
    @Option(help: "How many to list, newest first (1 to 1000).") var limit = 50
    @Flag(help: "Print JSON (everything, a report's words included) instead of a table.") var json = false

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
    }

    /// Prints `items` as JSON, or `empty` when there are none, else what `text` makes of them.
    func show<Item: Encodable>(_ items: [Item], empty: String, text: ([Item]) -> String) throws {
        if json {
            print(try JSONOutput.string(items))
        } else {
            print(items.isEmpty ? empty : text(items))
        }
    }
}

struct AdminReportsCommand: AdminSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "reports", abstract: "The reported packages and names in rooms, the newest report first.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var listing: AdminListOptions

    func run(on desk: ModerationDesk) async throws {
        try listing.show(try await desk.reports(limit: listing.limit), empty: "No reports.", text: Self.text)
    }

    /// The table of targets, then who reported each (their standing, their network, their own words).
    static func text(_ targets: [ReportedTarget]) -> String {
        let rows = targets.map { target -> [String] in
            var reasons: [ReportReason: Int] = [:]
            for report in target.reports { reasons[report.reason, default: 0] += 1 }
            let said = ReportReason.allCases.compactMap { reason in reasons[reason].map { "\(reason.rawValue) \($0)" } }
            let owner = target.ownerId.map { "\(target.ownerName ?? "?") (#\($0))" } ?? "-"
            let networks = Set(target.reports.map { $0.reporterGroup ?? "player \($0.reporterId)" }).count
            return [
                "\(target.kind) \(target.code)", target.title, owner, "\(target.reports.count)", "\(networks)",
                said.joined(separator: ", "), target.hidden?.rawValue ?? "-", target.reports.first?.createdAt ?? "",
            ]
        }
        let table = TextTable(
            headers: ["TARGET", "TITLE OR NAME", "OWNER", "REPORTS", "NETWORKS", "REASONS", "HIDDEN", "NEWEST"], rows: rows)
        let reporters = targets.flatMap { target in
            target.reports.map { report in
                var line = "\(target.kind) \(target.code): \(report.reporterName) (#\(report.reporterId)), a player since "
                    + "\(report.reporterMadeAt.prefix(16).replacingOccurrences(of: "T", with: " ")), "
                    + "\(report.reporterPlays) \(report.reporterPlays == 1 ? "play" : "plays"), "
                    + "from \(report.reporterGroup ?? "an unknown network"), \(report.reason.rawValue)"
                if let words = report.text { line += ": " + words }
                return "  " + SafeText.clean(line)
            }
        }
        return table.render(terminal: Terminal.current(), maxWidths: [1: 40])
            + "\n\nReported by (newest first):\n" + reporters.joined(separator: "\n")
    }
}

struct AdminActionsCommand: AdminSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "actions", abstract: "The moderation actions taken, newest first, with their reasons.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var listing: AdminListOptions

    func run(on desk: ModerationDesk) async throws {
        try listing.show(try await desk.actions(limit: listing.limit), empty: "No actions yet.") { actions in
            TextTable(
                headers: ["AT", "ACTION", "TARGET", "BY", "REASON"],
                rows: actions.map { [$0.at, $0.kind.rawValue, $0.target, $0.actor, $0.reason] }
            ).render(terminal: Terminal.current())
        }
    }
}

struct AdminHideCommand: AdminSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "hide",
        abstract: "Hide a package: off every list and the daily draw, its link says it was removed, no new play starts.",
        discussion: "Plays already under way end as they would.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The package's share code.") var code: String
    @Option(help: "Why (kept with the action).") var reason: String

    func run(on desk: ModerationDesk) async throws {
        let changed = try await desk.setHidden(shareCode: code, true, reason: reason)
        let shown = SafeText.clean(code.uppercased())
        print(changed ? "Hid package \(shown): its link now says it was removed." : "Package \(shown) was hidden already; the action is recorded.")
    }
}

struct AdminRestoreCommand: AdminSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Show a hidden package again, whoever or whatever hid it.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The package's share code.") var code: String
    @Option(help: "Why (kept with the action).") var reason: String

    func run(on desk: ModerationDesk) async throws {
        let changed = try await desk.setHidden(shareCode: code, false, reason: reason)
        let shown = SafeText.clean(code.uppercased())
        print(changed ? "Restored package \(shown)." : "Package \(shown) was not hidden; the action is recorded.")
    }
}

struct AdminBanCommand: AdminSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "ban",
        abstract: "Ban a player: they may read but not write, their packages are hidden, their plays leave the boards.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The player's number (as uquiz admin reports shows it: #12).") var player: Int64
    @Option(help: "Why (kept with the action).") var reason: String

    func run(on desk: ModerationDesk) async throws {
        let change = try await desk.setBanned(playerId: player, true, reason: reason)
        let name = SafeText.clean(change.player.name)
        print(
            change.changed
                ? "Banned player #\(player) (\(name)); \(Wording.count(change.packages, "package", "packages")) of theirs hidden."
                : "Player #\(player) (\(name)) was banned already; the action is recorded.")
    }
}

struct AdminUnbanCommand: AdminSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "unban", abstract: "Lift a player's ban; the packages the ban hid are shown again.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The player's number.") var player: Int64
    @Option(help: "Why (kept with the action).") var reason: String

    func run(on desk: ModerationDesk) async throws {
        let change = try await desk.setBanned(playerId: player, false, reason: reason)
        let name = SafeText.clean(change.player.name)
        print(
            change.changed
                ? "Unbanned player #\(player) (\(name)); \(Wording.count(change.packages, "package", "packages")) of theirs shown again."
                : "Player #\(player) (\(name)) was not banned; the action is recorded.")
    }
}

extension AppContext {
    /// The server's SQLite file; for a PostgreSQL database, one line saying `what` and that its backups are
    /// PostgreSQL's own tools' work.
    fileprivate func sqliteServerDatabase(for what: String) throws -> String {
        guard case .sqlite(let path) = try settings.serverDatabase() else {
            throw CommandFailure(
                message: what
                    + "; on PostgreSQL, back up with pg_dump --format=custom --file FILE URL and restore into a new database with pg_restore --dbname NEWURL FILE (docs/operating.md)")
        }
        return path
    }
}

struct AdminBackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the server's SQLite database to a new file while the server runs and writes.",
        discussion: """
            The copy is one consistent state of the database (SQLite's online backup), checked (integrity and \
            foreign keys) and only then given its name; FILE must not exist. On PostgreSQL, use pg_dump \
            (docs/operating.md).
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The new file to write.") var file: String
    @Flag(help: "Print {path, bytes, packages, players, plays} as JSON.") var json = false

    func run() async throws {
        let context = try await AppContext.make(store)
        let path = try context.sqliteServerDatabase(for: "uquiz admin backup copies SQLite databases")
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure(message: "no database at \(SafeText.clean(path)) to back up")
        }
        let summary = try context.openDatabase().backup(to: file)
        if json { print(try JSONOutput.string(summary)); return }
        print("Backed up \(SafeText.clean(path)) to \(SafeText.clean(summary.path)): \(summary.bytes) bytes, \(summary.counts).")
    }
}

struct AdminRestoreBackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore-backup",
        abstract: "Make a new server database (--db, which must not exist) from a backup.",
        discussion: """
            The backup is checked first; a database that exists is never replaced: stop the server, move its file \
            away, restore, and start it on the restored file. On PostgreSQL, use pg_restore (docs/operating.md).
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The backup file (from uquiz admin backup).") var file: String
    @Flag(help: "Print {path, bytes, packages, players, plays} as JSON.") var json = false

    func run() async throws {
        let context = try await AppContext.make(store)
        let path = try context.sqliteServerDatabase(for: "uquiz admin restore-backup makes SQLite databases")
        let summary = try AppDatabase.restore(backup: file, to: path)
        if json { print(try JSONOutput.string(summary)); return }
        print("Restored \(SafeText.clean(file)) to \(SafeText.clean(path)): \(summary.counts).")
    }
}

extension BackupSummary {
    /// "8 packages, 2 players, 40 plays".
    fileprivate var counts: String {
        [
            Wording.count(packages, "package", "packages"), Wording.count(players, "player", "players"),
            Wording.count(plays, "play", "plays"),
        ].joined(separator: ", ")
    }
}
