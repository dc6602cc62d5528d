import Foundation
import QuizCore
import QuizStore
import UQuizStorage
import Testing

/// Several writers at once, as several server instances are: each rule holds whatever the interleaving.
@Suite struct ConcurrencyContractTests {
    /// Every first request of a day, at once, gets the same quiz and number, whatever each would have picked.
    @Test(arguments: StoreKind.allCases)
    func firstRequestsOfADayAtOnceGetOneChoice(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 4), on: store)
            let choices = await atOnce(4) { index in
                try await store.daily(day: "2026-11-23", language: .en, chosenAt: Date(), among: .everyQuiz, number: { _ in 1 }, pick: { _ in index })
            }
            #expect(choices.failures.isEmpty)
            #expect(Set(choices.values.map { $0?.quizId }).count == 1)
            #expect(choices.values.allSatisfy { $0?.number == 1 && $0?.packageId == id })
        }
    }

    /// Plays of one player and package finished at once: exactly one is ranked, and all are stored.
    @Test(arguments: StoreKind.allCases)
    func playsFinishedAtOnceRankOne(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let ranked = await atOnce(6) { index in
                try await recordPlay(on: store, packageId: id, player: ann, score: index, publicId: "play-\(index)")
            }
            #expect(ranked.failures.isEmpty)
            #expect(ranked.values.filter { $0 }.count == 1)
            #expect(try await store.leaderboard(packageId: id, limit: 10, playerId: ann.id).rankedPlays == 1)
            #expect(try await store.publishedPackage(shareCode: ShareCode("AAAAA2")!)?.plays == 6)
        }
    }

    /// Open plays inserted at once never exceed `maxOpen`.
    @Test(arguments: StoreKind.allCases)
    func openPlaysInsertedAtOnceStayWithinTheLimit(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let quizzes = try await store.quizIDs(packageId: id)
            var players: [Player] = []
            for index in 0..<8 {
                players.append(try await store.insertPlayer(name: "P\(index)", tokenHash: tokenHash(UInt8(30 + index)), at: Date()))
            }
            let playing = players
            let outcomes = await atOnce(8) { index in
                try await store.insertOpenPlay(openRecord(id: "p\(index)", player: playing[index], packageId: id, quizIds: quizzes), maxOpen: 3)
            }
            #expect(outcomes.values.count == 3)
            #expect(outcomes.failures.count == 5)
            #expect(outcomes.failures.allSatisfy { ($0 as? OpenPlayRefusal) == .full })
            #expect(try await store.openPlayCount(packageId: nil) == 3)
        }
    }

    /// Tokens taken from one bucket at once: exactly `burst` of them are given.
    @Test(arguments: StoreKind.allCases)
    func tokensTakenAtOnceNeverExceedTheBurst(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let taken = await atOnce(10) { _ in
                try await store.takeToken(key: "ip", burst: 4, intervalMicros: 1_000_000, nowMicros: 5_000_000)
            }
            #expect(taken.failures.isEmpty)
            #expect(taken.values.filter { $0 == nil }.count == 4)
        }
    }
}

/// Results gathered from several threads.
/// The outcomes of `count` calls of `body` run at once, each with its index.
func atOnce<Value: Sendable>(
    _ count: Int, _ body: @escaping @Sendable (Int) async throws -> Value
) async -> (values: [Value], failures: [any Error]) {
    await withTaskGroup(of: Result<Value, any Error>.self) { group in
        for index in 0..<count {
            group.addTask {
                do { return .success(try await body(index)) } catch { return .failure(error) }
            }
        }
        var values: [Value] = []
        var failures: [any Error] = []
        for await outcome in group {
            switch outcome {
            case .success(let value): values.append(value)
            case .failure(let error): failures.append(error)
            }
        }
        return (values, failures)
    }
}
