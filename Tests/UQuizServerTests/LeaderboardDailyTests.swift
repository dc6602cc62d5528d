import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MovieSearch
import QuizCore
import QuizStore
import ServerUseCases
import Synchronization
import Testing
import UQuizServer
import UQuizStorage
import UQuizTestSupport

/// The wall clock, moved by hand: the daily quiz's day follows it.
final class ManualDate: Sendable {
    private let date = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: @Sendable () -> Date { { self.date.withLock { $0 } } }
    func advance(days: Int) { date.withLock { $0 += Double(days) * 86_400 } }
}

extension TestClientProtocol {
    /// Starts a play of `code` and, once its only quiz is on, guesses `text` after `after`; returns the play's id.
    func playOneQuiz(
        _ code: String, token: String, clock: ManualClock, guess text: String, after: Duration
    ) async throws -> String {
        let start = try await send(.post, "/v1/packages/\(code)/plays", token: token)
        guard let id = start.json["id"] as? String else { throw UnexpectedResponse(status: start.status.code, body: start.text) }
        clock.advance(.seconds(3) + after)
        let guess = try await send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": text], token: token)
        guard guess.status == .ok else { throw UnexpectedResponse(status: guess.status.code, body: guess.text) }
        return id
    }
}

@Suite("Leaderboards, the daily quiz and movie search")
struct LeaderboardDailyTests {
    @Test func aNewNameShowsOnTheBoardAndThePlayersPageListsTheirPlays() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            let code = try await client.publish(validSpec(title: "Pixar night"), token: maker)
            let ada = try await client.newPlayer("Guest 4816")
            _ = try await client.playOneQuiz(code, token: ada, clock: clock, guess: "Toy Story", after: .milliseconds(1500))

            let renamed = try await client.send(.patch, "/v1/players/me", json: ["name": "Ada"], token: ada)
            #expect(renamed.status == .ok && renamed.json["name"] as? String == "Ada", "\(renamed.text)")
            let board = try await client.send(.get, "/v1/packages/\(code)/leaderboard")
            #expect((board.json["top"] as? [[String: Any]])?.map { $0["player"] as? String } == ["Ada"])

            let me = try await client.send(.get, "/v1/players/me", token: ada)
            #expect(me.status == .ok && me.json["name"] as? String == "Ada")
            let plays = try #require(me.json["plays"] as? [String: Any])
            #expect(plays["plays"] as? Int == 1 && plays["solved"] as? Int == 1 && plays["played"] as? Int == 1)
            #expect(plays["points"] as? Int == 273 && plays["averageStage"] as? Double == 1)
            #expect(plays["solvedAtStage"] as? [[String: Int]] == [["stage": 1, "solved": 1]], "what the chart of stages draws")
            let recent = try #require((me.json["recentPlays"] as? [[String: Any]])?.first)
            #expect(recent["shareCode"] as? String == code && recent["title"] as? String == "Pixar night")
            #expect(recent["score"] as? Int == 273 && recent["ranked"] as? Bool == true)
            #expect((me.json["daily"] as? [String: Any])?["streak"] as? Int == 0)

