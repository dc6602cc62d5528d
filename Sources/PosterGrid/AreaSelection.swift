/// Why an area cannot be added to a quiz. Each case names the rule it enforces and the offending cell.
public enum AreaRuleViolation: Error, Equatable, Sendable, CustomStringConvertible {
    /// The centre is not on the grid at all.
    case offGrid(Cell, GridGeometry)
    /// The centre is on the grid but its block would reach into the margin or past the edge.
    case outsideMargin(Cell, GridGeometry)
    /// The block shares cells with the block of an earlier stage (stages count from 1).
    case overlaps(Cell, stage: Int, existing: Cell)
    /// The level allows no more areas.
    case tooManyAreas(Cell, limit: Int)
    /// A quiz must reveal something.
    case noAreas

    public var rule: String {
        switch self {
        case .offGrid: "off-grid"
        case .outsideMargin: "margin"
        case .overlaps: "overlap"
        case .tooManyAreas: "area-count"
        case .noAreas: "area-count"
        }
    }

    public var description: String {
        switch self {
        case let .offGrid(cell, grid):
            "\(cell) is off the grid: rows are 0...\(grid.rows - 1) and columns 0...\(grid.columns - 1)"
        case let .outsideMargin(cell, grid):
            "\(cell) is outside the margin: an area's centre must have its row in "
                + "\(grid.centreRows.lowerBound)...\(grid.centreRows.upperBound) and its column in "
                + "\(grid.centreColumns.lowerBound)...\(grid.centreColumns.upperBound)"
        case let .overlaps(cell, stage, existing):
            "\(cell) overlaps area \(stage) (centred on \(existing)): areas may not share cells"
        case let .tooManyAreas(cell, limit):
            "\(cell) would be one area too many: the level allows only \(limit)"
        case .noAreas:
            "a quiz needs at least 1 area"
        }
    }
}

/// The ordered areas of one quiz (stage 1 first), kept valid under the grid rules at every step.
public struct AreaSelection: Hashable, Sendable {
    public let geometry: GridGeometry
    /// The most areas the quiz's level allows.
    public let limit: Int
    public private(set) var centres: [Cell] = []

    public init(geometry: GridGeometry, limit: Int) {
        self.geometry = geometry
        self.limit = limit
    }

    /// Builds a selection from stored or typed centres, failing on the first one that breaks a rule.
    public init(geometry: GridGeometry, limit: Int, centres: [Cell]) throws(AreaRuleViolation) {
        self.init(geometry: geometry, limit: limit)
        for centre in centres { try add(centre) }
        try validateComplete()
    }

    public var isFull: Bool { centres.count >= limit }

    /// Checks one more centre against every rule without adding it.
    public func check(_ centre: Cell) throws(AreaRuleViolation) {
        guard geometry.contains(centre) else { throw .offGrid(centre, geometry) }
        guard geometry.isAllowedCentre(centre) else { throw .outsideMargin(centre, geometry) }
        if let index = centres.firstIndex(where: { geometry.blocksOverlap($0, centre) }) {
            throw .overlaps(centre, stage: index + 1, existing: centres[index])
        }
        guard centres.count < limit else { throw .tooManyAreas(centre, limit: limit) }
    }

    public mutating func add(_ centre: Cell) throws(AreaRuleViolation) {
        try check(centre)
        centres.append(centre)
    }

    @discardableResult
    public mutating func removeLast() -> Cell? {
        centres.popLast()
    }

    public mutating func removeAll() {
        centres.removeAll()
    }

    /// A saved quiz must have at least one area.
    public func validateComplete() throws(AreaRuleViolation) {
        if centres.isEmpty { throw .noAreas }
    }

    /// The stage (from 1) whose block covers `cell`, if any.
    public func stage(covering cell: Cell) -> Int? {
        geometry.stage(covering: cell, among: centres)
    }
}
