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
            return Self.json(["drafts": list.map(Self.summary)])
        }
        group.post { request, context in
            let player = try await request.authenticatedPlayer(environment)
            try await creations.take(player, address: context.clientAddress)
            let draft = try await drafts.create(document: try await JSONBody.bytes(of: request), by: player)
            var response = Self.json(object(draft), status: .created)
            response.headers[.location] = "/v1/drafts/\(draft.id)"
            return response
        }
        group.get("{id}") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            return Self.json(object(try await drafts.draft(try Self.id(context), by: player)))
        }
        group.put("{id}") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let document = try await JSONBody.bytes(of: request)
            return Self.json(object(try await drafts.save(try Self.id(context), document: document, by: player)))
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
    private static func summary(_ draft: Drafts.View) -> [String: Any] {
        let document = (try? JSONSerialization.jsonObject(with: draft.document)) as? [String: Any] ?? [:]
        return [
            "id": draft.id, "createdAt": draft.createdAt, "updatedAt": draft.updatedAt, "expiresAt": draft.expiresAt,
            "title": document["title"] as? String ?? "", "quizCount": (document["quizzes"] as? [Any])?.count ?? 0,
            "ready": draft.problem == nil,
        ]
    }

    /// A draft as its maker edits it, with this server's level rules: what the maker's page places areas by and plays
    /// its preview at, so the preview keeps the play's timing.
    private func object(_ draft: Drafts.View) -> [String: Any] {
        let levels = environment.levels
        return [
            "id": draft.id, "createdAt": draft.createdAt, "updatedAt": draft.updatedAt, "expiresAt": draft.expiresAt,
            "document": (try? JSONSerialization.jsonObject(with: draft.document)) ?? [String: Any](),
            "problem": draft.problem.map { ["path": $0.path, "message": $0.problem] as [String: Any] } ?? NSNull(),
            "levels": Dictionary(uniqueKeysWithValues: Level.allCases.map { level in
                (level.rawValue, ["areas": levels[level].areaCount, "stageSeconds": levels[level].stageDuration.seconds] as [String: Any])
            }),
            "timeLimitSeconds": levels.timeLimit.seconds,
            // The grid areas are placed on: a server may set another than the standard one.
            "grid": [
                "columns": environment.geometry.columns, "rows": environment.geometry.rows,
                "areaSize": environment.geometry.areaSize, "margin": environment.geometry.margin,
            ],
        ]
    }

    private static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return JSONBody.response(encoded: ByteBuffer(bytes: data), status: status)
    }
}
