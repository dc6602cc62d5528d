import Foundation
import QuizCore
import UQuizRules

/// A fresh folder under the system's temporary directory, removed when the test's scope ends.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A player's actions at given instants, on a virtual clock that jumps to each action or deadline: a 20-second quiz
/// runs at once, with exact times.
public final class ScriptedInput: SolveInput {
    private var script: [(at: Duration, action: SolveAction)]
    private var time: Duration = .zero

    public init(_ script: [(Double, SolveAction)]) {
        self.script = script.map { (.milliseconds(Int($0.0 * 1000)), $0.1) }
    }

    public func now() -> Duration { time }

    public func next(until deadline: Duration?, in round: QuizRound) -> SolveAction {
        if let first = script.first, deadline.map({ first.at <= $0 }) ?? true {
            script.removeFirst()
            time = max(time, first.at)
            return first.action
        }
        guard let deadline else { return .endOfInput }
        time = max(time, deadline)
        return .tick
    }
}
