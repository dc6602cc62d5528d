import Foundation

/// Text from a database or the network is shown with its control characters escaped, so a title cannot move the cursor,
/// change colours, ring the bell or reverse the line.
enum SafeText {
    static func clean(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isControl = value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)
            let isBidi = (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
                || value == 0x200F || value == 0x061C
            if isControl || isBidi {
                result += String(format: "\\u{%X}", value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
