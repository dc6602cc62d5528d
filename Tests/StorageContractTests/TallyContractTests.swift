import Foundation
import QuizCore
@testable import PostgresStore
@testable import QuizStore
import Testing
import UQuizStorage

/// What both stores keep for reads that must not grow with the data, seen from inside: the kept counts against a
/// recount, and the leaderboard's indexed reads against the window functions over every ranked play they replaced.
protocol TallyInspecting {
    func tallyMismatchesForTesting() async throws -> [String]
    func leaderboardByWindowFunctionsForTesting(packageId: Int64, limit: Int, playerId: Int64?) async throws -> RankedPlays
    func queryPlansForTesting(packageId: Int64) async throws -> [String: String]
}

extension SQLiteServerStore: TallyInspecting {}
extension PostgresQuizStore: TallyInspecting {}

func inspecting(_ store: any ContractStore) throws -> any TallyInspecting {
    try #require(store as? any TallyInspecting)
}

@Suite struct TallyContractTests {
    /// Every viewer's board, at a few limits, equals the reference.
    func expectBoardsAgree(
        _ store: any ContractStore, packageId: Int64, viewers: [Player?], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let inspect = try inspecting(store)
        for limit in [1, 3, 100] {
            for viewer in viewers {
                let board = try await store.leaderboard(packageId: packageId, limit: limit, playerId: viewer?.id)
                let reference = try await inspect.leaderboardByWindowFunctionsForTesting(
                    packageId: packageId, limit: limit, playerId: viewer?.id)
                #expect(board == reference, "limit \(limit), viewer \(viewer?.name ?? "nobody")", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func keptCountsEqualARecountThroughPlaysBansHidingAndDeletion(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let inspect = try inspecting(store)
            let (first, maker) = try await publish(makePackage(code: "AAAAA2", quizzes: 3), on: store)
            let (second, _) = try await publish(makePackage(title: "Other", code: "BBBBB3", quizzes: 2), on: store, owner: maker)
            var players: [Player] = []
            for index in 0..<8 {
                players.append(try await store.insertPlayer(name: "P\(index)", tokenHash: tokenHash(UInt8(40 + index)), at: Date()))
            }
            // Ties in score and in time, a second (unranked) play, daily plays, a play unranked for a reason, misses.
            let plays: [(Int, Int, Double, String?, Bool, UnrankedReason?)] = [
                (0, 300, 40, nil, true, nil), (1, 300, 20, nil, true, nil), (2, 300, 40, nil, true, nil),
                (3, 100, 10, nil, true, nil), (4, 0, 90, nil, false, nil), (5, 0, 50, nil, false, nil),
                (0, 900, 1, nil, true, nil), (6, 200, 30, "2026-11-20", true, nil), (7, 250, 30, nil, true, .maker),
            ]
            for (index, (player, score, elapsed, daily, solved, reason)) in plays.enumerated() {
                try await recordPlay(
                    on: store, packageId: first, player: players[player], score: score, elapsed: elapsed, daily: daily,
                    publicId: "first-\(index)", solved: solved, unranked: reason)
            }
            try await recordPlay(on: store, packageId: second, player: players[1], score: 10, publicId: "second-1")
            #expect(try await inspect.tallyMismatchesForTesting() == [])
            let package = try #require(try await store.publishedPackage(shareCode: ShareCode("AAAAA2")!))
            #expect(package.plays == 9 && package.serverAttempts == 27 && package.serverSolves == 21)
            try await expectBoardsAgree(store, packageId: first, viewers: [nil] + players.map(Optional.some))
            #expect(try await store.leaderboard(packageId: first, limit: 100, playerId: nil).scoreCounts
                == [300: 3, 100: 1, 0: 2])

            // A ban takes the player's ranked plays off every board, an unban puts them back.
            let action = ModerationAction(at: "2026-11-27T10:00:00Z", kind: .ban, target: "P1", reason: "test", actor: "test")
            _ = try await store.setPlayerBanned(id: players[1].id, true, action: action)
            #expect(try await inspect.tallyMismatchesForTesting() == [])
            try await expectBoardsAgree(store, packageId: first, viewers: [nil, players[0], players[1], players[5]])
            #expect(try await store.leaderboard(packageId: first, limit: 100, playerId: nil).rankedPlays == 5)
            _ = try await store.setPlayerBanned(id: players[1].id, false, action: action)
            #expect(try await inspect.tallyMismatchesForTesting() == [])
            #expect(try await store.leaderboard(packageId: first, limit: 100, playerId: nil).rankedPlays == 6)

            // Hiding changes no count; deleting a package takes its counts along and leaves the other's.
            _ = try await store.setPackageHidden(shareCode: "AAAAA2", true, action: action)
            #expect(try await inspect.tallyMismatchesForTesting() == [])
            try await store.deletePackages(ids: [first])
            #expect(try await inspect.tallyMismatchesForTesting() == [])
            #expect(try await store.publishedPackage(shareCode: ShareCode("BBBBB3")!)?.plays == 1)
            let stats = try await store.quizSolveStats(packageId: second)
            #expect(stats.map(\.attempts) == [1, 1] && stats.map(\.solved) == [1, 1])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRankOutsideTheTopCountsTheBetterPlaysAndSkipsBannedOnes(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            var players: [Player] = []
            for index in 0..<30 {
                let player = try await store.insertPlayer(name: "P\(index)", tokenHash: tokenHash(UInt8(100 + index)), at: Date())
                players.append(player)
                // Ten scores, three plays each, in times that tie in pairs.
                try await recordPlay(
                    on: store, packageId: id, player: player, score: (index % 10) * 50, elapsed: Double(index / 20) * 10 + 5)
            }
            let action = ModerationAction(at: "2026-11-27T10:00:00Z", kind: .ban, target: "P", reason: "test", actor: "test")
            // Banned players with the same score as a viewer and less time: not counted in the viewer's rank.
            _ = try await store.setPlayerBanned(id: players[2].id, true, action: action)
            _ = try await store.setPlayerBanned(id: players[9].id, true, action: action)
            try await expectBoardsAgree(store, packageId: id, viewers: [nil] + players.map(Optional.some))
            let board = try await store.leaderboard(packageId: id, limit: 3, playerId: players[22].id)
            #expect(board.mine?.rank == 22 && board.rankedPlays == 28)
            #expect(try await inspecting(store).tallyMismatchesForTesting() == [])
        }
    }
}

