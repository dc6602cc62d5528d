import Foundation
import Hummingbird
import HummingbirdTesting
import LocalUseCases
import ServerUseCases
import Testing
import UQuizServer

/// A maker's drafts over HTTP: saved as they go in whatever state, told what a publish would refuse, previewed with the
/// stage posters a play shows, published when ready, and nobody else's business.
@Suite("Drafts of packages")
struct DraftTests {
    /// A spec of one quiz on Metropolis (a bundled poster), as the maker's page would have it when done.
    nonisolated(unsafe) static let ready: [String: Any] = [
        "format": 1, "title": "Draft: one silent classic", "level": "beginner", "language": "en", "visibility": "unlisted",
        "quizzes": [["movie": 19, "areas": [[35, 9], [24, 38], [53, 26]]]],
    ]

    @Test func aDraftIsSavedCheckedPreviewedAndPublished() async throws {
        let server = try TestServer()
        try await server.test { client in
            let maker = try await client.newPlayer("Maker")
            // Begun: a title only. Kept as it is, with what a publish would refuse first.
            let made = try await client.send(.post, "/v1/drafts", json: ["title": "Draft: one silent classic"], token: maker)
            #expect(made.status == .created, "\(made.text)")
            let id = try #require(made.json["id"] as? Int)
            #expect(made.headers[.location] == "/v1/drafts/\(id)")
            #expect((made.json["document"] as? [String: Any])?["title"] as? String == "Draft: one silent classic")
            let problem = made.json["problem"] as? [String: Any]
            #expect(problem?["path"] as? String == "$" && (problem?["message"] as? String)?.contains("format") == true,
                    "\(made.text)")
            // The grid areas are placed on, as this server has it: the maker's page draws and checks by it.
            let grid = made.json["grid"] as? [String: Int]
            #expect(grid == ["columns": seedGeometry.columns, "rows": seedGeometry.rows, "areaSize": seedGeometry.areaSize,
                             "margin": seedGeometry.margin], "\(made.text)")

            // An area outside the grid's margin is refused at its path, and the draft keeps it for the maker to mend.
            var broken = Self.ready
            broken["quizzes"] = [["movie": 19, "areas": [[0, 0], [24, 38], [53, 26]]]]
            let saved = try await client.send(.put, "/v1/drafts/\(id)", json: broken, token: maker)
            #expect(saved.status == .ok)
            #expect((saved.json["problem"] as? [String: Any])?["path"] as? String == "$.quizzes[0].areas[0]", "\(saved.text)")
            let refused = try await client.send(.post, "/v1/drafts/\(id)/publish", token: maker)
            #expect(refused.status == .unprocessableContent && refused.errorMessage.hasPrefix("$.quizzes[0].areas[0]"))
            #expect(try await client.send(.get, "/v1/drafts/\(id)", token: maker).status == .ok, "kept after the refusal")

            let mended = try await client.send(.put, "/v1/drafts/\(id)", json: Self.ready, token: maker)
            #expect(mended.json["problem"] is NSNull, "\(mended.text)")
            let list = try await client.send(.get, "/v1/drafts", token: maker)
            let summaries = list.json["drafts"] as? [[String: Any]] ?? []
            #expect(summaries.count == 1 && summaries.first?["title"] as? String == "Draft: one silent classic"
                && summaries.first?["quizCount"] as? Int == 1 && summaries.first?["ready"] as? Bool == true, "\(list.text)")

            // The preview: stage posters cut as a play's are, growing stage by stage.
            var sizes: [Int] = []
            for stage in 1...3 {
                let poster = try await client.send(.get, "/v1/drafts/\(id)/quizzes/1/poster?stage=\(stage)", token: maker)
                #expect(poster.status == .ok && poster.headers[.contentType] == "image/jpeg", "\(poster.text)")
                sizes.append(poster.body.readableBytes)
            }
            #expect(sizes[0] < sizes[2], "more of the poster at stage 3 than at stage 1: \(sizes)")
            #expect(try await client.send(.get, "/v1/drafts/\(id)/quizzes/1/poster?stage=4", token: maker).status == .badRequest)
            #expect(try await client.send(.get, "/v1/drafts/\(id)/quizzes/2/poster", token: maker).status == .badRequest)
            // A second quiz whose areas break a rule: its preview's refusal names it where it is in the draft.
            var two = Self.ready
            two["quizzes"] = (Self.ready["quizzes"] as! [Any]) + [["movie": 653, "areas": [[0, 0]]]]
            #expect(try await client.send(.put, "/v1/drafts/\(id)", json: two, token: maker).status == .ok)
            let second = try await client.send(.get, "/v1/drafts/\(id)/quizzes/2/poster?stage=1", token: maker)
            #expect(second.status == .unprocessableContent && second.errorMessage.hasPrefix("$.quizzes[1].areas[0]"),
                    "\(second.text)")
            #expect(try await client.send(.get, "/v1/drafts/\(id)/quizzes/2/poster", token: maker).status == .ok,
                    "the whole poster needs no area")
            #expect(try await client.send(.put, "/v1/drafts/\(id)", json: Self.ready, token: maker).status == .ok)

            let published = try await client.send(.post, "/v1/drafts/\(id)/publish", token: maker)
            #expect(published.status == .created, "\(published.text)")
            let code = try #require(published.json["shareCode"] as? String)
            let package = try await client.send(.get, "/v1/packages/\(code)")
            #expect(package.status == .ok && package.json["title"] as? String == "Draft: one silent classic")
            let listed = try await client.send(.get, "/v1/packages?q=Draft")
            #expect((listed.json["packages"] as? [Any])?.isEmpty == true, "unlisted, as the draft said: \(listed.text)")
            #expect(try await client.send(.get, "/v1/drafts/\(id)", token: maker).status == .notFound, "the draft is gone")

            // The maker's list has it, unlisted as it is; its leaderboard shows the maker how each quiz fares.
            let mine = try await client.send(.get, "/v1/players/me/packages", token: maker)
            let owned = (mine.json["packages"] as? [[String: Any]])?.first ?? [:]
            #expect(owned["shareCode"] as? String == code && owned["visibility"] as? String == "unlisted"
                && owned["removed"] as? Bool == false && owned["plays"] as? Int == 0, "\(mine.text)")
            let other = try await client.newPlayer("Other")
            #expect((try await client.send(.get, "/v1/players/me/packages", token: other).json["packages"] as? [Any])?.isEmpty == true)
            let board = try await client.send(.get, "/v1/packages/\(code)/leaderboard", token: maker)
            let quizzes = board.json["quizzes"] as? [[String: Any]] ?? []
            #expect(quizzes.count == 1 && quizzes.first?["attempts"] as? Int == 0 && quizzes.first?["hinted"] as? Int == 0,
                    "\(board.text)")
        }
    }

    @Test func aDraftIsItsMakersAloneAndHeldToItsLimits() async throws {
        let server = try TestServer()
        var configuration = ServerConfiguration()
        configuration.drafts = DraftLimits(maxDrafts: 2, maxDocumentBytes: 1_000)
        try await server.test(configuration: configuration) { client in
            let maker = try await client.newPlayer("Maker")
            let other = try await client.newPlayer("Other")
            let made = try await client.send(.post, "/v1/drafts", json: Self.ready, token: maker)
            let id = try #require(made.json["id"] as? Int)
            for (method, path) in [
                (HTTPRequest.Method.get, "/v1/drafts/\(id)"), (.put, "/v1/drafts/\(id)"), (.delete, "/v1/drafts/\(id)"),
                (.post, "/v1/drafts/\(id)/publish"), (.get, "/v1/drafts/\(id)/quizzes/1/poster?stage=1"),
            ] {
                let answer = try await client.send(method, path, json: method == .put ? ["title": "Mine now"] : nil, token: other)
                #expect(answer.status == .notFound && answer.errorCode == "not_found", "\(method) \(path): \(answer.status)")
            }
            #expect((try await client.send(.get, "/v1/drafts", token: other).json["drafts"] as? [Any])?.isEmpty == true)
            #expect(try await client.send(.get, "/v1/drafts").status == .unauthorized)
            #expect(try await client.send(.get, "/v1/drafts/abc", token: maker).status == .notFound)

            #expect(try await client.send(.post, "/v1/drafts", raw: "[1, 2]", token: maker).status == .badRequest)
            #expect(try await client.send(.post, "/v1/drafts", raw: "{\"title\": ", token: maker).status == .badRequest)
            let large = try await client.send(
                .post, "/v1/drafts", json: ["title": String(repeating: "a", count: 2_000)], token: maker)
            #expect(large.status == .contentTooLarge)
            #expect(try await client.send(.post, "/v1/drafts", json: [:] as [String: Any], token: maker).status == .created)
            let third = try await client.send(.post, "/v1/drafts", json: [:] as [String: Any], token: maker)
            #expect(third.status == .conflict && third.errorMessage.contains("2 drafts"), "\(third.text)")
            #expect(try await client.send(.delete, "/v1/drafts/\(id)", token: maker).status == .noContent)
            #expect(try await client.send(.post, "/v1/drafts", json: [:] as [String: Any], token: maker).status == .created)
        }
    }

    /// A player's drafts hold a quota together (507, the limit named, nothing changed), new drafts are limited per
    /// address (guests made in turn from one address share it; saving is not limited), and a draft nobody changes is
    /// removed once its `expiresAt` has passed, which its maker's list shows.
    @Test func draftsHoldAQuotaAreLimitedPerAddressAndExpireUnchanged() async throws {
        let date = ManualDate()
        let server = try TestServer(now: date.now)
        var configuration = ServerConfiguration()
        configuration.drafts = DraftLimits(maxDocumentBytes: 1_000, quotaBytes: 1_500, expiry: .seconds(7 * 86_400))
        configuration.newDraftsPerAddress = RateLimit(burst: 3, interval: .seconds(3600))
        try await server.test(configuration: configuration) { client in
            let maker = try await client.newPlayer("Maker")
            let made = try await client.send(.post, "/v1/drafts", json: ["title": String(repeating: "a", count: 900)], token: maker)
            let id = try #require(made.json["id"] as? Int, "\(made.text)")
            let over = try await client.send(.post, "/v1/drafts", json: ["title": String(repeating: "b", count: 700)], token: maker)
            #expect(over.status.code == 507 && over.errorCode == "quota_exceeded", "\(over.text)")
            #expect(over.errorMessage.contains("at most 1500 in all"), "\(over.errorMessage)")
            let saved = try await client.send(.put, "/v1/drafts/\(id)", json: ["title": String(repeating: "c", count: 950)], token: maker)
            #expect(saved.status == .ok, "saving counts the draft once: \(saved.text)")
            let list = try await client.send(.get, "/v1/drafts", token: maker).json["drafts"] as? [[String: Any]]
            #expect(list?.count == 1, "the refused one was not kept")
            let expected = date.now().addingTimeInterval(7 * 86_400).formatted(.iso8601)
            #expect(list?.first?["expiresAt"] as? String == expected && saved.json["expiresAt"] as? String == expected)

            // A second guest from the same address: one more new draft, then 429 (the address's three are used).
            let guest = try await client.newPlayer("Guest")
            #expect(try await client.send(.post, "/v1/drafts", json: [:] as [String: Any], token: guest).status == .created)
            let limited = try await client.send(.post, "/v1/drafts", json: [:] as [String: Any], token: guest)
            #expect(limited.status == .tooManyRequests, "\(limited.text)")
            for _ in 0..<3 {
                #expect(try await client.send(.put, "/v1/drafts/\(id)", json: ["title": "x"], token: maker).status == .ok)
            }

            // Eight days on, the guest's draft (unchanged for eight) goes; the maker's, changed seven days ago, stays.
            date.advance(days: 1)
            #expect(try await client.send(.put, "/v1/drafts/\(id)", json: ["title": "y"], token: maker).status == .ok)
            date.advance(days: 7)
            #expect(try await Drafts.removeExpired(environment: server.environment.sharing, expiry: .seconds(7 * 86_400)) == 1)
            #expect((try await client.send(.get, "/v1/drafts", token: guest).json["drafts"] as? [Any])?.isEmpty == true)
            #expect(try await client.send(.get, "/v1/drafts/\(id)", token: maker).status == .ok)
        }
    }

    @Test func aMovieOffersThePostersTheServerCanShowDefaultFirst() async throws {
        let server = try TestServer()
        try await server.test { client in
            let maker = try await client.newPlayer("Maker")
            #expect(try await client.send(.get, "/v1/movies/posters?movie=19").status == .unauthorized)
            // Without TMDB credentials: the catalog's posters, here Metropolis's bundled one.
            let listed = try await client.send(.get, "/v1/movies/posters?movie=19&language=en", token: maker)
            #expect(listed.status == .ok, "\(listed.text)")
            let posters = try #require(listed.json["posters"] as? [[String: Any]])
            #expect(posters.map { $0["poster"] as? String } == ["metropolis-1927.jpg"], "\(listed.text)")
            let byKey = try await client.send(.get, "/v1/movies/posters?movie=tmdb-19", token: maker)
            #expect(byKey.text == listed.text, "a catalog key names the same movie")

            let whole = try await client.send(.get, "/v1/movies/posters/1?movie=19&language=en", token: maker)
            #expect(whole.status == .ok && whole.headers[.contentType] == "image/jpeg")
            #expect(Data(buffer: whole.body) == (try await server.database.bundledPoster(fileName: "metropolis-1927.jpg")))
            let beyond = try await client.send(.get, "/v1/movies/posters/2?movie=19", token: maker)
            #expect(beyond.status == .notFound && beyond.errorMessage.contains("1 poster here"), "\(beyond.text)")
            #expect(try await client.send(.get, "/v1/movies/posters/13?movie=19", token: maker).status == .badRequest)
            #expect(try await client.send(.get, "/v1/movies/posters?movie=", token: maker).status == .badRequest)
            #expect(try await client.send(.get, "/v1/movies/posters?movie=19&language=fr", token: maker).status == .badRequest)
            let unknown = try await client.send(.get, "/v1/movies/posters?movie=no-such-movie", token: maker)
            #expect(unknown.status == .notFound && unknown.errorMessage.contains("no-such-movie"), "\(unknown.text)")

            // A search's movies come with their posters, and only those are served beside them.
            let notYet = try await client.send(.get, "/v1/movies/searched-poster?poster=metropolis-1927.jpg", token: maker)
            #expect(notYet.status == .notFound, "no search showed it yet: \(notYet.text)")
            let found = try await client.send(.get, "/v1/movies?q=Metropolis", token: maker)
            let posterPath = try #require((found.json["results"] as? [[String: Any]])?.first?["posterPath"] as? String)
            let shown = try await client.send(
                .get, "/v1/movies/searched-poster?poster=\(posterPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                token: maker)
            #expect(shown.status == .ok && shown.headers[.contentType] == "image/jpeg", "\(shown.text)")
            #expect(try await client.send(.get, "/v1/movies/searched-poster?poster=carmen-1915.jpg", token: maker).status == .notFound)
            #expect(try await client.send(.get, "/v1/movies/searched-poster", token: maker).status == .badRequest)
            #expect(try await client.send(.get, "/v1/movies/searched-poster?poster=\(posterPath)").status == .unauthorized)
        }
    }

    @Test func theOwnerEditsAPublishedPackageThroughADraftOfItsSpec() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            let maker = try await client.newPlayer("Maker")
            var ready = Self.ready
            ready["quizzes"] = [["movie": 19, "areas": [[35, 9], [24, 38], [53, 26]], "aliases": ["The machine city"]]]
            let code = try await client.publish(ready, token: maker)
            #expect(try await client.send(.get, "/v1/packages/\(code)/spec").status == .unauthorized)
            let other = try await client.newPlayer("Other")
            #expect(try await client.send(.get, "/v1/packages/\(code)/spec", token: other).status == .forbidden, "it names the answers")
            #expect(try await client.send(.get, "/v1/packages/ZZZZZ9/spec", token: maker).status == .notFound)
            let spec = try await client.send(.get, "/v1/packages/\(code)/spec", token: maker)
            #expect(spec.status == .ok, "\(spec.text)")
            #expect(spec.json["shareCode"] as? String == code && spec.json["visibility"] as? String == "unlisted")
            let quiz = try #require((spec.json["quizzes"] as? [[String: Any]])?.first)
            #expect(quiz["movie"] as? Int == 19 && quiz["poster"] as? String == "metropolis-1927.jpg", "\(spec.text)")
            #expect(quiz["title"] as? String == "Metropolis", "the maker's page names the quiz by its movie")
            #expect(quiz["areas"] as? [[Int]] == [[35, 9], [24, 38], [53, 26]] && quiz["aliases"] as? [String] == ["The machine city"])

            // The spec as a draft, retitled: publishing it updates the package under its code.
            var edited = spec.json
            edited["title"] = "Retitled"
            let draft = try await client.send(.post, "/v1/drafts", json: edited, token: maker)
            let id = try #require(draft.json["id"] as? Int)
            let updated = try await client.send(.post, "/v1/drafts/\(id)/publish", token: maker)
            #expect(updated.status == .ok && updated.json["shareCode"] as? String == code, "\(updated.text)")
            #expect(try await client.send(.get, "/v1/packages/\(code)").json["title"] as? String == "Retitled")

            // Once played, moving an area is refused and the draft stays; the title still may change.
            let player = try await client.newPlayer("Player")
            let started = try await client.send(.post, "/v1/packages/\(code)/plays", token: player)
            let play = try #require(started.json["id"] as? String)
            clock.advance(PlayTests.interlude)
            _ = try await client.send(.post, "/v1/plays/\(play)/skips", json: ["quiz": 1], token: player)
            var moved = edited
            moved["quizzes"] = [["movie": 19, "areas": [[36, 9], [24, 38], [53, 26]]]]
            let second = try #require(try await client.send(.post, "/v1/drafts", json: moved, token: maker).json["id"] as? Int)
            let refused = try await client.send(.post, "/v1/drafts/\(second)/publish", token: maker)
            #expect(refused.status == .conflict && refused.errorMessage.contains("only its title, maker and visibility may change"),
                    "\(refused.text)")
            #expect(try await client.send(.get, "/v1/drafts/\(second)", token: maker).status == .ok, "kept for the maker")
            var listed = edited
            listed["visibility"] = "public"
            let third = try #require(try await client.send(.post, "/v1/drafts", json: listed, token: maker).json["id"] as? Int)
            #expect(try await client.send(.post, "/v1/drafts/\(third)/publish", token: maker).status == .ok)
            #expect(try await client.send(.get, "/v1/packages?q=Retitled").text.contains(code), "listed again")
        }
    }
}
