import Foundation
import QuizCore
import RemoteClient
import UQuizStorage
import UQuizWire

/// Publishing a local package on a server: the first time a copy of its own, under the code the server gives it
/// (recorded with the local package); after that, the same copy updated under the same code, unless a new copy is
/// asked for.
public struct PublishToServer: Sendable {
    public let environment: AppEnvironment

    public init(environment: AppEnvironment) {
        self.environment = environment
    }

    public enum Outcome: String, Sendable, Encodable {
        /// A new copy on the server.
        case published
        /// The copy published before, changed under its code.
        case updated
        /// The copy published before is gone from the server (its maker deleted it there): a new one was made.
        case republished
    }

    public struct Result: Sendable {
        public var package: QuizPackage
        public var shareCode: String
        public var outcome: Outcome
        /// The server's page for the copy: where a friend plays it.
        public var link: String
    }

    public enum Problem: Error, Equatable {
        /// The package has a movie the server could not know (neither a TMDB id nor a catalog key).
        case notPublishable(localCode: String)
        /// The copy has plays: its quizzes stay as they are there; only a new copy can have the new ones.
        case copyPlayed(shareCode: String)
        /// The copy belongs to another player than the one logged in now.
        case copyNotYours(shareCode: String)
        case server(ServerClientError)
    }

    /// Publishes package `reference` (id, share code or seed id) on `client`'s server, or updates its copy there.
    /// `visibility` `nil` keeps an updated copy's and makes a new one public.
    /// - Throws: `Problem`, or the store's error when the package is not there.
    public func publish(_ reference: String, on client: ServerClient, visibility: Visibility?, asNew: Bool) throws -> Result {
        let store = try environment.store()
        let packageId = try store.packageID(for: reference)
        let local = try store.package(id: packageId)
        guard let spec = PackageSpec(remaking: local) else { throw Problem.notPublishable(localCode: local.shareCode.value) }
        var outcome = Outcome.published
        if !asNew, let known = try store.serverCopy(packageId: packageId, server: client.baseURL) {
            do {
                _ = try client.update(shareCode: known, with: spec, visibility: visibility)
            } catch {
                switch error {
                case .refused(404, _, _, _): outcome = .republished
                case .refused(409, _, _, _): throw Problem.copyPlayed(shareCode: known)
                case .refused(403, _, _, _): throw Problem.copyNotYours(shareCode: known)
                default: throw Problem.server(error)
                }
            }
            if outcome != .republished {
                return try finish(package: local, id: packageId, code: known, outcome: .updated, client: client, store: store)
            }
        }
        let published: ServerAPI.Published
        do {
            published = try client.publish(spec, visibility: visibility ?? .public)
        } catch {
            throw Problem.server(error)
        }
        return try finish(package: local, id: packageId, code: published.shareCode, outcome: outcome, client: client, store: store)
    }

    private func finish(
        package: QuizPackage, id: Int64, code: String, outcome: Outcome, client: ServerClient, store: any QuizStorage
    ) throws -> Result {
        try store.recordServerCopy(packageId: id, server: client.baseURL, shareCode: code, at: environment.now())
        return Result(package: package, shareCode: code, outcome: outcome, link: "\(client.baseURL)/p/\(code)")
    }
}
