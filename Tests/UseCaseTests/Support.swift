import Foundation
import LocalUseCases
import MovieSearch
import QuizCore
import QuizStore
import UQuizRules
import UQuizStorage
import UQuizTestSupport

/// The repository's own seed bundle, found from this file's place in the checkout.
let repositorySeed = SeedBundle(
    directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Seed"))

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

/// Collects what a front end would be shown.
final class RecordingObserver: SolveObserver {
    var events: [QuizCore.PlayEvent] = []
    var ended: [(Int, QuizResult)] = []

    func show(_ step: SolveStep) { events.append(step.event) }
    func quizEnded(_ round: SolveRound, result: QuizResult) { ended.append((round.number, result)) }
}
