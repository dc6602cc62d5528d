import Foundation
import Testing
@testable import MovieSearch

/// The TMDB fuzzer's committed corpus (.ci/fuzz/corpus/tmdb) through the fuzzer's calls on every test run (the fuzzer
/// itself runs in .ci/nightly): nothing may trap, and the traversing poster paths are never taken as TMDB's.
@Suite("TMDB fuzz corpus")
struct TMDBCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".ci/fuzz/corpus/tmdb")
    static var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() }

    @Test func theCorpusIsThere() { #expect(Self.files.count >= 8) }

    @Test(arguments: files)
    func everySeedIsReadOrRefusedWithoutTrapping(name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        let page = try? TMDBDecoding.searchPage(data)
        let posters = try? TMDBDecoding.posters(data)
        _ = try? TMDBDecoding.movie(data)
        _ = try? TMDBDecoding.alternativeTitles(data)
        _ = try? TMDBDecoding.imageConfiguration(data)
        _ = TMDBDecoding.error(status: 500, body: data, retryAfter: String(data: data.prefix(8), encoding: .utf8), endpoint: "/x")
        if name.contains("traversal") {
            #expect(page?.results.contains { $0.posterPath?.contains("..") == true } != true, "\(name)")
            #expect(posters?.contains { $0.filePath.contains("..") } != true, "\(name)")
        }
    }
}
