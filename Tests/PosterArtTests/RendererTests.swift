import Foundation
import PosterArt
import PosterGrid
import Testing

@Suite("Drawing the poster")
struct RendererTests {
    /// A flat red poster, 2 x 2 pixels a cell.
    let raster = CellRaster(
        image: RGBImage(width: 100, height: 150, pixels: Array(repeating: [200, 20, 20], count: 15000).flatMap { $0 }),
        geometry: .standard)
    let areas = [Cell(row: 10, column: 10), Cell(row: 40, column: 30)]

    @Test func onlyTheRevealedAreasShowAndFadeByTheirProgress() {
        let cells = PosterFrame.cells(raster: raster, areas: areas, reveal: [1, 0.5])
        let black = CellRaster.Colour(red: 0, green: 0, blue: 0)
        for row in 0..<75 {
            for column in 0..<50 {
                let colour = cells[row * 50 + column]
                if abs(row - 10) <= 2 && abs(column - 10) <= 2 {
                    #expect(colour == .init(red: 200, green: 20, blue: 20), "stage 1 fully shown at \(row),\(column)")
                } else if abs(row - 40) <= 2 && abs(column - 30) <= 2 {
                    #expect(colour == .init(red: 100, green: 10, blue: 10), "stage 2 half faded at \(row),\(column)")
                } else {
                    #expect(colour == black, "\(row),\(column) stays black")
                }
            }
        }
        #expect(PosterFrame.cells(raster: raster, areas: areas, reveal: [0, 0]).allSatisfy { $0 == black })
    }

    @Test func halfBlocksPairCellsAndScaleToFit() {
        let cells = PosterFrame.cells(raster: raster, areas: areas, reveal: [1, 1])
        let full = HalfBlockPicture(cells: cells, geometry: .standard, maxWidth: 200, maxHeight: 100)
        #expect(full.width == 50 && full.height == 38)
        // Character (x 10, line 4) shows cells (8,10) on top and (9,10) below: both inside area 1.
        #expect(full.glyphs[4 * 50 + 10] == .init(top: .init(red: 200, green: 20, blue: 20), bottom: .init(red: 200, green: 20, blue: 20)))
        // Line 5 shows rows 10 and 11; line 6 rows 12 and 13, the last of area 1 on top and black below.
        #expect(full.glyphs[6 * 50 + 10].top == .init(red: 200, green: 20, blue: 20))
        #expect(full.glyphs[6 * 50 + 10].bottom == .init(red: 0, green: 0, blue: 0))
        let small = HalfBlockPicture(cells: cells, geometry: .standard, maxWidth: 25, maxHeight: 40)
        #expect(small.width == 25 && small.height == 19, "half the size, same shape")
    }

    @Test func onlyChangedCharactersAreRedrawn() {
        var canvas = TerminalCanvas(mode: .trueColour, origin: (3, 5))
        let hidden = HalfBlockPicture(cells: PosterFrame.cells(raster: raster, areas: areas, reveal: [0, 0]), geometry: .standard, maxWidth: 50, maxHeight: 38)
        let first = canvas.draw(hidden)
        #expect(first.components(separatedBy: "▀").count - 1 == 50 * 38, "the first frame is drawn whole")
        #expect(first.hasPrefix("\u{1B}[3;5H\u{1B}[38;2;0;0;0m\u{1B}[48;2;0;0;0m▀"))
        #expect(canvas.draw(hidden) == "", "an unchanged frame costs nothing")
        let stageOne = HalfBlockPicture(cells: PosterFrame.cells(raster: raster, areas: areas, reveal: [1, 0]), geometry: .standard, maxWidth: 50, maxHeight: 38)
        let update = canvas.draw(stageOne)
        // Area 1 covers rows 8-12 (lines 4-6) and columns 8-12: 3 lines of 5 characters.
        #expect(update.components(separatedBy: "▀").count - 1 == 15)
        #expect(update.contains("\u{1B}[7;13H"), "line 4, column 8, moved by the origin")
        canvas.invalidate()
        #expect(canvas.draw(stageOne).components(separatedBy: "▀").count - 1 == 50 * 38)
    }

    @Test func theFallbackUsesThe256ColourCube() {
        var canvas = TerminalCanvas(mode: .palette256)
        let picture = HalfBlockPicture(cells: PosterFrame.uncovered(raster: raster), geometry: .standard, maxWidth: 50, maxHeight: 38)
        let output = canvas.draw(picture)
        // 200,20,20 is level (4, 0, 0) of the cube: 16 + 36 x 4 = 160.
        #expect(output.hasPrefix("\u{1B}[1;1H\u{1B}[38;5;160m\u{1B}[48;5;160m▀"))
        #expect(!output.contains(";2;"), "no 24-bit sequences")
    }
}
