import Foundation
import QuizCore
import QuizStore
@testable import PostgresStore
import UQuizStorage
import Testing

func openRecord(
    id: String, player: Player, packageId: Int64, quizIds: [Int64], daily: String? = nil, endsBy: Int64 = 5_000_000
) -> OpenPlayRecord {
    OpenPlayRecord(
        id: id, playerId: player.id, playerName: player.name, packageId: packageId, quizIds: quizIds, dailyDay: daily,
        dailyNumber: daily == nil ? nil : 1, startedAt: Date(timeIntervalSince1970: 1_800_000_000.25),
        startMicros: 1_000_000, endsByMicros: endsBy)
}

struct ChangeRefused: Error, Equatable {}

/// Runs `body` on a store of `kind` holding a one-quiz package (`id`, its `quizzes`), the player Ann and her open play
/// "p1" of it.
func withOneOpenPlay<T: Sendable>(
    _ kind: StoreKind, _ body: (any ContractStore, _ id: Int64, _ quizzes: [Int64], _ ann: Player) async throws -> T
) async throws -> T {
    try await withStore(kind) { store in
        let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
        let quizzes = try await store.quizIDs(packageId: id)
        let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
        try await store.insertOpenPlay(openRecord(id: "p1", player: ann, packageId: id, quizIds: quizzes), maxOpen: 5)
        return try await body(store, id, quizzes, ann)
    }
}

/// Play `id` finished after 30 s with one attempt at `quizId`, worth `score` when above 0.
func finishedPlay(_ id: String, packageId: Int64, player: Player, quizId: Int64, score: Int = 0) -> FinishedServerPlay {
    FinishedServerPlay(
        publicId: id, packageId: packageId, player: player, startedAt: Date(timeIntervalSince1970: 1_800_000_000),
        finishedAt: Date(timeIntervalSince1970: 1_800_000_030), score: score, elapsedSeconds: 30, dailyDay: nil,
        attempts: [attempt(quizId: quizId, solved: score > 0, score: score)])
}

