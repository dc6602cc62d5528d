/// The short code a host reads out so players can join a live room.
///
/// Four characters from `23456789ABCDEFGHJKMNPQRSTVWXYZ`: the digits 2–9 and the letters A–Z without O (0), I and L
/// (1), and U (V), the same look-alike-free alphabet as `ShareCode`, so a code said aloud or copied from a screen comes
/// out right. 30^4 = 810,000 codes: plenty for the rooms open at once; the server retries on a collision.
public struct RoomCode: Hashable, Sendable, CustomStringConvertible {
    public static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTVWXYZ")
    public static let length = 4

    public let value: String

    /// Accepts any letter case and surrounding spaces; `nil` for anything that is not a room code.
    public init?(_ text: String) {
        let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        let upper = trimmed.map { $0.uppercased() }.joined()
        guard upper.count == Self.length, upper.allSatisfy(Self.alphabet.contains) else { return nil }
        value = upper
    }

    /// A fresh code drawn from `generator` (the server's, or a seeded one in tests).
    public static func random(using generator: inout some RandomNumberGenerator) -> RoomCode {
        RoomCode(String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))!
    }

    public var description: String { value }
}
