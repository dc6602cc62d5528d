import Foundation
import QuizCore
import UQuizStorage
import Testing

extension AutoHide {
    /// Every reporter counts and no package is protected: the threshold alone.
    static func anyone(_ reporters: Int) -> AutoHide {
        AutoHide(reporters: reporters, madeBy: .distantFuture, reporterPlays: 0, protectedPlays: 1_000_000_000, day: "1970-01-01")
    }
}

/// Reports, hidden packages and bans: the same answers from SQLite and PostgreSQL.
@Suite struct ModerationContractTests {
    static func action(_ kind: ModerationAction.Kind, _ target: String, _ reason: String = "looked at it") -> ModerationAction {
        ModerationAction(at: "2026-11-26T12:00:00Z", kind: kind, target: target, reason: reason, actor: "uquiz admin (test)")
    }

    /// One report per player and target; the threshold of distinct reporters hides the package in the same
    /// transaction, recorded as the server's action, and a hidden package leaves the lists but keeps its page's data.
    @Test(arguments: StoreKind.allCases)
    func reportsAreOnePerPlayerAndEnoughOfThemHideThePackage(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, maker) = try await publish(makePackage(title: "Loud", code: "AAAAA2", quizzes: 1), on: store)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let bob = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            let first = try await store.insertReport(
                NewReport(target: .package(id: id), reporterId: ann.id, reason: .spam, text: "the same film ten times"),
                autoHide: .anyone(2), at: Date())
            guard case .filed(_, 1, false) = first else { Issue.record("\(first)"); return }
            #expect(try await store.insertReport(
                NewReport(target: .package(id: id), reporterId: ann.id, reason: .offensive, text: nil), autoHide: .anyone(2), at: Date())
                == .duplicate, "one report per player and target")
            #expect(try await store.publicPackages(.init(), after: nil, limit: 10).map(\.id) == [id])

            let second = try await store.insertReport(
                NewReport(target: .package(id: id), reporterId: bob.id, reason: .offensive, text: nil), autoHide: .anyone(2), at: Date())
            guard case .filed(_, 2, true) = second else { Issue.record("\(second)"); return }
            #expect(try await store.publicPackages(.init(), after: nil, limit: 10).isEmpty, "hidden from the lists")
            #expect(try await store.publishedPackage(shareCode: ShareCode("AAAAA2")!)?.hidden == .reports)
            let actions = try await store.moderationActions(limit: 10)
            #expect(actions.map(\.kind) == [.hide] && actions.first?.actor == "server" && actions.first?.target == "AAAAA2")

            let reported = try await store.reportedTargets(limit: 10)
            #expect(reported.count == 1)
            #expect(reported.first?.kind == "package" && reported.first?.code == "AAAAA2" && reported.first?.title == "Loud")
            #expect(reported.first?.ownerId == maker.id && reported.first?.ownerName == "maker")
            #expect(reported.first?.hidden == .reports)
            #expect(reported.first?.reports.map(\.reporterName) == ["Bob", "Ann"], "newest first")
            #expect(reported.first?.reports.last?.text == "the same film ten times")

            // A moderator restores it: listed again, the action recorded.
            #expect(try await store.setPackageHidden(shareCode: "AAAAA2", false, action: Self.action(.restore, "AAAAA2")) == true)
            #expect(try await store.publishedPackage(shareCode: ShareCode("AAAAA2")!)?.hidden == nil)
            #expect(try await store.publicPackages(.init(), after: nil, limit: 10).map(\.id) == [id])
            #expect(try await store.setPackageHidden(shareCode: "AAAAA2", false, action: Self.action(.restore, "AAAAA2")) == false)
            #expect(try await store.setPackageHidden(shareCode: "NOPE22", true, action: Self.action(.hide, "NOPE22")) == nil)
            #expect(try await store.moderationActions(limit: 10).map(\.kind) == [.restore, .restore, .hide])
        }
    }

    /// Reports from one network (their `reporterGroup`) count once toward hiding; each report shows its reporter's
    /// standing (made when, plays finished) and network.
    @Test(arguments: StoreKind.allCases)
    func reportsFromOneNetworkCountOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(title: "Loud", code: "AAAAA2", quizzes: 1), on: store)
            let made = Date(timeIntervalSince1970: 1_800_000_000)
            var reporters: [Player] = []
            for (index, name) in ["Ann", "Bob", "Cid"].enumerated() {
                reporters.append(try await store.insertPlayer(name: name, tokenHash: tokenHash(UInt8(index + 1)), at: made))
            }
            try await recordPlay(on: store, packageId: id, player: reporters[0], score: 100, publicId: "p1")
            for (reporter, group) in zip(reporters, ["203.0.113.0/24", "203.0.113.0/24", "198.51.100.0/24"]) {
                let filed = try await store.insertReport(
                    NewReport(target: .package(id: id), reporterId: reporter.id, reason: .spam, text: nil, reporterGroup: group),
                    autoHide: .anyone(2), at: Date())
                guard case .filed(_, _, let hidden) = filed else { Issue.record("\(filed)"); return }
                #expect(hidden == (reporter.name == "Cid"), "\(reporter.name): the second network hides it")
            }
            let reports = try #require(try await store.reportedTargets(limit: 10).first?.reports)
            #expect(reports.map(\.reporterGroup) == ["198.51.100.0/24", "203.0.113.0/24", "203.0.113.0/24"])
            #expect(reports.map(\.reporterPlays) == [0, 0, 1])
            #expect(reports.allSatisfy { $0.reporterMadeAt.hasPrefix("2027-01-15") }, "\(reports.map(\.reporterMadeAt))")
        }
    }

    /// Five guests made a moment ago hide nothing: a report counts toward hiding when its player is old enough and has
    /// finished a play, and only since the package was last restored; a protected package is never hidden by reports.
    @Test(arguments: StoreKind.allCases)
    func onlyReportersWithStandingHideAndARestoreStartsTheCountAgain(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(title: "Loud", code: "AAAAA2", quizzes: 1), on: store)
            let quizId = try await store.quizIDs(packageId: id)[0]
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let rule = AutoHide(
                reporters: 2, madeBy: now.addingTimeInterval(-86_400), reporterPlays: 1, protectedPlays: 1000, day: "2027-01-15")
            var made: UInt8 = 10
            func player(madeAt date: Date, plays: Int) async throws -> Player {
                made += 1
                let player = try await store.insertPlayer(name: "P\(made)", tokenHash: tokenHash(made), at: date)
                for index in 0..<plays {
                    _ = try await store.recordServerPlay(finishedPlay("play-\(made)-\(index)", packageId: id, player: player, quizId: quizId))
                }
                return player
            }
            func report(by player: Player, at date: Date) async throws -> ReportFiled {
                try await store.insertReport(
                    NewReport(target: .package(id: id), reporterId: player.id, reason: .spam, text: nil), autoHide: rule, at: date)
            }
            var hidden: HiddenReason? { get async throws { try await store.publishedPackage(shareCode: ShareCode("AAAAA2")!)?.hidden } }
            for _ in 0..<5 { _ = try await report(by: try await player(madeAt: now, plays: 1), at: now) }
            for _ in 0..<2 { _ = try await report(by: try await player(madeAt: now.addingTimeInterval(-2 * 86_400), plays: 0), at: now) }
            #expect(try await hidden == nil, "fresh guests, and old players who never finished a play, hide nothing")
            _ = try await report(by: try await player(madeAt: now.addingTimeInterval(-2 * 86_400), plays: 1), at: now)
            let second = try await report(by: try await player(madeAt: now.addingTimeInterval(-2 * 86_400), plays: 1), at: now)
            guard case .filed(_, 9, true) = second else { Issue.record("\(second)"); return }
            #expect(try await hidden == .reports)

            let restored = ModerationAction(
                at: now.addingTimeInterval(60).formatted(.iso8601), kind: .restore, target: "AAAAA2", reason: "fine",
                actor: "uquiz admin (test)")
            #expect(try await store.setPackageHidden(shareCode: "AAAAA2", false, action: restored) == true)
            _ = try await report(by: try await player(madeAt: now.addingTimeInterval(-2 * 86_400), plays: 1), at: now.addingTimeInterval(120))
            #expect(try await hidden == nil, "the reports before the restore were reviewed: one new one is not enough")
            _ = try await report(by: try await player(madeAt: now.addingTimeInterval(-2 * 86_400), plays: 1), at: now.addingTimeInterval(180))
            #expect(try await hidden == .reports, "a fresh threshold after the restore")

            // A package played as often as the rule protects is never hidden by reports.
            #expect(try await store.setPackageHidden(shareCode: "AAAAA2", false, action: restored) == true)
            var protected = rule
            protected.protectedPlays = 9
            for offset in 0..<3 {
                let reporter = try await player(madeAt: now.addingTimeInterval(-2 * 86_400), plays: 1)
                _ = try await store.insertReport(
                    NewReport(target: .package(id: id), reporterId: reporter.id, reason: .spam, text: nil), autoHide: protected,
                    at: now.addingTimeInterval(Double(300 + offset)))
            }
            #expect(try await hidden == nil, "\(made - 10) plays: protected")
        }
    }

    /// A name reported in a room is its own target: the same name in another room (or taken by another player) is
    /// another one.
    @Test(arguments: StoreKind.allCases)
    func aNameInARoomIsReportedOncePerRoomAndPlayer(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let troll = try await store.insertPlayer(name: "Rude", tokenHash: tokenHash(2), at: Date())
            let target = ReportTarget.room(code: "K7QF", name: "Rude", playerId: troll.id)
            let filed = try await store.insertReport(
                NewReport(target: target, reporterId: ann.id, reason: .offensive, text: nil), autoHide: .anyone(1), at: Date())
            guard case .filed(_, 1, false) = filed else { Issue.record("\(filed)"); return }
            #expect(try await store.insertReport(
                NewReport(target: target, reporterId: ann.id, reason: .offensive, text: nil), autoHide: .anyone(1), at: Date()) == .duplicate)
            let elsewhere = try await store.insertReport(
                NewReport(target: .room(code: "M3XZ", name: "Rude", playerId: nil), reporterId: ann.id, reason: .spam, text: nil),
                autoHide: .anyone(1), at: Date())
            guard case .filed = elsewhere else { Issue.record("\(elsewhere)"); return }
            let reported = try await store.reportedTargets(limit: 10)
            #expect(reported.map(\.code) == ["M3XZ", "K7QF"])
            #expect(reported.last?.title == "Rude" && reported.last?.ownerId == troll.id && reported.last?.ownerName == "Rude")
            #expect(reported.first?.ownerId == nil, "a guest without a token is nobody's account")
            #expect(try await store.moderationActions(limit: 10).isEmpty, "a room's report hides nothing")
        }
    }

    /// A ban: the player reads as banned, their packages are hidden and their ranked plays leave the boards; lifting
    /// it shows again what it hid (not a package a moderator hid on its own).
    @Test(arguments: StoreKind.allCases)
    func aBanHidesThePlayersPackagesAndPlaysUntilItIsLifted(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let cheat = try await store.insertPlayer(name: "Cheat", tokenHash: tokenHash(1), at: Date())
            let fair = try await store.insertPlayer(name: "Fair", tokenHash: tokenHash(2), at: Date())
            let (theirs, _) = try await publish(makePackage(title: "Theirs", code: "AAAAA2", quizzes: 1), on: store, owner: cheat)
            let (alsoTheirs, _) = try await publish(makePackage(title: "Also", code: "BBBBB3", quizzes: 1), on: store, owner: cheat)
            let (other, _) = try await publish(makePackage(title: "Other", code: "CCCCC4", quizzes: 1), on: store)
            try await recordPlay(on: store, packageId: other, player: cheat, score: 900)
            try await recordPlay(on: store, packageId: other, player: fair, score: 100)
            #expect(try await store.setPackageHidden(shareCode: "BBBBB3", true, action: Self.action(.hide, "BBBBB3")) == true)

            let ban = try #require(try await store.setPlayerBanned(id: cheat.id, true, action: Self.action(.ban, "\(cheat.id)")))
            #expect(ban.changed && ban.packages == 1 && ban.player.name == "Cheat", "\(ban)")
            #expect(try await store.player(tokenHash: tokenHash(1))?.banned == true)
            #expect(try await store.player(tokenHash: tokenHash(2))?.banned == false)
            #expect(try await store.publishedPackage(shareCode: ShareCode("AAAAA2")!)?.hidden == .ownerBanned)
            #expect(try await store.publicPackages(.init(), after: nil, limit: 10).map(\.id) == [other])
            let board = try await store.leaderboard(packageId: other, limit: 10, playerId: cheat.id)
            #expect(board.top.map(\.player) == ["Fair"] && board.rankedPlays == 1 && board.mine == nil)
            #expect(try await store.setPlayerBanned(id: cheat.id, true, action: Self.action(.ban, "\(cheat.id)"))?.changed == false)

            let unban = try #require(try await store.setPlayerBanned(id: cheat.id, false, action: Self.action(.unban, "\(cheat.id)")))
            #expect(unban.changed && unban.packages == 1)
            #expect(try await store.player(tokenHash: tokenHash(1))?.banned == false)
            #expect(Set(try await store.publicPackages(.init(), after: nil, limit: 10).map(\.id)) == [theirs, other])
            #expect(try await store.publishedPackage(shareCode: ShareCode("BBBBB3")!)?.hidden == .moderator, "hidden on its own")
            _ = alsoTheirs
            #expect(try await store.leaderboard(packageId: other, limit: 10, playerId: nil).top.map(\.player) == ["Cheat", "Fair"])
            #expect(try await store.setPlayerBanned(id: cheat.id + 1000, true, action: Self.action(.ban, "x")) == nil)
            #expect(try await store.moderationActions(limit: 10).map(\.kind) == [.unban, .ban, .ban, .hide])
        }
    }
}
