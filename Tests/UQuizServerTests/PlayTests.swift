import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalUseCases
import PosterArt
import PosterGrid
import QuizCore
import QuizStore
import ServerUseCases
import Synchronization
import Testing
import UQuizServer
import UQuizStorage
import UQuizWire

/// The server's monotonic clock, moved by hand: no test sleeps, and every time below is exact.
final class ManualClock: Sendable {
    private let instant = Mutex<Duration>(.seconds(1000))
    var now: @Sendable () -> Duration { { self.instant.withLock { $0 } } }
    func advance(_ duration: Duration) { instant.withLock { $0 += duration } }
}

/// The seed's "Silent Classics": beginner (5 stages of 2 s, 20 s to answer), English, bundled posters.
let silentClassics = "FE7NWW"

extension TestResponse {
    var quizzes: [[String: Any]] { json["quizzes"] as? [[String: Any]] ?? (json["play"] as? [String: Any])?["quizzes"] as? [[String: Any]] ?? [] }
    var play: [String: Any] { json["play"] as? [String: Any] ?? json }
}

extension TestServer {
    /// A quiz of a stored package as the store has it (what the server judges against; the client never sees it).
    func quiz(_ code: String, _ number: Int) throws -> Quiz {
        try file.package(id: try file.packageID(for: code)).quizzes[number - 1]
    }
}

@Suite("Plays judged by the server")
struct PlayTests {
    static let interlude = Duration.seconds(3)

