import Foundation
import PosterArt
import PosterGrid
import Testing

@testable import UQuizCLI

@Suite("The area picker's keys, state and frame, without a terminal")
struct AreaPickerTests {
    let raster: CellRaster = {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seed/posters/metropolis-1927.jpg")
        return CellRaster(image: try! JPEG.decode(try! Data(contentsOf: seed)), geometry: .standard)
    }()

    /// A picker for an expert quiz (3 areas) after `keys` typed as bytes; `a` adds the areas given.
    func picker(after keys: String, starting: [Cell] = [], automatic: [Cell] = []) -> AreaPickerState {
        var state = AreaPickerState(title: "Metropolis", geometry: .standard, limit: 3, starting: starting)
        for key in PickerKey.keys(in: Array(keys.utf8)) { state.handle(key) { _ in automatic } }
        return state
    }

    @Test func bytesBecomeKeysArrowsShiftArrowsClicksAndALoneEscape() {
        #expect(PickerKey.keys(in: Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D".utf8)) == [.up, .down, .right, .left])
        #expect(PickerKey.keys(in: Array("\u{1B}[1;2A\u{1B}[1;2D".utf8)) == [.shiftUp, .shiftLeft])
        #expect(PickerKey.keys(in: Array("\u{1B}[<0;56;33M\u{1B}[<0;56;33m".utf8)) == [.click(row: 33, column: 56), .other],
            "a press is a click; the release is nothing")
        #expect(PickerKey.keys(in: Array("\u{1B}[<2;5;5M".utf8)) == [.other], "the right button places nothing")
        #expect(PickerKey.keys(in: [0x1B]) == [.escape])
        #expect(PickerKey.keys(in: Array("\u{1B}[M q!u".utf8)) == [.other, .character("u")],
            "an old-style mouse report's bytes are not keys (here they would spell q, quit)")
        #expect(PickerKey.keys(in: Array(" q\r".utf8)) == [.character(" "), .character("q"), .enter])
    }

    @Test func spacePlacesAnAreaOnTheCursorAndTheRulesRefuseWithTheirReason() {
        var state = picker(after: " ")
        #expect(state.selection.centres == [Cell(row: 37, column: 25)], "the cursor starts in the middle")
        #expect(state.message == "placed area 1 at r37 c25")
        state = picker(after: " l ")
        #expect(state.selection.centres.isEmpty)
        #expect(state.message == "removed area 1", "space on an area removes it")
        state = picker(after: " llllll ")
        #expect(state.selection.centres == [Cell(row: 37, column: 25), Cell(row: 37, column: 31)])
        state = picker(after: " HHHHHHHHHH ")
        #expect(state.cursor == Cell(row: 37, column: 0), "the cursor stops at the edge")
        #expect(state.selection.centres.count == 1, "nothing placed in the margin")
        #expect(state.message?.hasPrefix("✗ r37 c0 is outside the margin") == true)
        state = picker(after: " KK JJJJJHH ")
        #expect(state.selection.centres == [Cell(row: 37, column: 25), Cell(row: 27, column: 25), Cell(row: 52, column: 15)])
        let full = picker(after: " KK JJJJJHH JJ ")
        #expect(full.selection.centres.count == 3)
        #expect(full.message == "✗ r62 c15 would be one area too many: the level allows only 3")
        var resting = full
        resting.handle(.down) { _ in [] }
        #expect(PickerFrame.frame(resting, poster: raster, size: (45, 100)).message
            == "all 3 areas placed: Enter is done, u undoes the last")
    }

    @Test func theCursorsProblemIsShownBeforeAnythingIsPlaced() {
        var state = picker(after: " l")
        #expect(state.stageUnderCursor == 1)
        #expect(PickerFrame.frame(state, poster: raster, size: (45, 100)).message == "on area 1: space removes it")
        state = picker(after: " llll")
        #expect(state.cursorProblem == .overlaps(Cell(row: 37, column: 29), stage: 1, existing: Cell(row: 37, column: 25)))
        let frame = PickerFrame.frame(state, poster: raster, size: (45, 100))
        #expect(frame.message == "✗ r37 c29 overlaps area 1 (centred on r37 c25): areas may not share cells")
        #expect(state.selection.centres.count == 1)
        #expect(PickerFrame.frame(picker(after: " lllll"), poster: raster, size: (45, 100)).message == "space places area 2 here")
    }

    @Test func undoClearAutomaticDoneAndQuit() {
        #expect(picker(after: " u").selection.centres.isEmpty)
        #expect(picker(after: " u").message == "undid area 1 (r37 c25)")
        #expect(picker(after: "u").message == "nothing to undo")
        #expect(picker(after: " KK c").selection.centres.isEmpty)
        let auto = picker(after: " a", automatic: [Cell(row: 10, column: 10), Cell(row: 60, column: 40)])
        #expect(auto.selection.centres == [Cell(row: 37, column: 25), Cell(row: 10, column: 10), Cell(row: 60, column: 40)])
        #expect(auto.message == "added 2 automatic areas")
        let empty = picker(after: "\r")
        #expect(empty.outcome == nil, "done needs an area")
        #expect(empty.message?.hasPrefix("✗ a quiz needs at least 1 area") == true)
        #expect(picker(after: " \r").outcome == .done([Cell(row: 37, column: 25)]))
        #expect(picker(after: " d").outcome == .done([Cell(row: 37, column: 25)]))
        #expect(picker(after: " q").outcome == .cancelled)
        #expect(picker(after: " \u{1B}").outcome == .cancelled)
    }

    @Test func removingAnEarlierAreaMovesTheLaterOnesUpAStage() {
        let state = picker(after: "l", starting: [Cell(row: 37, column: 25), Cell(row: 10, column: 10), Cell(row: 60, column: 40)])
        var removed = state
        removed.handle(.character(" ")) { _ in [] }
        #expect(removed.selection.centres == [Cell(row: 10, column: 10), Cell(row: 60, column: 40)])
        #expect(removed.message == "removed area 1; the later areas moved up one stage")
    }

    @Test func helpAndPreviewTakeTheScreenAndAnyKeyComesBack() {
        #expect(picker(after: "p").mode == .picking, "nothing to preview yet")
        #expect(picker(after: "p").message == "✗ nothing to preview: place an area first")
        #expect(picker(after: " p").mode == .preview)
        #expect(picker(after: "?").mode == .help)
        let back = picker(after: "? ")
        #expect(back.mode == .picking && back.selection.centres.isEmpty, "the key that closes the help does nothing else")
    }

    @Test func theFrameDrawsThePosterWithNumberedAreasTheCursorAndRulers() throws {
        let state = picker(after: " KK JJJJJHH ")
        let frame = PickerFrame.frame(state, poster: raster, size: (45, 100))
        let picture = try #require(frame.picture)
        #expect(picture.width == 50 && picture.height == 38, "full size at 100x45")
        #expect(frame.pictureColumn == 26 && frame.pictureRow == 3)
        let stages = frame.labels.filter(\.isStage)
        #expect(stages == [
            .init(row: 3 + 18, column: 26 + 25, text: "1", isStage: true),
            .init(row: 3 + 13, column: 26 + 25, text: "2", isStage: true),
            .init(row: 3 + 26, column: 26 + 15, text: "3", isStage: true),
        ], "each area's stage on its centre")
        #expect(frame.labels.contains(.init(row: 3 + 5, column: 23, text: "10", isStage: false)), "row 10 numbered beside")
        #expect(frame.ruler.dropFirst(25).hasPrefix("0         10        20"), "columns numbered above")
        let glyph = { (cell: Cell) in picture.glyphs[(cell.row / 2) * picture.width + cell.column] }
        // Inside an area the poster is at full brightness; outside it is dimmed.
        #expect(glyph(Cell(row: 36, column: 25)).top == raster.colour(at: Cell(row: 36, column: 25)))
        let outside = Cell(row: 46, column: 37)
        #expect(glyph(outside).top == PickerFrame.scale(raster.colour(at: outside), 0.35))
        // The cursor (r52 c15, on area 3) is white.
        #expect(glyph(Cell(row: 52, column: 15)).top == PickerFrame.white)
        #expect(frame.status == "cursor r52 c15 · areas 3/3 · 2% of the poster uncovered")
        #expect(frame.message == "placed area 3 at r52 c15")
        #expect(frame.cell(atRow: 3 + 26, column: 26 + 15) == Cell(row: 52, column: 15), "a click lands on the cell shown there")
        for line in [frame.header, frame.status, frame.message, frame.footer] { #expect(TextWidth.of(line) <= 100) }
    }

    @Test func aFreeCursorIsGreenARefusedOneRedAndASmallTerminalIsTold() throws {
        let free = try #require(PickerFrame.frame(picker(after: ""), poster: raster, size: (45, 100)).picture)
        #expect(free.glyphs[18 * 50 + 25].bottom == PickerFrame.green, "r37 is the bottom half of line 18")
        let refused = try #require(PickerFrame.frame(picker(after: "HHHHH"), poster: raster, size: (45, 100)).picture)
        #expect(refused.glyphs[18 * 50 + 0].bottom == PickerFrame.red)
        #expect(!PickerFrame.takesKey(.character(" "), at: (12, 40)), "nothing is placed unseen")
        #expect(PickerFrame.takesKey(.character("q"), at: (12, 40)) && PickerFrame.takesKey(.escape, at: (12, 40)))
        #expect(PickerFrame.takesKey(.character(" "), at: (16, 40)))
        let small = PickerFrame.frame(picker(after: ""), poster: raster, size: (12, 40))
        #expect(small.header == "terminal too small (needs 40x16)")
        #expect(small.picture == nil && small.footer.isEmpty)
        let at80 = PickerFrame.frame(picker(after: " "), poster: nil, posterProblem: "no poster", size: (24, 80))
        let picture = try #require(at80.picture, "without its poster the grid is still drawn")
        #expect(picture.height <= 24 - 6 && at80.footer.hasPrefix("space place/remove · Enter done · q quit · ? help"))
        #expect(TextWidth.of(at80.footer) <= 78)
        // Whole keys only, as many as fit: every key at 120 columns, none cut in the middle at 100 or 80.
        for columns in [80, 100, 120] {
            let footer = PickerFrame.frame(picker(after: ""), poster: raster, size: (45, columns)).footer
            let keys = footer.components(separatedBy: " · ")
            #expect(keys.allSatisfy(PickerFrame.footerKeys.contains) && TextWidth.of(footer) <= columns - 2, "\(columns): \(footer)")
            #expect(keys == Array(PickerFrame.footerKeys.prefix(keys.count)))
            if columns == 120 { #expect(keys == PickerFrame.footerKeys) }
        }
    }

    @Test func theHelpListsTheKeysAndTheRules() {
        let frame = PickerFrame.frame(picker(after: "?"), poster: raster, size: (45, 100))
        #expect(frame.picture == nil && frame.labels.isEmpty)
        #expect(frame.text.contains { $0.hasPrefix("space ") })
        #expect(frame.text.joined(separator: " ").contains("row must be 4-70 and its column 4-45"))
        #expect(frame.footer == "any key: back to the poster")
    }

    @Test func thePreviewShowsOnlyTheRevealedAreasAsASolverSeesThem() throws {
        let state = picker(after: " KK ")
        let frame = PickerFrame.preview(state, poster: raster, reveal: [1, 0], stage: 2, size: (45, 100))
        let picture = try #require(frame.picture)
        let black = CellRaster.Colour(red: 0, green: 0, blue: 0)
        #expect(picture.glyphs[18 * 50 + 25].top == raster.colour(at: Cell(row: 36, column: 25)), "stage 1 shown")
        #expect(picture.glyphs[13 * 50 + 25].top == black, "stage 2 not yet")
        #expect(picture.glyphs[0].top == black)
        #expect(frame.header == " Preview of Metropolis: stage 2/2, as a solver sees it")
        #expect(frame.labels.isEmpty)
    }

    @Test func thePreviewFollowsTheSolversScheduleThenEnds() throws {
        let two = Duration.seconds(2)
        let start = try #require(PickerPreview.reveal(at: .zero, stages: 3, stageDuration: two))
        #expect(start.reveal == [0, 0, 0] && start.stage == 1)
        let middle = try #require(PickerPreview.reveal(at: .seconds(3), stages: 3, stageDuration: two))
        #expect(middle.reveal == [1, 0.5, 0] && middle.stage == 2)
        let held = try #require(PickerPreview.reveal(at: .seconds(7), stages: 3, stageDuration: two))
        #expect(held.reveal == [1, 1, 1] && held.stage == 3, "the whole reveal is held one stage more")
        #expect(PickerPreview.reveal(at: .seconds(8), stages: 3, stageDuration: two) == nil)
    }

    @Test func thePosterChooserBrowsesWithArrowsAndDigits() throws {
        var state = PosterChoiceState(labels: ["1) en", "2) ko", "3) no text"])
        state.handle(.left)
        #expect(state.index == 2, "wraps around")
        state.handle(.right)
        state.handle(.character("2"))
        #expect(state.index == 1)
        state.handle(.character("7"))
        #expect(state.index == 1, "no poster 7")
        state.handle(.enter)
        #expect(state.outcome == .chosen(1))
        var kept = PosterChoiceState(labels: ["1) en", "2) ko"])
        kept.handle(.escape)
        #expect(kept.outcome == .primary)
        let frame = PickerFrame.posterChoice(
            state, movie: "Inception\u{1B}[2J", posters: [0: (raster, nil), 1: (raster, nil), 2: (nil, "no image")],
            geometry: .standard, size: (45, 100))
        #expect(frame.header == " Posters of Inception\\u{1B}[2J: 2 of 3", "text from the network is escaped")
        #expect(frame.status == "2) ko")
        let picture = try #require(frame.picture)
        // Three posters of 30 columns fit side by side, 2 apart; the chosen one (the second) is bright.
        #expect(picture.width == 30 * 3 + 2 * 2)
        #expect(picture.glyphs[32].top == raster.colours[0], "the chosen poster, whole")
        #expect(picture.glyphs[0].top == PickerFrame.scale(raster.colours[0], 0.35), "the others dimmed")
        #expect(picture.glyphs[64].top == PickerFrame.scale(PickerFrame.grey(60), 0.35), "one that cannot be shown is grey")
        #expect(frame.labels.map(\.text) == ["1", "2", "3"] && frame.labels.map(\.isStage) == [false, true, false])
        var third = state
        third.outcome = nil
        third.handle(.right)
        let unavailable = PickerFrame.posterChoice(
            third, movie: "Inception", posters: [2: (nil, "no image")], geometry: .standard, size: (45, 100))
        #expect(unavailable.message == "This poster cannot be shown: no image")
        #expect(PickerFrame.visiblePosters(PosterChoiceState(labels: Array(repeating: "", count: 9), index: 8), columns: 80) == [5, 6, 7, 8],
            "at 80 columns four fit, and the chosen one stays in view")
    }

    @Test func withoutColourThePictureIsShadesWithNoColourCodes() {
        var canvas = TerminalCanvas(mode: .shades)
        let picture = HalfBlockPicture(
            cells: PickerFrame.pickerCells(picker(after: " "), poster: raster), geometry: .standard, maxWidth: 50, maxHeight: 38)
        let drawn = canvas.draw(picture)
        #expect(!drawn.contains("m"), "no colour or other attribute codes at all: every one ends in m")
        #expect(drawn.contains("░") || drawn.contains("▒") || drawn.contains("▓"))
    }
}
