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
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        let codes = (0..<1000).map { _ in ShareCode.random(using: &first) }
        #expect(codes == (0..<1000).map { _ in ShareCode.random(using: &second) })
        #expect(codes.allSatisfy { ShareCode($0.value) == $0 })
        #expect(Set(codes).count > 990)
    }
}
