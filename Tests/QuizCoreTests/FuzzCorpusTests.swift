import Foundation
import PosterGrid
import QuizCore
import Testing

/// The import fuzzer's committed corpus (.ci/fuzz/corpus/import), run through the same calls as the fuzzer on every test
/// run: nothing may trap, and the hostile seeds (huge grids, traversing poster paths, heavy titles) must be refused.
@Suite("Import fuzz corpus")
struct FuzzCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".ci/fuzz/corpus/import")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func theCorpusHasTheHostileSeeds() {
        for name in ["export-grid-million.json", "export-grid-overflow-margin.json", "export-combining-title.json",
                     "export-poster-traversal.json", "settings-huge-numbers.json", "grid-overflow.json"] {
            #expect(Self.files.contains(name), "\(name)")
        }
    }

    @Test(arguments: files)
    func everySeedIsRefusedOrAcceptedWithoutTrapping(name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        let hostile = ["million", "overflow", "traversal", "combining", "dotdot"].contains { name.contains($0) }
        let export = try? ExportDocument.read(data, levels: .standard)
        let spec = try? PackageSpec.decode(data).check(geometry: .standard, levels: .standard)
        let grid = try? JSONDecoder().decode(GridGeometry.self, from: data)
        if hostile {
            #expect(export == nil && spec == nil && grid == nil, "\(name) must be refused")
        }
        for quiz in export?.packages.flatMap(\.quizzes) ?? [] {
            #expect(quiz.geometry.cellCount <= 1_000_000)
            for area in quiz.areas { _ = quiz.geometry.block(around: area) }
        }
        if let text = String(data: data, encoding: .utf8) {
            _ = try? CellParser.parse(text, geometry: .standard)
            if let flag = try? PackageSpec.parseQuizLine(text, geometry: .standard, label: "--quiz"), let poster = flag.poster, hostile {
                #expect(!PosterPath.isTMDBPath(poster))
            }
        }
    }
}

/// The normalizer fuzzer's committed corpus (.ci/fuzz/corpus/normalizer) through the fuzzer's calls on every test run
/// (the fuzzer itself runs in .ci/nightly): nothing may trap, and each seed's guess reads the same twice.
@Suite("Normalizer fuzz corpus")
struct NormalizerCorpusTests {
    static let folder = FuzzCorpusTests.folder.deletingLastPathComponent().appendingPathComponent("normalizer")
    static var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() }

    @Test func theCorpusIsThere() { #expect(Self.files.count >= 5) }

    @Test(arguments: files)
    func everySeedIsJudgedWithoutTrapping(name: String) throws {
        let text = String(decoding: try Data(contentsOf: Self.folder.appendingPathComponent(name)), as: UTF8.self)
        let judge = AnswerJudge(
            acceptedTitles: ["기생충", "Parasite", "Rocky II", "X-Men", "The Lord of the Rings: The Return of the King"],
            otherMovieTitles: ["Toy Story 2", "범죄도시 2"])
        #expect(TitleNormalizer.normalize(text) == TitleNormalizer.normalize(text))
        #expect(judge.judge(text) == judge.judge(text))
        _ = AnswerJudge(acceptedTitles: [text]).judge("x")
        _ = Hint.firstHint(for: text)
        _ = try? PackageDocument.checkText(text, path: "title", name: "title")
    }
}
