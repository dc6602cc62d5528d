import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
import UQuizServer

@Suite("Browsing public packages")
struct BrowseTests {
    /// A clock that moves one second per reading, so every package published gets its own time, as in real use.
    final class SteppingClock: Sendable {
        private let seconds = Mutex<Double>(1_800_000_000)

        func now() -> Date { seconds.withLock { $0 += 1; return Date(timeIntervalSince1970: $0) } }
    }

    func codes(_ response: TestResponse) -> [String] {
        (response.json["packages"] as? [[String: Any]] ?? []).compactMap { $0["shareCode"] as? String }
    }

    @Test func publicPackagesNewestFirstWithFilters() async throws {
        let clock = SteppingClock()
        try await TestServer(now: clock.now).test { client in
            let token = try await client.newPlayer()
            let first = try await client.publish(validSpec(title: "First"), token: token)
            let hidden = try await client.publish(validSpec(title: "Hidden", visibility: "unlisted"), token: token)
            let expert = try await client.publish(validSpec(title: "Hard", level: "expert"), token: token)
            let all = try await client.send(.get, "/v1/packages?sort=new&limit=100")
            #expect(all.status == .ok)
            #expect(Array(codes(all).prefix(2)) == [expert, first], "newest first; unlisted left out")
            #expect(!codes(all).contains(hidden))
            #expect(codes(all).count == 2 + 8, "and the eight seed packages, public and ownerless")
            #expect(all.json["nextCursor"] is NSNull, "the last page says so with null")
            #expect(try await client.send(.get, "/v1/packages/\(hidden)").status == .ok, "unlisted is read by its code")

            let experts = try await client.send(.get, "/v1/packages?level=expert&language=en")
            #expect(codes(experts).first == expert)
            for package in experts.json["packages"] as? [[String: Any]] ?? [] {
                #expect(package["level"] as? String == "expert" && package["language"] as? String == "en")
            }
            let korean = try await client.send(.get, "/v1/packages?language=ko")
            #expect(codes(korean).count == 4 && !codes(korean).contains(first))
        }
    }

    /// `q` finds text in a title or a maker, in any case; `%` and `_` are matched as themselves, not as wildcards.
    @Test func searchFindsTextInTitlesAndMakers() async throws {
        let clock = SteppingClock()
        try await TestServer(now: clock.now).test { client in
            let token = try await client.newPlayer()
            let pixar = try await client.publish(validSpec(title: "Pixar night"), token: token)
            let percent = try await client.publish(validSpec(title: "100% Pixar_fans"), token: token)
            #expect(codes(try await client.send(.get, "/v1/packages?q=PIXAR")) == [percent, pixar])
            #expect(codes(try await client.send(.get, "/v1/packages?q=%25")) == [percent], "a literal %")
            #expect(codes(try await client.send(.get, "/v1/packages?q=r_f")) == [percent], "a literal _")
            #expect(codes(try await client.send(.get, "/v1/packages?q=x_night")).isEmpty, "_ is no wildcard")
            let byMaker = try await client.send(.get, "/v1/packages?q=developer&language=en&limit=100")
            #expect(codes(byMaker).count == 4, "the English seed packages, by their maker")
            let long = String(repeating: "a", count: 101)
            let refused = try await client.send(.get, "/v1/packages?q=\(long)")
            #expect(refused.status == .badRequest && refused.errorMessage.hasPrefix("q:"))
        }
    }

    @Test func pagesAreStableWhilePackagesAreAdded() async throws {
        let clock = SteppingClock()
        try await TestServer(now: clock.now).test { client in
            let token = try await client.newPlayer()
            for number in 1...3 { _ = try await client.publish(validSpec(title: "Package \(number)"), token: token) }
            let everything = codes(try await client.send(.get, "/v1/packages?limit=100"))
            #expect(everything.count == 11)

            var seen: [String] = []
            var cursor: String?
            var added: [String] = []
            repeat {
                let page = try await client.send(.get, "/v1/packages?limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(page.status == .ok)
                seen += codes(page)
                cursor = page.json["nextCursor"] as? String
                // Someone publishes between two pages: it is newer than every page still to come, so it appears in
                // none of them, and no page repeats or skips a package.
                if added.count < 2 { added.append(try await client.publish(validSpec(title: "Late \(added.count)"), token: token)) }
            } while cursor != nil
            #expect(seen == everything)
            #expect(codes(try await client.send(.get, "/v1/packages?limit=2")) == added.reversed())
        }
    }

    @Test func badQueryParametersAre400NamingThem() async throws {
        try await TestServer().test { client in
            for (query, name) in [
                ("level=master", "level"), ("language=fr", "language"), ("limit=0", "limit"), ("limit=101", "limit"),
                ("limit=ten", "limit"), ("cursor=%21%21", "cursor"), ("cursor=bm90LWEtY3Vyc29y", "cursor"),
                ("sort=hot", "sort"),
            ] {
                let response = try await client.send(.get, "/v1/packages?\(query)")
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.errorMessage.hasPrefix("\(name):"), "\(query): \(response.errorMessage)")
            }
        }
    }

    /// A maker's own list, a page at a time: every package once, unlisted ones too, nobody else's; bad page
    /// parameters are 400s naming them, as on the public list.
    @Test func aMakersPackagesComeAPageAtATime() async throws {
        let clock = SteppingClock()
        try await TestServer(now: clock.now).test { client in
            let maker = try await client.newPlayer("Maker")
            var published: [String] = []
            for number in 1...5 {
                published.append(try await client.publish(
                    validSpec(title: "Mine \(number)", visibility: number == 2 ? "unlisted" : "public"), token: maker))
            }
            _ = try await client.publish(validSpec(title: "Someone else's"), token: try await client.newPlayer("Other"))
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await client.send(
                    .get, "/v1/players/me/packages?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), token: maker)
                #expect(page.status == .ok && codes(page).count <= 2, "\(page.text)")
                seen += codes(page)
                cursor = page.json["nextCursor"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(seen == published.reversed(), "newest first, each once")
            let all = try await client.send(.get, "/v1/players/me/packages", token: maker)
            #expect(codes(all) == published.reversed() && all.json["nextCursor"] is NSNull, "\(all.text)")

            let popular = try #require(
                try await client.send(.get, "/v1/packages?sort=popular&limit=1").json["nextCursor"] as? String)
            for query in ["limit=0", "limit=101", "cursor=%21%21", "cursor=\(popular)"] {
                let refused = try await client.send(.get, "/v1/players/me/packages?\(query)", token: maker)
                #expect(refused.status == .badRequest, "\(query)")
                #expect(refused.errorMessage.hasPrefix(query.hasPrefix("limit") ? "limit:" : "cursor:"),
                        "\(query): \(refused.errorMessage)")
            }
        }
    }
}
