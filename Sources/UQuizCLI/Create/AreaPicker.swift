import PosterGrid

/// One key of the full-screen pickers, read from the terminal's bytes.
enum PickerKey: Equatable {
    case up, down, left, right
    /// Shift with an arrow: five cells at a time.
    case shiftUp, shiftDown, shiftLeft, shiftRight
    case enter, escape, backspace
    case character(Character)
    /// A left-button press at a screen position (1-based), from SGR 1006 mouse reports.
    case click(row: Int, column: Int)
    case other

    /// Splits one read into keys: UTF-8 text, Enter, a lone Esc, arrows (`ESC [ A`, `ESC O A`, Shift as `ESC [ 1 ; 2 A`)
    /// and mouse reports (`ESC [ < button ; column ; row M`); other sequences are `.other`, never an Esc.
    static func keys(in bytes: [UInt8]) -> [PickerKey] {
        var keys: [PickerKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x1B:
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O")
                else {
                    keys.append(.escape)
                    break
                }
                var end = index + 2
                while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                keys.append(sequence(Array(bytes[(index + 2)..<min(end + 1, bytes.count)])))
                // A terminal without SGR mouse reports a click as `ESC [ M` and three raw bytes, which are not keys.
                if end == index + 2, end < bytes.count, bytes[end] == UInt8(ascii: "M") { end += 3 }
                index = end
            case 0x00..<0x20:
                keys.append(.other)
            default:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let end = min(bytes.count, index + length)
                let text = String(decoding: bytes[index..<end], as: UTF8.self)
                keys.append(text.count == 1 ? .character(text.first!) : .other)
                index = end - 1
            }
            index += 1
        }
        return keys
    }

    /// The key an escape sequence stands for, given the bytes after `ESC [` (or `ESC O`), final byte included.
    private static func sequence(_ body: [UInt8]) -> PickerKey {
        let text = String(decoding: body, as: UTF8.self)
        if text.hasPrefix("<"), text.hasSuffix("M") {
            let numbers = text.dropFirst().dropLast().split(separator: ";").compactMap { Int($0) }
            // Button 0 is the left button pressed; motion and other buttons carry higher codes.
            guard numbers.count == 3, numbers[0] == 0 else { return .other }
            return .click(row: numbers[2], column: numbers[1])
        }
        let shifted = text.hasPrefix("1;2")
        switch text.last {
        case "A": return shifted ? .shiftUp : .up
        case "B": return shifted ? .shiftDown : .down
        case "C": return shifted ? .shiftRight : .right
        case "D": return shifted ? .shiftLeft : .left
        default: return .other
        }
    }
}

/// The area picker's whole state: the areas placed so far, the cursor, what the last key did and whether the maker is
/// done. Keys change it through `handle(_:automatic:)`, a pure function of the state, so a test scripts keys without a
/// terminal; `PickerFrame` draws it.
struct AreaPickerState: Equatable {
    enum Mode: Equatable {
        case picking
        case help
        /// The reveal plays as a solver sees it; the input loop animates it and sets `.picking` back.
        case preview
    }

    enum Outcome: Equatable {
        case done([Cell])
        /// Left with `q` or Esc: the areas are not used.
        case cancelled
    }

    /// What the areas are for, as the header shows it (escaped when drawn).
    let title: String
    var selection: AreaSelection
    var cursor: Cell
    var mode = Mode.picking
    /// What the last key did, when it said something; otherwise the status shows a hint for the cursor's cell.
    var message: String?
    var outcome: Outcome?

    var geometry: GridGeometry { selection.geometry }

    /// Starts with `starting` areas (those breaking a rule are left out) and the cursor in the middle of the poster.
    init(title: String, geometry: GridGeometry, limit: Int, starting: [Cell] = []) {
        self.title = title
        selection = AreaSelection(geometry: geometry, limit: limit)
        for cell in starting { try? selection.add(cell) }
        cursor = Cell(row: geometry.rows / 2, column: geometry.columns / 2)
    }

    /// The stage (from 1) of the area under the cursor, if any.
    var stageUnderCursor: Int? { selection.stage(covering: cursor) }

    /// Why an area centred on the cursor cannot be placed; `nil` when it can.
    var cursorProblem: AreaRuleViolation? {
        do {
            try selection.check(cursor)
            return nil
        } catch {
            return error
        }
    }

    /// The share of the poster's cells the placed areas uncover, 0…1.
    var uncoveredShare: Double {
        var cells = Set<Cell>()
        for centre in selection.centres { cells.formUnion(geometry.block(around: centre)) }
        return Double(cells.count) / Double(geometry.cellCount)
    }

