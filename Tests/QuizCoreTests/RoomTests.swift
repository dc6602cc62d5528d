import QuizCore
import Testing

/// Seeded randomness, so codes and resume tokens are the same on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Room codes")
struct RoomCodeTests {
    @Test func theAlphabetHasNoLookAlikes() {
        #expect(RoomCode.alphabet.count == 30)
        for lookAlike in "0O1IL" { #expect(!RoomCode.alphabet.contains(lookAlike)) }
    }

    @Test(arguments: ["AB2C", "ab2c", "  zz99 ", "X7k3"])
    func codesParseInAnyCase(text: String) {
        #expect(RoomCode(text)?.value == text.filter { !$0.isWhitespace }.uppercased())
    }

    @Test(arguments: ["", "AB2", "AB2CD", "AB0C", "ABOC", "AB1C", "ABIC", "ABLC", "A B2"])
    func wrongLengthsAndLookAlikesAreRefused(text: String) {
        #expect(RoomCode(text) == nil)
    }

    @Test func codesComeFromTheInjectedGenerator() {
        var first = SeededGenerator(state: 7)
        var second = SeededGenerator(state: 7)
        let codes = (0..<500).map { _ in RoomCode.random(using: &first) }
        #expect(codes == (0..<500).map { _ in RoomCode.random(using: &second) })
        #expect(codes.allSatisfy { RoomCode($0.value) == $0 })
        #expect(Set(codes).count > 490, "810,000 codes: collisions in 500 draws are rare")
    }
}
