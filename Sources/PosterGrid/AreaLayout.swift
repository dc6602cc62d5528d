/// Chooses area centres for a quiz when the maker gives none: spread over the poster, reproducible from a seed, and never
/// breaking the grid rules.
public enum AreaLayout {
    /// A small seeded generator (SplitMix64) so that `--seed N` gives the same layout on every machine.
    public struct SeededGenerator: RandomNumberGenerator, Sendable {
        var state: UInt64

        public init(seed: UInt64) {
            state = seed
        }

        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Adds centres to `existing` until there are `count`, each as far as possible from those already chosen.
    ///
    /// The first new area, when it is the quiz's stage 1, is kept in the middle band of the poster (rows 20%–66%), where
    /// printed titles rarely are; `detail(cell)` (0…1, higher for busier regions of the poster, when its pixels are
    /// known) tips the choice among nearly equally spread candidates toward areas worth revealing.
    public static func spreadOut(
        count: Int, geometry: GridGeometry, existing: [Cell] = [], seed: UInt64,
        detail: ((Cell) -> Double)? = nil
    ) -> [Cell] {
        var generator = SeededGenerator(seed: seed)
        var chosen = existing
        let rows = geometry.centreRows
        let columns = geometry.centreColumns
        while chosen.count < count {
            var candidates: [Cell] = []
            for _ in 0..<64 {
                var rowRange = rows
                if chosen.isEmpty {
                    let top = max(rows.lowerBound, geometry.rows * 20 / 100)
                    let bottom = min(rows.upperBound, geometry.rows * 66 / 100)
                    if top <= bottom { rowRange = top...bottom }
                }
                let cell = Cell(row: Int.random(in: rowRange, using: &generator), column: Int.random(in: columns, using: &generator))
                if !chosen.contains(where: { geometry.blocksOverlap($0, cell) }) { candidates.append(cell) }
            }
            guard !candidates.isEmpty else { break }  // the poster is full: fewer areas than asked
            func distance(_ a: Cell, _ b: Cell) -> Double {
                let dr = Double(a.row - b.row)
                let dc = Double(a.column - b.column)
                return (dr * dr + dc * dc).squareRoot()
            }
            let diagonal = Double(geometry.rows * geometry.rows + geometry.columns * geometry.columns).squareRoot()
            func score(_ cell: Cell) -> Double {
                // With nothing chosen yet, prefer the middle of the band; afterwards, the farthest from every chosen area.
                // Full detail is worth half the poster's diagonal of spread.
                let middle = Double(abs(cell.row - (rows.lowerBound + rows.upperBound) / 2))
                let spread = chosen.isEmpty ? -middle : chosen.map { distance($0, cell) }.min()!
                return spread / diagonal + 0.5 * (detail?(cell) ?? 0)
            }
            chosen.append(candidates.max { score($0) < score($1) }!)
        }
        return Array(chosen.dropFirst(existing.count))
    }
}

/// Reads a cell typed by a maker: `12:30`, `12,30`, `r12 c30`, `r12c30` (row then column), or a bare cell index
/// (`row * columns + column`, as the original app numbered cells).
public enum CellParser {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case notACell(String)
        /// A number with a fraction or an exponent (`30.5`): cells are counted in whole rows and columns.
        case notWhole(String)
        case offGrid(String, GridGeometry)

        public var description: String {
            switch self {
            case let .notACell(text):
                "\"\(text)\" is not a cell: write row:column (12:30), r12 c30, or a cell index"
            case let .notWhole(text):
                "\"\(text)\" is not a cell: rows, columns and cell indexes are whole numbers"
            case let .offGrid(text, grid):
                "\"\(text)\" is off the grid: rows are 0...\(grid.rows - 1), columns 0...\(grid.columns - 1), "
                    + "indexes 0...\(grid.cellCount - 1)"
            }
        }
    }

    public static func parse(_ text: String, geometry: GridGeometry) throws(Failure) -> Cell {
        let trimmed = text.trimmingCharactersInSet(" \t")
        let lower = trimmed.lowercased()
        var numbers: [Int] = []
        if lower.hasPrefix("r"), let cIndex = lower.firstIndex(of: "c") {
            let row = lower[lower.index(after: lower.startIndex)..<cIndex].trimmingCharactersInSet(" ,")
            let column = lower[lower.index(after: cIndex)...].trimmingCharactersInSet(" ")
            guard let r = Int(row), let c = Int(column) else { throw notANumber(row, column, in: text) }
            numbers = [r, c]
        } else {
            let parts = lower.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == "," })
                .map { $0.trimmingCharactersInSet(" ") }
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { throw .notACell(text) }
            for part in parts {
                guard let value = Int(part) else { throw notANumber(part, in: text) }
                numbers.append(value)
            }
        }
        if numbers.count == 1 {
            guard let cell = geometry.cell(atIndex: numbers[0]) else { throw .offGrid(text, geometry) }
            return cell
        }
        let cell = Cell(row: numbers[0], column: numbers[1])
        guard geometry.contains(cell) else { throw .offGrid(text, geometry) }
        return cell
    }

    /// Why parts of a cell that `Int` refused are not a cell: a number that is not whole, or no number at all.
    private static func notANumber(_ parts: String..., in text: String) -> Failure {
        parts.contains { Int($0) == nil && $0.contains(".") && Double($0)?.isFinite == true } ? .notWhole(text) : .notACell(text)
    }
}

extension StringProtocol {
    /// Foundation-free trimming for this pure module.
    func trimmingCharactersInSet(_ characters: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
