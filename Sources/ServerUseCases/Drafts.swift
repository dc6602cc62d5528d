import Foundation
import PosterArt
import PosterGrid
import QuizCore
import UQuizStorage
import UQuizWire

/// A maker's drafts on the server: a package being made, saved as the maker goes (from any device of the player), never
/// listed or playable, checked by the same rules a publication is, previewed with the stage posters a play would show,
/// and published when the maker says so.
///
/// A draft's document is the body `POST /v1/packages` takes (the spec's fields and `visibility`), in whatever state
/// the maker left it: any JSON object is kept as it is, and what a publish would refuse of it is said beside it.
public struct Drafts: Sendable {
    public let environment: SharingEnvironment
    public let publishing: Publications
    /// The plays an update of a published package must not change under them.
    public let plays: Plays
    public let limits: DraftLimits

    public init(environment: SharingEnvironment, publishing: Publications, plays: Plays, limits: DraftLimits = .init()) {
        self.environment = environment
        self.publishing = publishing
        self.plays = plays
        self.limits = limits
    }

    /// A draft as its maker sees it.
    public struct View: Sendable, Equatable {
        public var id: Int64
        /// The document as saved: a JSON object.
        public var document: Data
        public var createdAt: String
        public var updatedAt: String
        /// When the draft goes if nobody changes it before (`DraftLimits.expiry` after its last change), as `updatedAt`
        /// is written.
        public var expiresAt: String
        /// The first rule a publish of it would break (its JSON path and what to do); `nil` when the spec keeps every
        /// rule (its movies and posters are looked up when it is published).
        public var problem: SpecProblem?
    }

    public func create(document: Data, by player: Player) async throws -> View {
        let text = try Self.object(document, limit: limits.maxDocumentBytes)
        guard let saved = try await withinQuota(text, {
            try await environment.store().insertDraft(
                playerId: player.id, document: text, at: environment.now(), limit: limits.maxDrafts,
                quotaBytes: limits.quotaBytes)
        })
        else { throw DraftError.tooMany(limit: limits.maxDrafts) }
        return view(saved)
    }

    /// The player's drafts, the one changed last first.
    public func list(by player: Player) async throws -> [View] {
        try await environment.store().drafts(playerId: player.id).map(view)
    }

    public func draft(_ id: Int64, by player: Player) async throws -> View {
        view(try await record(id, by: player))
    }

    public func save(_ id: Int64, document: Data, by player: Player) async throws -> View {
        let text = try Self.object(document, limit: limits.maxDocumentBytes)
        guard let saved = try await withinQuota(text, {
            try await environment.store().updateDraft(
                id: id, playerId: player.id, document: text, at: environment.now(), quotaBytes: limits.quotaBytes)
        })
        else { throw DraftError.notFound(id) }
        return view(saved)
    }

    public func delete(_ id: Int64, by player: Player) async throws {
        guard try await environment.store().deleteDraft(id: id, playerId: player.id) else { throw DraftError.notFound(id) }
    }

    /// Publishes the draft as `POST /v1/packages` would its document, or, when the document names a published package's
    /// `shareCode` (an edit of it), updates that package as `PUT /v1/packages/{code}` would; then forgets the draft. A
    /// draft a publish refuses stays as it is, for the maker to mend.
    public func publish(_ id: Int64, by player: Player) async throws -> (package: PublishedPackage, updated: Bool) {
        let draft = try await record(id, by: player)
        let (spec, visibility) = try Self.specAndVisibility(Data(draft.document.utf8))
        let published: PublishedPackage
        if let code = spec.package.shareCode {
            published = try await publishing.update(shareCode: code, with: spec, visibility: visibility, by: player, plays: plays)
        } else {
            published = try await publishing.publish(spec, visibility: visibility ?? .public, by: player)
        }
        do {
            _ = try await environment.store().deleteDraft(id: id, playerId: player.id)
        } catch {
            // Published all the same: the draft stays in the maker's list, where they may delete it.
            environment.log("draft \(id): published as \(published.shareCode), but could not be forgotten: \(error)")
        }
        return (published, spec.package.shareCode != nil)
    }

    /// Quiz `quiz` (from 1) of the draft as a play would show it at stage `stage`: the JPEG of its poster with the
    /// areas of stages 1 to `stage` revealed, cut as a play's stage posters are (the whole poster with `stage` nil).
    ///
    /// The quiz is previewed alone, before the package is whole: the rest of the draft (its title, the other quizzes)
    /// need not keep the rules yet, and the whole poster needs no area.
    public func poster(_ id: Int64, quiz: Int, stage: Int?, by player: Player, cache: StagePosterCache<String>) async throws -> Data {
        let draft = try await record(id, by: player)
        let document = (try? JSONDecoder().decode(JSONValue.self, from: Data(draft.document.utf8))) ?? .object([:])
        let quizzes = document["quizzes"]?.array ?? []
        guard quizzes.indices.contains(quiz - 1) else { throw DraftError.noSuchQuiz(quiz, quizCount: quizzes.count) }
        var alone: [String: JSONValue] = [:]
        if case .object(let members) = quizzes[quiz - 1] { alone = members }
        // Any area will do for the whole poster; the standard grid's centre is inside every margin.
        if stage == nil {
            alone["areas"] = .array([.array([
                .integer(Int64(GridGeometry.standard.rows / 2)), .integer(Int64(GridGeometry.standard.columns / 2)),
            ])])
        }
        let language = document["language"]?.string.flatMap(QuizLanguage.init(rawValue:)) ?? .en
        let preview = JSONValue.object([
            "format": document["format"] ?? .integer(1), "title": .string("Preview"), "level": .string("beginner"),
            "language": .string(language.rawValue), "quizzes": .array([.object(alone)]),
        ])
        let chosen: Quiz
        do {
            let (spec, _) = try Self.specAndVisibility(try JSONEncoder().encode(preview))
            chosen = try await publishing.quizzes(of: spec)[0]
        } catch let problem as SpecProblem {
            throw Self.inDraft(problem, quiz: quiz)
        } catch PublishError.brokenRule(let problem) {
            throw Self.inDraft(problem, quiz: quiz)
        }
        if let stage, !(1...chosen.areas.count).contains(stage) {
            throw DraftError.noSuchStage(stage, stageCount: chosen.areas.count)
        }
        do {
            return try await QuizPosters(environment: environment).poster(
                of: chosen, revealed: stage.map { Array(chosen.areas.prefix($0)) }, cache: cache)
        } catch {
            throw DraftError.posterUnavailable
        }
    }

