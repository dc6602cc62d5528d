import Foundation
import MovieSearch
import Synchronization

/// Whether TMDB's image server answered this server lately: what the packages it lists depend on, since a TMDB poster
/// it cannot fetch is a black canvas for the player. Found by asking it now and then (`probe`).
public final class ImageServerReach: Sendable {
    public enum State: String, Sendable {
        /// Not asked yet: taken as reachable.
        case unknown
        case reachable
        case unreachable
    }

    /// A poster path no image exists at: the image server answers it with a 404, which is all the probe needs.
    static let probePath = "/uquiz-reachability-probe.jpg"

    private let state = Mutex(State.unknown)

    public init() {}

    public var current: State { state.withLock { $0 } }

    public func record(_ state: State) {
        self.state.withLock { $0 = state }
    }

    /// Asks the image server for `probePath`: any HTTP answer says it is reachable; no
    /// answer (a name that does not resolve, a refused or timed-out connection, after the client's retries) that it
    /// is not. Without an image client, it is not.
    public func probe(_ client: @escaping @Sendable () throws -> TMDBClient) async {
        let answer = try? await client().downloadPosters([Self.probePath], size: "w92")[0]
        switch answer {
        case .success?, .failure(.http)?: record(.reachable)
        default: record(.unreachable)
        }
    }
}
