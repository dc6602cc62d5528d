import ArgumentParser
import Foundation
import LocalUseCases
import MovieSearch
import QuizCore
import QuizStore
import UQuizStorage

struct FetchPostersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch-posters",
        abstract: "Download and cache the posters of packages, so that solving them later needs no network.",
        discussion: """
            Posters go to $XDG_CACHE_HOME/uquiz/posters (at most posters.cacheMegabytes, least recently used evicted). \
            Bundled posters need no download. A poster TMDB no longer has is replaced by the movie's current one \
            (this needs TMDB credentials) and the quiz is updated. Exits 1 if any poster could not be fetched.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Ids, share codes or seed ids of packages (default: every package).") var packages: [String] = []

    func run() async throws {
        let context = try await AppContext.make(store)
        let database = try context.openDatabase()
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
        guard let report = try await FetchPosters(environment: context.environment).run(
            packageIDs: try packages.map { try database.packageID(for: $0) }, progress: bar.update)
        else {
            print("No TMDB posters to fetch: these packages use bundled posters.")
            return
        }
        bar.finish()
        for line in report.lines {
            switch line.outcome {
            case .replaced(let newPath):
                print("replaced  \(SafeText.clean(line.quizTitle)): \(SafeText.clean(line.posterPath)) → \(SafeText.clean(newPath))")
            case .failed(let reason):
                print("failed    \(SafeText.clean(line.quizTitle)): \(SafeText.clean(reason))")
            case .alreadyCached, .downloaded:
                break
            }
        }
        let failures = report.failures
        print(
            "\(report.lines.count) posters (\(report.size)): \(report.count { $0 == .downloaded }) downloaded, "
                + "\(report.count { if case .replaced = $0 { true } else { false } }) replaced, "
                + "\(report.count { $0 == .alreadyCached }) already cached, \(failures.count) failed.")
        if let first = failures.first, case .failed(let reason) = first.outcome {
            throw CommandFailure(
                message: "\(failures.count) poster\(failures.count == 1 ? "" : "s") could not be fetched (first: \(SafeText.clean(first.quizTitle)): \(reason))")
        }
    }
}

/// `[#######·······] 12/50` on standard error, redrawn in place; nothing when standard error is not a terminal.
struct ProgressBar {
    let enabled: Bool

    func update(done: Int, total: Int) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = width * done / total
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled) + "] \(done)/\(total)"
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
