import Foundation
import Synchronization
import QuizCore
@testable import PostgresStore
@testable import QuizStore
import UQuizStorage
import Testing

/// Server plays, leaderboards, solve statistics and the daily quiz: the same answers from SQLite and PostgreSQL.
@Suite struct PlayContractTests {
    @Test(arguments: StoreKind.allCases)
    func thePlayersFirstNonDailyPlayIsRanked(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 2), on: store)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            #expect(try await !recordPlay(on: store, packageId: id, player: ann, score: 50, daily: "2026-11-23", publicId: "daily-1"))
            #expect(try await recordPlay(on: store, packageId: id, player: ann, score: 100, publicId: "first"))
            #expect(try await !recordPlay(on: store, packageId: id, player: ann, score: 900, publicId: "second"))
            let stored = try #require(try await store.serverPlay(publicId: "first"))
            #expect(stored.ranked && stored.score == 100 && stored.packageId == id && stored.playerId == ann.id)
            #expect(stored.elapsedSeconds == 30 && stored.dailyDay == nil)
            let quizIDs = try await store.quizIDs(packageId: id)
            #expect(stored.attempts.map(\.quizId) == quizIDs)
            #expect(stored.attempts[0].result == QuizResult(outcome: .solved, seconds: 10, stageReached: 2, hintsUsed: 0, score: 100))
            #expect(try await store.serverPlay(publicId: "daily-1")?.dailyDay == "2026-11-23")
            #expect(try await store.serverPlay(publicId: "second")?.ranked == false)
            #expect(try await store.serverPlay(publicId: "nope") == nil)
            // The same public id twice is refused, and nothing of the second is kept.
            await #expect(throws: (any Error).self) { try await recordPlay(on: store, packageId: id, player: ann, score: 1, publicId: "first") }
            #expect(try await store.publishedPackage(shareCode: ShareCode("AAAAA2")!)?.plays == 3)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func leaderboardRanksTiesAndMine(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            var players: [Player] = []
            for index in 0..<5 {
                players.append(try await store.insertPlayer(name: "P\(index)", tokenHash: tokenHash(UInt8(20 + index)), at: Date()))
            }
            // P0 300 in 40 s, P1 300 in 20 s, P2 300 in 40 s (ties P0), P3 100, P4 50.
            for (index, (score, elapsed)) in [(300, 40.0), (300, 20.0), (300, 40.0), (100, 10.0), (50, 5.0)].enumerated() {
                try await recordPlay(on: store, packageId: id, player: players[index], score: score, elapsed: elapsed)
            }
            let board = try await store.leaderboard(packageId: id, limit: 3, playerId: players[4].id)
            #expect(board.rankedPlays == 5)
            #expect(board.top.map(\.player) == ["P1", "P0", "P2"])
            #expect(board.top.map(\.rank) == [1, 2, 2])
            #expect(board.mine?.rank == 5 && board.mine?.player == "P4" && board.mine?.score == 50)
            #expect(try await store.leaderboard(packageId: id, limit: 3, playerId: players[1].id).mine?.rank == 1)
            #expect(board.scoreCounts == [300: 3, 100: 1, 50: 1], "every ranked play, by score")
            // An unranked play (the player's second) is not in the distribution.
            try await recordPlay(on: store, packageId: id, player: players[3], score: 999, elapsed: 1)
            #expect(try await store.leaderboard(packageId: id, limit: 3, playerId: nil).scoreCounts == [300: 3, 100: 1, 50: 1])
            let empty = try await store.leaderboard(packageId: id + 1000, limit: 3, playerId: nil)
            #expect(empty.top.isEmpty && empty.mine == nil && empty.rankedPlays == 0 && empty.scoreCounts.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func quizSolveStatsCountAttemptsAndSolves(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 2), on: store)
            let quizzes = try await store.quizIDs(packageId: id)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let bob = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            _ = try await store.recordServerPlay(FinishedServerPlay(
                publicId: "a", packageId: id, player: ann, startedAt: Date(), finishedAt: Date(), score: 1, elapsedSeconds: 1,
                dailyDay: nil, attempts: [attempt(quizId: quizzes[0], solved: true, stage: 2), attempt(quizId: quizzes[1], solved: false)]))
            _ = try await store.recordServerPlay(FinishedServerPlay(
                publicId: "b", packageId: id, player: bob, startedAt: Date(), finishedAt: Date(), score: 1, elapsedSeconds: 1,
                dailyDay: nil, attempts: [attempt(quizId: quizzes[0], solved: true, stage: 3, hints: 1), attempt(quizId: quizzes[1], solved: false)]))
            #expect(try await store.quizSolveStats(packageId: id) == [
                QuizSolveStats(position: 1, attempts: 2, solved: 2, averageStage: 2.5, hinted: 1, solvedAtStage: [2: 1, 3: 1]),
                QuizSolveStats(position: 2, attempts: 2, solved: 0, averageStage: nil, hinted: 0),
            ])
            let totals = try await store.playerPlayTotals(playerId: bob.id)
            #expect(totals.solved == 1 && totals.played == 2 && totals.solvedAtStage == [3: 1])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aQuizsMostCommonWrongGuessesAreCountedByPlays(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 2), on: store)
            let quizzes = try await store.quizIDs(packageId: id)
            // Seven plays: "nosferatu" in five, "faust" in four, "sunrise" in three, then four guesses once each.
            let guesses: [[String]] = [
                ["nosferatu", "faust", "sunrise", "greed"], ["nosferatu", "faust", "sunrise"], ["nosferatu", "faust", "sunrise"],
                ["nosferatu", "faust", "haxan"], ["nosferatu", "earth"], ["carmen"], [],
            ]
            for (index, wrong) in guesses.enumerated() {
                let player = try await store.insertPlayer(name: "P\(index)", tokenHash: tokenHash(UInt8(index + 1)), at: Date())
                _ = try await store.recordServerPlay(FinishedServerPlay(
                    publicId: "p\(index)", packageId: id, player: player, startedAt: Date(), finishedAt: Date(), score: 0,
                    elapsedSeconds: 1, dailyDay: nil,
                    attempts: [attempt(quizId: quizzes[0], solved: false, wrong: wrong), attempt(quizId: quizzes[1], solved: false)]))
            }
            let stats = try await store.quizSolveStats(packageId: id)
            // The most plays first; a tie in the order of the text.
            #expect(stats.map(\.commonWrongGuesses) == [["nosferatu", "faust", "sunrise", "carmen", "earth"], []])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theDailyQuizIsChosenOncePerDayAndNumbered(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            #expect(try await store.daily(day: "2026-11-20", language: .en, chosenAt: Date(), among: .everyQuiz, number: { _ in 1 }, pick: { _ in 0 }) == nil)
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 3), on: store)
            let quizzes = try await store.quizIDs(packageId: id)
            let first = try #require(try await store.daily(day: "2026-11-20", language: .en, chosenAt: Date(), among: .everyQuiz, number: { _ in 1 }, pick: { _ in 1 }))
            #expect(first == DailyChoice(day: "2026-11-20", language: .en, number: 1, quizId: quizzes[1], packageId: id, position: 1))
            // Asked again: the same choice, whatever `pick` says now.
            #expect(try await store.daily(day: "2026-11-20", language: .en, chosenAt: Date(), among: .everyQuiz, number: { _ in 7 }, pick: { _ in 2 }) == first)
            let firstDaySeen = Mutex<String?>(nil)
            let second = try #require(try await store.daily(
                day: "2026-11-21", language: .en, chosenAt: Date(), among: .everyQuiz, number: { first in firstDaySeen.withLock { $0 = first }; return 2 },
                pick: { candidates in
                    #expect(candidates == [quizzes[0], quizzes[2]])
                    return 0
                }))
            #expect(firstDaySeen.withLock { $0 } == "2026-11-20")
            #expect(second.number == 2 && second.quizId == quizzes[0])
            // A number taken (a clock set back) gets the next free one.
            let third = try #require(try await store.daily(day: "2026-11-19", language: .en, chosenAt: Date(), among: .everyQuiz, number: { _ in 1 }, pick: { _ in 0 }))
            #expect(third.number == 3 && third.quizId == quizzes[2])
            // Every quiz chosen once: all are candidates again.
            let fourth = try #require(try await store.daily(day: "2026-11-22", language: .en, chosenAt: Date(), among: .everyQuiz, number: { _ in 4 }, pick: { $0.count - 1 }))
            #expect(fourth.quizId == quizzes[2])
            #expect(try await store.dailyChoice(day: "2026-11-21", language: .en) == second)
            #expect(try await store.dailyChoice(day: "2026-12-01", language: .en) == nil)
            // Deleting the package leaves the days, without a quiz.
            try await store.deletePackages(ids: [id])
            #expect(try await store.dailyChoice(day: "2026-11-20", language: .en) == DailyChoice(day: "2026-11-20", language: .en, number: 1, quizId: nil, packageId: nil, position: nil))
        }
    }

    /// Each language draws its own daily quiz from its own packages, numbered from its own first day; the archive
    /// lists a language's days before a given one, newest first.
    @Test(arguments: StoreKind.allCases)
    func eachLanguageDrawsItsOwnDailyQuizAndKeepsAnArchive(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (english, _) = try await publish(makePackage(code: "AAAAA2", language: .en, quizzes: 2), on: store)
            let (korean, _) = try await publish(
                makePackage(code: "BBBBB3", language: .ko, quizzes: 2, firstFilm: 10), on: store)
            let englishQuizzes = try await store.quizIDs(packageId: english)
            let koreanQuizzes = try await store.quizIDs(packageId: korean)
            let seen = Mutex<[Int64]>([])
            let firstKorean = try #require(try await store.daily(
                day: "2026-11-20", language: .ko, chosenAt: Date(), among: .everyQuiz, number: { _ in 1 },
                pick: { candidates in seen.withLock { $0 = candidates }; return 0 }))
            #expect(seen.withLock { $0 } == koreanQuizzes)
            #expect(firstKorean == DailyChoice(
                day: "2026-11-20", language: .ko, number: 1, quizId: koreanQuizzes[0], packageId: korean, position: 0))
            // English's first day is a day later: its own #1, its numbers counted from its own first day.
            let firstDays = Mutex<[String?]>([])
            let firstEnglish = try #require(try await store.daily(
                day: "2026-11-21", language: .en, chosenAt: Date(), among: .everyQuiz,
                number: { first in firstDays.withLock { $0.append(first) }; return 1 },
                pick: { candidates in seen.withLock { $0 = candidates }; return 1 }))
            #expect(seen.withLock { $0 } == englishQuizzes)
            #expect(firstEnglish.number == 1 && firstEnglish.language == .en && firstEnglish.quizId == englishQuizzes[1])
            _ = try await store.daily(
                day: "2026-11-22", language: .en, chosenAt: Date(), among: .everyQuiz,
                number: { first in firstDays.withLock { $0.append(first) }; return 2 }, pick: { _ in 0 })
            #expect(firstDays.withLock { $0 } == [nil, "2026-11-21"])
            _ = try await store.daily(
                day: "2026-11-22", language: .ko, chosenAt: Date(), among: .everyQuiz, number: { _ in 3 }, pick: { _ in 0 })
            #expect(try await store.dailyChoice(day: "2026-11-20", language: .en) == nil)
            #expect(try await store.dailyChoice(day: "2026-11-20", language: .ko) == firstKorean)
            let archive = try await store.dailyArchive(language: .en, before: "2026-11-23", limit: 10)
            #expect(archive.map(\.day) == ["2026-11-22", "2026-11-21"])
            #expect(archive.map(\.number) == [2, 1])
            #expect(try await store.dailyArchive(language: .en, before: "2026-11-22", limit: 10) == [firstEnglish])
            #expect(try await store.dailyArchive(language: .ko, before: "2026-11-23", limit: 1).map(\.day) == ["2026-11-22"])
        }
    }

    /// Drawn among the posters held only, the daily quiz is one whose poster came with the seed or was uploaded.
    @Test(arguments: StoreKind.allCases)
    func theDailyQuizCanBeDrawnAmongPostersHeld(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var package = makePackage(code: "AAAAA2", quizzes: 3)
            package.quizzes[1].posterSource = .bundled
            package.quizzes[1].posterPath = "held.jpg"
            let (id, _) = try await publish(package, on: store)
            let quizzes = try await store.quizIDs(packageId: id)
            let seen = Mutex<[Int64]>([])
            let held = try #require(try await store.daily(
                day: "2026-11-20", language: .en, chosenAt: Date(), among: .postersHeld, number: { _ in 1 },
                pick: { candidates in seen.withLock { $0 = candidates }; return 0 }))
            #expect(seen.withLock { $0 } == [quizzes[1]])
            #expect(held.quizId == quizzes[1])
            // Every held poster drawn once: drawn again among them, never a TMDB one.
            let again = try #require(try await store.daily(
                day: "2026-11-21", language: .en, chosenAt: Date(), among: .postersHeld, number: { _ in 2 }, pick: { _ in 0 }))
            #expect(again.quizId == quizzes[1])
            let any = try #require(try await store.daily(
                day: "2026-11-22", language: .en, chosenAt: Date(), among: .everyQuiz, number: { _ in 3 },
                pick: { candidates in seen.withLock { $0 = candidates }; return 0 }))
            #expect(seen.withLock { $0 } == [quizzes[0], quizzes[2]])
            #expect(any.quizId == quizzes[0])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func dailyResultsAndPlayIds(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            try await recordPlay(on: store, packageId: id, player: ann, score: 100, daily: "2026-11-20", publicId: "d20", solved: true)
            try await recordPlay(on: store, packageId: id, player: ann, score: 0, daily: "2026-11-21", publicId: "d21", solved: false)
            let results = try await store.dailyResults(playerId: ann.id)
            #expect(results.map(\.day) == ["2026-11-21", "2026-11-20"])
            #expect(results.map(\.solved) == [false, true])
            #expect(try await store.dailyPlayId(playerId: ann.id, day: "2026-11-20") == "d20")
            #expect(try await store.dailyPlayId(playerId: ann.id, day: "2026-11-22") == nil)
            // One daily play per player and day.
            await #expect(throws: (any Error).self) {
                try await recordPlay(on: store, packageId: id, player: ann, score: 1, daily: "2026-11-20", publicId: "again")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPlayersHistoryListsTheirPlaysNewestFirstAndAddsThemUp(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(title: "Two films", code: "AAAAA2", quizzes: 2), on: store)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let bob = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            #expect(try await store.playerPlays(playerId: ann.id, limit: 10).isEmpty)
            #expect(try await store.playerPlayTotals(playerId: ann.id) == PlayerPlayTotals(
                plays: 0, points: 0, solved: 0, played: 0, averageStage: nil))
            try await recordPlay(on: store, packageId: id, player: ann, score: 200, publicId: "first")
            try await recordPlay(on: store, packageId: id, player: ann, score: 0, publicId: "second", solved: false)
            try await recordPlay(on: store, packageId: id, player: ann, score: 100, daily: "2026-11-20", publicId: "daily")
            try await recordPlay(on: store, packageId: id, player: bob, score: 900, publicId: "bobs")
            let plays = try await store.playerPlays(playerId: ann.id, limit: 10)
            #expect(plays.map(\.publicId) == ["daily", "second", "first"])
            #expect(plays[2] == PlayerPlayRow(
                publicId: "first", shareCode: "AAAAA2", title: "Two films", score: 200, solved: 2, played: 2, ranked: true,
                dailyDay: nil, finishedAt: plays[2].finishedAt))
            #expect(plays[1].solved == 0 && !plays[1].ranked)
            // A daily play is listed as the daily: its package's code is not handed out with it.
            #expect(plays[0].shareCode == nil && plays[0].dailyDay == "2026-11-20")
            #expect(try await store.playerPlays(playerId: ann.id, limit: 1).map(\.publicId) == ["daily"])
            #expect(try await store.playerPlayTotals(playerId: ann.id) == PlayerPlayTotals(
                plays: 3, points: 300, solved: 4, played: 6, averageStage: 2, solvedAtStage: [2: 4]))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func answersShownAndUnrankedPlays(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, maker) = try await publish(makePackage(code: "AAAAA2", quizzes: 2), on: store)
            let (other, _) = try await publish(makePackage(title: "Other", code: "BBBBB3", quizzes: 1, firstFilm: 5), on: store)
            let quizzes = try await store.quizIDs(packageId: id)
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let nothing = AnswersShown(maker: false, inPlay: false, inRoom: false)
            #expect(try await store.answersShown(playerId: ann.id, packageId: id, quizIds: quizzes, alsoShown: []) == nothing)
            #expect(try await store.answersShown(playerId: maker.id, packageId: id, quizIds: quizzes, alsoShown: []).maker)
            // A daily play of the package's second quiz shows that answer, and only that one.
            try await recordPlay(on: store, packageId: id, player: ann, score: 100, daily: "2026-11-20", publicId: "d")
            #expect(try await store.answersShown(playerId: ann.id, packageId: id, quizIds: [quizzes[1]], alsoShown: []).inPlay)
            #expect(try await store.answersShown(playerId: ann.id, packageId: other, quizIds: try await store.quizIDs(packageId: other), alsoShown: []) == nothing)
            // A twin: another package's quiz on the first quiz's movie. Playing it shows that answer too.
            let (twin, _) = try await publish(makePackage(title: "Twin", code: "CCCCC4", quizzes: 1), on: store)
            let cid = try await store.insertPlayer(name: "Cid", tokenHash: tokenHash(3), at: Date())
            #expect(try await !store.answersShown(playerId: cid.id, packageId: id, quizIds: quizzes, alsoShown: []).inPlay)
            try await recordPlay(on: store, packageId: twin, player: cid, score: 100, publicId: "twin")
            #expect(try await store.answersShown(playerId: cid.id, packageId: id, quizIds: [quizzes[0]], alsoShown: []).inPlay)
            #expect(try await !store.answersShown(playerId: cid.id, packageId: id, quizIds: [quizzes[1]], alsoShown: []).inPlay, "another movie")
            try await store.insertRoomResults([RoomResultRow(
                roomCode: "K7QF", packageId: other, playerId: ann.id, name: "Ann", rank: 1, score: 10, solved: 1, played: 1,
                shareLine: nil, finishedAt: Date())])
            #expect(try await store.answersShown(playerId: ann.id, packageId: other, quizIds: [], alsoShown: []).inRoom)
            // A room that named an answer to a player before any podium: the same.
            let bob = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            #expect(try await !store.answersShown(playerId: bob.id, packageId: other, quizIds: [], alsoShown: []).inRoom)
            try await store.recordAnswersShown(playerIds: [bob.id, ann.id], packageId: other)
            try await store.recordAnswersShown(playerIds: [bob.id], packageId: other)
            #expect(try await store.answersShown(playerId: bob.id, packageId: other, quizIds: [], alsoShown: []).inRoom)
            #expect(try await !store.answersShown(playerId: bob.id, packageId: id, quizIds: quizzes, alsoShown: []).inRoom)
            // A room on the twin names the first quiz's movie: the first quiz's answer is shown, the second's is not.
            let dee = try await store.insertPlayer(name: "Dee", tokenHash: tokenHash(4), at: Date())
            try await store.recordAnswersShown(playerIds: [dee.id], packageId: twin)
            #expect(try await store.answersShown(playerId: dee.id, packageId: id, quizIds: [quizzes[0]], alsoShown: []).inRoom)
            #expect(try await !store.answersShown(playerId: dee.id, packageId: id, quizIds: [quizzes[1]], alsoShown: []).inRoom)
            // Quizzes ended in a play still open show their answers, and their twins'.
            let twinQuiz = try await store.quizIDs(packageId: twin)
            #expect(try await store.answersShown(playerId: dee.id, packageId: id, quizIds: [quizzes[0]], alsoShown: twinQuiz).inPlay)
            #expect(try await store.answersShown(playerId: dee.id, packageId: id, quizIds: [quizzes[1]], alsoShown: [quizzes[1]]).inPlay)
            #expect(try await !store.answersShown(playerId: dee.id, packageId: id, quizIds: [quizzes[1]], alsoShown: twinQuiz).inPlay)
            // A play with a reason is kept but never ranked, and a daily one does not count as solved.
            #expect(try await !recordPlay(on: store, packageId: other, player: ann, score: 500, publicId: "roomed", unranked: .answerSeenInRoom))
            #expect(try await store.serverPlay(publicId: "roomed")?.unrankedReason == .answerSeenInRoom)
            #expect(try await store.leaderboard(packageId: other, limit: 10, playerId: ann.id).mine == nil)
            try await recordPlay(on: store, packageId: id, player: ann, score: 100, daily: "2026-11-21", publicId: "d2", unranked: .answerSeenInPlay)
            #expect(try await store.dailyResults(playerId: ann.id).map(\.solved) == [false, true])
        }
    }
}

