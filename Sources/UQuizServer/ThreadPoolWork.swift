import NIOPosix
import UQuizRules

/// The server's `HeavyWork`: SwiftNIO's process-wide thread pool (as many threads as cores, made on first use), so
/// poster files and JPEG cuts never hold a thread of Swift's cooperative pool.
public struct ThreadPoolWork: HeavyWork {
    public init() {}

    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }
}
