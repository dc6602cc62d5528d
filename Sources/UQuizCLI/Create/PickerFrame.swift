import Foundation
import PosterArt
import PosterGrid

/// What the area picker's (or the poster chooser's) screen shows, computed from the state alone, so a test can check a
/// screen without a terminal. Lines, from the top: header, column ruler, the poster (from line 3), then status, message
/// and keys on the last three lines.
struct PickerFrame: Equatable {
    /// Text drawn over the picture or beside it: an area's stage number, a row number.
    struct Label: Equatable {
        var row: Int
        var column: Int
        var text: String
        /// Stage numbers stand out from the poster; row numbers are plain.
        var isStage: Bool
    }

    var header: String
    var ruler = ""
    var picture: HalfBlockPicture?
    /// Screen position (1-based) of the picture's top left character.
    var pictureRow = 3
    var pictureColumn = 1
    var labels: [Label] = []
    /// Text in place of the picture: the help.
    var text: [String] = []
    var status = ""
    var message = ""
    var footer = ""

    /// Below this the header, a poster worth choosing on and the three bottom lines do not fit.
    static let minimumSize = (rows: 16, columns: 40)
    /// The picker's keys, most needed first: the footer shows as many whole ones as the width holds (`?` lists them all).
    static let footerKeys = [
        "space place/remove", "Enter done", "q quit", "? help", "arrows/hjkl move", "p preview", "u undo", "a auto",
        "c clear",
    ]
    static let previewFooter = "any key: back to the areas"
    static let chooserFooter = "←/→ or 1-9 move · Enter chooses the bright poster · Esc keeps the primary one"

    /// The tiny-terminal frame: says the size needed, nothing else.
    static func tooSmall(_ size: (rows: Int, columns: Int)) -> PickerFrame? {
        guard size.rows < minimumSize.rows || size.columns < minimumSize.columns else { return nil }
        return PickerFrame(header: TextWidth.cut("terminal too small (needs \(minimumSize.columns)x\(minimumSize.rows))", to: size.columns))
    }

    /// Whether a key is acted on at this size: nothing is placed unseen, so while the terminal is too small only
    /// leaving (`q`, Esc) works.
    static func takesKey(_ key: PickerKey, at size: (rows: Int, columns: Int)) -> Bool {
        tooSmall(size) == nil || key == .escape || key == .character("q")
    }

    /// The picker: the poster dimmed outside the placed areas, grid lines every 10 cells, the margin darker, each area
    /// at full brightness in a yellow outline with its stage number, and the cursor with the block it would place (green
    /// when it can be placed, red when a rule refuses it).
    static func frame(
        _ state: AreaPickerState, poster: CellRaster?, posterProblem: String? = nil, size: (rows: Int, columns: Int)
    ) -> PickerFrame {
        if let small = tooSmall(size) { return small }
        let geometry = state.geometry
        let limit = state.selection.limit
        let header = " Areas for \(SafeText.clean(state.title)) · up to \(limit) · numbers are the reveal order (stage 1 first)"
        var frame = PickerFrame(header: TextWidth.cut(header, to: size.columns))
        let picture = HalfBlockPicture(
            cells: pickerCells(state, poster: poster), geometry: geometry, maxWidth: size.columns - 6,
            maxHeight: size.rows - 6)
        frame.place(picture, size: size)
        frame.labels += state.selection.centres.enumerated().map { index, centre in
            let at = picture.position(of: centre)
            return Label(row: frame.pictureRow + at.line, column: frame.pictureColumn + at.column, text: "\(index + 1)", isStage: true)
        }
        if state.mode == .help {
            frame.picture = nil
            frame.labels = []
            frame.ruler = ""
            frame.text = helpLines(geometry: geometry, limit: limit, width: size.columns - 2, rows: size.rows - 5)
        }
        let percent = Int((state.uncoveredShare * 100).rounded())
        frame.status = TextWidth.cut(
            "cursor \(state.cursor) · areas \(state.selection.centres.count)/\(limit) · \(percent)% of the poster uncovered",
            to: size.columns - 2)
        frame.message = TextWidth.cut(state.message ?? hint(state, posterProblem: posterProblem), to: size.columns - 2)
        frame.footer = state.mode == .help
            ? TextWidth.cut("any key: back to the poster", to: size.columns - 2) : footer(width: size.columns - 2)
        return frame
    }