/// Open plays, rate buckets and the clock: the same answers from SQLite and PostgreSQL.
@Suite struct OpenPlayContractTests {
    @Test(arguments: StoreKind.allCases)
    func insertingOpenPlaysChecksRoomDailyAndPlan(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 2), on: store)
            let quizzes = try await store.quizIDs(packageId: id)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let record = openRecord(id: "p1", player: ann, packageId: id, quizIds: quizzes)
            try await store.insertOpenPlay(record, maxOpen: 2)
            #expect(try await store.openPlay(id: "p1") == record)
            #expect(try await store.openPlay(id: "nope") == nil)
            let bob = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            await #expect(throws: OpenPlayRefusal.outdatedPlan) {
                try await store.insertOpenPlay(openRecord(id: "p2", player: bob, packageId: id, quizIds: quizzes.reversed()), maxOpen: 5)
            }
            try await store.insertOpenPlay(openRecord(id: "d1", player: ann, packageId: id, quizIds: [quizzes[1]], daily: "2026-11-23"), maxOpen: 5)
            #expect(try await store.openDailyPlayId(playerId: ann.id, day: "2026-11-23") == "d1")
            #expect(try await store.openDailyPlayId(playerId: ann.id, day: "2026-11-24") == nil)
            #expect(try await store.openPlays(playerId: ann.id, limit: 5).map(\.id) == ["d1", "p1"])
            #expect(try await store.openPlays(playerId: ann.id, limit: 1).count == 1)
            #expect(try await store.openPlays(playerId: bob.id, limit: 5).isEmpty)
            await #expect(throws: OpenPlayRefusal.dailyOpen(playId: "d1")) {
                try await store.insertOpenPlay(openRecord(id: "d2", player: ann, packageId: id, quizIds: [quizzes[0]], daily: "2026-11-23"), maxOpen: 5)
            }
            await #expect(throws: OpenPlayRefusal.outdatedPlan) {
                try await store.insertOpenPlay(openRecord(id: "d3", player: ann, packageId: id, quizIds: [999_999], daily: "2026-11-24"), maxOpen: 5)
            }
            await #expect(throws: OpenPlayRefusal.full) {
                try await store.insertOpenPlay(openRecord(id: "p3", player: ann, packageId: id, quizIds: quizzes), maxOpen: 2)
            }
            #expect(try await store.openPlayCount(packageId: id) == 2)
            #expect(try await store.openPlayCount(packageId: id + 1) == 0)
            #expect(try await store.openPlayCount(packageId: nil) == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPlayerPlaysAPackageOnceAtATime(_ kind: StoreKind) async throws {
        try await withOneOpenPlay(kind) { store, id, quizzes, ann in
            await #expect(throws: OpenPlayRefusal.packageOpen(playId: "p1")) {
                try await store.insertOpenPlay(openRecord(id: "p2", player: ann, packageId: id, quizIds: quizzes), maxOpen: 5)
            }
            // The daily quiz drawn from the package, and another player's play, are no second play of Ann's.
            try await store.insertOpenPlay(
                openRecord(id: "d1", player: ann, packageId: id, quizIds: [quizzes[0]], daily: "2026-11-23"), maxOpen: 5)
            let bob = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            try await store.insertOpenPlay(openRecord(id: "b1", player: bob, packageId: id, quizIds: quizzes), maxOpen: 5)
            // Once her play is recorded, she may play the package again.
            _ = try await store.updateOpenPlay(id: "p1") { _ in
                ((), .finish(finishedPlay("p1", packageId: id, player: ann, quizId: quizzes[0])))
            }
            try await store.insertOpenPlay(openRecord(id: "p3", player: ann, packageId: id, quizIds: quizzes), maxOpen: 5)
            #expect(try await store.openPlay(id: "p3") != nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func startsOfOnePlayerAndPackageAtOnceLeaveOnePlayOpen(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let quizzes = try await store.quizIDs(packageId: id)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let outcomes = await atOnce(8) { index in
                try await store.insertOpenPlay(openRecord(id: "p\(index)", player: ann, packageId: id, quizIds: quizzes), maxOpen: 100)
            }
            #expect(outcomes.values.count == 1)
            #expect(outcomes.failures.count == 7)
            #expect(outcomes.failures.allSatisfy { if case .packageOpen? = $0 as? OpenPlayRefusal { true } else { false } })
            #expect(try await store.openPlayCount(packageId: id) == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func updatingKeepsFinishesOrRollsBack(_ kind: StoreKind) async throws {
        try await withOneOpenPlay(kind) { store, id, quizzes, ann in
            #expect(try await store.updateOpenPlay(id: "nope") { record in (1, .keep(record)) } == nil)

            let kept = try #require(try await store.updateOpenPlay(id: "p1") { record in
                var record = record
                record.events.append(.init(kind: .guess, quiz: 1, text: "Inception", atMicros: 1_500_000))
                record.events.append(.init(kind: .hint, quiz: 1, atMicros: 1_600_000))
                return ("kept", .keep(record))
            })
            #expect(kept.value == "kept" && kept.ranked == nil)
            let stored = try #require(try await store.openPlay(id: "p1"))
            #expect(stored.events.count == 2 && stored.events[0].text == "Inception" && stored.events[1].kind == .hint)

            // What `change` throws rolls everything back and is rethrown.
            await #expect(throws: ChangeRefused()) {
                try await store.updateOpenPlay(id: "p1") { record -> (Int, OpenPlayChange) in
                    throw ChangeRefused()
                }
            }
            #expect(try await store.openPlay(id: "p1") == stored)

            let finished = finishedPlay("p1", packageId: id, player: ann, quizId: quizzes[0], score: 120)
            let done = try #require(try await store.updateOpenPlay(id: "p1") { _ in (7, .finish(finished)) })
            #expect(done.value == 7 && done.ranked == true)
            #expect(try await store.openPlay(id: "p1") == nil)
            #expect(try await store.serverPlay(publicId: "p1")?.score == 120)
            #expect(try await store.openPlayCount(packageId: nil) == 0)
        }
    }

    /// The bound on open plays counts the plays still open: a finished play and the plays of a deleted package leave
    /// room for new ones.
    @Test(arguments: StoreKind.allCases)
    func theBoundOnOpenPlaysCountsOnlyPlaysStillOpen(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (first, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let (second, _) = try await publish(makePackage(code: "AAAAA3", quizzes: 1), on: store)
            let firstQuizzes = try await store.quizIDs(packageId: first)
            let secondQuizzes = try await store.quizIDs(packageId: second)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            // Ann's plays, then each of another player (a player plays a package once at a time).
            var players = 0
            func start(_ id: String, on package: Int64, _ quizzes: [Int64]) async throws {
                players += 1
                let player = players <= 2
                    ? ann : try await store.insertPlayer(name: "P\(players)", tokenHash: tokenHash(UInt8(10 + players)), at: Date())
                try await store.insertOpenPlay(openRecord(id: id, player: player, packageId: package, quizIds: quizzes), maxOpen: 3)
            }
            try await start("p1", on: first, firstQuizzes)
            try await start("p2", on: second, secondQuizzes)
            try await start("p3", on: first, firstQuizzes)
            await #expect(throws: OpenPlayRefusal.full) { try await start("p4", on: first, firstQuizzes) }
            let finished = finishedPlay("p1", packageId: first, player: ann, quizId: firstQuizzes[0])
            _ = try await store.updateOpenPlay(id: "p1") { _ in ((), .finish(finished)) }
            try await store.deletePackages(ids: [second])
            try await start("p5", on: first, firstQuizzes)
            try await start("p6", on: first, firstQuizzes)
            await #expect(throws: OpenPlayRefusal.full) { try await start("p7", on: first, firstQuizzes) }
            #expect(try await store.openPlayCount(packageId: nil) == 3)
            if let postgres = store as? PostgresQuizStore {
                let (tally, counted) = try await postgres.openPlayTallyForTesting()
                #expect(tally == 3 && counted == 3)
            }
        }
    }

    /// An append judged on a read is stored only while the play has the events read: one made on a play changed since,
    /// or no longer open, is refused and leaves it as it was.
    @Test(arguments: StoreKind.allCases)
    func appendingEventsToAPlayAsReadIsRefusedOnceItChanged(_ kind: StoreKind) async throws {
        try await withOneOpenPlay(kind) { store, id, quizzes, ann in
            @Sendable func appending(_ kind: PlayerAction.Kind, at micros: Int64, to record: OpenPlayRecord) -> OpenPlayRecord {
                var record = record
                record.events.append(.init(kind: kind, quiz: 1, atMicros: micros))
                record.endsByMicros += 1
                return record
            }
            let seen = try #require(try await store.openPlay(id: "p1"))
            let hinted = appending(.hint, at: 1_100_000, to: seen)
            #expect(try await store.appendOpenPlayEvents(seen, giving: hinted))
            #expect(try await store.openPlay(id: "p1") == hinted)
            // Judged on the play as it was before the hint: refused, the hint stays alone.
            #expect(try await store.appendOpenPlayEvents(seen, giving: appending(.skip, at: 1_200_000, to: seen)) == false)
            #expect(try await store.openPlay(id: "p1") == hinted)

            // Appenders racing on one read: exactly one wins.
            let outcomes = await atOnce(4) { writer in
                try await store.appendOpenPlayEvents(hinted, giving: appending(.skip, at: Int64(2_000_000 + writer), to: hinted))
            }
            #expect(outcomes.failures.isEmpty && outcomes.values.filter { $0 }.count == 1)
            let raced = try #require(try await store.openPlay(id: "p1"))
            #expect(raced.events.count == 2)

            let finished = finishedPlay("p1", packageId: id, player: ann, quizId: quizzes[0])
            _ = try await store.updateOpenPlay(id: "p1") { _ in ((), .finish(finished)) }
            #expect(try await store.appendOpenPlayEvents(raced, giving: appending(.skip, at: 3_000_000, to: raced)) == false)
            #expect(try await store.openPlay(id: "p1") == nil)
        }
    }

    /// Many threads add one event each to one open play: every change sees the one before (the play is locked).
    @Test(arguments: StoreKind.allCases)
    func concurrentUpdatesOfOnePlaySerialize(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let quizzes = try await store.quizIDs(packageId: id)
            try await store.insertOpenPlay(openRecord(id: "p1", player: ann, packageId: id, quizIds: quizzes), maxOpen: 5)
            let writers = 4
            let perWriter = 10
            let outcomes = await atOnce(writers) { writer in
                for step in 0..<perWriter {
                    _ = try await store.updateOpenPlay(id: "p1") { record in
                        var record = record
                        record.events.append(.init(kind: .skip, quiz: 1, atMicros: Int64(writer * 1000 + step)))
                        return ((), .keep(record))
                    }
                }
            }
            #expect(outcomes.failures.isEmpty)
            let events = try #require(try await store.openPlay(id: "p1")).events
            #expect(events.count == writers * perWriter)
            #expect(Set(events.map(\.atMicros)).count == writers * perWriter)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func overduePlaysOldestFirst(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let quizzes = try await store.quizIDs(packageId: id)
            for (index, (name, endsBy)) in [("late", 9_000), ("first", 1_000), ("second", 2_000), ("third", 3_000)].enumerated() {
                let player = try await store.insertPlayer(name: name, tokenHash: tokenHash(UInt8(1 + index)), at: Date())
                try await store.insertOpenPlay(openRecord(id: name, player: player, packageId: id, quizIds: quizzes, endsBy: Int64(endsBy)), maxOpen: 10)
            }
            #expect(try await store.overdueOpenPlays(before: 5_000, limit: 10) == ["first", "second", "third"])
            #expect(try await store.overdueOpenPlays(before: 5_000, limit: 2) == ["first", "second"])
            #expect(try await store.overdueOpenPlays(before: 1_000, limit: 10) == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func rateBucketsBurstRefuseAndRefill(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let second: Int64 = 1_000_000
            let start: Int64 = 10_000 * second
            for _ in 0..<3 { #expect(try await store.takeToken(key: "ip:1", burst: 3, intervalMicros: second, nowMicros: start) == nil) }
            #expect(try await store.takeToken(key: "ip:1", burst: 3, intervalMicros: second, nowMicros: start) == second)
            #expect(try await store.takeToken(key: "ip:1", burst: 3, intervalMicros: second, nowMicros: start + second / 4) == 3 * second / 4)
            // Another key has its own bucket.
            #expect(try await store.takeToken(key: "ip:2", burst: 3, intervalMicros: second, nowMicros: start) == nil)
            // One interval later one token is back, and only one.
            #expect(try await store.takeToken(key: "ip:1", burst: 3, intervalMicros: second, nowMicros: start + second) == nil)
            #expect(try await store.takeToken(key: "ip:1", burst: 3, intervalMicros: second, nowMicros: start + second) != nil)
            // Long after, the bucket is full again, never fuller.
            let later = start + 100 * second
            for _ in 0..<3 { #expect(try await store.takeToken(key: "ip:1", burst: 3, intervalMicros: second, nowMicros: later) == nil) }
            #expect(try await store.takeToken(key: "ip:1", burst: 3, intervalMicros: second, nowMicros: later) == second)
            // Forgotten buckets start full.
            try await store.forgetBuckets(untouchedSince: later)
            #expect(try await store.takeToken(key: "ip:2", burst: 1, intervalMicros: second, nowMicros: later) == nil)
            #expect(try await store.takeToken(key: "ip:1", burst: 3, intervalMicros: second, nowMicros: later) == second)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theDatabaseClockIsTheWallClock(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let before = Int64(Date().timeIntervalSince1970 * 1_000_000)
            let database = try await store.databaseMicros()
            let after = Int64(Date().timeIntervalSince1970 * 1_000_000)
            // Same machine: the server's clock reads between the two local reads, give or take a millisecond.
            #expect(database >= before - 1_000 && database <= after + 1_000)
            #expect(try await store.databaseMicros() >= database)
        }
    }
}
