import Foundation

/// What makes a name or title people read safe to read: nothing that hides or reorders what is shown, one encoding of
/// each letter, and a way to tell two names apart that does not trust look-alike letters.
public enum ReadableName {
    /// Whether `scalar` is never drawn as itself: a control character, a bidirectional control (it reorders the text
    /// around it, so a name can show as another), or a default-ignorable code point (zero-width spaces and joiners,
    /// soft hyphens, variation selectors, tag characters), which a reader does not see at all.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.generalCategory == .control || properties.isBidiControl || properties.isDefaultIgnorableCodePoint
    }

    /// The first character of `text` that `isHidden`, if any. A zero-width joiner or an emoji variation selector right
    /// after an emoji is part of how the emoji is drawn ("❤️", a family), not hidden.
    public static func firstHidden(in text: String) -> Unicode.Scalar? {
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            guard isHidden(scalar) else { continue }
            let drawsEmoji = ["\u{200D}", "\u{FE0E}", "\u{FE0F}"].contains(scalar) && previous?.properties.isEmoji == true
            if !drawsEmoji { return scalar }
        }
        return nil
    }

    /// `text` in Unicode Normalization Form C: one encoding for each letter (a Hangul syllable typed as its jamo, an
    /// accent typed apart, are stored as the composed character).
    public static func normalized(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
    }

    /// A key under which names that look alike are equal, after Unicode TR39's skeleton: compatibility forms folded
    /// (full-width letters, ligatures), case folded, and the letters of other scripts that are drawn like Latin ones
    /// (Cyrillic "а", Greek "ο", ...) and digits drawn like letters mapped to one of them. The table holds the
    /// confusables of the scripts names here are written in (Latin, Cyrillic, Greek, digits), not all of TR39's.
    public static func skeleton(_ text: String) -> String {
        let folded = text.precomposedStringWithCompatibilityMapping.lowercased()
        var result = ""
        for scalar in folded.unicodeScalars {
            if isHidden(scalar) { continue }
            result += confusables[scalar] ?? String(scalar)
        }
        // "rn" is drawn like "m" in most fonts.
        return result.replacingOccurrences(of: "rn", with: "m")
    }

    static let confusables: [Unicode.Scalar: String] = {
        let pairs: [(String, String)] = [
            // Cyrillic drawn like Latin.
            ("а", "a"), ("в", "b"), ("е", "e"), ("ё", "e"), ("һ", "h"), ("і", "i"), ("ї", "i"), ("ј", "j"), ("к", "k"),
            ("м", "m"), ("н", "h"), ("о", "o"), ("р", "p"), ("с", "c"), ("т", "t"), ("у", "y"), ("х", "x"), ("ѕ", "s"),
            ("ԁ", "d"), ("ԛ", "q"), ("ԝ", "w"), ("ү", "y"), ("ӏ", "l"),
            // Greek drawn like Latin.
            ("α", "a"), ("β", "b"), ("ε", "e"), ("η", "n"), ("ι", "i"), ("κ", "k"), ("ν", "v"), ("ο", "o"), ("ρ", "p"),
            ("τ", "t"), ("υ", "u"), ("χ", "x"), ("γ", "y"), ("ζ", "z"), ("μ", "u"),
            // Latin letters and digits drawn like others.
            ("0", "o"), ("1", "l"), ("ı", "l"), ("ɡ", "g"), ("ɑ", "a"),
        ]
        var table: [Unicode.Scalar: String] = [:]
        for (from, to) in pairs { table[from.unicodeScalars.first!] = to }
        return table
    }()
}
