import Foundation
import Hummingbird
import PosterGrid
import QuizCore
import ServerUseCases
import UQuizStorage
import UQuizWire

/// Publishing, finding, updating and deleting packages. What goes out about a package is `PackageMetadata` only: it is
/// built from `PublishedPackage`, which holds no quiz, so no answer, TMDB id, poster path or area can be in a response.
struct PackageRoutes {
    let environment: ServerEnvironment
    /// The plays in memory, which an update must not change a package under.
    let plays: Plays
    /// Package metadata answered in the last second, by share code.
    let recent: RecentAnswers
    let misses: LookupMissLimit
    let publishes: PlayerAndAddressLimit

    func add(to group: RouterGroup<ServerRequestContext>) {
        group.get { request, _ in try await list(request) }
        group.post { request, context in try await publish(request, address: context.clientAddress) }
        group.get("{code}") { _, context in
            let code = try context.parameters.require("code")
            return try await misses.lookup(from: context.clientAddress) {
                JSONBody.response(
                    encoded: try await recent.answer(for: code.uppercased()) {
                        let package = try await Packages(environment: environment.sharing).package(shareCode: code)
                        return JSONBody.encoded(ServerAPI.PackageMetadata(package))
                    })
            }
        }
        group.put("{code}") { request, context in
            let code = try context.parameters.require("code")
            defer { recent.forget(code.uppercased()) }
            return try await update(request, code: code)
        }
        group.get("{code}/spec") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let (spec, visibility) = try await Publications(
                environment: environment.sharing, levels: environment.levels, geometry: environment.geometry
            ).spec(shareCode: try context.parameters.require("code"), by: player)
            return JSONBody.response(ServerAPI.SpecAndVisibility(spec: spec, visibility: visibility))
        }
        group.delete("{code}") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let code = try context.parameters.require("code")
            defer { recent.forget(code.uppercased()) }
            try await Publications(environment: environment.sharing, levels: environment.levels, geometry: environment.geometry)
                .delete(shareCode: code, by: player)
            return Response(status: .noContent)
        }
    }

    private func list(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        var order = BrowseOrder.new
        if let sort = query.get("sort") {
            guard let parsed = BrowseOrder(rawValue: sort) else {
                throw APIError.badRequest("sort: \"\(sort)\" is not an order here: use new or popular")
            }
            order = parsed
        }
        var level: Level?
        if let text = query.get("level"), !text.isEmpty {
            guard let parsed = Level(rawValue: text) else {
                throw APIError.badRequest("level: \"\(text)\" is not a level: use beginner, intermediate or expert")
            }
            level = parsed
        }
        var language: QuizLanguage?
        if let text = query.get("language"), !text.isEmpty { language = try QueryValue.language(text) }
        let limit = try QueryValue.pageSize(query.get("limit"))
        let cursor = try QueryValue.pageCursor(query.get("cursor"))
        var text: String?
        if let q = try query.get("q").map({ try QueryValue.searchText($0, name: "q") })?
            .trimmingCharacters(in: .whitespacesAndNewlines), !q.isEmpty
        {
            guard q.count <= Packages.maxSearchLength else {
                throw APIError.badRequest("q: at most \(Packages.maxSearchLength) characters")
            }
            text = q
        }
        let page = try await Packages(environment: environment.sharing).page(
            order: order, BrowseFilter(level: level, language: language, text: text), after: cursor, limit: limit)
        return JSONBody.response(ServerAPI.PackagePage(packages: page.packages.map(ServerAPI.PackageMetadata.init), nextCursor: page.next?.text))
    }

    private func publish(_ request: Request, address: String) async throws -> Response {
        let player = try await request.authenticatedPlayer(environment)
        try await publishes.take(player, address: address)
        let (spec, visibility) = try await Self.specAndVisibility(of: request)
        let published = try await Publications(
            environment: environment.sharing, levels: environment.levels, geometry: environment.geometry
        ).publish(spec, visibility: visibility ?? .public, by: player)
        var response = JSONBody.response(ServerAPI.Published(shareCode: published.shareCode), status: .created)
        response.headers[.location] = "/v1/packages/\(published.shareCode)"
        return response
    }
}

extension PackageRoutes {
    /// `PUT /v1/packages/{code}`: the owner's new spec for the package, under the same share code.
    private func update(_ request: Request, code: String) async throws -> Response {
        let player = try await request.authenticatedPlayer(environment)
        let (spec, visibility) = try await Self.specAndVisibility(of: request)
        let updated = try await Publications(
            environment: environment.sharing, levels: environment.levels, geometry: environment.geometry
        ).update(shareCode: code, with: spec, visibility: visibility, by: player, plays: plays)
        return JSONBody.response(ServerAPI.PackageMetadata(updated))
    }

    /// A publish or update body: a spec and an optional visibility. A spec that is not well formed (not JSON, a field
    /// missing or of the wrong type) is bad input; one that is well formed but breaks a rule is a 422 from the use case.
    static func specAndVisibility(of request: Request) async throws -> (PackageSpec, Visibility?) {
        do {
            return try Drafts.specAndVisibility(try await JSONBody.bytes(of: request))
        } catch let problem as SpecProblem {
            throw APIError.badRequest(problem.description)
        }
    }
}
