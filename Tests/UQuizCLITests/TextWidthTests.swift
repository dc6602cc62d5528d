import Testing

@testable import UQuizCLI

@Suite("Terminal column widths")
struct TextWidthTests {
    @Test(arguments: [
        ("Inception", 9), ("é", 1), ("e\u{301}", 1), ("\u{300}", 0), ("토이 스토리", 11), ("七人の侍", 8),
        ("🎬", 2), ("Ｆ", 2), ("ß", 1), ("", 0),
    ])
    func columns(text: String, width: Int) {
        #expect(TextWidth.of(text) == width)
    }

    @Test func fitCutsWithAnEllipsisOrPads() {
        #expect(TextWidth.fit("토이 스토리", to: 6) == "토이 …")
        #expect(TextWidth.fit("Up", to: 4) == "Up  ")
    }
}
