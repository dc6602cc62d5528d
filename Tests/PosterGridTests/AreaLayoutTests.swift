import PosterGrid
import Testing

@Suite("Automatic areas and typed cells")
struct AreaLayoutTests {
    let grid = GridGeometry.standard

    @Test(arguments: [1, 2, 3, 4, 5])
    func layoutsAlwaysKeepTheRulesForManySeeds(count: Int) throws {
        for seed in UInt64(0)..<300 {
            let cells = AreaLayout.spreadOut(count: count, geometry: grid, seed: seed)
            #expect(cells.count == count)
            _ = try AreaSelection(geometry: grid, limit: count, centres: cells)
            // Stage 1 stays in the middle band, away from the usual title bands.
            #expect((15...49).contains(cells[0].row), "seed \(seed): \(cells[0])")
        }
    }

    @Test func theSameSeedGivesTheSameLayoutAndOthersDiffer() {
        let first = AreaLayout.spreadOut(count: 5, geometry: grid, seed: 42)
        #expect(AreaLayout.spreadOut(count: 5, geometry: grid, seed: 42) == first)
        let layouts = Set((0..<50).map { AreaLayout.spreadOut(count: 5, geometry: grid, seed: UInt64($0)) })
        #expect(layouts.count > 45)
    }

    @Test func layoutsAreSpreadOut() {
        for seed in UInt64(0)..<100 {
            let cells = AreaLayout.spreadOut(count: 5, geometry: grid, seed: seed)
            let rows = cells.map(\.row)
            let columns = cells.map(\.column)
            #expect(rows.max()! - rows.min()! >= 30, "seed \(seed): rows \(rows)")
            #expect(columns.max()! - columns.min()! >= 20, "seed \(seed): columns \(columns)")
        }
    }

    @Test func existingAreasAreKeptAndAvoided() throws {
        let existing = [Cell(row: 30, column: 25)]
        let added = AreaLayout.spreadOut(count: 4, geometry: grid, existing: existing, seed: 7)
        #expect(added.count == 3)
        _ = try AreaSelection(geometry: grid, limit: 4, centres: existing + added)
    }

    @Test func detailTipsTheChoiceTowardBusyRegions() {
        // All detail in the right half: most stages should land there.
        let right = AreaLayout.spreadOut(count: 3, geometry: grid, seed: 3) { $0.column >= 25 ? 1 : 0 }
        #expect(right.filter { $0.column >= 25 }.count >= 2)
    }

    @Test func aFullPosterGivesFewerAreasRatherThanBreakingARule() throws {
        let tiny = try GridGeometry(columns: 9, rows: 9, areaSize: 5, margin: 2)
        #expect(AreaLayout.spreadOut(count: 3, geometry: tiny, seed: 1) == [Cell(row: 4, column: 4)])
    }

    @Test(arguments: [
        ("12:30", Cell(row: 12, column: 30)), ("12,30", Cell(row: 12, column: 30)), (" 12 , 30 ", Cell(row: 12, column: 30)),
        ("r12 c30", Cell(row: 12, column: 30)), ("R12C30", Cell(row: 12, column: 30)), ("r12, c30", Cell(row: 12, column: 30)),
        ("630", Cell(row: 12, column: 30)), ("0", Cell(row: 0, column: 0)), ("3749", Cell(row: 74, column: 49)),
        ("74:49", Cell(row: 74, column: 49)),
    ])
    func cellsInEveryAcceptedForm(text: String, cell: Cell) throws {
        #expect(try CellParser.parse(text, geometry: grid) == cell)
    }

    @Test(arguments: ["", "abc", "12:", ":30", "1:2:3", "r12", "c30", "r c", "1e3"])
    func notCells(text: String) {
        #expect(throws: CellParser.Failure.notACell(text)) { try CellParser.parse(text, geometry: grid) }
    }

    @Test(arguments: ["12.5:3", "30.5", "r12.0 c3", "4, .5"])
    func numbersThatAreNotWholeAreSaidSo(text: String) {
        #expect(throws: CellParser.Failure.notWhole(text)) { try CellParser.parse(text, geometry: grid) }
        #expect(CellParser.Failure.notWhole(text).description.contains("whole numbers"))
    }

    @Test(arguments: ["-1:4", "75:0", "0:50", "3750", "-1", "r80 c1"])
    func cellsOffTheGrid(text: String) {
        #expect(throws: CellParser.Failure.offGrid(text, grid)) { try CellParser.parse(text, geometry: grid) }
    }

    @Test func everyIndexAndPairRoundTrips() throws {
        for index in 0..<grid.cellCount {
            let cell = try CellParser.parse(String(index), geometry: grid)
            #expect(try CellParser.parse("\(cell.row):\(cell.column)", geometry: grid) == cell)
            #expect(grid.index(of: cell) == index)
        }
    }
}
