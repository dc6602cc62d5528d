import Foundation
import QuizCore
import QuizStore
import UQuizStorage
import Testing

/// Several writers at once, as several server instances are: each rule holds whatever the interleaving.
@Suite struct ConcurrencyContractTests {
    /// Every first request of a day, at once, gets the same quiz and number, whatever each would have picked.
    @Test(arguments: StoreKind.allCases)
    func firstRequestsOfADayAtOnceGetOneChoice(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let (id, _) = try publish(makePackage(code: "AAAAA2", quizzes: 4), on: store)
            let choices = Collected<DailyChoice?>()
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                choices.add(result: Result { try store.daily(day: "2026-11-23", chosenAt: Date(), number: { _ in 1 }, pick: { _ in index }) })
            }
            #expect(choices.failures.isEmpty)
            #expect(Set(choices.values.map { $0?.quizId }).count == 1)
            #expect(choices.values.allSatisfy { $0?.number == 1 && $0?.packageId == id })
        }
    }

    /// Plays of one player and package finished at once: exactly one is ranked, and all are stored.
    @Test(arguments: StoreKind.allCases)
    func playsFinishedAtOnceRankOne(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let (id, _) = try publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let ann = try store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let ranked = Collected<Bool>()
            DispatchQueue.concurrentPerform(iterations: 6) { index in
                ranked.add(result: Result { try recordPlay(on: store, packageId: id, player: ann, score: index, publicId: "play-\(index)") })
            }
            #expect(ranked.failures.isEmpty)
            #expect(ranked.values.filter { $0 }.count == 1)
            #expect(try store.leaderboard(packageId: id, limit: 10, playerId: ann.id).rankedPlays == 1)
            #expect(try store.publishedPackage(shareCode: ShareCode("AAAAA2")!)?.plays == 6)
        }
    }

    /// Open plays inserted at once never exceed `maxOpen`.
    @Test(arguments: StoreKind.allCases)
    func openPlaysInsertedAtOnceStayWithinTheLimit(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let (id, _) = try publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let quizzes = try store.quizIDs(packageId: id)
            let players = try (0..<8).map { try store.insertPlayer(name: "P\($0)", tokenHash: tokenHash(UInt8(30 + $0)), at: Date()) }
            let outcomes = Collected<Void>()
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                outcomes.add(result: Result {
                    try store.insertOpenPlay(openRecord(id: "p\(index)", player: players[index], packageId: id, quizIds: quizzes), maxOpen: 3)
                })
            }
            #expect(outcomes.values.count == 3)
            #expect(outcomes.failures.count == 5)
            #expect(outcomes.failures.allSatisfy { ($0 as? OpenPlayRefusal) == .full })
            #expect(try store.openPlayCount(packageId: nil) == 3)
        }
    }

    /// Tokens taken from one bucket at once: exactly `burst` of them are given.
    @Test(arguments: StoreKind.allCases)
    func tokensTakenAtOnceNeverExceedTheBurst(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let taken = Collected<Int64?>()
            DispatchQueue.concurrentPerform(iterations: 10) { _ in
                taken.add(result: Result { try store.takeToken(key: "ip", burst: 4, intervalMicros: 1_000_000, nowMicros: 5_000_000) })
            }
            #expect(taken.failures.isEmpty)
            #expect(taken.values.filter { $0 == nil }.count == 4)
        }
    }
}

/// Results gathered from several threads.
final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storedValues: [Value] = []
    private var storedFailures: [any Error] = []

    func add(result: Result<Value, any Error>) {
        lock.withLock {
            switch result {
            case .success(let value): storedValues.append(value)
            case .failure(let error): storedFailures.append(error)
            }
        }
    }

    var values: [Value] { lock.withLock { storedValues } }
    var failures: [any Error] { lock.withLock { storedFailures } }
}
