import Foundation
import Hummingbird
import ServerUseCases
import UQuizStorage
import UQuizWire

/// `POST /v1/players`: a guest player and its token; `GET /v1/players/me`: who a token is, with their plays, rooms and
/// daily streak; `PATCH /v1/players/me`: a new name.
struct PlayerRoutes {
    let environment: ServerEnvironment
    let plays: Plays

    /// `creationLimit` limits making players only (per client address), not reading one; `linkLimit` spending link
    /// codes (per client address: a code is short, so guessing one must be slow).
    func add(to router: Router<ServerRequestContext>, creationLimit: RateLimitMiddleware, linkLimit: RateLimitMiddleware) {
        router.post("v1/players/me/link-codes") { request, _ in
            let player = try await request.authenticatedPlayer(environment)
            let made = try await Players(environment: environment.sharing).linkCode(for: player)
            return JSONBody.response(
                ServerAPI.LinkCodeAnswer(code: made.code, expiresInSeconds: Int(LinkCode.lifetime)), status: .created)
        }
        router.group("v1/players/link").add(middleware: linkLimit).post { request, _ in
            let body = try JSONBody.decode(ServerAPI.LinkRequest.self, from: try await JSONBody.bytes(of: request))
            let linked = try await Players(environment: environment.sharing).redeem(linkCode: body.code)
            return JSONBody.response(
                ServerAPI.NewPlayer(id: linked.player.id, name: linked.player.name, token: linked.token.text), status: .created)
        }
        router.get("v1/players/me") { request, _ in
            let player = try await request.authenticatedPlayer(environment)
            let streak = try await plays.streak(of: player)
            return JSONBody.response(try await Players(environment: environment.sharing).stats(of: player, streak: streak))
        }
        router.get("v1/players/me/packages") { request, _ in
            let player = try await request.authenticatedPlayer(environment)
            let query = request.uri.queryParameters
            let page = try await Packages(environment: environment.sharing).owned(
                by: player, after: try QueryValue.pageCursor(query.get("cursor")), limit: try QueryValue.pageSize(query.get("limit")))
            return JSONBody.response(ServerAPI.OwnedPackages(page.packages, nextCursor: page.next?.text))
        }
        router.patch("v1/players/me") { request, _ in
            // Authenticated first, so that a bad token is a 401 whatever the body says.
            let player = try await request.authenticatedPlayer(environment)
            let body = try JSONBody.decode(ServerAPI.RenamePlayerRequest.self, from: try await JSONBody.bytes(of: request))
            let renamed = try await Players(environment: environment.sharing)
                .rename(player, token: try request.bearerToken(), to: body.name)
            return JSONBody.response(ServerAPI.PlayerName(id: renamed.id, name: renamed.name))
        }
        router.group("v1/players").add(middleware: creationLimit).post { request, _ in
            let body = try JSONBody.decode(ServerAPI.NewPlayerRequest.self, from: try await JSONBody.bytes(of: request))
            let made = try await Players(environment: environment.sharing).register(name: body.name)
            return JSONBody.response(
                ServerAPI.NewPlayer(id: made.player.id, name: made.player.name, token: made.token.text), status: .created)
        }
    }
}

extension Request {
    /// The player whose bearer token the request carries: 401 without one, or with one nobody has; 429 once the
    /// client's address has had too many refused (`AuthenticationGate`), unless this instance found the token good in
    /// the last day (`KnownPlayers.vouchLifetime`): then players sharing one address (a school, a carrier's NAT) are not
    /// locked out by one of them sending wrong tokens, while unknown tokens are not looked up. A banned player is refused (403) but to read.
    func authenticatedPlayer(_ environment: ServerEnvironment) async throws -> Player {
        guard let header = headers[.authorization] else {
            throw APIError.unauthorized("a bearer token is needed (POST /v1/players gives one)")
        }
        let gate = AuthenticationGate.current
        let players = Players(environment: environment.sharing)
        let player: Player
        if let wait = gate?.lockedFor() {
            guard let token = try? bearerToken(header: header), players.vouched(token) else {
                throw APIError.tooManyRequests(wait)
            }
            player = try await players.authenticate(token)
        } else {
            do {
                player = try await players.authenticate(try bearerToken(header: header))
            } catch {
                if APIError.from(error)?.status == .unauthorized { await gate?.failed() }
                throw error
            }
        }
        // A banned player may read (their page says so), and nothing else.
        guard !player.banned || method == .get || method == .head else { throw ModerationError.banned }
        return player
    }

    /// The token of the request's "Authorization: Bearer TOKEN" header.
    func bearerToken(header: String? = nil) throws -> PlayerToken {
        guard let header = header ?? headers[.authorization] else {
            throw APIError.unauthorized("a bearer token is needed (POST /v1/players gives one)")
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthorized("the Authorization header must be \"Bearer TOKEN\"")
        }
        return PlayerToken(text: Self.withoutOptionalWhitespace(parts[1]))
    }

    /// A header's value without the spaces and tabs HTTP allows around it, trimmed byte by byte: every request with a
    /// token trims one, and Foundation's `trimmingCharacters` goes through `NSString`.
    static func withoutOptionalWhitespace(_ value: Substring) -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        return String(decoding: value.utf8.drop(while: blank).reversed().drop(while: blank).reversed(), as: UTF8.self)
    }
}
