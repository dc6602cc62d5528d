import QuizCore
import Testing

@Suite("Share codes")
struct ShareCodeTests {
    @Test(arguments: ["FE7NWW", "fe7nww", "  FE7NWW ", "23456Z"])
    func acceptsCodesInAnyCaseAndSpacing(text: String) {
        #expect(ShareCode(text) != nil)
    }

    @Test(arguments: ["", "FE7NW", "FE7NWWX", "FE7NW0", "FE7NWO", "FE7NW1", "FE7NWI", "FE7NWL", "FE7NWU", "FE 7NW"])
    func refusesWrongLengthsAndLookAlikes(text: String) {
        #expect(ShareCode(text) == nil)
    }

    @Test func randomCodesAreValidAndReproducibleFromASeed() {
        struct SplitMix: RandomNumberGenerator {
            var state: UInt64
            mutating func next() -> UInt64 {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return z ^ (z >> 31)
            }
        }
        var first = SplitMix(state: 42)
        var second = SplitMix(state: 42)
        let codes = (0..<1000).map { _ in ShareCode.random(using: &first) }
        #expect(codes == (0..<1000).map { _ in ShareCode.random(using: &second) })
        #expect(codes.allSatisfy { ShareCode($0.value) == $0 })
        #expect(Set(codes).count > 990)
    }
}
