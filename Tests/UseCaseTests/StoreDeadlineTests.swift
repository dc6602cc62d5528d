import Foundation
import Synchronization
import Testing
import UQuizStorage

@Suite("The database deadline")
struct StoreDeadlineTests {
    @Test func anAnswerInTimeIsTheAnswer() async throws {
        #expect(try await StoreDeadline(.seconds(5)).run("db") { 42 } == 42)
        await #expect(throws: StoreError.refused(detail: "no")) {
            try await StoreDeadline(.seconds(5)).run("db") { () async throws -> Int in throw StoreError.refused(detail: "no") }
        }
    }

    /// A call that does not answer fails as unavailable, and its work is cancelled rather than awaited.
    @Test func noAnswerIsUnavailableAndTheWorkIsCancelled() async throws {
        let cancelled = Mutex(false)
        let ended = AsyncStream.makeStream(of: Void.self)
        await #expect(throws: StoreError.unavailable(detail: "db: no answer within 0.05 seconds")) {
            try await StoreDeadline(.milliseconds(50)).run("db") { () async throws -> Int in
                defer { ended.continuation.finish() }
                do {
                    try await Task.sleep(for: .seconds(600))
                } catch {
                    cancelled.withLock { $0 = true }
                    throw error
                }
                return 1
            }
        }
        // The work ends once cancelled; waiting for that needs no clock.
        for await _ in ended.stream {}
        #expect(cancelled.withLock { $0 })
    }

    /// The callback form: an answer handed over from another thread is the answer; one that never comes fails as
    /// unavailable, and when it comes after all it is dropped (the caller was answered once).
    @Test func anOperationAnsweringFromItsOwnThreadIsAnsweredOnce() async throws {
        let queue = DispatchQueue(label: "store")
        let answered = try await StoreDeadline(.seconds(5)).run("db") { (answer: @escaping @Sendable (Result<Int, any Error>) -> Void) in
            queue.async { answer(.success(42)) }
        }
        #expect(answered == 42)
        await #expect(throws: StoreError.refused(detail: "no")) {
            try await StoreDeadline(.seconds(5)).run("db") { (answer: @escaping @Sendable (Result<Int, any Error>) -> Void) in
                queue.async { answer(.failure(StoreError.refused(detail: "no"))) }
            }
        }
        let late = Mutex<(@Sendable (Result<Int, any Error>) -> Void)?>(nil)
        await #expect(throws: StoreError.unavailable(detail: "db: no answer within 0.05 seconds")) {
            try await StoreDeadline(.milliseconds(50)).run("db") { (answer: @escaping @Sendable (Result<Int, any Error>) -> Void) in
                late.withLock { $0 = answer }
            }
        }
        // The answer that comes after the deadline changes nothing (a second resume would trap).
        late.withLock { $0 }?(.success(7))
    }
}
