import Foundation
import PosterGrid
import Testing

@Suite("Grid bounds")
struct GridBoundsTests {
    @Test func theStandardGridAndTheLargestAllowedOneAreAccepted() throws {
        #expect(GridGeometry.sides == 1...1000)
        _ = try GridGeometry(columns: 1000, rows: 1000, areaSize: 999, margin: 0)
        _ = try GridGeometry(columns: 1000, rows: 1000, areaSize: 1, margin: 499)
        _ = try GridGeometry(columns: 1, rows: 1, areaSize: 1, margin: 0)
    }

    @Test(arguments: [(1001, 75), (50, 1001), (1_000_000, 1_000_000), (Int.max, Int.max), (Int.max, 75)])
    func tooLargeGridsAreRefused(columns: Int, rows: Int) {
        #expect(throws: GridGeometryError.sizeTooLarge(columns: columns, rows: rows)) {
            try GridGeometry(columns: columns, rows: rows, areaSize: 5, margin: 2)
        }
    }

    @Test(arguments: [(Int.max, 2), (5, Int.max), (Int.max, Int.max), (5, Int.max / 2 + 1), (1001, 0), (49, 1)])
    func hugeAreasAndMarginsDoNotFitAndDoNotTrap(areaSize: Int, margin: Int) {
        #expect(throws: GridGeometryError.noRoomForAnArea(columns: 50, rows: 75, areaSize: areaSize, margin: margin)) {
            try GridGeometry(columns: 50, rows: 75, areaSize: areaSize, margin: margin)
        }
    }

    @Test func theMessageSaysTheBound() {
        #expect(GridGeometryError.sizeTooLarge(columns: 1_000_000, rows: 75).description
            == "grid size 1000000x75 is invalid: columns and rows must be 1 to 1000")
    }

    @Test func decodingGoesThroughTheSameRules() throws {
        let standard = try JSONEncoder().encode(GridGeometry.standard)
        #expect(try JSONDecoder().decode(GridGeometry.self, from: standard) == .standard)
        let huge = Data(#"{"columns": 1000000, "rows": 1000000, "areaSize": 5, "margin": 2}"#.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(GridGeometry.self, from: huge) }
        let overflow = Data(#"{"columns": 50, "rows": 75, "areaSize": 5, "margin": 9223372036854775807}"#.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(GridGeometry.self, from: overflow) }
    }
}