/// Dailies chosen before each language drew its own: each day belongs to its quiz's package's language, keeps its
/// number, and the languages number on from there.
@Suite struct DailyMigrationTests {
    @Test(arguments: StoreKind.allCases)
    func eachEarlierDayGoesToItsQuizsLanguage(_ kind: StoreKind) async throws {
        switch kind {
        case .sqlite:
            let database = try AppDatabase.inMemoryForTesting(migratedThrough: "v18-one-open-play-per-package")
            let store = SQLiteServerStore(database: database, deadline: testDeadline)
            let quizzes = try await dailiesOfAnOlderBuild(on: store) { day, number, quizId in
                try await store.insertDailyOfAnOlderBuildForTesting(day: day, number: number, quizId: quizId)
            }
            try database.migrateForTesting()
            try await expectMigrated(store, quizzes: quizzes)
        case .postgres:
            try await FreshPostgresDatabase.with { database in
                try await PostgresQuizStore.withRunning(url: database.url, deadline: testDeadline, migrating: false) { store in
                    try await store.migrateForTesting(through: "pg12-one-open-play-per-package")
                    let quizzes = try await dailiesOfAnOlderBuild(on: store) { day, number, quizId in
                        try await store.insertDailyOfAnOlderBuildForTesting(day: day, number: number, quizId: quizId)
                    }
                    try await store.migrateForTesting(through: nil)
                    try await expectMigrated(store, quizzes: quizzes)
                }
            }
        }
    }

