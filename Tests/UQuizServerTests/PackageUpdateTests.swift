import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PosterArt
import PosterGrid
import QuizCore
import QuizStore
import ServerUseCases
import Synchronization
import Testing
import UQuizServer
import UQuizStorage

extension TestClientProtocol {
    /// Starts a play of `code` and ends its first quiz at once, solved (a right guess) or skipped: for a package of one
    /// quiz, a finished, stored play. Returns the play's JSON.
    func finishedPlay(_ code: String, token: String, clock: ManualClock, solve: Bool) async throws -> TestResponse {
        let started = try await send(.post, "/v1/packages/\(code)/plays", token: token)
        guard started.status == .created, let id = started.json["id"] as? String else {
            throw UnexpectedResponse(status: started.status.code, body: started.text)
        }
        clock.advance(PlayTests.interlude)
        return solve
            ? try await send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Toy Story"], token: token)
            : try await send(.post, "/v1/plays/\(id)/skips", json: ["quiz": 1], token: token)
    }
}

/// `validSpec` with the areas in another order: the same picture, another play.
func reorderedSpec(title: String = "Pixar night") -> [String: Any] {
    var spec = validSpec(title: title)
    spec["quizzes"] = [["movie": 862, "areas": Array(seedAreas.reversed())]]
    return spec
}

