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

    /// A key under which names that look alike are equal: Unicode TR39's skeleton of the name, with case and
    /// compatibility forms folded (full-width letters, ligatures, "Ada" and "ADA"). The skeleton decomposes the text,
    /// replaces each character by its prototype from TR39's confusables (Cyrillic "а" and Latin "a", Armenian "օ" and
    /// "o", "m" and "rn", "0" and "O", ...) and decomposes again; hidden characters are left out first. Case is folded
    /// in between: letters beyond ASCII are first read as what they are drawn like (a Cherokee "Ꭺ" is an "A", whose
    /// lowercase is "a"; lowercased first it would be another letter), then case is folded so that "IMG" and "img" are
    /// one name, then the skeleton is taken, and case folded again for prototypes that are capitals ("O" for "0").
    /// So case wins over TR39 where they differ: a capital "I" is an "i" here, not the "l" it is drawn like.
    public static func skeleton(_ text: String) -> String {
        let visible = String(String.UnicodeScalarView(text.precomposedStringWithCompatibilityMapping.unicodeScalars.filter { !isHidden($0) }))
        let read = prototypes(of: visible, where: { !$0.isASCII })
        return prototypes(of: prototypes(of: read.lowercased()).lowercased())
    }

    /// TR39's skeleton: `text` decomposed, each character (each that `mapped` says) replaced by its prototype,
    /// decomposed again.
    static func prototypes(of text: String, where mapped: (Unicode.Scalar) -> Bool = { _ in true }) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if mapped(scalar), let prototype = confusables[scalar.value] { result.append(contentsOf: prototype) } else { result.append(scalar) }
        }
        return String(result).decomposedStringWithCanonicalMapping
    }

    /// TR39's confusables as ICU compiles them (Confusables/confusables.txt, made by generate.py beside it): each line
    /// is a code point, then its prototype, in hexadecimal.
    static let confusables: [UInt32: [Unicode.Scalar]] = {
        var table: [UInt32: [Unicode.Scalar]] = [:]
        for line in String(decoding: PackageResources.confusables_txt, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let values = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            guard let first = values.first, values.count > 1 else { continue }
            table[first] = values.dropFirst().compactMap(Unicode.Scalar.init)
        }
        return table
    }()
}
