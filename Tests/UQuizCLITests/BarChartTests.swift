import Testing

@testable import UQuizCLI

@Suite("Bar charts in the terminal")
struct BarChartTests {
    let chart = BarChart(bars: [
        .init(label: "stage 1", value: 8), .init(label: "stage 2", value: 4), .init(label: "stage 3", value: 0),
        .init(label: "stage 4", value: 1, marked: true),
    ])

    @Test(arguments: [40, 120])
    func barsAreProportionalAndFitTheWidth(_ width: Int) {
        let lines = chart.lines(width: width, glyphs: .blocks)
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { TextWidth.of($0) <= width }, "\(lines)")
        func eighths(_ line: String) -> Int {
            line.reduce(0) { $0 + ($1 == "█" ? 8 : (BarChart.eighths.firstIndex(of: String($1)) ?? 0)) }
        }
        let drawn = lines.map(eighths)
        #expect(drawn[0] >= 8 * (width - 40) / 2, "the largest bar takes most of the width: \(drawn)")
        #expect(abs(drawn[1] * 2 - drawn[0]) <= 1, "half the value, half the bar: \(drawn)")
        #expect(drawn[2] == 0 && drawn[3] >= 1, "0 draws nothing, 1 at least an eighth")
        #expect(lines[0].hasPrefix("  stage 1 █") && lines[0].hasSuffix(" 8"))
        #expect(lines[3].hasSuffix(" 1 ← you") && !lines[2].contains("you"))
    }

    @Test func asciiUsesOnlyHashes() {
        let lines = chart.lines(width: 40, glyphs: .ascii)
        #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) }, "\(lines)")
        #expect(lines[0].contains("#") && lines[3].hasSuffix(" <- you"))
        #expect(BarChart.Glyphs.current(environment: ["TERM": "dumb"]) == .ascii)
        #expect(BarChart.Glyphs.current(environment: ["TERM": "xterm", "NO_COLOR": "1"]) == .ascii)
        #expect(BarChart.Glyphs.current(environment: ["TERM": "xterm", "NO_COLOR": ""]) == .blocks)
    }

    @Test func aPercentageIsDrawnAgainstAHundred() {
        let rates = BarChart(bars: [.init(label: "quiz 1", value: 50, figure: "50%")], fullScale: 100)
        let line = rates.lines(width: 40, glyphs: .ascii)[0]
        let bar = line.filter { $0 == "#" }.count
        let room = 40 - 2 - "quiz 1".count - 1 - 1 - "50%".count
        #expect(bar == (room + 1) / 2, "\(line)")
    }
}