@Suite("Updating a published package")
struct PackageUpdateTests {
    @Test func theOwnerReplacesAnUnplayedPackageUnderTheSameCode() async throws {
        let server = try TestServer()
        try await server.test { client in
            let owner = try await client.newPlayer("Owner")
            let code = try await client.publish(validSpec(), token: owner)
            var spec = reorderedSpec(title: "Pixar night, director's cut")
            spec["level"] = "expert"
            spec["quizzes"] = [["movie": 862, "areas": Array(seedAreas.prefix(3))]]
            spec["maker"] = "Studio A"
            let updated = try await client.send(.put, "/v1/packages/\(code.lowercased())", json: spec, token: owner)
            #expect(updated.status == .ok, "\(updated.text)")
            #expect(updated.json["shareCode"] as? String == code)
            #expect(updated.json["title"] as? String == "Pixar night, director's cut")
            #expect(updated.json["maker"] as? String == "Studio A" && updated.json["level"] as? String == "expert")
            #expect(updated.json["solveRate"] is NSNull)
            for secret in ["Toy Story", "862", "areas", "poster"] { #expect(!updated.text.contains(secret), "\(secret)") }
            let read = try await client.send(.get, "/v1/packages/\(code)")
            #expect(read.json["title"] as? String == "Pixar night, director's cut")
            let quiz = try server.quiz(code, 1)
            #expect(quiz.areas.count == 3 && quiz.areas.first == Cell(row: seedAreas[0][0], column: seedAreas[0][1]))

            var unlisted = reorderedSpec()
            unlisted["visibility"] = "unlisted"
            #expect(try await client.send(.put, "/v1/packages/\(code)", json: unlisted, token: owner).status == .ok)
            let listed = try await client.send(.get, "/v1/packages?limit=100")
            #expect(!listed.text.contains(code), "unlisted now")
            #expect(try await client.send(.put, "/v1/packages/\(code)", json: reorderedSpec(), token: owner).status == .ok)
            #expect(!(try await client.send(.get, "/v1/packages?limit=100")).text.contains(code), "no visibility keeps it")
        }
    }

    @Test func onlyTheOwnerUpdatesAndBadSpecsChangeNothing() async throws {
        let server = try TestServer()
        try await server.test { client in
            let owner = try await client.newPlayer("Owner")
            let other = try await client.newPlayer("Other")
            let code = try await client.publish(validSpec(), token: owner)
            let anonymous = try await client.send(.put, "/v1/packages/\(code)", json: reorderedSpec())
            #expect(anonymous.status == .unauthorized && anonymous.headers[.wwwAuthenticate] == "Bearer")
            let forbidden = try await client.send(.put, "/v1/packages/\(code)", json: reorderedSpec(title: "Mine"), token: other)
            #expect(forbidden.status == .forbidden && forbidden.errorCode == "forbidden")
            let seed = try await client.send(.put, "/v1/packages/\(silentClassics)", json: reorderedSpec(), token: owner)
            #expect(seed.status == .forbidden, "seed packages belong to nobody")
            let unknown = try await client.send(.put, "/v1/packages/ZZZZZZ", json: reorderedSpec(), token: owner)
            #expect(unknown.status == .notFound && unknown.errorCode == "not_found")
            // Who may comes first: someone else's bad spec is a 403, not a lesson in the rules.
            var broken = validSpec()
            broken["quizzes"] = [["movie": 862, "areas": [[500, 1]]]]
            #expect(try await client.send(.put, "/v1/packages/\(code)", json: broken, token: other).status == .forbidden)

            let rule = try await client.send(.put, "/v1/packages/\(code)", json: broken, token: owner)
            #expect(rule.status == .unprocessableContent && rule.errorMessage.hasPrefix("$.quizzes[0].areas"))
            var missing = validSpec()
            missing["title"] = nil
            let bad = try await client.send(.put, "/v1/packages/\(code)", json: missing, token: owner)
            #expect(bad.status == .badRequest && bad.errorMessage == "$: missing \"title\"")
            var visibility = validSpec()
            visibility["visibility"] = "secret"
            #expect(try await client.send(.put, "/v1/packages/\(code)", json: visibility, token: owner).status == .badRequest)
            let huge = "{\"title\": \"" + String(repeating: "x", count: 1 << 20) + "\"}"
            #expect(try await client.send(.put, "/v1/packages/\(code)", raw: huge, token: owner).status == .contentTooLarge)
            #expect(try await client.send(.get, "/v1/packages/\(code)").json["title"] as? String == "Pixar night")
            #expect(try server.quiz(code, 1).areas.map { [$0.row, $0.column] } == seedAreas, "nothing changed")
        }
    }

    @Test func onceJudgedOnlyTheTitleAndMakerMayChangeAndTheBoardStays() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let owner = try await client.newPlayer("Owner")
            let code = try await client.publish(validSpec(), token: owner)
            let solver = try await client.newPlayer("Solver")

            // An open play: the quizzes it is judged on cannot change under it; the title can.
            let open = try await client.send(.post, "/v1/packages/\(code)/plays", token: solver)
            let id = try #require(open.json["id"] as? String)
            let underPlay = try await client.send(.put, "/v1/packages/\(code)", json: reorderedSpec(), token: owner)
            #expect(underPlay.status == .conflict && underPlay.errorCode == "conflict")
            #expect(underPlay.errorMessage.contains("being played now"), "\(underPlay.errorMessage)")
            var renamed = validSpec(title: "Renamed")
            renamed["maker"] = "New maker"
            let title = try await client.send(.put, "/v1/packages/\(code)", json: renamed, token: owner)
            #expect(title.status == .ok && title.json["title"] as? String == "Renamed", "\(title.text)")

            clock.advance(PlayTests.interlude)
            let solved = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Toy Story"], token: solver)
            #expect(solved.play["finished"] as? Bool == true && solved.play["ranked"] as? Bool == true, "\(solved.text)")

            // A stored play: still only the title and maker.
            for change in [reorderedSpec(), validSpec(level: "expert")] {
                let refused = try await client.send(.put, "/v1/packages/\(code)", json: change, token: owner)
                #expect(refused.status == .conflict, "\(refused.text)")
                #expect(refused.errorMessage.contains("1 play was judged on it"), "\(refused.errorMessage)")
            }
            var korean = validSpec()
            korean["language"] = "ko"
            #expect(try await client.send(.put, "/v1/packages/\(code)", json: korean, token: owner).status == .conflict)
            #expect(try server.quiz(code, 1).areas.map { [$0.row, $0.column] } == seedAreas, "the quiz as it was played")

            let again = try await client.send(.put, "/v1/packages/\(code)", json: validSpec(title: "Renamed again"), token: owner)
            #expect(again.status == .ok && again.json["plays"] as? Int == 1 && again.json["solveRate"] as? Double == 1)
            let board = try await client.send(.get, "/v1/packages/\(code)/leaderboard")
            #expect(board.json["rankedPlays"] as? Int == 1, "the leaderboard stays")

            // New plays see the new title: the server's plan of the package was dropped.
            let next = try await client.send(.post, "/v1/packages/\(code)/plays", token: owner)
            #expect(next.json["packageTitle"] as? String == "Renamed again")
        }
    }
}

@Suite("Popular packages and solve rates")
struct PopularBrowseTests {
    func codes(_ response: TestResponse) -> [String] {
        (response.json["packages"] as? [[String: Any]] ?? []).compactMap { $0["shareCode"] as? String }
    }

    @Test func aMakersAliasesAreAcceptedAnswersOfThatQuizOnly() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            var bad = validSpec()
            bad["quizzes"] = [["movie": 862, "areas": Array(seedAreas.prefix(3)), "aliases": ["Woody", "Buzz\u{7}"]]]
            let refused = try await client.send(.post, "/v1/packages", json: bad, token: maker)
            #expect(refused.status == .unprocessableContent && refused.text.contains("$.quizzes[0].aliases[1]"), "\(refused.text)")
            var spec = validSpec()
            spec["quizzes"] = [["movie": 862, "areas": Array(seedAreas.prefix(3)), "aliases": ["The cowboy and the spaceman"]]]
            let code = try await client.publish(spec, token: maker)
            #expect(try server.quiz(code, 1).aliases == ["The cowboy and the spaceman"])
            let other = try await client.publish(validSpec(title: "Without"), token: maker)

