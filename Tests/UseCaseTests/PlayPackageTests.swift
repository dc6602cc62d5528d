import Foundation
import LocalUseCases
import QuizCore
import QuizStore
import Testing
import UQuizRules
import UQuizStorage
import UQuizTestSupport

@Suite("Playing a package in process")
struct PlayPackageTests {
    @Test func aQuizIsJudgedScoredAndRecordedOnTheScriptedClock() throws {
        let folder = try TemporaryFolder()
        let environment = try testEnvironment(folder)
        let store = try environment.store()
        let play = PlayPackage(environment: environment, levels: .standard)
        let plan = try play.plan(packageId: try store.packageID(for: "en-silent"), quiz: 1)
        #expect(plan.rounds.map(\.quiz.title) == ["Metropolis"])
        let observer = RecordingObserver()
        let summary = try play.run(
            plan, player: "tester", timeScale: 1,
            input: ScriptedInput([(3.0, .guess("nosferatu")), (5.5, .hint), (7.2, .guess("메트로폴리스"))]),
            observer: observer)
        #expect(summary.results == [QuizResult(outcome: .solved, seconds: 7.2, stageReached: 4, hintsUsed: 1, score: 92)])
        #expect(summary.shareLine == "UQuiz FE7NWW 1/1 🟨 92 pts")
        #expect(observer.events.contains(.guessed(
            quiz: 1, guess: "nosferatu", verdict: .rejected(.titleOfAnotherMovie("Nosferatu")), at: .seconds(3))),
            "another catalog movie's title is refused")
        #expect(observer.ended.map(\.0) == [1])
        let stats = try store.stats(packageId: plan.packageId, player: "tester")
        #expect(stats.attempts == 1 && stats.correct == 1 && stats.plays == 1)
        #expect(try store.packages(matching: .init(), limit: nil).rows.first { $0.id == plan.packageId }?.bestScore == 92)
    }

    @Test func aWholeTwentyFiveQuizPackageRunsOutItsClockWithoutWaiting() throws {
        let folder = try TemporaryFolder()
        let environment = try testEnvironment(folder)
        let play = PlayPackage(environment: environment, levels: .standard)
        let plan = try play.plan(packageId: try environment.store().packageID(for: "en-silent"))
        let observer = RecordingObserver()
        let summary = try play.run(plan, player: "idle", timeScale: 1, input: ScriptedInput([]), observer: observer)
        #expect(summary.results.count == 25)
        #expect(summary.results.allSatisfy { $0.outcome == .missed && $0.seconds == 20 && $0.score == 0 })
        #expect(observer.events.filter { if case .timeUp = $0 { true } else { false } }.count == 25)
        #expect(summary.shareLine.hasPrefix("UQuiz FE7NWW 0/25 🟥🟥"))
        #expect(try environment.store().stats(packageId: plan.packageId, player: "idle").attempts == 25)
    }

    @Test func quittingStopsThePlayWithTheQuizzesFinishedSoFar() throws {
        let folder = try TemporaryFolder()
        let environment = try testEnvironment(folder)
        let play = PlayPackage(environment: environment, levels: .standard)
        let plan = try play.plan(packageId: try environment.store().packageID(for: "en-silent"))
        let summary = try play.run(
            plan, player: "quitter", timeScale: 1,
            input: ScriptedInput([(1, .skip), (2, .pause), (30, .resume), (31, .quit)]), observer: RecordingObserver())
        #expect(summary.results.map(\.outcome) == [.skipped])
        #expect(try environment.store().stats(packageId: plan.packageId, player: "quitter").attempts == 1)
    }

    /// `uquiz stats` without a player reads the kept tallies; the same statistics counted from every attempt agree,
    /// for all packages and for one, after plays of two packages by two players.
    @Test func statisticsFromTheTalliesEqualTheAttemptsCounted() throws {
        let folder = try TemporaryFolder()
        let environment = try testEnvironment(folder)
        let store = try environment.store()
        let play = PlayPackage(environment: environment, levels: .standard)
        let silent = try play.plan(packageId: try store.packageID(for: "en-silent"), quiz: 1)
        let scripts: [[(Double, SolveAction)]] = [
            [(3.0, .guess("metropolis"))], [(1, .skip)], [(5.5, .hint), (7.2, .guess("Metropolis"))], [],
        ]
        for (index, script) in scripts.enumerated() {
            _ = try play.run(
                silent, player: index.isMultiple(of: 2) ? "ann" : "bob", timeScale: 1, input: ScriptedInput(script),
                observer: RecordingObserver())
        }
        let other = try store.packages(matching: .init(), limit: nil).rows.first { $0.id != silent.packageId }!
        let second = try play.plan(packageId: other.id)
        _ = try play.run(
            second, player: "ann", timeScale: 1, input: ScriptedInput([(1, .skip), (2, .skip), (3, .quit)]),
            observer: RecordingObserver())

        for packageId in [nil, silent.packageId, second.packageId] {
            let kept = try store.stats(packageId: packageId, player: nil)
            let counted = try #require(store as? AppDatabase).statsCountedFromEveryAttempt(packageId: packageId)
            #expect(kept == counted)
            #expect(kept.attempts > 0)
        }
        let all = try store.stats(packageId: nil, player: nil)
        #expect(all.plays == 5 && all.attempts == 6 && all.correct == 2 && all.packages.count == 2)
    }

    @Test func aShuffleSeedGivesTheSameOrderEveryTimeAndAMissingQuizIsATypedProblem() throws {
        let folder = try TemporaryFolder()
        let environment = try testEnvironment(folder)
        let play = PlayPackage(environment: environment, levels: .standard)
        let id = try environment.store().packageID(for: "en-silent")
        let first = try play.plan(packageId: id, shuffleSeed: 42).rounds.map(\.quiz.title)
        #expect(first == (try play.plan(packageId: id, shuffleSeed: 42).rounds.map(\.quiz.title)))
        #expect(first != (try play.plan(packageId: id).rounds.map(\.quiz.title)))
        #expect(throws: SolveError.noSuchQuiz(26, quizCount: 25)) { try play.plan(packageId: id, quiz: 26) }
    }
}