    /// The reveal as a solver sees it: black but for the areas, stage `stage` fading in.
    static func preview(
        _ state: AreaPickerState, poster: CellRaster?, reveal: [Double], stage: Int, size: (rows: Int, columns: Int),
        footer: String = previewFooter
    ) -> PickerFrame {
        if let small = tooSmall(size) { return small }
        let count = state.selection.centres.count
        var frame = PickerFrame(
            header: TextWidth.cut(" Preview of \(SafeText.clean(state.title)): stage \(stage)/\(count), as a solver sees it", to: size.columns))
        let cells = poster.map { PosterFrame.cells(raster: $0, areas: state.selection.centres, reveal: reveal) }
            ?? pickerCells(state, poster: nil)
        frame.place(
            HalfBlockPicture(cells: cells, geometry: state.geometry, maxWidth: size.columns - 6, maxHeight: size.rows - 6),
            size: size, ruler: false)
        frame.status = TextWidth.cut("stage \(stage) of \(count)", to: size.columns - 2)
        frame.footer = TextWidth.cut(footer, to: size.columns - 2)
        return frame
    }

    /// A movie's posters side by side, as many as fit (a window around the one chosen when not all do), each numbered
    /// above; the one chosen bright, the others dimmed. `posters[i]` is poster i's cells, or why it cannot be shown
    /// (drawn grey, the reason on the message line when it is the one chosen).
    static func posterChoice(
        _ state: PosterChoiceState, movie: String, posters: [Int: (raster: CellRaster?, problem: String?)],
        geometry: GridGeometry,
        size: (rows: Int, columns: Int)
    ) -> PickerFrame {
        if let small = tooSmall(size) { return small }
        var frame = PickerFrame(header: TextWidth.cut(
            " Posters of \(SafeText.clean(movie)): \(state.index + 1) of \(state.labels.count)", to: size.columns))
        let shown = visiblePosters(state, columns: size.columns)
        let width = min(geometry.columns, (size.columns - 4 - 2 * (shown.count - 1)) / shown.count)
        let thumbnails = shown.map { index in
            let cells = posters[index]?.raster.map { PosterFrame.uncovered(raster: $0) }
                ?? Array(repeating: grey(60), count: geometry.cellCount)
            return HalfBlockPicture(
                cells: index == state.index ? cells : cells.map { scale($0, 0.35) }, geometry: geometry, maxWidth: width,
                maxHeight: size.rows - 6)
        }
        frame.place(HalfBlockPicture(sideBySide: thumbnails, gap: 2), size: size, ruler: false)
        var left = frame.pictureColumn
        for (index, thumbnail) in zip(shown, thumbnails) {
            frame.labels.append(Label(row: 2, column: left, text: "\(index + 1)", isStage: index == state.index))
            left += thumbnail.width + 2
        }
        frame.status = TextWidth.cut(SafeText.clean(state.labels[state.index]), to: size.columns - 2)
        if let problem = posters[state.index]?.problem {
            frame.message = TextWidth.cut("This poster cannot be shown: \(problem)", to: size.columns - 2)
        }
        frame.footer = TextWidth.cut(chooserFooter, to: size.columns - 2)
        return frame
    }

    /// The posters that fit side by side (at least 16 columns each), a window that keeps the chosen one in view.
    static func visiblePosters(_ state: PosterChoiceState, columns: Int) -> [Int] {
        let count = min(state.labels.count, max(1, (columns - 2) / 18))
        let first = min(max(0, state.index - count / 2), state.labels.count - count)
        return Array(first..<(first + count))
    }

    /// Centres `picture` and, with `ruler`, numbers every tenth column above it and every tenth row beside it.
    private mutating func place(_ picture: HalfBlockPicture, size: (rows: Int, columns: Int), ruler: Bool = true) {
        self.picture = picture
        pictureColumn = max(5, (size.columns - picture.width) / 2 + 1)
        guard ruler else { return }
        var line = [Character](repeating: " ", count: pictureColumn - 1 + picture.width + 2)
        var lastEnd = -1
        for column in stride(from: 0, to: picture.geometry.columns, by: 10) {
            let at = pictureColumn - 1 + picture.position(of: Cell(row: 0, column: column)).column
            let text = Array(String(column))
            guard at > lastEnd, at + text.count <= line.count else { continue }
            line.replaceSubrange(at..<(at + text.count), with: text)
            lastEnd = at + text.count
        }
        self.ruler = String(line)
        var lastLine = -1
        for row in stride(from: 0, to: picture.geometry.rows, by: 10) {
            let at = picture.position(of: Cell(row: row, column: 0)).line
            guard at > lastLine else { continue }
            let text = String(row)
            labels.append(Label(row: pictureRow + at, column: pictureColumn - 1 - text.count, text: text, isStage: false))
            lastLine = at
        }
    }

    /// The keys that fit in `width` whole, in the order of `footerKeys`, never a key cut in the middle.
    static func footer(width: Int) -> String {
        var shown = ""
        for key in footerKeys {
            let next = shown.isEmpty ? key : shown + " · " + key
            guard TextWidth.of(next) <= width else { break }
            shown = next
        }
        return shown.isEmpty ? TextWidth.cut(footerKeys[0], to: width) : shown
    }