    /// An English and a Korean package, and the days #1 (English) and #2 (Korean) chosen from both; their quizzes.
    func dailiesOfAnOlderBuild(
        on store: any ContractStore, insert: (String, Int, Int64) async throws -> Void
    ) async throws -> (english: [Int64], korean: [Int64]) {
        let (english, _) = try await publish(makePackage(code: "AAAAA2", language: .en, quizzes: 2), on: store)
        let (korean, _) = try await publish(makePackage(code: "BBBBB3", language: .ko, quizzes: 2, firstFilm: 10), on: store)
        let quizzes = (try await store.quizIDs(packageId: english), try await store.quizIDs(packageId: korean))
        try await insert("2026-11-20", 1, quizzes.0[0])
        try await insert("2026-11-21", 2, quizzes.1[0])
        return quizzes
    }

    func expectMigrated(_ store: any ContractStore, quizzes: (english: [Int64], korean: [Int64])) async throws {
        #expect(try await store.dailyChoice(day: "2026-11-20", language: .en)?.quizId == quizzes.english[0])
        #expect(try await store.dailyChoice(day: "2026-11-20", language: .ko) == nil)
        #expect(try await store.dailyChoice(day: "2026-11-21", language: .ko)?.number == 2)
        // The next English day counts from English's first (the 20th), past the numbers taken.
        let firstDays = Mutex<[String?]>([])
        let next = try #require(try await store.daily(
            day: "2026-11-22", language: .en, chosenAt: Date(), among: .everyQuiz,
            number: { first in firstDays.withLock { $0.append(first) }; return 3 }, pick: { _ in 0 }))
        #expect(firstDays.withLock { $0 } == ["2026-11-20"])
        #expect(next.number == 3 && next.quizId == quizzes.english[1])
        // A Korean day may take the number 1, free in Korean.
        let korean = try await store.daily(
            day: "2026-11-19", language: .ko, chosenAt: Date(), among: .everyQuiz, number: { _ in 1 }, pick: { _ in 0 })
        #expect(korean?.number == 1 && korean?.quizId == quizzes.korean[1])
    }
}
