import PosterGrid
import Testing

@Suite("Grid geometry")
struct GridGeometryTests {
    let grid = GridGeometry.standard

    @Test func standardGridMatchesTheOriginalApp() {
        #expect(grid.columns == 50)
        #expect(grid.rows == 75)
        #expect(grid.cellCount == 3750)
        #expect(grid.centreRows == 4...70)
        #expect(grid.centreColumns == 4...45)
    }

    @Test func everyCellRoundTripsThroughItsIndex() {
        var seen = Set<Int>()
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let cell = Cell(row: row, column: column)
                let index = grid.index(of: cell)
                #expect(index == row * 50 + column)
                #expect(grid.cell(atIndex: index!) == cell)
                seen.insert(index!)
            }
        }
        #expect(seen == Set(0..<3750))
    }

    @Test(arguments: [-1, 3750, 10_000, Int.min])
    func indicesOffTheGridHaveNoCell(index: Int) {
        #expect(grid.cell(atIndex: index) == nil)
    }

    @Test(arguments: [Cell(row: -1, column: 0), Cell(row: 0, column: -1), Cell(row: 75, column: 0), Cell(row: 0, column: 50)])
    func cellsOffTheGridHaveNoIndex(cell: Cell) {
        #expect(!grid.contains(cell))
        #expect(grid.index(of: cell) == nil)
    }

    @Test func allowedCentresAreExactlyThoseWhoseBlockKeepsTheMargin() {
        // Brute force: a centre is allowed iff every cell of its 5x5 block is at least 2 cells from every edge.
        for row in -3..<(grid.rows + 3) {
            for column in -3..<(grid.columns + 3) {
                let centre = Cell(row: row, column: column)
                let blockKeepsMargin = (row - 2...row + 2).allSatisfy { $0 >= 2 && $0 <= grid.rows - 3 }
                    && (column - 2...column + 2).allSatisfy { $0 >= 2 && $0 <= grid.columns - 3 }
                #expect(grid.isAllowedCentre(centre) == blockKeepsMargin, "\(centre)")
            }
        }
    }

    @Test func blockIsTheFiveByFiveSquareAroundTheCentre() {
        let block = grid.block(around: Cell(row: 10, column: 20))
        #expect(block.count == 25)
        #expect(block.first == Cell(row: 8, column: 18))
        #expect(block.last == Cell(row: 12, column: 22))
        #expect(grid.block(around: Cell(row: 0, column: 0)).count == 9, "cells off the grid are left out")
    }

    @Test func overlapMatchesSharedCellsForEveryOffset() {
        let centre = Cell(row: 30, column: 25)
        let centreBlock = Set(grid.block(around: centre))
        for dr in -7...7 {
            for dc in -7...7 {
                let other = Cell(row: 30 + dr, column: 25 + dc)
                let sharesCells = !centreBlock.isDisjoint(with: grid.block(around: other))
                #expect(grid.blocksOverlap(centre, other) == sharesCells, "offset \(dr),\(dc)")
                #expect(grid.blocksOverlap(other, centre) == sharesCells, "symmetry at \(dr),\(dc)")
            }
        }
    }

    @Test func invalidGeometriesAreRefusedWithTheirReason() {
        #expect(throws: GridGeometryError.nonPositiveSize(columns: 0, rows: 75)) {
            try GridGeometry(columns: 0, rows: 75, areaSize: 5, margin: 2)
        }
        #expect(throws: GridGeometryError.areaSizeNotOdd(4)) {
            try GridGeometry(columns: 50, rows: 75, areaSize: 4, margin: 2)
        }
        #expect(throws: GridGeometryError.negativeMargin(-1)) {
            try GridGeometry(columns: 50, rows: 75, areaSize: 5, margin: -1)
        }
        #expect(throws: GridGeometryError.noRoomForAnArea(columns: 8, rows: 75, areaSize: 5, margin: 2)) {
            try GridGeometry(columns: 8, rows: 75, areaSize: 5, margin: 2)
        }
        // The smallest grid that fits one area has exactly one allowed centre.
        let tiny = try! GridGeometry(columns: 9, rows: 9, areaSize: 5, margin: 2)
        #expect(tiny.centreRows == 4...4)
        #expect(tiny.centreColumns == 4...4)
    }

    @Test func otherGeometriesMoveTheAllowedCentres() throws {
        let wide = try GridGeometry(columns: 30, rows: 45, areaSize: 3, margin: 1)
        #expect(wide.centreRows == 2...42)
        #expect(wide.centreColumns == 2...27)
    }
}

@Suite("Area selection rules")
struct AreaSelectionTests {
    let grid = GridGeometry.standard