/// A database written by the build before the kept counts: its migration fills them from the rows there.
@Suite struct TallyMigrationTests {
    @Test(arguments: StoreKind.allCases)
    func theMigrationCountsWhatIsThere(_ kind: StoreKind) async throws {
        switch kind {
        case .sqlite:
            let database = try AppDatabase.inMemoryForTesting(migratedThrough: "v16-answers-shown-wrong-guesses-room-hosts")
            let store = SQLiteServerStore(database: database, deadline: testDeadline)
            try await playsOfAnOlderBuild(on: store)
            try database.migrateForTesting()
            try await expectCounted(store)
        case .postgres:
            try await FreshPostgresDatabase.with { database in
                try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline, migrating: false) { store in
                    try await store.migrateForTesting(through: "pg9-answers-shown-wrong-guesses-room-hosts")
                    try await playsOfAnOlderBuild(on: store)
                    try await store.migrateForTesting(through: nil)
                    try await expectCounted(store)
                }
            }
        }
    }

    /// Plays, a ban and a quiz's attempts, written before there was anything to keep them counted.
    func playsOfAnOlderBuild(on store: any ContractStore) async throws {
        let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 2), on: store)
        var players: [Player] = []
        for index in 0..<4 {
            let player = try await store.insertPlayer(name: "P\(index)", tokenHash: tokenHash(UInt8(200 + index)), at: Date())
            players.append(player)
            try await recordPlay(on: store, packageId: id, player: player, score: 100 * index, solved: index > 0)
        }
        let action = ModerationAction(at: "2026-11-27T10:00:00Z", kind: .ban, target: "P3", reason: "test", actor: "test")
        _ = try await store.setPlayerBanned(id: players[3].id, true, action: action)
    }

    func expectCounted(_ store: any ContractStore) async throws {
        #expect(try await inspecting(store).tallyMismatchesForTesting() == [])
        let package = try #require(try await store.publishedPackage(shareCode: ShareCode("AAAAA2")!))
        #expect(package.plays == 4 && package.serverAttempts == 8 && package.serverSolves == 6)
        let board = try await store.leaderboard(packageId: package.id, limit: 10, playerId: nil)
        #expect(board.rankedPlays == 3 && board.scoreCounts == [0: 1, 100: 1, 200: 1])
        #expect(try await store.quizSolveStats(packageId: package.id).map(\.solved) == [3, 3])
        #expect(try await store.popularPackages(BrowseFilter(), after: nil, limit: 1).first?.shareCode == "AAAAA2")
    }
}

/// A word in a few titles and a word in hundreds are found alike: the first by its matches' ids, the second (on SQLite)
/// by walking the page's order among its matches.
@Suite struct CommonWordSearchTests {
    @Test(arguments: StoreKind.allCases)
    func aCommonWordPagesInOrderLikeARareOne(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let owner = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let alphabet = ShareCode.alphabet
            for index in 0..<250 {
                // 230 nights and 20 days, a day every 12th package, made a minute apart; one night unlisted.
                let title = index % 12 == 5 ? "Day \(index)" : "Night \(index)"
                let code = "Q" + String(alphabet[index / 30 % 30]) + String(alphabet[index % 30]) + "222"
                let minute = String(format: "%02d:%02d", index / 60, index % 60)
                _ = try await store.insertPublished(
                    makePackage(title: title, code: code, createdAt: "2026-01-01T\(minute):00Z", quizzes: 1),
                    owner: owner.id, visibility: index == 249 ? .unlisted : .public, otherCodes: [])
            }
            var titles: [String] = []
            var position: BrowsePosition?
            repeat {
                let page = try await store.publicPackages(.init(text: "NIGHT"), after: position, limit: 50)
                titles += page.map(\.title)
                position = page.last.map { BrowsePosition(createdAt: $0.createdAt, id: $0.id) }
            } while position != nil
            let nights = (0..<249).filter { $0 % 12 != 5 }.reversed().map { "Night \($0)" }
            #expect(titles == nights)
            #expect(try await store.publicPackages(.init(text: "day"), after: nil, limit: 3).map(\.title)
                == ["Day 245", "Day 233", "Day 221"])
            // Popular: the played ones first, then by id.
            let player = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            let first = try #require(try await store.publishedPackage(shareCode: ShareCode("Q22222")!))
            try await recordPlay(on: store, packageId: first.id, player: player, score: 10)
            #expect(try await store.popularPackages(.init(text: "night"), after: nil, limit: 2).map(\.title)
                == ["Night 0", "Night 248"])
        }
    }
}
