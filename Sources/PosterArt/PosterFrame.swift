import PosterGrid

/// What the solver sees of a poster at one instant: black, except the quiz's areas, each faded in by its stage's
/// progress (0 hidden … 1 fully shown).
public enum PosterFrame {
    /// One colour per grid cell, row by row.
    public static func cells(raster: CellRaster, areas: [Cell], reveal: [Double]) -> [CellRaster.Colour] {
        let geometry = raster.geometry
        var alpha = [Double](repeating: 0, count: geometry.cellCount)
        for (stage, centre) in areas.enumerated() where stage < reveal.count && reveal[stage] > 0 {
            for cell in geometry.block(around: centre) {
                let index = cell.row * geometry.columns + cell.column
                alpha[index] = max(alpha[index], min(1, reveal[stage]))
            }
        }
        return zip(raster.colours, alpha).map { colour, alpha in
            CellRaster.Colour(
                red: UInt8((Double(colour.red) * alpha).rounded()), green: UInt8((Double(colour.green) * alpha).rounded()),
                blue: UInt8((Double(colour.blue) * alpha).rounded()))
        }
    }

    /// Cells for a whole, uncovered poster (after the answer).
    public static func uncovered(raster: CellRaster) -> [CellRaster.Colour] { raster.colours }
}

/// A character-cell picture: each character is two stacked grid cells drawn as `▀` with the top cell's colour in front
/// and the bottom cell's behind, so a 50 x 75 grid takes 50 columns and 38 lines. Scaled down (nearest cell) to fit.
public struct HalfBlockPicture: Equatable, Sendable {
    public struct Glyph: Equatable, Sendable {
        public var top: CellRaster.Colour
        public var bottom: CellRaster.Colour

        public init(top: CellRaster.Colour, bottom: CellRaster.Colour) {
            self.top = top
            self.bottom = bottom
        }
    }

    public let width: Int
    public let height: Int
    public let glyphs: [Glyph]
    /// The grid drawn, and how many of its rows the picture shows (two a line) after scaling.
    public let geometry: GridGeometry
    public let cellRows: Int

    public init(cells: [CellRaster.Colour], geometry: GridGeometry, maxWidth: Int, maxHeight: Int) {
        // Keep the poster's shape: a character is one cell wide and two cells tall.
        let scale = min(1, Double(maxWidth) / Double(geometry.columns), Double(maxHeight * 2) / Double(geometry.rows))
        let columns = max(1, Int((Double(geometry.columns) * scale).rounded(.down)))
        let cellRows = max(2, Int((Double(geometry.rows) * scale).rounded(.down)))
        let lines = (cellRows + 1) / 2
        let black = CellRaster.Colour(red: 0, green: 0, blue: 0)
        func cell(_ x: Int, _ y: Int) -> CellRaster.Colour {
            guard y < cellRows else { return black }
            let row = min(geometry.rows - 1, y * geometry.rows / cellRows)
            let column = min(geometry.columns - 1, x * geometry.columns / columns)
            return cells[row * geometry.columns + column]
        }
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(columns * lines)
        for line in 0..<lines {
            for x in 0..<columns { glyphs.append(Glyph(top: cell(x, line * 2), bottom: cell(x, line * 2 + 1))) }
        }
        width = columns
        height = lines
        self.glyphs = glyphs
        self.geometry = geometry
        self.cellRows = cellRows
    }

    /// `pictures` side by side, top-aligned, `gap` black columns apart (the poster chooser's row of posters). The
    /// result keeps the first picture's grid, so `cell(atColumn:line:bottomHalf:)` means nothing on it.
    public init(sideBySide pictures: [HalfBlockPicture], gap: Int) {
        let black = CellRaster.Colour(red: 0, green: 0, blue: 0)
        let blank = Glyph(top: black, bottom: black)
        let lines = pictures.map(\.height).max() ?? 1
        let width = max(1, pictures.reduce(0) { $0 + $1.width } + gap * max(0, pictures.count - 1))
        var glyphs = [Glyph](repeating: blank, count: width * lines)
        var left = 0
        for picture in pictures {
            for line in 0..<picture.height {
                for x in 0..<picture.width { glyphs[line * width + left + x] = picture.glyphs[line * picture.width + x] }
            }
            left += picture.width + gap
        }
        self.width = width
        height = lines
        self.glyphs = glyphs
        geometry = pictures.first?.geometry ?? .standard
        cellRows = lines * 2
    }