            let player = try await client.newPlayer("Player")
            for (package, expected) in [(code, "accepted"), (other, "wrong")] {
                let started = try await client.send(.post, "/v1/packages/\(package)/plays", token: player)
                let id = try #require(started.json["id"] as? String)
                clock.advance(PlayTests.interlude)
                let guess = try await client.send(
                    .post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "the cowboy and the spaceman"], token: player)
                #expect(guess.json["judgement"] as? String == expected, "\(package): \(guess.text)")
            }
        }
    }

    @Test func titlesAndMakerNamesAreStoredComposed() async throws {
        let server = try TestServer()
        try await server.test { client in
            let maker = try await client.newPlayer("Maker")
            var spec = validSpec(title: "Cafe\u{301} society")
            spec["maker"] = "Jose\u{301}"
            let code = try await client.publish(spec, token: maker)
            let read = try await client.send(.get, "/v1/packages/\(code)")
            #expect((read.json["title"] as? String)?.unicodeScalars.map(\.value) == "Caf\u{e9} society".unicodeScalars.map(\.value))
            #expect((read.json["maker"] as? String)?.unicodeScalars.count == 4, "\(read.text)")
        }
    }

    @Test func theMakerSeesEachQuizsMostCommonWrongGuessesWithNobodyNamed() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            let code = try await client.publish(validSpec(), token: maker)
            for (name, guesses) in [("Ann", ["Cars!", "cars", "Up"]), ("Bob", ["CARS"]), ("Cy", [])] {
                let token = try await client.newPlayer(name)
                let started = try await client.send(.post, "/v1/packages/\(code)/plays", token: token)
                let id = try #require(started.json["id"] as? String)
                clock.advance(PlayTests.interlude)
                for guess in guesses {
                    let judged = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": guess], token: token)
                    #expect(judged.json["judgement"] as? String != "accepted", "\(judged.text)")
                }
                _ = try await client.send(.post, "/v1/plays/\(id)/guesses", json: ["quiz": 1, "text": "Toy Story"], token: token)
            }
            let board = try await client.send(.get, "/v1/packages/\(code)/leaderboard", token: maker)
            let quiz = try #require((board.json["quizzes"] as? [[String: Any]])?.first)
            // "cars" in two plays (Ann's three spellings count once), "up" in one.
            #expect(quiz["commonWrongGuesses"] as? [String] == ["cars", "up"], "\(board.text)")
            let stranger = try await client.newPlayer("Stranger")
            #expect(try await client.send(.get, "/v1/packages/\(code)/leaderboard", token: stranger).json["quizzes"] == nil)
        }
    }

    @Test func mostPlayedFirstWithStablePagesAndTheSolveRate() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            let a = try await client.publish(validSpec(title: "A"), token: maker)
            let b = try await client.publish(validSpec(title: "B"), token: maker)
            let c = try await client.publish(validSpec(title: "C"), token: maker)
            let first = try await client.newPlayer("First")
            let second = try await client.newPlayer("Second")
            _ = try await client.finishedPlay(b, token: first, clock: clock, solve: true)
            _ = try await client.finishedPlay(b, token: second, clock: clock, solve: false)
            _ = try await client.finishedPlay(c, token: first, clock: clock, solve: false)

            let popular = try await client.send(.get, "/v1/packages?sort=popular&limit=100")
            #expect(popular.status == .ok)
            let order = codes(popular)
            #expect(Array(order.prefix(3)) == [b, c, a], "most plays first, then the newest of those with none")
            #expect(order.count == 3 + 8)
            let byCode = Dictionary(
                uniqueKeysWithValues: (popular.json["packages"] as? [[String: Any]] ?? []).map { ($0["shareCode"] as! String, $0) })
            #expect(byCode[b]?["plays"] as? Int == 2 && byCode[b]?["solveRate"] as? Double == 0.5)
            #expect(byCode[c]?["plays"] as? Int == 1 && byCode[c]?["solveRate"] as? Double == 0)
            #expect(byCode[a]?["plays"] as? Int == 0 && byCode[a]?["solveRate"] is NSNull, "null, never absent, with no plays")
            #expect(try await client.send(.get, "/v1/packages/\(b)").json["solveRate"] as? Double == 0.5)
            for secret in ["Toy Story", "862", "areas", "poster", "tmdb"] {
                #expect(!popular.text.contains(secret), "\(secret) is not in the metadata of played packages")
            }

            // Paging, while packages are published between pages: no package repeats or goes missing.
            var seen: [String] = []
            var cursor: String?
            var added: [String] = []
            repeat {
                let page = try await client.send(
                    .get, "/v1/packages?sort=popular&limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(page.status == .ok, "\(page.text)")
                seen += codes(page)
                cursor = page.json["nextCursor"] as? String
                added.append(try await client.publish(validSpec(title: "Late \(added.count)"), token: maker))
            } while cursor != nil
            #expect(seen.filter(order.contains) == order, "every package that was there, once, in order")
            #expect(Set(seen).count == seen.count, "none twice")
            #expect(
                seen.filter(added.contains) == [added[0]],
                "published after the first page, it has no plays: it comes after the played ones, and later ones on no page")
        }
    }

    @Test func aCursorBelongsToItsOrder() async throws {
        try await TestServer().test { client in
            let newCursor = try #require(try await client.send(.get, "/v1/packages?limit=1").json["nextCursor"] as? String)
            let popularCursor = try #require(
                try await client.send(.get, "/v1/packages?sort=popular&limit=1").json["nextCursor"] as? String)
            #expect(newCursor != popularCursor)
            let crossed = try await client.send(.get, "/v1/packages?sort=popular&cursor=\(newCursor)")
            #expect(crossed.status == .badRequest && crossed.errorMessage.hasPrefix("cursor:"), "\(crossed.text)")
            let back = try await client.send(.get, "/v1/packages?cursor=\(popularCursor)")
            #expect(back.status == .badRequest && back.errorMessage.hasPrefix("cursor:"))
            #expect(try await client.send(.get, "/v1/packages?sort=popular&cursor=\(popularCursor)").status == .ok)
            let forged = Data("popular|-1|5".utf8).base64EncodedString()
            #expect(try await client.send(.get, "/v1/packages?sort=popular&cursor=\(forged)").status == .badRequest)
            let unknown = try await client.send(.get, "/v1/packages?sort=hot")
            #expect(unknown.status == .badRequest && unknown.errorMessage == "sort: \"hot\" is not an order here: use new or popular")
        }
    }
}

