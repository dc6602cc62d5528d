/// A cell of the grid laid over a poster, addressed by row (top to bottom) and column (left to right), both from 0.
public struct Cell: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    public static func < (lhs: Cell, rhs: Cell) -> Bool {
        (lhs.row, lhs.column) < (rhs.row, rhs.column)
    }

    /// Written the way the `create` prompt accepts it back.
    public var description: String { "r\(row) c\(column)" }
}

/// The shape of the grid over a 2:3 portrait poster and of the square areas revealed on it.
///
/// Every stored quiz keeps the geometry it was made with, so changing the configured defaults never breaks an old quiz.
public struct GridGeometry: Hashable, Sendable, Codable, CustomStringConvertible {
    public let columns: Int
    public let rows: Int
    /// Side of the square block revealed around an area's centre cell; odd, so the block has a centre.
    public let areaSize: Int
    /// Cells kept free between any area and the poster's edge.
    public let margin: Int

    /// The original app's grid: 50 x 75 cells, 5 x 5 areas, a 2-cell margin.
    public static let standard = try! GridGeometry(columns: 50, rows: 75, areaSize: 5, margin: 2)

    /// The columns and rows a grid may have. Every grid is built by the initialiser below (imports, specs, settings and
    /// database rows alike, and decoding), so this is the one bound on all of them. 1000 is 20 times the standard grid's
    /// 50 columns: at most a million cells, a few megabytes for the player, and still more cells a side than a
    /// terminal has character cells or a playing-size poster (342 px wide) has pixels; while a grid from a hostile file
    /// could otherwise ask for 10^12 cells (`show` spun, the player tried to allocate terabytes) or overflow `Int`.
    public static let sides = 1...1000

    public init(columns: Int, rows: Int, areaSize: Int, margin: Int) throws(GridGeometryError) {
        guard columns > 0, rows > 0 else { throw .nonPositiveSize(columns: columns, rows: rows) }
        guard Self.sides.contains(columns), Self.sides.contains(rows) else { throw .sizeTooLarge(columns: columns, rows: rows) }
        guard areaSize > 0, areaSize % 2 == 1 else { throw .areaSizeNotOdd(areaSize) }
        guard margin >= 0 else { throw .negativeMargin(margin) }
        // areaSize + 2 * margin <= side, written so that no value of areaSize or margin can overflow.
        let side = min(columns, rows)
        guard areaSize <= side, margin <= (side - areaSize) / 2 else {
            throw .noRoomForAnArea(columns: columns, rows: rows, areaSize: areaSize, margin: margin)
        }
        self.columns = columns
        self.rows = rows
        self.areaSize = areaSize
        self.margin = margin
    }

    private enum CodingKeys: String, CodingKey { case columns, rows, areaSize, margin }

    /// Decoded grids keep the same rules as built ones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                columns: try container.decode(Int.self, forKey: .columns), rows: try container.decode(Int.self, forKey: .rows),
                areaSize: try container.decode(Int.self, forKey: .areaSize), margin: try container.decode(Int.self, forKey: .margin))
        } catch let error as GridGeometryError {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    public var cellCount: Int { columns * rows }
    /// Cells on each side of an area's centre.
    public var areaRadius: Int { areaSize / 2 }
    /// Rows an area's centre may take so that its whole block keeps the margin free (4...70 for the standard grid).
    public var centreRows: ClosedRange<Int> { (margin + areaRadius)...(rows - 1 - margin - areaRadius) }
    /// Columns an area's centre may take (4...45 for the standard grid).
    public var centreColumns: ClosedRange<Int> { (margin + areaRadius)...(columns - 1 - margin - areaRadius) }

    public func contains(_ cell: Cell) -> Bool {
        (0..<rows).contains(cell.row) && (0..<columns).contains(cell.column)
    }

    /// The original app's flat cell number, `row * columns + column`.
    public func index(of cell: Cell) -> Int? {
        contains(cell) ? cell.row * columns + cell.column : nil
    }

    public func cell(atIndex index: Int) -> Cell? {
        guard (0..<cellCount).contains(index) else { return nil }
        return Cell(row: index / columns, column: index % columns)
    }

    /// Whether an area centred here keeps its whole block inside the margin.
    public func isAllowedCentre(_ cell: Cell) -> Bool {
        centreRows.contains(cell.row) && centreColumns.contains(cell.column)
    }

    /// The cells an area centred on `centre` reveals, row by row; cells off the grid are left out.
    public func block(around centre: Cell) -> [Cell] {
        let r = areaRadius
        return (centre.row - r...centre.row + r).flatMap { row in
            (centre.column - r...centre.column + r).map { Cell(row: row, column: $0) }
        }.filter(contains)
    }

    /// Two areas overlap when their blocks share at least one cell.
    public func blocksOverlap(_ a: Cell, _ b: Cell) -> Bool {
        abs(a.row - b.row) < areaSize && abs(a.column - b.column) < areaSize
    }

    /// The stage (from 1) of the first area in `centres` whose block covers `cell`; used to draw a quiz's layout.
    public func stage(covering cell: Cell, among centres: [Cell]) -> Int? {
        let radius = areaRadius
        return centres.firstIndex { abs($0.row - cell.row) <= radius && abs($0.column - cell.column) <= radius }
            .map { $0 + 1 }
    }

    public var description: String { "\(columns)x\(rows) grid, \(areaSize)x\(areaSize) areas, margin \(margin)" }
}

public enum GridGeometryError: Error, Equatable, Sendable, CustomStringConvertible {
    case nonPositiveSize(columns: Int, rows: Int)
    case sizeTooLarge(columns: Int, rows: Int)
    case areaSizeNotOdd(Int)
    case negativeMargin(Int)
    case noRoomForAnArea(columns: Int, rows: Int, areaSize: Int, margin: Int)

    public var description: String {
        switch self {
        case let .nonPositiveSize(columns, rows):
            "grid size \(columns)x\(rows) is invalid: columns and rows must be positive"
        case let .sizeTooLarge(columns, rows):
            "grid size \(columns)x\(rows) is invalid: columns and rows must be \(GridGeometry.sides.lowerBound) to \(GridGeometry.sides.upperBound)"
        case let .areaSizeNotOdd(size):
            "area size \(size) is invalid: it must be a positive odd number so that an area has a centre cell"
        case let .negativeMargin(margin):
            "grid margin \(margin) is invalid: it must be 0 or more"
        case let .noRoomForAnArea(columns, rows, areaSize, margin):
            "a \(areaSize)x\(areaSize) area with a \(margin)-cell margin does not fit in a \(columns)x\(rows) grid"
        }
    }
}