    /// What the cursor's cell means when the last key said nothing: the area there, or what space would do.
    private static func hint(_ state: AreaPickerState, posterProblem: String?) -> String {
        if let stage = state.stageUnderCursor { return "on area \(stage): space removes it" }
        if state.selection.isFull { return "all \(state.selection.limit) areas placed: Enter is done, u undoes the last" }
        if let problem = state.cursorProblem { return "✗ \(problem.description)" }
        if let posterProblem { return "No poster to show (\(posterProblem)); space places area \(state.selection.centres.count + 1) here" }
        return "space places area \(state.selection.centres.count + 1) here"
    }

    static func helpLines(geometry: GridGeometry, limit: Int, width: Int, rows: Int) -> [String] {
        let rules = "Rules: an area is a \(geometry.areaSize)x\(geometry.areaSize) square around its centre; the centre's row must be "
            + "\(geometry.centreRows.lowerBound)-\(geometry.centreRows.upperBound) and its column "
            + "\(geometry.centreColumns.lowerBound)-\(geometry.centreColumns.upperBound) (a \(geometry.margin)-cell margin); "
            + "areas may not overlap; at most \(limit)."
        let lines = [
            "The solver sees a black poster; the areas are revealed one by one, in the order they are placed.", "",
            "arrows or h j k l   move the cursor one cell (Shift+arrows or H J K L: five)",
            "space               place an area on the cursor, or remove the one under it",
            "mouse click         place an area centred on the clicked cell",
            "u · c · a           undo the last area · clear them all · add automatic areas",
            "p                   preview the reveal as a solver sees it",
            "Enter or d          done (at least one area)",
            "q or Esc            leave without using these areas", "",
            rules,
        ]
        return Array(lines.flatMap { $0.isEmpty ? [""] : TextWidth.wrap($0, to: width) }.prefix(max(0, rows)))
    }

    /// The picker's cell colours, row by row.
    static func pickerCells(_ state: AreaPickerState, poster: CellRaster?) -> [CellRaster.Colour] {
        let geometry = state.geometry
        let outline = outlines(of: state.selection.centres, geometry: geometry)
        let cursorBlock = Set(geometry.block(around: state.cursor))
        let cursorColour = state.stageUnderCursor != nil ? white : state.cursorProblem == nil ? green : red
        var cells: [CellRaster.Colour] = []
        cells.reserveCapacity(geometry.cellCount)
        for row in 0..<geometry.rows {
            for column in 0..<geometry.columns {
                let cell = Cell(row: row, column: column)
                var colour = poster?.colour(at: cell) ?? (((row / 5) + (column / 5)) % 2 == 0 ? grey(70) : grey(100))
                if state.selection.stage(covering: cell) != nil {
                    // An area shows the poster as the solver will see it: untouched.
                } else if outline.contains(cell) {
                    colour = yellow
                } else {
                    let inMargin = row < geometry.margin || row >= geometry.rows - geometry.margin
                        || column < geometry.margin || column >= geometry.columns - geometry.margin
                    colour = scale(colour, inMargin ? 0.15 : 0.35)
                    if row % 10 == 0 || column % 10 == 0 { colour = colour.mixed(with: grey(128), 0.35) }
                }
                if cell == state.cursor {
                    colour = cursorColour
                } else if cursorBlock.contains(cell) {
                    colour = colour.mixed(with: cursorColour, 0.45)
                }
                cells.append(colour)
            }
        }
        return cells
    }

    /// The ring of cells just outside each area: its outline, which hides none of the area's pixels.
    static func outlines(of centres: [Cell], geometry: GridGeometry) -> Set<Cell> {
        let ring = geometry.areaRadius + 1
        var outline = Set<Cell>()
        for centre in centres {
            for row in (centre.row - ring)...(centre.row + ring) {
                for column in (centre.column - ring)...(centre.column + ring)
                where max(abs(row - centre.row), abs(column - centre.column)) == ring {
                    outline.insert(Cell(row: row, column: column))
                }
            }
        }
        return outline
    }

    static let white = CellRaster.Colour(red: 255, green: 255, blue: 255)
    static let green = CellRaster.Colour(red: 40, green: 220, blue: 90)
    static let red = CellRaster.Colour(red: 235, green: 50, blue: 50)
    static let yellow = CellRaster.Colour(red: 255, green: 210, blue: 0)
    static func grey(_ level: UInt8) -> CellRaster.Colour { .init(red: level, green: level, blue: level) }

    static func scale(_ colour: CellRaster.Colour, _ factor: Double) -> CellRaster.Colour {
        CellRaster.Colour.black.mixed(with: colour, factor)
    }

    /// The grid cell under a screen position (1-based), if the picture is there: where a click lands. A character holds
    /// two rows; a click takes its top one.
    func cell(atRow row: Int, column: Int) -> Cell? {
        picture?.cell(atColumn: column - pictureColumn, line: row - pictureRow, bottomHalf: false)
    }
}
