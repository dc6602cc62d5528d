import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import QuizCore
import QuizStore
import ServerUseCases
import Synchronization
import Testing
import UQuizServer
import UQuizStorage

@Suite("The server's endpoints in process")
struct EndpointTests {
    @Test func healthIsAlwaysOkAndReadinessFollowsTheStore() async throws {
        try await TestServer().test { client in
            let health = try await client.send(.get, "/healthz")
            #expect(health.status == .ok && health.json["status"] as? String == "ok")
            let ready = try await client.send(.get, "/readyz")
            #expect(ready.status == .ok && ready.json["status"] as? String == "ready")
            #expect(ready.headers[HTTPField.Name("X-Request-Id")!]?.isEmpty == false, "every response carries its request id")
            #expect(ready.headers[.accessControlAllowOrigin] == nil, "no CORS by default")
        }
        try await TestServer(storeAnswers: false).test { client in
            #expect(try await client.send(.get, "/healthz").status == .ok)
            let ready = try await client.send(.get, "/readyz")
            #expect(ready.status == .serviceUnavailable)
            #expect(ready.headers[.retryAfter] == "5")
            #expect(ready.errorCode == "not_ready")
        }
    }

    @Test func aPlayerGetsATokenThatOnlyItsHashIsStoredFor() async throws {
        let server = try TestServer()
        let token = try await server.test { client in
            let response = try await client.send(.post, "/v1/players", json: ["name": "Ada"])
            #expect(response.status == .created)
            #expect(response.json["name"] as? String == "Ada")
            #expect(response.json["id"] is Int)
            return response.json["token"] as? String ?? ""
        }
        #expect(token.count == 43, "32 bytes in base64url without padding")
        #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(try await server.database.player(tokenHash: PlayerToken(text: token).hash)?.name == "Ada")
        #expect(try await server.database.player(tokenHash: Data(token.utf8)) == nil)
        let file = try Data(contentsOf: server.folder.appendingPathComponent("uquiz.sqlite"))
            + ((try? Data(contentsOf: server.folder.appendingPathComponent("uquiz.sqlite-wal"))) ?? Data())
        #expect(file.range(of: Data(token.utf8)) == nil, "the token itself is nowhere in the database")
    }

    @Test func playerNamesAreCheckedLikeEveryText() async throws {
        try await TestServer().test { client in
            let blank = try await client.send(.post, "/v1/players", json: ["name": "   "])
            #expect(blank.status == .unprocessableContent && blank.errorCode == "broken_rule")
            #expect(blank.errorMessage.hasPrefix("$.name:"))
            let control = try await client.send(.post, "/v1/players", json: ["name": "a\u{07}b"])
            #expect(control.status == .unprocessableContent && control.errorMessage.hasPrefix("$.name:"))
            let long = try await client.send(.post, "/v1/players", json: ["name": String(repeating: "x", count: 201)])
            #expect(long.status == .unprocessableContent)
            let missing = try await client.send(.post, "/v1/players", json: ["nom": "Ada"])
            #expect(missing.status == .badRequest && missing.errorMessage.hasPrefix("$.name:"))
            let wrongType = try await client.send(.post, "/v1/players", json: ["name": 7])
            #expect(wrongType.status == .badRequest && wrongType.errorMessage.hasPrefix("$.name:"))
            let notJSON = try await client.send(.post, "/v1/players", raw: "name=Ada")
            #expect(notJSON.status == .badRequest && notJSON.errorCode == "bad_request")
        }
    }

    @Test func publishingNeedsAKnownToken() async throws {
        try await TestServer().test { client in
            let none = try await client.send(.post, "/v1/packages", json: validSpec())
            #expect(none.status == .unauthorized && none.errorCode == "unauthorized")
            #expect(none.headers[.wwwAuthenticate] == "Bearer")
            let forged = String(repeating: "A", count: 43)
            let wrong = try await client.send(.post, "/v1/packages", json: validSpec(), token: forged)
            #expect(wrong.status == .unauthorized)
            #expect(!wrong.text.contains(forged), "an error never echoes a token")
            let garbage = try await client.send(.post, "/v1/packages", json: validSpec(), token: "not a token")
            #expect(garbage.status == .unauthorized)
            var basic = HTTPFields()
            basic[.authorization] = "Basic dXNlcjpwYXNz"
            let notBearer = try await client.execute(uri: "/v1/packages", method: .post, headers: basic)
            #expect(notBearer.status == .unauthorized)
            // The spaces and tabs HTTP allows around a header's value are not part of the token.
            let token = try await client.newPlayer()
            var padded = HTTPFields()
            padded[.authorization] = "Bearer  \(token) \t"
            #expect(try await client.execute(uri: "/v1/players/me", method: .get, headers: padded).status == .ok)
        }
    }

