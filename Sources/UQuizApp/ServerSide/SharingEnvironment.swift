import Foundation
import PosterGrid
import QuizCore
import UQuizStorage

/// What the sharing use cases run on: the application's environment, the sharing store (`store`, opened on first use
/// like the rest of the store), and the source of token bytes, which must be unpredictable (the system's generator;
/// tests may pin it).
public struct SharingEnvironment: Sendable {
    public var app: AppEnvironment
    public var store: @Sendable () throws -> any ServerStorage
    public var tokenBytes: @Sendable (Int) -> [UInt8]
    /// Players authenticated before, shared by every request of this process.
    public let knownPlayers: KnownPlayers

    public init(
        app: AppEnvironment, store: @escaping @Sendable () throws -> any ServerStorage,
        tokenBytes: @escaping @Sendable (Int) -> [UInt8] = SharingEnvironment.systemRandomBytes,
        knownPlayers: KnownPlayers = KnownPlayers()
    ) {
        self.app = app
        self.store = store
        self.tokenBytes = tokenBytes
        self.knownPlayers = knownPlayers
    }

    /// Bytes from `SystemRandomNumberGenerator` (the kernel's `getrandom`), fit for secrets.
    @Sendable public static func systemRandomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
