import Foundation
import PosterArt
import PosterGrid
import QuizCore
import Testing

@testable import UQuizCLI

@Suite("The player's frame, computed without a terminal")
struct PlayerFrameTests {
    let raster: CellRaster = {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seed/posters/metropolis-1927.jpg")
        return CellRaster(image: try! JPEG.decode(try! Data(contentsOf: seed)), geometry: .standard)
    }()

    func frame(reveal: [Double], size: (rows: Int, columns: Int), status: String = "") -> PlayerFrame {
        PlayerFrame.frame(
            packageTitle: "Silent Classics", quizNumber: 2, quizCount: 25, stage: (1, 2), score: 140, secondsLeft: 15,
            timeLimit: 20, poster: raster,
            areas: [Cell(row: 35, column: 9), Cell(row: 24, column: 38)], reveal: reveal, status: status, typed: "metro",
            size: size)
    }

    @Test func theHeaderCountsQuizzesAndTimeAndTheBarShowsWhatIsLeft() {
        let shown = frame(reveal: [1, 0], size: (45, 100))
        #expect(shown.header.hasPrefix(" Silent Classics · quiz 2/25 · stage 1/2 · 140 pts · 15.0 s "))
        let full = shown.header.filter { $0 == "█" }.count
        let empty = shown.header.filter { $0 == "░" }.count
        #expect(full + empty >= 5 && abs(Double(full) / Double(full + empty) - 0.75) <= 1 / Double(full + empty), "3/4 left")
        #expect(TextWidth.of(shown.header) <= 100, "never wider than the screen")
        #expect(shown.input == "metro")
        #expect(shown.footer == PlayerFrame.footerText)
    }

    @Test func onlyRevealedAreasShowPixelsAndThePosterFitsTheScreen() throws {
        let shown = frame(reveal: [1, 0], size: (45, 100))
        let picture = try #require(shown.picture)
        #expect(picture.width == 50 && picture.height == 38, "a 50 x 75 grid at full size: 50 columns, 38 lines")
        #expect(shown.pictureColumn == 25, "centred")
        let black = CellRaster.Colour(red: 0, green: 0, blue: 0)
        // Line 17 holds grid rows 34 and 35: column 9 is inside area 1 (revealed), column 38 in area 2 (still hidden).
        let glyph = { (line: Int, column: Int) in picture.glyphs[line * picture.width + column] }
        #expect(glyph(17, 9).bottom != black || glyph(17, 9).top != black, "area 1's pixels are shown")
        #expect(glyph(12, 38).top == black && glyph(12, 38).bottom == black, "area 2 is still black")
        #expect(glyph(2, 2).top == black, "outside every area stays black")
        let small = try #require(frame(reveal: [1, 1], size: (24, 80)).picture)
        #expect(small.height <= 24 - 6, "at 80x24 the poster leaves room for the header and the answer lines")
    }

    @Test func theStatusLineIsCutToTheScreenWidth() {
        let shown = frame(reveal: [0, 0], size: (24, 40), status: String(repeating: "x", count: 100))
        #expect(TextWidth.of(shown.status) == 38)
        #expect(shown.status.hasSuffix("…"))
    }

    @Test func headerAndFooterNeverWrapAndATinyTerminalIsTold() {
        let narrow = PlayerFrame.frame(
            packageTitle: "A very long package title that would wrap at eighty columns", quizNumber: 12, quizCount: 25,
            stage: (3, 5), score: 1234, secondsLeft: 7.5, timeLimit: 20, poster: raster, areas: [], reveal: [],
            status: "", typed: "", size: (24, 80))
        #expect(TextWidth.of(narrow.header) <= 80 && TextWidth.of(narrow.footer) <= 78)
        #expect(narrow.header.contains("quiz 12/25 · stage 3/5 · 1234 pts ·  7.5 s"), "the counters stay whole: \(narrow.header)")
        let small = PlayerFrame.frame(
            packageTitle: "x", quizNumber: 1, quizCount: 1, stage: (1, 3), score: 0, secondsLeft: 20, timeLimit: 20,
            poster: raster, areas: [], reveal: [], status: "", typed: "", size: (8, 40))
        #expect(small.header.hasPrefix("terminal too small (needs 30x10)") && small.picture == nil)
        let tight = PlayerFrame.frame(
            packageTitle: "x", quizNumber: 1, quizCount: 1, stage: (1, 3), score: 0, secondsLeft: 20, timeLimit: 20,
            poster: raster, areas: [], reveal: [], status: "", typed: "", size: (12, 40))
        #expect(TextWidth.of(tight.header) <= 40 && (tight.picture?.height ?? 0) >= 4, "40x12 keeps a poster")
        #expect(tight.header.contains("quiz 1/1 · stage 1/3"), "\(tight.header)")
    }

    @Test func aMissingPosterSaysWhyInFullWhereThePosterWouldBe() {
        let reason = "it could not be downloaded: TMDB failed at /w342/x23Fqkt00uqV2TzfSiB60hrc3HY.jpg (HTTP 503); try again later"
        let shown = PlayerFrame.frame(
            packageTitle: "x", quizNumber: 1, quizCount: 1, stage: (1, 3), score: 0, secondsLeft: 20, timeLimit: 20,
            poster: nil, areas: [], reveal: [], status: "No poster: " + reason, typed: "", size: (24, 40),
            posterProblem: reason)
        #expect(shown.notice.count > 1 && shown.notice.allSatisfy { TextWidth.of($0) <= 36 })
        #expect(shown.notice.joined().filter { $0 != " " } == reason.filter { $0 != " " }, "wrapped, nothing lost")
    }
}