            // Refused names leave the name as it was; so does a request without a player.
            for bad in ["", "   ", "Ada\u{7}", String(repeating: "n", count: 300), "Ada\u{202E}nimda", "Ad\u{200B}a"] {
                let refused = try await client.send(.patch, "/v1/players/me", json: ["name": bad], token: ada)
                #expect(refused.status == .unprocessableContent, "\(bad.debugDescription): \(refused.text)")
            }
            #expect(try await client.send(.patch, "/v1/players/me", raw: "{", token: ada).status == .badRequest)
            #expect(try await client.send(.patch, "/v1/players/me", json: ["name": "Eve"]).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/players/me", token: ada).json["name"] as? String == "Ada")
        }
    }

    @Test func theFirstFinishedPlayIsRankedAndTiesGoToTheQuicker() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            let code = try await client.publish(validSpec(), token: maker)
            let ada = try await client.newPlayer("Ada")
            let bo = try await client.newPlayer("Bo")
            let cy = try await client.newPlayer("Cy")
            let dee = try await client.newPlayer("Dee")
            // Ada: 1.5 s; Bo: 1.6 s, the same stage, a point less; Dee skips after 1 s; Cy lets the time run out.
            _ = try await client.playOneQuiz(code, token: ada, clock: clock, guess: "Toy Story", after: .milliseconds(1500))
            _ = try await client.playOneQuiz(code, token: bo, clock: clock, guess: "Toy Story", after: .milliseconds(1600))
            let deeFirst = try await client.playOneQuiz(code, token: dee, clock: clock, guess: "Cars", after: .seconds(1))
            #expect(try await client.send(.post, "/v1/plays/\(deeFirst)/skips", json: ["quiz": 1], token: dee).status == .ok)
            let cyPlay = try #require(try await client.send(.post, "/v1/packages/\(code)/plays", token: cy).json["id"] as? String)
            clock.advance(.seconds(24))
            #expect(try await client.send(.get, "/v1/plays/\(cyPlay)", token: cy).quizzes[0]["status"] as? String == "missed")
            // Dee's replay is better, but the skipped first play is the ranked one.
            let replay = try await client.playOneQuiz(code, token: dee, clock: clock, guess: "Toy Story", after: .milliseconds(500))
            let replayState = try await client.send(.get, "/v1/plays/\(replay)", token: dee)
            #expect(replayState.json["finished"] as? Bool == true && replayState.json["ranked"] as? Bool == false)

            let board = try await client.send(.get, "/v1/packages/\(code)/leaderboard?around=me", token: bo)
            #expect(board.status == .ok)
            let top = try #require(board.json["top"] as? [[String: Any]])
            #expect(top.map { $0["player"] as? String } == ["Ada", "Bo", "Dee", "Cy"], "0 and 0: Dee took less time")
            #expect(top.map { $0["rank"] as? Int } == [1, 2, 3, 4])
            #expect(top.map { $0["score"] as? Int } == [273, 272, 0, 0])
            #expect(board.json["rankedPlays"] as? Int == 4)
            #expect((board.json["me"] as? [String: Any])?["player"] as? String == "Bo")
            #expect((board.json["me"] as? [String: Any])?["rank"] as? Int == 2)
            #expect(board.json["quizzes"] == nil, "only the maker sees how each quiz fares")

            let makers = try await client.send(.get, "/v1/packages/\(code)/leaderboard", token: maker)
            let quizzes = try #require(makers.json["quizzes"] as? [[String: Any]])
            #expect(quizzes.count == 1)
            #expect(quizzes[0]["attempts"] as? Int == 5 && quizzes[0]["solved"] as? Int == 3)
            #expect(quizzes[0]["solveRate"] as? Double == 0.6)
            #expect(quizzes[0]["averageStage"] as? Double == 1)
            // The three solves all came at stage 1 of the quiz's 3; scores in round bins, everyone's.
            let stageCount = try server.quiz(code, 1).areas.count
            #expect(quizzes[0]["solvedAtStage"] as? [[String: Int]] == (1...stageCount).map { ["stage": $0, "solved": $0 == 1 ? 3 : 0] })
            let bins = try #require(board.json["scores"] as? [[String: Int]])
            #expect(bins.map { $0["plays"]! }.reduce(0, +) == 4 && bins.first?["from"] == 0)
            let ranked = [273, 272, 0, 0]
            for bin in bins {
                #expect(bin["plays"] == ranked.filter { bin["from"]! <= $0 && $0 <= bin["to"]! }.count, "\(bin)")
            }

            let anonymous = try await client.send(.get, "/v1/packages/\(code)/leaderboard")
            #expect(anonymous.status == .ok && anonymous.json["me"] == nil)
            #expect(try await client.send(.get, "/v1/packages/\(code)/leaderboard?around=me").status == .unauthorized)
            let bad = try await client.send(.get, "/v1/packages/\(code)/leaderboard?around=you", token: bo)
            #expect(bad.status == .badRequest && bad.errorMessage.hasPrefix("around:"))
            #expect(try await client.send(.get, "/v1/packages/ZZZZZZ/leaderboard").status == .notFound)
        }
    }

    /// A ranked result (a package's board, the daily streak) is one its player earned without having been shown the
    /// answer before: not by its maker, not after a live room on the package, not after the daily quiz that is one of
    /// its quizzes, and not a daily quiz whose package the player played before. Such plays are scored, not ranked,
    /// and say why.
    @Test func aRankedResultIsOneEarnedWithoutKnowingTheAnswer() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            func finish(_ start: TestResponse, token: String) async throws -> [String: Any] {
                let id = try #require(start.json["id"] as? String, "\(start.text)")
                for quiz in 1...start.quizzes.count {
                    clock.advance(.seconds(4))
                    let skip = try await client.send(.post, "/v1/plays/\(id)/skips", json: ["quiz": quiz], token: token)
                    #expect(skip.status == .ok, "\(skip.text)")
                }
                return try await client.send(.get, "/v1/plays/\(id)", token: token).json
            }
            func playPackage(_ code: String, token: String) async throws -> [String: Any] {
                try await finish(try await client.send(.post, "/v1/packages/\(code)/plays", token: token), token: token)
            }
            func playerId(_ token: String) async throws -> Int64 {
                Int64(try #require(try await client.send(.get, "/v1/players/me", token: token).json["id"] as? Int))
            }

            let maker = try await client.newPlayer("Maker")
            let code = try await client.publish(validSpec(), token: maker)
            let own = try await playPackage(code, token: maker)
            #expect(own["ranked"] as? Bool == false && own["unrankedReason"] as? String == "maker")

            // Bo's first play is ranked; his second is not, and says why.
            let bo = try await client.newPlayer("Bo")
            let first = try await playPackage(code, token: bo)
            #expect(first["ranked"] as? Bool == true && first["unrankedReason"] == nil)
            let second = try await playPackage(code, token: bo)
            #expect(second["ranked"] as? Bool == false && second["unrankedReason"] as? String == "answer_seen_in_play")

            // A live room on the package ended with Ada in it: its answers were named to her.
            let ada = try await client.newPlayer("Ada")
            let packageId = try server.file.packageID(for: code)
            try await server.database.insertRoomResults([RoomResultRow(
                roomCode: "K7QF", packageId: packageId, playerId: try await playerId(ada), name: "Ada", rank: 1, score: 0,
                solved: 0, played: 1, shareLine: nil, finishedAt: Date())])
            let afterRoom = try await playPackage(code, token: ada)
            #expect(afterRoom["ranked"] as? Bool == false && afterRoom["unrankedReason"] as? String == "answer_seen_in_room")
            // Eve skips the first quiz of another package, whose play she leaves open: that quiz is on this package's
            // movie (a twin), so its answer is out when she plays this one.
            let eve = try await client.newPlayer("Eve")
            let specQuiz = try #require((validSpec()["quizzes"] as? [[String: Any]])?.first)
            var twins = validSpec(title: "Twins")
            twins["quizzes"] = [specQuiz, specQuiz.merging(["movie": 19]) { $1 }]
            let twinsCode = try await client.publish(twins, token: maker)
            let open = try await client.send(.post, "/v1/packages/\(twinsCode)/plays", token: eve)
            let openId = try #require(open.json["id"] as? String, "\(open.text)")
            clock.advance(.seconds(4))
            #expect(try await client.send(.post, "/v1/plays/\(openId)/skips", json: ["quiz": 1], token: eve).status == .ok)
            let afterTwin = try await playPackage(code, token: eve)
            #expect(afterTwin["ranked"] as? Bool == false && afterTwin["unrankedReason"] as? String == "answer_seen_in_play")
            #expect(try await client.send(.get, "/v1/plays/\(openId)", token: eve).json["finished"] as? Bool == false)

            let board = try await client.send(.get, "/v1/packages/\(code)/leaderboard")
            #expect((board.json["top"] as? [[String: Any]])?.map { $0["player"] as? String } == ["Bo"])

            // The daily quiz is a quiz of a package. Cy plays the daily, then that package: not ranked.
            let daily = try await client.send(.get, "/v1/daily")
            let dailyCode = try #require(daily.json["shareCode"] as? String)
            let cy = try await client.newPlayer("Cy")
            let cyDaily = try await finish(try await client.send(.post, "/v1/daily/plays", token: cy), token: cy)
            #expect(cyDaily["unrankedReason"] == nil)
            let cyPackage = try await playPackage(dailyCode, token: cy)
            #expect(cyPackage["ranked"] as? Bool == false && cyPackage["unrankedReason"] as? String == "answer_seen_in_play")

            // Dee plays the package first: her daily play, solved, is scored but counts for no streak.
            let dee = try await client.newPlayer("Dee")
            let deePackage = try await playPackage(dailyCode, token: dee)
            #expect(deePackage["ranked"] as? Bool == true)
            let quiz = try server.quiz(dailyCode, try #require(daily.json["quiz"] as? Int))
            let deeStart = try await client.send(.post, "/v1/daily/plays", token: dee)
            let deeId = try #require(deeStart.json["id"] as? String)
            clock.advance(.seconds(4))
            let solved = try await client.send(.post, "/v1/plays/\(deeId)/guesses", json: ["quiz": 1, "text": quiz.title], token: dee)
            #expect(solved.json["judgement"] as? String == "accepted")
            #expect(solved.play["unrankedReason"] as? String == "answer_seen_in_play", "\(solved.text)")
            let streak = try await client.send(.get, "/v1/daily", token: dee)
            #expect((streak.json["you"] as? [String: Any])?["streak"] as? Int == 0)
            #expect(try await client.send(.get, "/v1/plays/\(deeId)", token: dee).json["unrankedReason"] as? String == "answer_seen_in_play")
        }
    }

    @Test func theLeaderboardHoldsTheTop100AndTheCallersRank() async throws {
        let server = try TestServer()
        let database = server.database
        let packageId = try server.file.packageID(for: silentClassics)
        var players: [Player] = []
        for index in 0..<105 {
            let player = try await database.insertPlayer(name: "P\(index)", tokenHash: Data([UInt8(index)]), at: Date())
            players.append(player)
            _ = try await database.recordServerPlay(FinishedServerPlay(
                publicId: "play-\(index)", packageId: packageId, player: player, startedAt: Date(), finishedAt: Date(),
                score: index * 10, elapsedSeconds: 5, dailyDay: nil, attempts: []))
        }
        let board = try await database.leaderboard(packageId: packageId, limit: 100, playerId: players[0].id)
        #expect(board.top.count == 100 && board.rankedPlays == 105)
        #expect(board.top.first?.player == "P104" && board.top.last?.player == "P5")
        #expect(board.mine?.rank == 105 && board.mine?.player == "P0")
        let second = try await database.recordServerPlay(FinishedServerPlay(
            publicId: "again", packageId: packageId, player: players[0], startedAt: Date(), finishedAt: Date(),
            score: 9_999, elapsedSeconds: 1, dailyDay: nil, attempts: []))
        #expect(!second, "a replay is not ranked")
        #expect(try await database.leaderboard(packageId: packageId, limit: 100, playerId: players[0].id).mine?.rank == 105)
    }

    @Test func theDailyQuizIsChosenOnceADayNumberedAndKeepsAStreak() async throws {
        let date = ManualDate()
        let server = try TestServer(now: date.now)
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let first = try await client.send(.get, "/v1/daily")
            #expect(first.status == .ok)
            #expect(first.json["number"] as? Int == 1 && first.json["day"] as? String == "2027-01-15")
            #expect(first.json["you"] == nil)
            let code = try #require(first.json["shareCode"] as? String)
            let position = try #require(first.json["quiz"] as? Int)
            let quiz = try server.quiz(code, position)
            #expect(!first.text.contains(quiz.title), "never the answer")

            // Publishing more does not reshuffle the day.
            let maker = try await client.newPlayer("Maker")
            for index in 0..<3 { _ = try await client.publish(validSpec(title: "More \(index)"), token: maker) }
            let again = try await client.send(.get, "/v1/daily")
            #expect(again.json["shareCode"] as? String == code && again.json["quiz"] as? Int == position)

            let token = try await client.newPlayer("Ada")
            let started = try await client.send(.post, "/v1/daily/plays", token: token)
            #expect(started.status == .created)
            #expect(started.json["daily"] as? Int == 1 && started.quizzes.count == 1)
            let id = try #require(started.json["id"] as? String)
            #expect(try await client.send(.post, "/v1/daily/plays", token: token).status == .conflict, "once a day")
            clock.advance(.seconds(4))
            let solved = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": quiz.title], token: token)
            #expect(solved.json["judgement"] as? String == "accepted")
            let score = try #require(solved.play["score"] as? Int)
            #expect(solved.play["shareLine"] as? String == "UQuiz daily #1 1/1 🟩 \(score) pts")
            #expect(solved.play["ranked"] as? Bool == false, "a daily play ranks no package")
            let mine = try await client.send(.get, "/v1/daily", token: token)
            let you = try #require(mine.json["you"] as? [String: Any])
            #expect(you["streak"] as? Int == 1 && you["bestStreak"] as? Int == 1)
            let days = (try await client.send(.get, "/v1/players/me", token: token).json["daily"] as? [String: Any])?["days"]
            let day = try #require((days as? [[String: Any]])?.first)
            #expect((days as? [Any])?.count == 1 && day["day"] as? String == "2027-01-15" && day["solved"] as? Bool == true)
            #expect((you["play"] as? [String: Any])?["id"] as? String == id)
            #expect(try await client.send(.post, "/v1/daily/plays", token: token).status == .conflict)

            date.advance(days: 1)
            let next = try await client.send(.get, "/v1/daily", token: token)
            #expect(next.json["number"] as? Int == 2 && next.json["day"] as? String == "2027-01-16")
            #expect(next.json["shareCode"] as? String != code || next.json["quiz"] as? Int != position, "another quiz")
            #expect((next.json["you"] as? [String: Any])?["streak"] as? Int == 1, "yesterday's solve still counts")
            #expect((next.json["you"] as? [String: Any])?["play"] == nil)
            date.advance(days: 2)
            let gap = try await client.send(.get, "/v1/daily", token: token)
            #expect(gap.json["number"] as? Int == 4, "numbered by the day, so an unasked day keeps its number")
            #expect((gap.json["you"] as? [String: Any])?["streak"] as? Int == 0)
            #expect((gap.json["you"] as? [String: Any])?["bestStreak"] as? Int == 1)
            #expect(try await client.send(.get, "/v1/daily", token: "not a token").status == .unauthorized)
        }
    }

    @Test func eachLanguageDrawsItsOwnDailyAndPastDaysArePlayedAgainUnranked() async throws {
        let date = ManualDate()
        let server = try TestServer(now: date.now)
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let english = try await client.send(.get, "/v1/daily?language=en")
            let korean = try await client.send(.get, "/v1/daily?language=ko")
            #expect(english.json["language"] as? String == "en" && english.json["number"] as? Int == 1)
            #expect(korean.json["language"] as? String == "ko" && korean.json["number"] as? Int == 1)
            #expect(english.json["shareCode"] as? String != korean.json["shareCode"] as? String)
            // Without `language`, the one Accept-Language prefers, as the page's.
            let preferred = try await client.execute(
                uri: "/v1/daily", method: .get, headers: [.acceptLanguage: "ko-KR,ko;q=0.9,en;q=0.5"])
            #expect(preferred.json["shareCode"] as? String == korean.json["shareCode"] as? String)
            #expect(try await client.send(.get, "/v1/daily?language=fr").status == .badRequest)

            // One daily a day counts: played in English, the Korean one says so and cannot be started.
            let ada = try await client.newPlayer("Ada")
            let started = try await client.send(.post, "/v1/daily/plays?language=en", token: ada)
            #expect(started.status == .created && started.quizzes.count == 1)
            let id = try #require(started.json["id"] as? String)
            clock.advance(.seconds(4))
            _ = try await client.send(.post, "/v1/plays/\(id)/skips", json: ["quiz": 1], token: ada)
            let seenInKorean = try await client.send(.get, "/v1/daily?language=ko", token: ada)
            let you = try #require(seenInKorean.json["you"] as? [String: Any])
            #expect(you["playedAnotherLanguage"] as? Bool == true && (you["play"] as? [String: Any])?["id"] as? String == id)
            #expect((try await client.send(.get, "/v1/daily?language=en", token: ada).json["you"] as? [String: Any])?["playedAnotherLanguage"] == nil)
            #expect(try await client.send(.post, "/v1/daily/plays?language=ko", token: ada).status == .conflict)
            // A Korean answer shows its original title beside it.
            let bo = try await client.newPlayer("Bo")
            let koreanPlay = try await client.send(.post, "/v1/daily/plays?language=ko", token: bo)
            clock.advance(.seconds(4))
            let skipped = try await client.send(
                .post, "/v1/plays/\(try #require(koreanPlay.json["id"] as? String))/skips", json: ["quiz": 1], token: bo)
            let koreanQuiz = try server.quiz(
                try #require(korean.json["shareCode"] as? String), try #require(korean.json["quiz"] as? Int))
            let shown = try #require(skipped.quizzes.first?["answer"] as? [String: Any], "\(skipped.text)")
            #expect(koreanQuiz.title != koreanQuiz.originalTitle)
            #expect(shown["title"] as? String == koreanQuiz.title && shown["original"] as? String == koreanQuiz.originalTitle)

            // Today is not in the archive; tomorrow it is, to play again unranked and outside the streak.
            let empty = try await client.send(.get, "/v1/daily/archive?language=en")
            #expect(empty.status == .ok && (empty.json["days"] as? [Any])?.isEmpty == true && empty.json["before"] == nil)
            let today = try #require(english.json["day"] as? String)
            #expect(try await client.send(.post, "/v1/daily/archive/\(today)/plays?language=en", token: ada).status == .notFound)
            date.advance(days: 1)
            let archive = try await client.send(.get, "/v1/daily/archive?language=en")
            let days = try #require(archive.json["days"] as? [[String: Any]])
            #expect(days.count == 1 && days[0]["day"] as? String == today && days[0]["number"] as? Int == 1)
            #expect(days[0]["shareCode"] as? String == english.json["shareCode"] as? String)
            #expect(try await client.send(.get, "/v1/daily?language=en").json["number"] as? Int == 2)
            let position = try #require(english.json["quiz"] as? Int)
            let answer = try server.quiz(try #require(english.json["shareCode"] as? String), position).title
            #expect(!archive.text.contains(answer), "never the answer")
            for _ in 0..<2 {
                let again = try await client.send(.post, "/v1/daily/archive/\(today)/plays?language=en", token: ada)
                #expect(again.status == .created && again.quizzes.count == 1 && again.json["daily"] == nil, "\(again.text)")
                let againId = try #require(again.json["id"] as? String)
                clock.advance(.seconds(4))
                let solved = try await client.send(
                    .post, "/v1/plays/\(againId)/guesses", json: ["quiz": 1, "text": answer], token: ada)
                #expect(solved.json["judgement"] as? String == "accepted", "\(solved.text)")
                #expect(solved.play["ranked"] as? Bool == false && solved.play["unrankedReason"] as? String == "daily_archive")
            }
            let streak = try await client.send(.get, "/v1/daily?language=en", token: ada).json["you"] as? [String: Any]
            #expect(streak?["streak"] as? Int == 0 && streak?["play"] == nil, "an archived day is no daily play")
            #expect(try await client.send(.post, "/v1/daily/archive/2027-1-15/plays?language=en", token: ada).status == .badRequest)
            #expect(try await client.send(.post, "/v1/daily/archive/2020-01-01/plays?language=en", token: ada).status == .notFound)
            #expect(try await client.send(.get, "/v1/daily/archive?language=en&limit=0").status == .badRequest)
            #expect(try await client.send(.get, "/v1/daily/archive?language=en&before=yesterday").status == .badRequest)
        }
    }

    @Test func aDeletedDailyQuizLeavesItsDayEmptyRatherThanReshuffled() async throws {
        let date = ManualDate()
        let server = try TestServer(now: date.now)
        try await server.test { client in
            let first = try await client.send(.get, "/v1/daily")
            let code = try #require(first.json["shareCode"] as? String)
            // Another package in the daily's language with a poster the server holds, for the next day to draw.
            let maker = try await client.newPlayer("Maker")
            var another = validSpec(title: "Another")
            another["quizzes"] = [["movie": 19, "areas": Array(seedAreas.prefix(3))]]
            _ = try await client.publish(another, token: maker)
            try await server.database.deletePackages(ids: [try server.file.packageID(for: code)])
            let gone = try await client.send(.get, "/v1/daily")
            #expect(gone.status == .notFound && gone.errorMessage.contains("#1 was deleted"))
            let token = try await client.newPlayer()
            #expect(try await client.send(.post, "/v1/daily/plays", token: token).status == .notFound)
            date.advance(days: 1)
            let next = try await client.send(.get, "/v1/daily")
            #expect(next.status == .ok && next.json["number"] as? Int == 2)
        }
    }

    @Test func movieSearchNeedsATokenAnswersFromTheCatalogAndIsLimited() async throws {
        let clock = ManualClock()
        let limits = ServerConfiguration(movieSearches: RateLimit(burst: 2, interval: .seconds(1)))
        try await TestServer().test(configuration: limits, monotonicNow: clock.now) { client in
            #expect(try await client.send(.get, "/v1/movies?q=toy").status == .unauthorized)
            let token = try await client.newPlayer("Maker")
            let found = try await client.send(.get, "/v1/movies?q=toy%20story", token: token)
            #expect(found.status == .ok)
            #expect(found.json["source"] as? String == "catalog", "no TMDB credentials here")
            let results = try #require(found.json["results"] as? [[String: Any]])
            #expect(results.contains { $0["tmdbId"] as? Int == 862 && $0["title"] as? String == "Toy Story" })
            for (query, field) in [("", "q:"), ("q=%20", "q:"), ("q=x&language=fr", "language:"), ("q=x&page=0", "page:"), ("q=x&year=99", "year:")] {
                let response = try await client.send(.get, "/v1/movies?\(query)", token: token)
                #expect(response.status == .badRequest && response.errorMessage.hasPrefix(field), "\(query)")
            }
            #expect(try await client.send(.get, "/v1/movies?q=metropolis", token: token).status == .ok)
            let limited = try await client.send(.get, "/v1/movies?q=nosferatu", token: token)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "1")
        }
    }

    /// Whatever TMDB does wrong (refuses the credentials, has nothing there, sends what is not JSON, answers too late),
    /// a maker's search is answered from the catalog, never a 500, and its secret reaches no answer.
    @Test(arguments: ["status=401", "status=404", "malformed", "delay-ms=4000"])
    func movieSearchFallsBackToTheCatalogOnAnyUpstreamFailure(_ fault: String) async throws {
        let tmdb = try FakeServerProcess(["--api-key", "sekrit-key", "--fault", "/3/search/movie;\(fault)"])
        let client = TMDBClient(
            settings: TMDBSettings(apiURL: tmdb.apiURL, imageURL: tmdb.imageURL, credentials: .apiKey("sekrit-key")),
            transport: CurlTransport(options: .init(userAgent: "uquiz/test", connectTimeout: 2, totalTimeout: 10)),
            cache: nil, retry: RetryPolicy(maxAttempts: 1, totalBudget: .seconds(10), baseDelay: .zero, maxDelay: .zero))
        let server = try TestServer(movieClient: client)
        let configuration = ServerConfiguration(tmdbSearchDeadline: .milliseconds(500))
        try await server.test(configuration: configuration) { http in
            let token = try await http.newPlayer("Maker")
            let found = try await http.send(.get, "/v1/movies?q=toy%20story", token: token)
            #expect(found.status == .ok, "\(fault): \(found.text)")
            #expect(found.json["source"] as? String == "catalog", "\(fault)")
            #expect((found.json["results"] as? [[String: Any]])?.contains { $0["tmdbId"] as? Int == 862 } == true)
            #expect(!found.text.contains("sekrit"))
        }
    }
}