    @Test func theStateFollowsTheServerClockAndHidesAnswersUntilAQuizEnds() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let first = try server.quiz(silentClassics, 1)
        try await server.test(monotonicNow: clock.now) { client in
            let token = try await client.newPlayer()
            let started = try await client.send(.post, "/v1/packages/\(silentClassics.lowercased())/plays", token: token)
            #expect(started.status == .created)
            let id = try #require(started.json["id"] as? String)
            #expect(started.headers[.location] == "/v1/plays/\(id)")
            #expect(started.quizzes.count == 25)
            #expect(started.quizzes[0]["status"] as? String == "waiting")
            #expect(started.quizzes[0]["startsInMs"] as? Int == 3000)
            #expect(started.quizzes[1]["startsInMs"] == nil, "only the next quiz knows when it starts")

            clock.advance(Self.interlude + .milliseconds(500))
            let playing = try await client.send(.get, "/v1/plays/\(id)", token: token)
            #expect(playing.status == .ok)
            let quiz = playing.quizzes[0]
            #expect(quiz["status"] as? String == "playing" && quiz["stage"] as? Int == 1)
            #expect(quiz["stagesInMs"] as? [Int] == [0, 1500, 3500, 5500, 7500])
            #expect(quiz["endsInMs"] as? Int == 19_500)
            #expect(quiz["answer"] == nil)
            for secret in [first.title, first.posterPath, "tmdb", "poster"] {
                #expect(!playing.text.contains(secret), "\(secret) is not sent before the quiz ends")
            }

            clock.advance(.seconds(2))
            #expect(try await client.send(.get, "/v1/plays/\(id)", token: token).quizzes[0]["stage"] as? Int == 2)

            // Time runs out 20 s after the quiz started; the next starts 3 s after that.
            clock.advance(.milliseconds(17_500))
            let missed = try await client.send(.get, "/v1/plays/\(id)", token: token)
            #expect(missed.quizzes[0]["status"] as? String == "missed")
            let answer = try #require(missed.quizzes[0]["answer"] as? [String: Any])
            #expect(answer["title"] as? String == first.title && answer["year"] as? String == first.releaseYear)
            #expect((missed.quizzes[0]["result"] as? [String: Any])?["score"] as? Int == 0)
            #expect(missed.quizzes[1]["status"] as? String == "waiting")
            #expect(missed.quizzes[1]["startsInMs"] as? Int == 3000)
            #expect(missed.json["currentQuiz"] as? Int == 2)
            #expect(!missed.text.contains(try server.quiz(silentClassics, 2).title))
        }
    }

    @Test func aStagePosterNeverShowsMoreThanTheClockHasReached() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let quiz = try server.quiz(silentClassics, 1)
        let original = try #require(try await server.database.bundledPoster(fileName: quiz.posterPath))
        @Sendable func cut(_ stages: Int) throws -> Data {
            try StagePoster.cut(jpeg: original, geometry: quiz.geometry, revealed: Array(quiz.areas.prefix(stages)))
        }
        try await server.test(monotonicNow: clock.now) { client in
            let token = try await client.newPlayer()
            let id = try #require(
                try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).json["id"] as? String)
            let early = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster?stage=1", token: token)
            #expect(early.status == .conflict, "nothing of a quiz before it starts")
            #expect(early.errorMessage.contains("starts in 3000 ms"))
            #expect(try await client.send(.get, "/v1/plays/\(id)/quizzes/2/poster", token: token).status == .conflict)

            clock.advance(Self.interlude)
            let stage1 = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster?stage=1", token: token)
            #expect(stage1.status == .ok && stage1.headers[.contentType] == "image/jpeg")
            #expect(stage1.headers[.cacheControl] == "private, no-store")
            #expect(Data(stage1.body.readableBytesView) == (try cut(1)))
            let asked5 = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster?stage=5", token: token)
            #expect(Data(asked5.body.readableBytesView) == (try cut(1)), "stage 5 before its time is stage 1")
            let current = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster", token: token)
            #expect(Data(current.body.readableBytesView) == (try cut(1)))

            clock.advance(.seconds(2))
            let stage2 = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster?stage=5", token: token)
            #expect(Data(stage2.body.readableBytesView) == (try cut(2)))
            #expect(try cut(2) != (try cut(1)))
            let asked1 = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster?stage=1", token: token)
            #expect(Data(asked1.body.readableBytesView) == (try cut(1)), "an earlier stage is still there")

            for bad in ["stage=0", "stage=6", "stage=two"] {
                let response = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster?\(bad)", token: token)
                #expect(response.status == .badRequest && response.errorMessage.hasPrefix("stage:"), "\(bad)")
            }
            let noQuiz = try await client.send(.get, "/v1/plays/\(id)/quizzes/26/poster", token: token)
            #expect(noQuiz.status == .badRequest && noQuiz.errorMessage.hasPrefix("quiz:"))

            #expect(try await client.send(.post, "/v1/plays/\(id)/skips", json: ["quiz": 1], token: token).status == .ok)
            let whole = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster?stage=1", token: token)
            #expect(Data(whole.body.readableBytesView) == original, "an ended quiz shows its whole poster")
        }
    }

    /// What a finished play opened (answers, whole posters) stays with it: the same player's next play of the package,
    /// and another player's, learn nothing early from it.
    @Test func aFinishedPlayOpensNothingOfAnotherPlay() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let quiz = try server.quiz(silentClassics, 1)
        let original = try #require(try await server.database.bundledPoster(fileName: quiz.posterPath))
        let stage1 = try StagePoster.cut(jpeg: original, geometry: quiz.geometry, revealed: Array(quiz.areas.prefix(1)))
        try await server.test(monotonicNow: clock.now) { client in
            let alice = try await client.newPlayer("Alice")
            let bob = try await client.newPlayer("Bob")
            let first = try #require(
                try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: alice).json["id"] as? String)
            var finished = false
            for number in 1...25 {
                clock.advance(Self.interlude)
                let skipped = try await client.send(.post, "/v1/plays/\(first)/skips", json: ["quiz": number], token: alice)
                #expect(skipped.status == .ok, "quiz \(number)")
                finished = skipped.play["finished"] as? Bool ?? false
            }
            #expect(finished)
            let done = try await client.send(.get, "/v1/plays/\(first)", token: alice)
            #expect((done.quizzes[0]["answer"] as? [String: Any])?["title"] as? String == quiz.title, "the finished play shows its answers")

            for (player, name) in [(alice, "the same player's replay"), (bob, "another player's play")] {
                let next = try #require(
                    try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: player).json["id"] as? String)
                clock.advance(Self.interlude)
                let state = try await client.send(.get, "/v1/plays/\(next)", token: player)
                let text = String(buffer: state.body)
                #expect(state.quizzes[0]["answer"] == nil && !text.contains(quiz.title), "\(name)")
                let poster = try await client.send(.get, "/v1/plays/\(next)/quizzes/1/poster?stage=5", token: player)
                #expect(Data(poster.body.readableBytesView) == stage1, "\(name): stage 1 only")
                // The finished play's id opens nothing of the new one, whoever asks.
                let crossed = try await client.send(.get, "/v1/plays/\(first)/quizzes/1/poster", token: player)
                #expect(player == alice ? crossed.status == .ok : crossed.status == .forbidden, "\(name)")
            }
        }
    }

    /// One token, two plays of a package: skipping through one shows the answers, which the other would then rank
    /// with. A start while the player's play of the package is open resumes that play instead.
    @Test func aSecondStartResumesThePlayStillOpen() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let alice = try await client.newPlayer("Alice")
            let started = try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: alice)
            #expect(started.status == .created)
            let id = try #require(started.json["id"] as? String)
            clock.advance(Self.interlude)
            #expect(try await client.send(.post, "/v1/plays/\(id)/skips", json: ["quiz": 1], token: alice).status == .ok)
            let again = try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: alice)
            #expect(again.status == .ok, "resumed, not created")
            #expect(again.json["id"] as? String == id)
            #expect(again.headers[.location] == nil)
            #expect(again.quizzes[0]["status"] as? String == "skipped", "the play as it stands")
            // Another player starts a play of their own.
            let bob = try await client.newPlayer("Bob")
            let bobs = try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: bob)
            #expect(bobs.status == .created && bobs.json["id"] as? String != id)
            // Once Alice's play has ended, her next start is a new play.
            clock.advance(.seconds(3600))
            let later = try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: alice)
            #expect(later.status == .created && later.json["id"] as? String != id)
            let ended = try await client.send(.get, "/v1/plays/\(id)", token: alice)
            #expect(ended.play["finished"] as? Bool == true)
        }
    }

    @Test func guessesAreJudgedAndScoredFromTheServerClockAlone() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            let code = try await client.publish(validSpec(), token: maker)
            let token = try await client.newPlayer("Solver")
            let id = try #require(try await client.send(.post, "/v1/packages/\(code)/plays", token: token).json["id"] as? String)

            let tooEarly = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Toy Story"], token: token)
            #expect(tooEarly.status == .conflict && tooEarly.errorCode == "conflict")

            clock.advance(Self.interlude + .milliseconds(2500))
            let wrong = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Cars"], token: token)
            #expect(wrong.status == .ok)
            #expect(wrong.json["judgement"] as? String == "wrong" || wrong.json["judgement"] as? String == "another_movie")
            #expect(!wrong.text.contains("Toy Story"), "a rejection never names the answer")
            let number = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Toy Story 9"], token: token)
            #expect(number.json["judgement"] as? String == "wrong_number")
            #expect(!number.text.contains("Toy Story\""), "not even when the letters are right")
            let empty = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "!!"], token: token)
            #expect(empty.json["judgement"] as? String == "empty")

            // A client's own score and time are not read: the server's clock says 2.5 s, stage 2 of 5.
            let right = try await client.send(
                .post, "/v1/plays/\(id)/guesses",
                json: ["quiz": 1, "text": "toy stroy", "score": 99_999, "seconds": 0, "stageReached": 1], token: token)
            #expect(right.json["judgement"] as? String == "accepted")
            let expected = Scoring.score(
                stageReached: 2, stageCount: 5, elapsed: .milliseconds(2500), timeLimit: .seconds(20), hints: 0)
            #expect(right.play["score"] as? Int == expected)
            let result = try #require(right.quizzes[0]["result"] as? [String: Any])
            #expect(result["outcome"] as? String == "solved" && result["stageReached"] as? Int == 2)
            #expect(result["seconds"] as? Double == 2.5)
            #expect((right.quizzes[0]["answer"] as? [String: Any])?["title"] as? String == "Toy Story")
            #expect(right.play["finished"] as? Bool == true && right.play["ranked"] as? Bool == true)
            #expect(right.play["shareLine"] as? String == "UQuiz \(code) 1/1 🟩 \(expected) pts")

            let after = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Toy Story"], token: token)
            #expect(after.status == .conflict, "an ended quiz takes no more guesses")
            let stored = try #require(try await server.database.serverPlay(publicId: id))
            #expect(stored.score == expected && stored.ranked)
        }
    }

    /// A guess answers with what it changed; merged into the play the client held, that is the whole play, which
    /// comes too only when asked for: a wrong guess, one that ends a quiz, and the one that ends the play.
    @Test func aGuessAnswersWithItsChangeWhichMergedIntoThePlayIsTheWholePlay() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let first = try server.quiz(silentClassics, 1)
        let last = try server.quiz(silentClassics, 25)
        try await server.test(monotonicNow: clock.now) { client in
            let token = try await client.newPlayer()
            let id = try #require(try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).json["id"] as? String)
            clock.advance(Self.interlude + .milliseconds(2500))
            let decoder = JSONDecoder()
            func whole() async throws -> ServerAPI.PlayState {
                try decoder.decode(ServerAPI.PlayState.self, from: Data(try await client.send(.get, "/v1/plays/\(id)", token: token).text.utf8))
            }
            var held = try await whole()
            func guess(_ quiz: Int, _ text: String, wholePlay: Bool = false) async throws -> ServerAPI.GuessAnswer {
                let path = "/v1/plays/\(id)/guesses" + (wholePlay ? "?play=full" : "")
                let response = try await client.send(.post, path, json: ["quiz": quiz, "text": text], token: token)
                #expect(response.status == .ok)
                let answer = try decoder.decode(ServerAPI.GuessAnswer.self, from: Data(response.text.utf8))
                // The clock stands still: the play read now is the one the guess left.
                let now = try await whole()
                #expect(held.applying(answer) == now, "the change merged in is the whole play")
                #expect(answer.play == (wholePlay ? now : nil), "the whole play only when asked for")
                return answer
            }

            let wrong = try await guess(1, "Cats", wholePlay: true)
            #expect(wrong.judgement != "accepted" && wrong.quizzes.map(\.number) == [1] && wrong.currentQuiz == 1)
            #expect(try await client.send(.post, "/v1/plays/\(id)/guesses?play=some", json: ["quiz": 1, "text": "x"], token: token).status == .badRequest)
            #expect(!String(decoding: try JSONEncoder().encode(wrong), as: UTF8.self).contains(first.title))
            held = held.applying(wrong)

            let solved = try await guess(1, first.title)
            #expect(solved.quizzes.map(\.number) == [1, 2], "the quiz guessed and the next")
            #expect(solved.quizzes[0].answer?.title == first.title && solved.quizzes[1].startsInMs == 3000)
            #expect(solved.currentQuiz == 2 && solved.score > 0 && !solved.finished)
            held = held.applying(solved)

            // The other 23 run out of time; the last one, solved, ends the play.
            clock.advance(.seconds(23 * 23) + Self.interlude + .seconds(1))
            held = try await whole()
            #expect(held.currentQuiz == 25)
            let end = try await guess(25, last.title)
            #expect(end.finished && end.currentQuiz == nil && end.ranked == true && end.shareLine != nil)
            #expect(end.quizzes.map(\.number) == [25])
        }
    }

    @Test func badGuessBodiesAre400NamingTheField() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let token = try await client.newPlayer()
            let id = try #require(try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).json["id"] as? String)
            clock.advance(Self.interlude)
            let cases: [([String: Any], String)] = [
                (["text": "x"], "$.quiz:"), (["quiz": 1], "$.text:"), (["quiz": "1", "text": "x"], "$.quiz:"),
                (["quiz": 1, "text": String(repeating: "x", count: 201)], "$.text:"), (["quiz": 0, "text": "x"], "quiz:"),
                (["quiz": 26, "text": "x"], "quiz:"),
            ]
            for (body, field) in cases {
                let response = try await client.send(.post, "/v1/plays/\(id)/guesses", json: body, token: token)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorMessage.hasPrefix(field), "\(body): \(response.errorMessage)")
            }
            let later = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 2, "text": "x"], token: token)
            #expect(later.status == .conflict, "quiz 2 has not started")
        }
    }

    @Test func hintsHalveTheScoreAndSkipsShowTheAnswer() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let first = try server.quiz(silentClassics, 1)
        let second = try server.quiz(silentClassics, 2)
        try await server.test(monotonicNow: clock.now) { client in
            let token = try await client.newPlayer()
            let id = try #require(try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).json["id"] as? String)
            clock.advance(Self.interlude + .seconds(1))
            let hint = try await client.send(.post, "/v1/plays/\(id)/hints", json: ["quiz": 1], token: token)
            #expect(hint.status == .ok)
            #expect(hint.json["hint"] as? String == Hint.firstHint(for: first.title))
            #expect(hint.quizzes[0]["hint"] as? String == Hint.firstHint(for: first.title))
            let solved = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": first.title], token: token)
            let expected = Scoring.score(stageReached: 1, stageCount: 5, elapsed: .seconds(1), timeLimit: .seconds(20), hints: 1)
            #expect(solved.play["score"] as? Int == expected)
            #expect((solved.quizzes[0]["result"] as? [String: Any])?["hintsUsed"] as? Int == 1)

            #expect(try await client.send(.post, "/v1/plays/\(id)/skips", json: ["quiz": 2], token: token).status == .conflict)
            clock.advance(Self.interlude)
            let skipped = try await client.send(.post, "/v1/plays/\(id)/skips", json: ["quiz": 2], token: token)
            #expect(skipped.status == .ok)
            #expect(skipped.quizzes[1]["status"] as? String == "skipped")
            #expect((skipped.quizzes[1]["answer"] as? [String: Any])?["title"] as? String == second.title)
            #expect(skipped.json["score"] as? Int == expected, "a skip scores nothing")
            #expect(try await client.send(.post, "/v1/plays/\(id)/hints", json: ["quiz": 2], token: token).status == .conflict)
        }
    }

    @Test func aPlayIsItsPlayersAlone() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let alice = try await client.newPlayer("Alice")
            let bob = try await client.newPlayer("Bob")
            let id = try #require(try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: alice).json["id"] as? String)
            clock.advance(Self.interlude)
            let requests: [(HTTPRequest.Method, String, [String: Any]?)] = [
                (.get, "/v1/plays/\(id)", nil), (.get, "/v1/plays/\(id)/quizzes/1/poster", nil),
                (.post, "/v1/plays/\(id)/guesses", ["quiz": 1, "text": "Metropolis"]),
                (.post, "/v1/plays/\(id)/hints", ["quiz": 1]), (.post, "/v1/plays/\(id)/skips", ["quiz": 1]),
            ]
            for (method, uri, body) in requests {
                let other = try await client.send(method, uri, json: body, token: bob)
                #expect(other.status == .forbidden && other.errorCode == "forbidden", "\(method) \(uri)")
                let anonymous = try await client.send(method, uri, json: body)
                #expect(anonymous.status == .unauthorized, "\(method) \(uri)")
            }
            let state = try await client.send(.get, "/v1/plays/\(id)", token: alice)
            #expect(state.quizzes[0]["status"] as? String == "playing", "Bob's guess and skip changed nothing")
            #expect(state.quizzes[0]["hint"] == nil)
            for unknown in ["AAAAAAAAAAAAAAAAAAAAAA", "nope"] {
                #expect(try await client.send(.get, "/v1/plays/\(unknown)", token: alice).status == .notFound)
            }
            #expect(try await client.send(.post, "/v1/packages/ZZZZZZ/plays", token: alice).status == .notFound)
            #expect(try await client.send(.post, "/v1/packages/\(silentClassics)/plays").status == .unauthorized)
        }
    }

    @Test func guessingIsRateLimitedPerPlayer() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let limits = ServerConfiguration(guesses: RateLimit(burst: 3, interval: .seconds(2)))
        try await server.test(configuration: limits, monotonicNow: clock.now) { client in
            let token = try await client.newPlayer()
            let id = try #require(try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).json["id"] as? String)
            clock.advance(Self.interlude)
            for _ in 0..<3 {
                #expect(try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Cats"], token: token).status == .ok)
            }
            let limited = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Cats"], token: token)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "too_many_requests")
            #expect(limited.headers[.retryAfter] == "2")
            // Another play of the same player shares the limit.
            let other = try #require(try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).json["id"] as? String)
            clock.advance(.seconds(1))
            #expect(try await client.send(.post, "/v1/plays/\(other)/guesses", json: ["quiz": 1, "text": "x"], token: token).status == .tooManyRequests)
            clock.advance(.seconds(1))
            #expect(try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Cats"], token: token).status == .ok)
            let someoneElse = try await client.newPlayer("Other")
            let theirs = try #require(try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: someoneElse).json["id"] as? String)
            clock.advance(Self.interlude)
            #expect(try await client.send(.post, "/v1/plays/\(theirs)/guesses", json: ["quiz": 1, "text": "x"], token: someoneElse).status == .ok)
        }
    }

    @Test func withoutRateLimitsNoPlayerStartOrGuessIs429() async throws {
        let clock = ManualClock()
        // What `uquiz serve --rate-limits off` runs, for benchmarks: far past every default burst, on a clock that
        // never moves, so no token is ever refilled.
        let lifted = ServerConfiguration().withoutRateLimits()
        #expect(lifted.playerCreation == .unlimited && lifted.playStarts == .unlimited)
        #expect(lifted.guesses == .unlimited && lifted.movieSearches == .unlimited)
        #expect(ServerConfiguration().guesses == .guesses, "limits stay on by default")
        try await TestServer().test(configuration: lifted, monotonicNow: clock.now) { client in
            var tokens: [String] = []
            for index in 0..<(RateLimit.playerCreation.burst * 3) { tokens.append(try await client.newPlayer("P\(index)")) }
            let token = tokens[0]
            // One player's starts of one package resume its open play: each start counts all the same.
            for index in 0..<(RateLimit.playStarts.burst * 3) {
                let started = try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token)
                #expect(started.status == (index == 0 ? .created : .ok))
            }
            let play = try #require(
                try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).json["id"] as? String)
            clock.advance(Self.interlude)
            for index in 0..<(RateLimit.guesses.burst * 5) {
                let guessed = try await client.send(
                    .post, "/v1/plays/\(play)/guesses", json: ["quiz": 1, "text": "Cats"], token: token)
                #expect(guessed.status == .ok, "guess \(index): \(guessed.text)")
            }
        }
    }

    @Test func startingPlaysIsRateLimitedPerPlayer() async throws {
        let clock = ManualClock()
        let limits = ServerConfiguration(playStarts: RateLimit(burst: 2, interval: .seconds(6)))
        try await TestServer().test(configuration: limits, monotonicNow: clock.now) { client in
            let token = try await client.newPlayer()
            // The second start resumes the first play; it counts all the same.
            for expected in [HTTPResponse.Status.created, .ok] {
                #expect(try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).status == expected)
            }
            let limited = try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "6")
        }
    }

    @Test func aServerHoldingAllThePlaysItMayRefusesMoreFor503() async throws {
        let clock = ManualClock()
        let configuration = ServerConfiguration(plays: PlayRules(maxOpenPlays: 2))
        try await TestServer().test(configuration: configuration, monotonicNow: clock.now) { client in
            for name in ["A", "B"] {
                let token = try await client.newPlayer(name)
                #expect(try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: token).status == .created)
            }
            let full = try await client.send(.post, "/v1/packages/\(silentClassics)/plays", token: try await client.newPlayer("C"))
            #expect(full.status == .serviceUnavailable && full.headers[.retryAfter] == "30")
            #expect(full.errorMessage.contains("try again later"))
        }
    }

    @Test func aPlayWhosePackageWasDeletedEndsWithItAndLeavesNothing() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            let code = try await client.publish(validSpec(), token: maker)
            let token = try await client.newPlayer()
            let id = try #require(try await client.send(.post, "/v1/packages/\(code)/plays", token: token).json["id"] as? String)
            #expect(try await server.database.openPlayCount(packageId: nil) == 1)
            #expect(try await client.send(.delete, "/v1/packages/\(code)", token: maker).status == .noContent)
            #expect(try await server.database.openPlayCount(packageId: nil) == 0, "the open play went with its package")
            // The instance knew which package the code named; the deletion made it forget at once (the clock stands).
            let another = try await client.newPlayer()
            let refused = try await client.send(.post, "/v1/packages/\(code)/plays", token: another)
            #expect(refused.status == .notFound, "\(refused.status) \(refused.text)")
            clock.advance(Self.interlude + .seconds(1))
            let guess = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Toy Story"], token: token)
            #expect(guess.status == .notFound)
            #expect(try await server.database.serverPlay(publicId: id) == nil)
        }
    }

    @Test func aPlayThatRanOutOfTimeWithNobodyAskingIsStoredByASweepAndReadBack() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let plays = Plays(
            environment: server.environment.sharing, levels: server.environment.levels, rules: PlayRules(), now: clock.now)
        try await server.test(monotonicNow: clock.now, plays: plays) { client in
            let maker = try await client.newPlayer("Maker")
            let code = try await client.publish(validSpec(), token: maker)
            let token = try await client.newPlayer()
            let id = try #require(try await client.send(.post, "/v1/packages/\(code)/plays", token: token).json["id"] as? String)
            // Kept as the latest it can end, which the sweep looks for: the quiz's interlude and its 20 s time limit.
            let record = try #require(try await server.database.openPlay(id: id))
            #expect(record.endsByMicros - record.startMicros == (Self.interlude + .seconds(20)).wholeMicroseconds)
            #expect(try await plays.sweepOverdue() == 0, "still being played")
            // Nobody asks: the quiz runs out of time; requests do not sweep, the sweep (a service's) stores the play.
            clock.advance(Self.interlude + .seconds(21))
            #expect(try await client.send(.post, "/v1/packages/\(code)/plays", token: maker).status == .created)
            #expect(try await server.database.serverPlay(publicId: id) == nil)
            #expect(try await plays.sweepOverdue() == 1)
            let stored = try #require(try await server.database.serverPlay(publicId: id))
            #expect(stored.score == 0 && stored.attempts.map(\.result.outcome) == [.missed])
            #expect(stored.ranked, "a missed play is still the player's first finished one")

            clock.advance(.seconds(60))
            #expect(try await plays.sweepOverdue() == 1, "the maker's play")
            let later = try await client.send(.get, "/v1/plays/\(id)", token: token)
            #expect(later.status == .ok)
            #expect(later.json["finished"] as? Bool == true && later.json["ranked"] as? Bool == true)
            #expect(later.quizzes[0]["status"] as? String == "missed")
            #expect((later.quizzes[0]["answer"] as? [String: Any])?["title"] as? String == "Toy Story")
            #expect(try await client.send(.get, "/v1/plays/\(id)", token: maker).status == .forbidden)
            #expect(try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "x"], token: token).status == .conflict)
        }
    }
}
