import Foundation
import PosterGrid
import QuizCore
import Testing

@Suite("Poster paths")
struct PosterPathTests {
    @Test(arguments: ["/metropolis-1927.jpg", "/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg", "/a_b-c.d.jpeg", "/logo.png", "/x.JPG"])
    func tmdbPathsAreSlashAndAFileName(path: String) {
        #expect(PosterPath.isTMDBPath(path))
    }

    @Test(arguments: [
        "../../../../../etc/passwd", "/..", "/.", "/", "", "/etc/passwd", "/a/b.jpg", "a.jpg", "/a.jpg?x=1", "/a b.jpg",
        "/a.jpg\u{1B}[2J", "/%2e%2e.jpg", "//evil.example/a.jpg", "/a.gif", "/a.jpg/", "/\(String(repeating: "a", count: 300)).jpg",
    ])
    func anythingElseIsRefused(path: String) {
        #expect(!PosterPath.isTMDBPath(path))
    }

    @Test func bundledNamesAreAFileNameWithoutTheSlash() {
        #expect(PosterPath.isBundledName("metropolis-1927.jpg"))
        #expect(!PosterPath.isBundledName("/metropolis-1927.jpg"))
        #expect(!PosterPath.isBundledName(".."))
        #expect(!PosterPath.isBundledName("../x.jpg"))
    }

    @Test func everyWayInRefusesThem() throws {
        let bad = "../../../../../etc/passwd"
        #expect(throws: SpecProblem("$.quizzes[0].poster", PosterPath.specRule)) {
            try spec(poster: bad).check(geometry: .standard, levels: .standard)
        }
        #expect(throws: SpecProblem("$.packages[0].quizzes[0].posterPath", PosterPath.rule)) {
            try ExportDocument.read(exportJSON(posterPath: bad), levels: .standard)
        }
        #expect(throws: SpecProblem("$.packages[0].quizzes[0].posterPath", PosterPath.bundledRule)) {
            try ExportDocument.read(exportJSON(posterPath: "../x.jpg", posterSource: "bundled"), levels: .standard)
        }
        _ = try ExportDocument.read(exportJSON(posterPath: "metropolis-1927.jpg", posterSource: "bundled"), levels: .standard)
        let package = try ExportDocument.read(exportJSON(), levels: .standard).packages[0]
        #expect(throws: EditProblem(.poster, PosterPath.rule)) {
            try package.applying([.poster(quiz: 1, path: "/..")], levels: .standard)
        }
    }
}
