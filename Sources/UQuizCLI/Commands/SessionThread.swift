import Foundation

/// Where a command's synchronous session runs: the players on the terminal or by lines, and the client of a UQuiz
/// server under them, wait for a key, a room's socket or a server's answer by blocking their thread. On a thread of
/// their own they hold none of Swift's cooperative threads (one per core), which the room's WebSocket client runs on.
enum SessionThread {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result(catching: body)) }
            thread.name = "uquiz session"
            thread.start()
        }
    }
}
