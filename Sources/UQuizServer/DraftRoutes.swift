import Foundation
import Hummingbird
import NIOCore
import PosterArt
import PosterGrid
import ServerUseCases
import UQuizWire

/// A maker's drafts: `/v1/drafts` (list, make), `/v1/drafts/{id}` (read, save, delete), its publish and the stage
/// posters of its preview. Every route is the draft's maker's alone: another player's draft is a 404. The rules live
/// in `Drafts`.
struct DraftRoutes {
    let environment: ServerEnvironment
    let drafts: Drafts
    /// Publishing a draft counts as a publish does.
    let publishes: PlayerAndAddressLimit
    /// New drafts (saving one is not limited).
    let creations: PlayerAndAddressLimit
    /// Previews' stage posters, kept while makers step through their stages.
    let posters = StagePosterCache<String>(byteLimit: 8 << 20)

    func add(to router: Router<ServerRequestContext>) {
        let group = router.group("v1/drafts")
        group.get { request, _ in
            let player = try await request.authenticatedPlayer(environment)
            let list = try await drafts.list(by: player)
            return JSONBody.response(ServerAPI.DraftList(drafts: list.map(Self.summary)))
        }
        group.post { request, context in
            let player = try await request.authenticatedPlayer(environment)
            try await creations.take(player, address: context.clientAddress)
            let draft = try await drafts.create(document: try await JSONBody.bytes(of: request), by: player)
            var response = JSONBody.response(body(draft), status: .created)
            response.headers[.location] = "/v1/drafts/\(draft.id)"
            return response
        }
        group.get("{id}") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            return JSONBody.response(body(try await drafts.draft(try Self.id(context), by: player)))
        }
        group.put("{id}") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let document = try await JSONBody.bytes(of: request)
            return JSONBody.response(body(try await drafts.save(try Self.id(context), document: document, by: player)))
        }
        group.delete("{id}") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            try await drafts.delete(try Self.id(context), by: player)
            return Response(status: .noContent)
        }
        group.post("{id}/publish") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let id = try Self.id(context)
            _ = try await drafts.draft(id, by: player)
            try await publishes.take(player, address: context.clientAddress)
            let (published, updated) = try await drafts.publish(id, by: player)
            var response = JSONBody.response(
                ServerAPI.Published(shareCode: published.shareCode), status: updated ? .ok : .created)
            response.headers[.location] = "/v1/packages/\(published.shareCode)"
            return response
        }
        group.get("{id}/quizzes/{quiz}/poster") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let quiz = try QueryValue.wholeNumber(context.parameters.require("quiz"), name: "quiz")
            let stage = try request.uri.queryParameters.get("stage").map { try QueryValue.wholeNumber($0, name: "stage") }
            let jpeg = try await drafts.poster(try Self.id(context), quiz: quiz, stage: stage, by: player, cache: posters)
            return JPEGBody.response(jpeg)
        }
    }

    /// A draft id from the path; one that is not a number names no draft.
    private static func id(_ context: ServerRequestContext) throws -> Int64 {
        guard let id = Int64(try context.parameters.require("id")), id > 0 else { throw DraftError.notFound(0) }
        return id
    }

    /// What the list shows of a draft: enough to pick it, without its quizzes.
    private static func summary(_ draft: Drafts.View) -> ServerAPI.DraftSummary {
        let document = try? JSONDecoder().decode(JSONValue.self, from: draft.document)
        return ServerAPI.DraftSummary(
            id: draft.id, createdAt: draft.createdAt, updatedAt: draft.updatedAt, expiresAt: draft.expiresAt,
            title: document?["title"]?.string ?? "", quizCount: document?["quizzes"]?.array?.count ?? 0,
            ready: draft.problem == nil)
    }

    /// A draft as its maker edits it, with this server's level rules: what the maker's page places areas by and plays
    /// its preview at, so the preview keeps the play's timing.
    private func body(_ draft: Drafts.View) -> ServerAPI.Draft {
        let levels = environment.levels
        let geometry = environment.geometry
        return ServerAPI.Draft(
            id: draft.id, createdAt: draft.createdAt, updatedAt: draft.updatedAt, expiresAt: draft.expiresAt,
            document: (try? JSONDecoder().decode(JSONValue.self, from: draft.document)) ?? .object([:]),
            problem: draft.problem.map { ($0.path, $0.problem) },
            levels: Dictionary(uniqueKeysWithValues: Level.allCases.map { level in
                (level.rawValue, (levels[level].areaCount, levels[level].stageDuration.seconds))
            }),
            timeLimitSeconds: levels.timeLimit.seconds,
            // The grid areas are placed on: a server may set another than the standard one.
            grid: (geometry.columns, geometry.rows, geometry.areaSize, geometry.margin))
    }
}