    // MARK: - Inside

    /// A problem of the quiz previewed alone, at its path in the draft.
    private static func inDraft(_ problem: SpecProblem, quiz: Int) -> SpecProblem {
        let alone = "$.quizzes[0]"
        guard problem.path.hasPrefix(alone) else { return problem }
        return SpecProblem("$.quizzes[\(quiz - 1)]" + problem.path.dropFirst(alone.count), problem.problem)
    }

    /// Deletes the drafts nobody changed for `expiry`; how many. Run by a sweep of the server, never in a request: a
    /// draft is work in progress, and one left for months is left for good (its maker's list says until when).
    public static func removeExpired(environment: SharingEnvironment, expiry: Duration) async throws -> Int {
        try await environment.store().deleteDrafts(
            changedBefore: environment.now().addingTimeInterval(-Double(expiry.components.seconds)))
    }

    /// `write`'s answer, its store's quota refusal said as a draft's.
    private func withinQuota<T>(_ document: String, _ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch let refusal as DraftQuotaExceeded {
            throw DraftError.overQuota(heldBytes: refusal.heldBytes, quotaBytes: limits.quotaBytes, documentBytes: document.utf8.count)
        }
    }

    private func record(_ id: Int64, by player: Player) async throws -> DraftRecord {
        guard let record = try await environment.store().draft(id: id, playerId: player.id) else {
            throw DraftError.notFound(id)
        }
        return record
    }

    private func view(_ record: DraftRecord) -> View {
        let document = Data(record.document.utf8)
        var problem: SpecProblem?
        do {
            let (spec, _) = try Self.specAndVisibility(document)
            try publishing.check(spec)
        } catch let found as SpecProblem {
            problem = found
        } catch PublishError.brokenRule(let found) {
            problem = found
        } catch {
            problem = SpecProblem("$", "\(error)")
        }
        let changed = (try? Date(record.updatedAt, strategy: .iso8601)) ?? environment.now()
        let expiresAt = changed.addingTimeInterval(Double(limits.expiry.components.seconds)).formatted(.iso8601)
        return View(
            id: record.id, document: document, createdAt: record.createdAt, updatedAt: record.updatedAt,
            expiresAt: expiresAt, problem: problem)
    }

    /// The document as stored: a JSON object of at most `limit` bytes.
    static func object(_ document: Data, limit: Int) throws -> String {
        guard document.count <= limit else { throw DraftError.tooLarge(limit: limit) }
        guard case .object = try? JSONDecoder().decode(JSONValue.self, from: document) else { throw DraftError.notAnObject }
        return String(decoding: document, as: UTF8.self)
    }

    /// A publish body read (`POST /v1/packages`, `PUT /v1/packages/{code}`, a draft's document): the spec, and the
    /// visibility when it names one.
    public static func specAndVisibility(_ body: Data) throws(SpecProblem) -> (PackageSpec, Visibility?) {
        let spec = try PackageSpec.decode(body)
        let object = try? JSONDecoder().decode(JSONValue.self, from: body)
        guard let value = object?["visibility"], value != .null else { return (spec, nil) }
        guard let text = value.string, let visibility = Visibility(rawValue: text) else {
            let said = value.string ?? String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
            throw SpecProblem("$.visibility", "\"\(said)\" is not a visibility: use public or unlisted")
        }
        return (spec, visibility)
    }
}

/// The bounds of a player's drafts.
public struct DraftLimits: Sendable {
    /// Drafts one player keeps at once.
    public var maxDrafts: Int
    /// The largest document, in bytes (a package of 25 quizzes with aliases is a few KB).
    public var maxDocumentBytes: Int
    /// The bytes all of a player's drafts hold together.
    public var quotaBytes: Int
    /// How long a draft nobody changes is kept.
    public var expiry: Duration

    public init(
        maxDrafts: Int = 50, maxDocumentBytes: Int = 64 << 10, quotaBytes: Int = 1 << 20,
        expiry: Duration = .seconds(90 * 86_400)
    ) {
        self.maxDrafts = maxDrafts
        self.maxDocumentBytes = maxDocumentBytes
        self.quotaBytes = quotaBytes
        self.expiry = expiry
    }
}

/// Why a draft request is refused.
public enum DraftError: Error, Equatable {
    /// The player has no draft with this id (another player's is none of theirs).
    case notFound(Int64)
    case tooMany(limit: Int)
    case tooLarge(limit: Int)
    /// The player's other drafts hold `heldBytes`; with this document they would pass `quotaBytes`.
    case overQuota(heldBytes: Int, quotaBytes: Int, documentBytes: Int)
    case notAnObject
    case noSuchQuiz(Int, quizCount: Int)
    case noSuchStage(Int, stageCount: Int)
    /// The poster could not be had (TMDB's image server does not answer, say).
    case posterUnavailable
}