    @Test func everyCellIsAcceptedAsAFirstAreaExactlyWhenInsideTheMargin() {
        for row in -1...75 {
            for column in -1...50 {
                let cell = Cell(row: row, column: column)
                var selection = AreaSelection(geometry: grid, limit: 5)
                do {
                    try selection.add(cell)
                    #expect(grid.isAllowedCentre(cell))
                } catch {
                    if !grid.contains(cell) {
                        #expect(error == .offGrid(cell, grid))
                    } else {
                        #expect(error == .outsideMargin(cell, grid))
                        #expect(!grid.isAllowedCentre(cell))
                    }
                }
            }
        }
    }

    @Test(arguments: [
        (Cell(row: 3, column: 10), true), (Cell(row: 4, column: 10), false), (Cell(row: 70, column: 10), false),
        (Cell(row: 71, column: 10), true), (Cell(row: 30, column: 3), true), (Cell(row: 30, column: 4), false),
        (Cell(row: 30, column: 45), false), (Cell(row: 30, column: 46), true),
    ])
    func marginEdges(cell: Cell, refused: Bool) {
        var selection = AreaSelection(geometry: grid, limit: 5)
        #expect((try? selection.add(cell)) == nil ? refused : !refused)
    }

    @Test func overlapNamesTheStageItHitsForEveryOffset() throws {
        let first = Cell(row: 30, column: 25)
        for dr in -6...6 {
            for dc in -6...6 {
                var selection = try AreaSelection(geometry: grid, limit: 5, centres: [Cell(row: 10, column: 10), first])
                let other = Cell(row: 30 + dr, column: 25 + dc)
                let overlaps = abs(dr) < 5 && abs(dc) < 5
                if overlaps {
                    #expect(throws: AreaRuleViolation.overlaps(other, stage: 2, existing: first)) { try selection.add(other) }
                } else {
                    try selection.add(other)
                    #expect(selection.centres.count == 3)
                }
            }
        }
    }

    @Test(arguments: [(Level.beginner, 5), (.intermediate, 4), (.expert, 3)])
    func levelLimitsTheCount(level: Level, count: Int) throws {
        let rule = LevelRules.standard[level]
        #expect(rule.areaCount == count)
        var selection = AreaSelection(geometry: grid, limit: rule.areaCount)
        let spread = (0..<6).map { Cell(row: 5 + $0 * 12, column: 5 + ($0 % 2) * 30) }
        for cell in spread.prefix(count) { try selection.add(cell) }
        #expect(selection.isFull)
        #expect(throws: AreaRuleViolation.tooManyAreas(spread[count], limit: count)) { try selection.add(spread[count]) }
    }

    @Test func aQuizNeedsAtLeastOneArea() {
        #expect(throws: AreaRuleViolation.noAreas) { try AreaSelection(geometry: grid, limit: 3, centres: []) }
    }

    @Test func undoAndClearFreeTheirPlaces() throws {
        var selection = try AreaSelection(geometry: grid, limit: 3, centres: [Cell(row: 10, column: 10)])
        try selection.add(Cell(row: 20, column: 20))
        #expect(selection.removeLast() == Cell(row: 20, column: 20))
        #expect(selection.centres == [Cell(row: 10, column: 10)])
        try selection.add(Cell(row: 20, column: 20))
        #expect(throws: AreaRuleViolation.self) { try selection.add(Cell(row: 12, column: 12)) }
        selection.removeAll()
        #expect(selection.centres.isEmpty)
        try selection.add(Cell(row: 12, column: 12))
        #expect(selection.removeLast() == Cell(row: 12, column: 12))
        #expect(selection.removeLast() == nil)
    }

    @Test func errorMessagesNameTheRuleAndTheCell() {
        let margin = AreaRuleViolation.outsideMargin(Cell(row: 2, column: 30), grid)
        #expect(margin.description == "r2 c30 is outside the margin: an area's centre must have its row in 4...70 and its column in 4...45")
        #expect(margin.rule == "margin")
        let overlap = AreaRuleViolation.overlaps(Cell(row: 12, column: 30), stage: 2, existing: Cell(row: 10, column: 28))
        #expect(overlap.description == "r12 c30 overlaps area 2 (centred on r10 c28): areas may not share cells")
        let count = AreaRuleViolation.tooManyAreas(Cell(row: 40, column: 40), limit: 3)
        #expect(count.description == "r40 c40 would be one area too many: the level allows only 3")
        #expect(AreaRuleViolation.offGrid(Cell(row: 80, column: 1), grid).description.contains("rows are 0...74"))
    }

    @Test func stageCoveringACell() throws {
        let selection = try AreaSelection(
            geometry: grid, limit: 5, centres: [Cell(row: 10, column: 10), Cell(row: 30, column: 30)])
        #expect(selection.stage(covering: Cell(row: 8, column: 12)) == 1)
        #expect(selection.stage(covering: Cell(row: 32, column: 28)) == 2)
        #expect(selection.stage(covering: Cell(row: 13, column: 10)) == nil)
    }
}
