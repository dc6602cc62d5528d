import CTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A bar chart drawn in the terminal, one line a bar: its label, the bar and its figure. Bars are Unicode blocks to an
/// eighth of a column, or `#` where the terminal is dumb or `NO_COLOR` asks for plain output, so that the chart reads
/// the same in a log file, a screen reader's line or a terminal without those glyphs.
struct BarChart {
    struct Bar {
        var label: String
        var value: Int
        /// What is written after the bar (the value itself by default).
        var figure: String
        /// "You are here": marked with an arrow after the figure.
        var marked = false

        init(label: String, value: Int, figure: String? = nil, marked: Bool = false) {
            self.label = label
            self.value = value
            self.figure = figure ?? "\(value)"
            self.marked = marked
        }
    }

    enum Glyphs {
        case blocks, ascii

        /// ASCII for `TERM=dumb` and for a non-empty `NO_COLOR`, blocks otherwise.
        static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Glyphs {
            Terminal.asksForPlainText(environment) ? .ascii : .blocks
        }
    }

    var bars: [Bar]
    /// The value a full-width bar stands for (100 for a percentage); the largest value by default.
    var fullScale: Int?

    static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
    static let minimumBarWidth = 10

    /// The chart in lines of at most `width` columns, indented by two.
    func lines(width: Int, glyphs: Glyphs) -> [String] {
        guard !bars.isEmpty else { return [] }
        let mark = glyphs == .blocks ? " ← you" : " <- you"
        let labels = bars.map { SafeText.clean($0.label) }
        let figureWidth = bars.map { TextWidth.of($0.figure) }.max() ?? 0
        let markWidth = bars.contains(where: \.marked) ? TextWidth.of(mark) : 0
        let fixed = 2 + 1 + 1 + figureWidth + markWidth
        // Labels take up to a third of the width, less on a narrow terminal so that bars keep ten columns to differ in.
        var labelWidth = min(labels.map(TextWidth.of).max() ?? 0, max(4, width / 3))
        if width - fixed - labelWidth < Self.minimumBarWidth {
            labelWidth = min(labelWidth, max(6, width - fixed - Self.minimumBarWidth))
        }
        let barWidth = max(1, width - fixed - labelWidth)
        let scale = max(1, fullScale ?? bars.map(\.value).max() ?? 1)
        return zip(bars, labels).map { bar, label in
            let value = min(max(0, bar.value), scale)
            let drawn: String
            switch glyphs {
            case .blocks:
                // A value above 0 is never drawn as nothing: at least an eighth of a column.
                let eighths = value == 0 ? 0 : max(1, (value * barWidth * 8 + scale / 2) / scale)
                drawn = String(repeating: "█", count: eighths / 8) + Self.eighths[eighths % 8]
            case .ascii:
                let columns = value == 0 ? 0 : max(1, (value * barWidth + scale / 2) / scale)
                drawn = String(repeating: "#", count: columns)
            }
            return "  " + TextWidth.fit(label, to: labelWidth) + " " + TextWidth.fit(drawn, to: barWidth) + " "
                + TextWidth.fit(bar.figure, to: figureWidth) + (bar.marked ? mark : "")
        }.map { line in
            // Trailing spaces (a short figure before no mark) are not part of what is read.
            String(line.reversed().drop(while: { $0 == " " }).reversed())
        }
    }

    /// The terminal's width in columns: the terminal's own, else `COLUMNS`, else 80.
    static func terminalWidth(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        var rows: Int32 = 0
        var columns: Int32 = 0
        if isatty(STDOUT_FILENO) == 1, uquiz_terminal_size(STDOUT_FILENO, &rows, &columns) == 0, columns > 0 {
            return Int(columns)
        }
        if let text = environment["COLUMNS"], let value = Int(text), value > 0 { return value }
        return 80
    }
}