    @Test func aPublishedPackageIsReadByItsCodeAsMetadataOnly() async throws {
        try await TestServer().test { client in
            let token = try await client.newPlayer("Maker Mo")
            let response = try await client.send(.post, "/v1/packages", json: validSpec(), token: token)
            #expect(response.status == .created)
            let code = try #require(response.json["shareCode"] as? String)
            #expect(response.headers[.location] == "/v1/packages/\(code)")
            let read = try await client.send(.get, "/v1/packages/\(code.lowercased())")
            #expect(read.status == .ok)
            #expect(Set(read.json.keys) == ["shareCode", "title", "maker", "level", "language", "quizCount", "plays", "solveRate", "createdAt"])
            #expect(read.json["title"] as? String == "Pixar night")
            #expect(read.json["maker"] as? String == "Maker Mo", "the maker defaults to the player's name")
            #expect(read.json["quizCount"] as? Int == 1 && read.json["plays"] as? Int == 0)
            #expect(read.json["createdAt"] as? String == "2027-01-15T08:00:00Z")
            // The share code is random letters and digits, so it is left out of the search for leaked numbers.
            let fields = "\(read.json.filter { $0.key != "shareCode" })"
            for secret in ["Toy Story", "862", "/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg", "areas", "38"] {
                #expect(!fields.contains(secret), "metadata holds no \(secret)")
            }
        }
    }

    @Test func noSeedPackageTellsItsQuizzes() async throws {
        let server = try TestServer()
        let seeds = try server.file.packages(matching: .init(origin: .seed)).rows
        #expect(seeds.count == 8)
        try await server.test { client in
            for summary in seeds {
                let package = try await server.database.package(id: summary.id)
                let read = try await client.send(.get, "/v1/packages/\(summary.shareCode)")
                #expect(read.status == .ok)
                // Only the metadata keys, whose numbers are counts and a rate: no field can hold a TMDB id or an area.
                #expect(Set(read.json.keys) == ["shareCode", "title", "maker", "level", "language", "quizCount", "plays", "solveRate", "createdAt"])
                for quiz in package.quizzes {
                    #expect(!read.text.contains(quiz.title) && !read.text.contains(quiz.originalTitle))
                    #expect(!read.text.contains(quiz.posterPath))
                }
            }
        }
    }

    @Test func anInvalidPackageIsRefusedNamingItsJSONPath() async throws {
        let server = try TestServer()
        try await server.test { client in
            let token = try await client.newPlayer()
            func problem(_ spec: [String: Any]) async throws -> TestResponse {
                try await client.send(.post, "/v1/packages", json: spec, token: token)
            }
            var tooManyAreas = validSpec(level: "expert")
            tooManyAreas["quizzes"] = [["movie": 862, "areas": seedAreas]]
            let areas = try await problem(tooManyAreas)
            #expect(areas.status == .unprocessableContent && areas.errorCode == "broken_rule")
            #expect(areas.errorMessage.hasPrefix("$.quizzes[0].areas[3]"), "an expert quiz has 3 areas at most: \(areas.errorMessage)")

            var offGrid = validSpec()
            offGrid["quizzes"] = [["movie": 862, "areas": [[38, 12], [20, 41], [57, 41], [17, 14], [500, 34]]]]
            #expect(try await problem(offGrid).errorMessage.hasPrefix("$.quizzes[0].areas[4]"))

            var unknownMovie = validSpec()
            unknownMovie["quizzes"] = [["movie": 999_999_999, "areas": seedAreas]]
            let movie = try await problem(unknownMovie)
            #expect(movie.status == .unprocessableContent && movie.errorMessage.hasPrefix("$.quizzes[0].movie"))

            var noAreas = validSpec()
            noAreas["quizzes"] = [["movie": 862]]
            #expect(try await problem(noAreas).errorMessage.hasPrefix("$.quizzes[0].areas"))

            var noLanguage = validSpec()
            noLanguage["language"] = nil
            let language = try await problem(noLanguage)
            #expect(language.status == .unprocessableContent && language.errorMessage.hasPrefix("$.language"))

            var blankTitle = validSpec()
            blankTitle["title"] = " "
            #expect(try await problem(blankTitle).errorMessage.hasPrefix("$.title"))

            var badPoster = validSpec()
            badPoster["quizzes"] = [["movie": 862, "poster": "../etc/passwd", "areas": seedAreas]]
            #expect(try await problem(badPoster).errorMessage.hasPrefix("$.quizzes[0].poster"))

            var missingTitle = validSpec()
            missingTitle["title"] = nil
            let title = try await problem(missingTitle)
            #expect(title.status == .badRequest && title.errorMessage == "$: missing \"title\"", "\(title.errorMessage)")

            var badVisibility = validSpec()
            badVisibility["visibility"] = "secret"
            let visibility = try await problem(badVisibility)
            #expect(visibility.status == .badRequest && visibility.errorMessage.hasPrefix("$.visibility"))

            let notJSON = try await client.send(.post, "/v1/packages", raw: "{\"title\": ", token: token)
            #expect(notJSON.status == .badRequest)
        }
        #expect(try server.file.packages(matching: .init(origin: .user)).total == 0, "nothing was saved")
    }

