import ArgumentParser
import Foundation
import MovieSearch
import QuizCore
import QuizStore

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
        let ids = try packages.map { try database.packageID(for: $0) }
        let refs = try database.tmdbPosters(packageIDs: ids)
        guard !refs.isEmpty else {
            print("No TMDB posters to fetch: these packages use bundled posters.")
            return
        }
        let client = try context.imageClient()
        let width = try context.settings.posterPlayWidth()
        // /configuration needs credentials; without them the TMDB size named after the width is the best guess.
        let size = client.settings.credentials == nil
            ? "w\(width)" : (try? client.imageConfiguration().posterSize(atLeast: width)) ?? "w\(width)"
        let fetcher = PosterFetcher(client: client, cache: try context.settings.posterCache(), size: size)
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
        let outcomes = fetcher.fetch(
            refs.map { PosterRequest(posterPath: $0.posterPath, tmdbId: $0.tmdbId, language: $0.language) },
            progress: bar.update)
        bar.finish()

        var counts = (cached: 0, downloaded: 0, replaced: 0)
        var failures: [String] = []
        for (ref, outcome) in zip(refs, outcomes) {
            switch outcome {
            case .alreadyCached: counts.cached += 1
            case .downloaded: counts.downloaded += 1
            case .replaced(let newPath):
                try database.replacePoster(quizId: ref.quizId, with: newPath)
                counts.replaced += 1
                print("replaced  \(SafeText.clean(ref.title)): \(ref.posterPath) → \(SafeText.clean(newPath))")
            case .failed(let reason):
                failures.append("\(SafeText.clean(ref.title)): \(reason)")
                print("failed    \(SafeText.clean(ref.title)): \(reason)")
            }
        }
        print(
            "\(refs.count) posters (\(size)): \(counts.downloaded) downloaded, \(counts.replaced) replaced, "
                + "\(counts.cached) already cached, \(failures.count) failed.")
        if let first = failures.first {
            throw CommandFailure(message: "\(failures.count) poster\(failures.count == 1 ? "" : "s") could not be fetched (first: \(first))")
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
