import MovieSearch
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

@Suite("Errors meet the terminal in one place")
struct ErrorTextTests {
    @Test func controlCharactersFromTheServerNeverReachAMessage() {
        let error = MovieSearchError.http(
            status: 500, endpoint: "/x", tmdbCode: 11, message: "boom\u{1B}[2J\u{07}\u{9B}\u{202E}", retryAfter: nil)
        let text = UQuizCommand.errorMessage(for: error)
        #expect(!text.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x202E].contains($0.value) })
        #expect(text.contains("boom\\u{1B}[2J\\u{7}"))
    }
}