    @Test func anOversizedBodyIs413WhereverItIsSent() async throws {
        try await TestServer().test { client in
            let token = try await client.newPlayer()
            let huge = "{\"name\": \"" + String(repeating: "x", count: 1 << 20) + "\"}"
            for uri in ["/v1/players", "/v1/packages"] {
                let response = try await client.send(.post, uri, raw: huge, token: token)
                #expect(response.status == .contentTooLarge, "\(uri)")
                #expect(response.errorCode == "too_large")
            }
        }
    }

    @Test func unknownCodesAndRoutesAre404InTheErrorShape() async throws {
        try await TestServer().test { client in
            for uri in ["/v1/packages/ZZZZZZ", "/v1/packages/not-a-code", "/v1/nothing", "/"] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .notFound, "\(uri)")
                #expect(response.errorCode == "not_found", "\(uri): \(response.text)")
            }
        }
    }

    @Test func makingPlayersIsRateLimitedWithRetryAfter() async throws {
        let clock = Mutex<Duration>(.zero)
        let limit = RateLimit(burst: 2, interval: .seconds(10))
        try await TestServer().test(configuration: .init(playerCreation: limit), monotonicNow: { clock.withLock { $0 } }) { client in
            #expect(try await client.send(.post, "/v1/players", json: ["name": "A"]).status == .created)
            #expect(try await client.send(.post, "/v1/players", json: ["name": "B"]).status == .created)
            let limited = try await client.send(.post, "/v1/players", json: ["name": "C"])
            #expect(limited.status == .tooManyRequests && limited.errorCode == "too_many_requests")
            #expect(limited.headers[.retryAfter] == "10")
            clock.withLock { $0 += .seconds(4) }
            #expect(try await client.send(.post, "/v1/players", json: ["name": "C"]).headers[.retryAfter] == "6")
            clock.withLock { $0 += .seconds(6) }
            #expect(try await client.send(.post, "/v1/players", json: ["name": "C"]).status == .created, "a token came back")
            #expect(try await client.send(.get, "/v1/packages").status == .ok, "reads are not limited by it")
        }
    }

    @Test func onlyTheOwnerDeletesAPackage() async throws {
        try await TestServer().test { client in
            let owner = try await client.newPlayer("Owner")
            let other = try await client.newPlayer("Other")
            let code = try await client.publish(validSpec(), token: owner)
            #expect(try await client.send(.delete, "/v1/packages/\(code)").status == .unauthorized)
            let forbidden = try await client.send(.delete, "/v1/packages/\(code)", token: other)
            #expect(forbidden.status == .forbidden && forbidden.errorCode == "forbidden")
            let seed = try await client.send(.delete, "/v1/packages/FE7NWW", token: owner)
            #expect(seed.status == .forbidden, "seed packages belong to nobody")
            #expect(try await client.send(.delete, "/v1/packages/ZZZZZZ", token: owner).status == .notFound)
            #expect(try await client.send(.get, "/v1/packages/\(code)").status == .ok, "a refused delete deletes nothing")
            #expect(try await client.send(.delete, "/v1/packages/\(code)", token: owner).status == .noContent)
            #expect(try await client.send(.get, "/v1/packages/\(code)").status == .notFound)
            #expect(try await client.send(.delete, "/v1/packages/\(code)", token: owner).status == .notFound)
        }
    }
}