    /// The grid cell drawn in the top (or bottom) half of the character at `x`, `line`; `nil` off the picture. The
    /// inverse of the scaling above, so a click lands on the cell the maker sees there.
    public func cell(atColumn x: Int, line: Int, bottomHalf: Bool) -> Cell? {
        let y = line * 2 + (bottomHalf ? 1 : 0)
        guard (0..<width).contains(x), (0..<cellRows).contains(y) else { return nil }
        return Cell(row: min(geometry.rows - 1, y * geometry.rows / cellRows), column: min(geometry.columns - 1, x * geometry.columns / width))
    }

    /// The character (column and line from 0) that shows `cell`, or the nearest one when scaling left it out.
    public func position(of cell: Cell) -> (column: Int, line: Int) {
        let x = (cell.column * width + geometry.columns - 1) / geometry.columns
        let y = (cell.row * cellRows + geometry.rows - 1) / geometry.rows
        return (min(width - 1, x), min(height - 1, y / 2))
    }
}

/// Turns pictures into terminal output, sending only the characters that changed since the last frame.
public struct TerminalCanvas: Sendable {
    public enum ColourMode: Sendable {
        case trueColour
        /// The 6 x 6 x 6 cube of 256-colour terminals.
        case palette256
        /// No colour codes at all (`NO_COLOR`): each character a shade (` ░▒▓█`) or half block in the terminal's own
        /// colour, by the brightness of its two cells.
        case shades
    }

    public let mode: ColourMode
    /// Where the picture's top left corner goes on screen (1-based).
    public var origin: (row: Int, column: Int)
    private var shown: HalfBlockPicture?

    public init(mode: ColourMode, origin: (row: Int, column: Int) = (1, 1)) {
        self.mode = mode
        self.origin = origin
    }

    /// Forget what is on screen, so the next frame is drawn whole (after a resize or a clear).
    public mutating func invalidate() { shown = nil }

    /// The escape sequences that turn the screen's current picture into `picture`.
    public mutating func draw(_ picture: HalfBlockPicture) -> String {
        let previous = shown.flatMap { $0.width == picture.width && $0.height == picture.height ? $0 : nil }
        var output = ""
        var cursor: (Int, Int)?
        for line in 0..<picture.height {
            for x in 0..<picture.width {
                let index = line * picture.width + x
                let glyph = picture.glyphs[index]
                if let previous, previous.glyphs[index] == glyph { continue }
                let position = (origin.row + line, origin.column + x)
                if cursor.map({ $0 != position }) ?? true { output += "\u{1B}[\(position.0);\(position.1)H" }
                output += mode == .shades
                    ? Self.shade(glyph) : colour(glyph.top, foreground: true) + colour(glyph.bottom, foreground: false) + "▀"
                cursor = (position.0, position.1 + 1)
            }
        }
        shown = picture
        return output.isEmpty || mode == .shades ? output : output + "\u{1B}[0m"
    }

    /// A glyph without colour: the shade of its brightness, or a half block where one cell is light and the other dark.
    static func shade(_ glyph: HalfBlockPicture.Glyph) -> String {
        func level(_ colour: CellRaster.Colour) -> Int {
            let luminance = 0.299 * Double(colour.red) + 0.587 * Double(colour.green) + 0.114 * Double(colour.blue)
            return Int((luminance / 255 * 4).rounded())
        }
        let shades = [" ", "░", "▒", "▓", "█"]
        let (top, bottom) = (level(glyph.top), level(glyph.bottom))
        if top >= 3 && bottom <= 1 { return "▀" }
        if bottom >= 3 && top <= 1 { return "▄" }
        return shades[(top + bottom) / 2]
    }

    func colour(_ colour: CellRaster.Colour, foreground: Bool) -> String {
        let layer = foreground ? 38 : 48
        switch mode {
        case .trueColour:
            return "\u{1B}[\(layer);2;\(colour.red);\(colour.green);\(colour.blue)m"
        case .shades:
            return ""
        case .palette256:
            func level(_ value: UInt8) -> Int { Int((Double(value) / 255 * 5).rounded()) }
            return "\u{1B}[\(layer);5;\(16 + 36 * level(colour.red) + 6 * level(colour.green) + level(colour.blue))m"
        }
    }
}
