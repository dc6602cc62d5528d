// Foundation only for Unicode normalization (NFKC/NFKD), which the standard library does not expose.
import Foundation

/// The form in which a guess and a title are compared: what a player types is judged by its letters and digits, not by
/// how the keyboard, the input method or the poster spelled them.
public enum TitleNormalizer {
    /// Letters (Hangul included) and digits only, case-folded, without Latin diacritics, `&` as `and` and a Roman
    /// numeral II–X after the first word as digits; the empty string when nothing is left.
    public static func normalize(_ text: String) -> String {
        words(of: text).joined()
    }

    /// The normalized words with a space between them: one form for every spelling of a guess, still readable.
    public static func readable(_ text: String) -> String {
        words(of: text).joined(separator: " ")
    }

    /// The normalized title, then the same without its leading English article (`The Godfather`, `Godfather`); empty
    /// when nothing is left to compare.
    public static func variants(_ text: String) -> [String] {
        let words = words(of: text)
        guard !words.isEmpty else { return [] }
        guard hasLeadingArticle(words) else { return [words.joined()] }
        return [words.joined(), words.dropFirst().joined()]
    }

    /// The digits of the normalized text in order; a sequel is a different movie however close its letters are.
    public static func digits(of normalized: String) -> String {
        String(normalized.filter(\.isASCIIDigit))
    }

    /// The normalized text without its digits.
    public static func letters(of normalized: String) -> String {
        String(normalized.filter { !$0.isASCIIDigit })
    }

    static let articles: Set<String> = ["the", "a", "an"]

    static let romanNumerals: [String: String] = [
        "ii": "2", "iii": "3", "iv": "4", "v": "5", "vi": "6", "vii": "7", "viii": "8", "ix": "9", "x": "10",
    ]

    /// An article alone is the whole title ("A"), not something to drop.
    static func hasLeadingArticle(_ words: [String]) -> Bool {
        words.count > 1 && articles.contains(words[0])
    }

    static func words(of text: String) -> [String] {
        var words = text.utf8.allSatisfy { $0 < 0x80 } ? asciiWords(of: text) : foldedWords(of: text)
        // A numeral opening the title is a name, not a sequel number: X-Men, or The X-Files after its article.
        let firstWord = hasLeadingArticle(words) ? 1 : 0
        for index in words.indices where index > firstWord {
            if let digits = romanNumerals[words[index]] { words[index] = digits }
        }
        return words
    }

    /// The words of ASCII text, which folding leaves as it is but for case: read byte by byte, as `foldedWords` reads
    /// any text, without Unicode's tables (most guesses are ASCII, and every guess is judged again on each replay).
    static func asciiWords(of text: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        func endWord() {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                current.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                current.append(byte - UInt8(ascii: "A") + UInt8(ascii: "a"))
            case UInt8(ascii: "&"):
                endWord()
                words.append("and")
            default:
                endWord()
            }
        }
        endWord()
        return words
    }

    /// The words of any text, folded (`fold`): letters of every script, any script's digits as ASCII ones.
    static func foldedWords(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        func endWord() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        for character in fold(text) {
            if character == "&" {
                endWord()
                words.append("and")
            } else if let digit = decimalDigit(character) {
                current += digit
            } else if character.isLetter {
                current.append(character)
            } else {
                endWord()
            }
        }
        endWord()
        return words
    }

    /// Compatibility forms (full-width letters, ligatures, Ⅱ, decomposed Hangul) become their plain letters, then case
    /// and Latin diacritics are folded away; marks on other scripts (Japanese dakuten, Devanagari vowels) are part of
    /// their letters and stay.
    static func fold(_ text: String) -> String {
        let lowered = text.precomposedStringWithCompatibilityMapping.lowercased()
        var scalars = String.UnicodeScalarView()
        var baseIsLatin = false
        for scalar in lowered.decomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark {
                if baseIsLatin { continue }
            } else {
                baseIsLatin = isLatin(scalar)
            }
            if let replacement = latinFolds[scalar] {
                scalars.append(contentsOf: replacement.unicodeScalars)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars).lowercased().precomposedStringWithCompatibilityMapping
    }

    /// Letters whose diacritic does not decompose into a combining mark, and ß, which case folding writes as ss.
    static let latinFolds: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "ø": "o", "ł": "l", "đ": "d", "ħ": "h", "ı": "i",
    ]

    static func isLatin(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF:
            return true
        default:
            return false
        }
    }

    /// Any script's decimal digit, written as an ASCII digit so that digits compare across scripts.
    static func decimalDigit(_ character: Character) -> String? {
        guard let scalar = character.unicodeScalars.first, scalar.properties.generalCategory == .decimalNumber,
            let value = character.wholeNumberValue
        else { return nil }
        return String(value)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
