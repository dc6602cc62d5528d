/// Hints a solver can ask for when the poster alone is not enough.
public enum Hint {
    /// The title's shape: for a Korean title its initial consonants (초성: 기생충 → ㄱㅅㅊ), for any other the first letter
    /// of each word with its other letters as underscores (Toy Story 2 → T__ S____ 2). Spaces between words,
    /// punctuation, digits and, in Korean titles, Latin letters stay as they are: they give little away and show where
    /// words end.
    public static func firstHint(for title: String) -> String {
        let words = title.split(whereSeparator: \.isWhitespace).map(String.init)
        if words.contains(where: { $0.contains(where: { initialConsonant(of: $0) != nil }) }) {
            return words.map(initialConsonants).joined(separator: " ")
        }
        return words.map(firstLetters).joined(separator: " ")
    }

    /// The compatibility jamo of the 19 initial consonants, in Unicode's order.
    static let initials = Array("ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ")

    /// A precomposed syllable (U+AC00...U+D7A3, laid out initial-major: 21 vowels x 28 finals per initial) or a
    /// decomposed one, which starts with a conjoining initial (U+1100...U+1112) in the same order.
    static func initialConsonant(of character: Character) -> Character? {
        guard let value = character.unicodeScalars.first?.value else { return nil }
        switch value {
        case 0xAC00...0xD7A3: return initials[Int(value - 0xAC00) / (21 * 28)]
        case 0x1100...0x1112: return initials[Int(value - 0x1100)]
        default: return nil
        }
    }

    static func initialConsonants(_ word: String) -> String {
        String(word.map { initialConsonant(of: $0) ?? $0 })
    }

    /// A letter after another letter or an apostrophe continues a word (Grandma's); after anything else, such as the
    /// hyphen of X-Men or a digit, it starts one.
    static func firstLetters(_ word: String) -> String {
        var result = ""
        var inWord = false
        for character in word {
            if character.isLetter {
                result.append(inWord ? "_" : character)
                inWord = true
            } else {
                result.append(character)
                if character != "'" && character != "’" { inWord = false }
            }
        }
        return result
    }
}
