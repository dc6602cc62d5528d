import QuizCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where and how a command writes: injected so tests and the reveal player can capture it.
struct Terminal: Sendable {
    var colour: Bool

    /// Colour only on a terminal, never with `NO_COLOR` set or `TERM=dumb`.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Terminal {
        Terminal(colour: isatty(STDOUT_FILENO) == 1 && !asksForPlainText(environment))
    }

    /// Whether the user asked for plain text: a non-empty `NO_COLOR`, or `TERM=dumb`.
    static func asksForPlainText(_ environment: [String: String]) -> Bool {
        (environment["NO_COLOR"].map { !$0.isEmpty } ?? false) || environment["TERM"] == "dumb"
    }

    func bold(_ text: String) -> String { style(text, "1") }
    func dim(_ text: String) -> String { style(text, "2") }

    private func style(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

enum TextWidth {
    /// Columns a string takes in a terminal: East Asian wide characters (Hangul, CJK, full-width forms, most emoji)
    /// take two, combining marks none.
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    static func width(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let value = scalar.value
        // Below U+0300 nothing combines or is wide: skip the property lookups that tables of Latin titles would repeat.
        if value < 0x300 { return 1 }
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark {
            return 0
        }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x1F7E0...0x1F7EB, 0x20000...0x3FFFD,
    ]

    /// `text` in lines of at most `width` columns, broken at spaces where it can be and inside a word where it must.
    static func wrap(_ text: String, to width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if of(candidate) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            for character in word {
                if of(line) + Self.width(of: character) > width {
                    lines.append(line)
                    line = ""
                }
                line.append(character)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` as it is when it fits in `width` columns, else cut to them ending in `…`; never padded.
    static func cut(_ text: String, to width: Int) -> String {
        of(text) <= width ? text : fit(text, to: width)
    }

    /// Pads (or cuts, ending in `…`) `text` to exactly `width` columns.
    static func fit(_ text: String, to width: Int) -> String {
        var result = ""
        var used = 0
        let total = of(text)
        for character in text {
            let w = Self.width(of: character)
            if total > width && used + w > width - 1 {
                result += "…"
                used += 1
                break
            }
            if used + w > width { break }
            result.append(character)
            used += w
        }
        return result + String(repeating: " ", count: max(0, width - used))
    }
}

/// A plain table aligned by display width; the last column is not padded.
struct TextTable {
    var headers: [String]
    var rows: [[String]]

    func render(terminal: Terminal, maxWidths: [Int: Int] = [:]) -> String {
        let cleanRows = rows.map { $0.map(SafeText.clean) }
        var widths = headers.map(TextWidth.of)
        for row in cleanRows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TextWidth.of(cell)) }
        }
        for (index, limit) in maxWidths { widths[index] = min(widths[index], limit) }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : TextWidth.fit(cell, to: widths[index])
            }.joined(separator: "  ")
        }
        var lines = [terminal.bold(line(headers))]
        lines += cleanRows.map(line)
        return lines.joined(separator: "\n")
    }
}

enum JSONOutput {
    /// Stable output for scripts: sorted keys, no escaped slashes, pretty-printed.
    static func string<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
