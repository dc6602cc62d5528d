import PosterGrid
import Testing
@testable import QuizCore

/// ASCII text is read byte by byte (`asciiWords`), any other through Unicode's folding (`foldedWords`): on ASCII the
/// two must give the same words, so a guess is judged the same whichever way it was read.
@Suite struct TitleNormalizerASCIITests {
    /// Pieces of titles and guesses: words of every case, numbers, Roman numerals, articles, and every ASCII byte that
    /// is not a letter or a digit (controls, CR LF, punctuation, `&`).
    static let pieces: [String] =
        ["The", "a", "AN", "godfather", "Toy", "STORY", "x", "II", "iv", "Ix", "2049", "007", "e", "Rocky", "and"]
        + (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }.filter { !$0.first!.isLetter && !$0.first!.isNumber }
        + ["\r\n", "  ", "&&", "-", "'s"]

    @Test func asciiTextGivesTheWordsUnicodeFoldingGives() {
        var random = AreaLayout.SeededGenerator(seed: 39)
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }
                .joined(separator: Bool.random(using: &random) ? " " : "")
            #expect(TitleNormalizer.asciiWords(of: text) == TitleNormalizer.foldedWords(of: text), "\(text.debugDescription)")
        }
        for byte in UInt8(0)..<0x80 {
            let text = "a" + String(UnicodeScalar(byte)) + "b"
            #expect(TitleNormalizer.asciiWords(of: text) == TitleNormalizer.foldedWords(of: text), "\(text.debugDescription)")
        }
    }

    @Test func textBeyondASCIIIsFolded() {
        #expect(TitleNormalizer.words(of: "Amélie & Ｔｏｙ Ⅱ") == ["amelie", "and", "toy", "2"])
        #expect(TitleNormalizer.words(of: "Rocky II") == ["rocky", "2"])
    }
}