    /// Applies one key. `automatic(existing)` gives the centres to add for `a`.
    mutating func handle(_ key: PickerKey, automatic: ([Cell]) -> [Cell]) {
        guard mode == .picking else {
            mode = .picking  // any key leaves the help or the preview
            return
        }
        message = nil
        switch key {
        case .up, .character("k"): move(rows: -1, columns: 0)
        case .down, .character("j"): move(rows: 1, columns: 0)
        case .left, .character("h"): move(rows: 0, columns: -1)
        case .right, .character("l"): move(rows: 0, columns: 1)
        case .shiftUp, .character("K"): move(rows: -5, columns: 0)
        case .shiftDown, .character("J"): move(rows: 5, columns: 0)
        case .shiftLeft, .character("H"): move(rows: 0, columns: -5)
        case .shiftRight, .character("L"): move(rows: 0, columns: 5)
        case .character(" "): toggle()
        case .enter, .character("d"): finish()
        case .escape, .character("q"): outcome = .cancelled
        case .character("u"):
            message = selection.removeLast().map { "undid area \(selection.centres.count + 1) (\($0))" } ?? "nothing to undo"
        case .character("c"):
            selection.removeAll()
            message = "cleared every area"
        case .character("a"): addAutomatic(automatic)
        case .character("p"): startPreview()
        case .character("?"): mode = .help
        case .click(_, _), .backspace, .character, .other: break
        }
    }

    /// The preview is over (played to its end or stopped by a key): back to the areas, unchanged.
    mutating func previewEnded() {
        mode = .picking
        message = "that was the reveal a solver sees; the areas are unchanged"
    }

    /// A click on the poster: the cursor goes there and an area is placed (or the one there removed), as with space.
    mutating func clicked(on cell: Cell) {
        guard mode == .picking, geometry.contains(cell) else { return }
        cursor = cell
        message = nil
        toggle()
    }

    private mutating func move(rows: Int, columns: Int) {
        cursor = Cell(
            row: min(max(0, cursor.row + rows), geometry.rows - 1),
            column: min(max(0, cursor.column + columns), geometry.columns - 1))
    }

    /// Space: removes the area under the cursor (later stages move up one), or places one centred on it if every
    /// rule allows; a refusal says which rule.
    private mutating func toggle() {
        if let stage = stageUnderCursor {
            var kept = selection.centres
            kept.remove(at: stage - 1)
            selection.removeAll()
            for centre in kept { try? selection.add(centre) }
            message = "removed area \(stage)" + (stage <= kept.count ? "; the later areas moved up one stage" : "")
            return
        }
        do {
            try selection.add(cursor)
            message = "placed area \(selection.centres.count) at \(cursor)"
        } catch {
            message = "✗ \(error.description)"
        }
    }

    private mutating func finish() {
        do {
            try selection.validateComplete()
            outcome = .done(selection.centres)
        } catch {
            message = "✗ \(error.description): place one with space, or press a for automatic areas"
        }
    }

    private mutating func addAutomatic(_ automatic: ([Cell]) -> [Cell]) {
        guard !selection.isFull else {
            message = "✗ all \(selection.limit) areas are placed: u undoes one, c clears them"
            return
        }
        let before = selection.centres.count
        for cell in automatic(selection.centres) { try? selection.add(cell) }
        message = "added \(selection.centres.count - before) automatic area\(selection.centres.count - before == 1 ? "" : "s")"
    }

    private mutating func startPreview() {
        guard !selection.centres.isEmpty else {
            message = "✗ nothing to preview: place an area first"
            return
        }
        mode = .preview
    }
}

/// The poster chooser's state: which of a movie's posters is shown, and the one chosen.
struct PosterChoiceState: Equatable {
    enum Outcome: Equatable {
        case chosen(Int)
        /// Esc or `q`: keep the movie's primary poster.
        case primary
    }

    /// What to say about each poster (language, votes), escaped when drawn.
    let labels: [String]
    var index = 0
    var outcome: Outcome?

    mutating func handle(_ key: PickerKey) {
        switch key {
        case .left, .up, .character("h"), .character("k"): index = (index + labels.count - 1) % labels.count
        case .right, .down, .character("l"), .character("j"), .character(" "): index = (index + 1) % labels.count
        case .enter: outcome = .chosen(index)
        case .escape, .character("q"): outcome = .primary
        case .character(let digit) where digit.isASCII && digit.isNumber:
            let number = Int(String(digit))!
            if (1...labels.count).contains(number) { index = number - 1 }
        default: break
        }
    }
}
