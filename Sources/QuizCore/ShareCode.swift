/// The short public id of a package, shown by `list`/`show` and accepted wherever a package id is.
///
/// Six characters from an alphabet without look-alikes (no 0/O, 1/I/L, U), so a code read aloud or typed from a
/// screenshot comes out right; 30^6 ≈ 729 million codes.
public struct ShareCode: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    public static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTVWXYZ")
    public static let length = 6

    public let value: String

    /// Accepts any letter case and surrounding spaces; `nil` for anything that is not a share code.
    public init?(_ text: String) {
        let upper = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            .map { $0.uppercased() }.joined()
        guard upper.count == Self.length, upper.allSatisfy(Self.alphabet.contains) else { return nil }
        value = upper
    }

    /// A fresh random code; callers retry on the (rare) collision with a stored one.
    public static func random(using generator: inout some RandomNumberGenerator) -> ShareCode {
        ShareCode(String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))!
    }

    public var description: String { value }

    public static func < (lhs: ShareCode, rhs: ShareCode) -> Bool { lhs.value < rhs.value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let code = ShareCode(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not a share code")
            )
        }
        self = code
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
