import Foundation
import MovieSearch
import QuizCore
import QuizStore
import UQuizApp

/// The repository's own seed bundle, found from this file's place in the checkout.
let repositorySeed = SeedBundle(
    directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Seed"))

/// A fresh folder under the system's temporary directory, removed when the test's scope ends.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-app-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// An environment for use cases in process: a real SQLite file seeded from the bundle, a fixed date, pinned randomness,
/// no network (no credentials; the image server at a closed port) and a poster cache in the folder.
func testEnvironment(
    _ folder: TemporaryFolder, date: Date = Date(timeIntervalSince1970: 1_795_000_000), seed: UInt64 = 7
) throws -> AppEnvironment {
    let database = try AppDatabase.openOrSeed(at: folder.path("uquiz.sqlite"), seedBundle: { repositorySeed }).database
    let cache = PosterCache(directory: folder.url.appendingPathComponent("posters"), capBytes: 1 << 20)
    return AppEnvironment(
        now: { date }, randomSeed: { seed }, store: { database }, movieClient: { nil },
        imageClient: { throw NoNetwork() }, posterCache: { cache }, posterPlayWidth: { 342 }, log: { _ in })
}

struct NoNetwork: Error {}

/// Actions at given instants on a virtual clock that jumps to each action or deadline: a 20-second quiz runs at once,
/// with exact times.
final class ScriptedInput: SolveInput {
    private var script: [(at: Duration, action: SolveAction)]
    private var time: Duration = .zero

    init(_ script: [(Double, SolveAction)]) {
        self.script = script.map { (.milliseconds(Int($0.0 * 1000)), $0.1) }
    }

    func now() -> Duration { time }

    func next(until deadline: Duration?, in round: QuizRound) -> SolveAction {
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

/// Collects what a front end would be shown.
final class RecordingObserver: SolveObserver {
    var events: [PlayEvent] = []
    var ended: [(Int, QuizResult)] = []

    func show(_ step: SolveStep) { events.append(step.event) }
    func quizEnded(_ round: SolveRound, result: QuizResult) { ended.append((round.number, result)) }
}