@Suite("Plays after an update")
struct PlaysAfterUpdateTests {
    /// A plan the server made of a package before its owner changed it (here by a start refused because the server
    /// was full) is not used for the plays that start afterwards: they are cut with the new areas.
    @Test func aPlayStartedAfterAnUpdatePlaysTheNewQuizzes() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        let poster = try server.quiz(silentClassics, 1).posterPath
        @Sendable func spec(areas: [[Int]]) -> [String: Any] {
            var spec = specWithPoster(poster)
            spec["quizzes"] = [["movie": 862, "poster": poster, "areas": areas]]
            return spec
        }
        let configuration = ServerConfiguration(plays: PlayRules(maxOpenPlays: 1))
        try await server.test(configuration: configuration, monotonicNow: clock.now) { client in
            let owner = try await client.newPlayer("Owner")
            let code = try await client.publish(spec(areas: seedAreas), token: owner)
            let other = try await client.publish(validSpec(title: "Another"), token: owner)
            let first = try await client.newPlayer("First")
            let second = try await client.newPlayer("Second")
            let occupying = try #require(
                try await client.send(.post, "/v1/packages/\(other)/plays", token: first).json["id"] as? String)
            let full = try await client.send(.post, "/v1/packages/\(code)/plays", token: second)
            #expect(full.status == .serviceUnavailable, "the server holds one play: this start made a plan and stopped")

            let after = spec(areas: Array(seedAreas.reversed()))
            #expect(try await client.send(.put, "/v1/packages/\(code)", json: after, token: owner).status == .ok)
            clock.advance(PlayTests.interlude)
            #expect(try await client.send(.post, "/v1/plays/\(occupying)/skips", json: ["quiz": 1], token: first).status == .ok)

            let id = try #require(try await client.send(.post, "/v1/packages/\(code)/plays", token: second).json["id"] as? String)
            clock.advance(PlayTests.interlude)
            let stage1 = try await client.send(.get, "/v1/plays/\(id)/quizzes/1/poster?stage=1", token: second)
            #expect(stage1.status == .ok, "\(stage1.text)")
            let quiz = try server.quiz(code, 1)
            #expect(quiz.areas.first == Cell(row: seedAreas[4][0], column: seedAreas[4][1]))
            let jpeg = try #require(try await server.database.bundledPoster(fileName: poster))
            let updated = try StagePoster.cut(jpeg: jpeg, geometry: quiz.geometry, revealed: [quiz.areas[0]])
            let old = try StagePoster.cut(
                jpeg: jpeg, geometry: quiz.geometry, revealed: [Cell(row: seedAreas[0][0], column: seedAreas[0][1])])
            #expect(updated != old)
            #expect(Data(stage1.body.readableBytesView) == updated, "stage 1 is the new first area, not the old one")
        }
    }
}
