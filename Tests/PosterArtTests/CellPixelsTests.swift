import PosterArt
import PosterGrid
import Testing

@Suite("Cells on pixels")
struct CellPixelsTests {
    /// Sizes that are and are not multiples of the grid, the bundled posters' and a large upload's.
    static let sizes = [(100, 150), (342, 513), (343, 517), (500, 750), (101, 149), (3000, 4501)]

    @Test(arguments: sizes)
    func cellsTileTheImageWithNoGapOrOverlap(width: Int, height: Int) throws {
        for geometry in [GridGeometry.standard, try GridGeometry(columns: 7, rows: 11, areaSize: 3, margin: 0)] {
            let map = CellPixels(geometry: geometry, width: width, height: height)
            var next = 0
            for column in 0..<geometry.columns {
                let xs = map.pixelColumns(ofColumn: column)
                #expect(xs.lowerBound == next && !xs.isEmpty, "column \(column) of \(width) px starts where the last ended")
                next = xs.upperBound
            }
            #expect(next == width, "the last column ends at the edge")
            next = 0
            for row in 0..<geometry.rows {
                let ys = map.pixelRows(ofRow: row)
                #expect(ys.lowerBound == next && !ys.isEmpty, "row \(row) of \(height) px starts where the last ended")
                next = ys.upperBound
            }
            #expect(next == height, "the last row ends at the edge")
        }
    }

    @Test func anImageSmallerThanTheGridStillGivesEveryCellAPixel() {
        let map = CellPixels(geometry: .standard, width: 20, height: 30)
        for column in 0..<50 {
            let xs = map.pixelColumns(ofColumn: column)
            #expect(xs.count == 1 && xs.upperBound <= 20)
        }
        #expect(CellPixels(geometry: .standard, width: 0, height: 0).pixelRows(ofRow: 3).isEmpty)
    }

    @Test func theRasterSamplesEachCellOverItsPixels() {
        // 343 x 517: cells are 6 or 7 pixels a side. Colour each pixel by its cell's parity; every cell must come out flat.
        let map = CellPixels(geometry: .standard, width: 343, height: 517)
        var cellOf = (columns: [Int](repeating: 0, count: 343), rows: [Int](repeating: 0, count: 517))
        for column in 0..<50 { for x in map.pixelColumns(ofColumn: column) { cellOf.columns[x] = column } }
        for row in 0..<75 { for y in map.pixelRows(ofRow: row) { cellOf.rows[y] = row } }
        var pixels: [UInt8] = []
        for y in 0..<517 {
            for x in 0..<343 { pixels += (cellOf.rows[y] + cellOf.columns[x]) % 2 == 0 ? [250, 0, 0] : [0, 0, 250] }
        }
        let raster = CellRaster(image: RGBImage(width: 343, height: 517, pixels: pixels), geometry: .standard)
        #expect(raster.variation.allSatisfy { $0 == 0 }, "no cell mixes its neighbour's pixels")
        #expect(raster.colour(at: Cell(row: 0, column: 0)) == .init(red: 250, green: 0, blue: 0))
        #expect(raster.colour(at: Cell(row: 74, column: 49)) == .init(red: 0, green: 0, blue: 250))
    }
}
