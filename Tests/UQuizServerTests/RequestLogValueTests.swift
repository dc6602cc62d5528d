import Crypto
import Foundation
import Testing
@testable import UQuizServer
import Hummingbird

/// The request line's values, made by hand for the log's thread: what `String(format:)` made before.
@Suite struct RequestLogValueTests {
    typealias Line = RequestLogMiddleware<BasicRequestContext>

    @Test(arguments: [0, 1, 9, 10, 99, 100, 1_234, 5_000, 12_345_678, 999_999_995])
    func durationsShowMillisecondsWithTwoDecimals(nanoseconds: Int64) {
        let duration = Duration.nanoseconds(nanoseconds)
        #expect(Line.Milliseconds(duration).description == String(format: "%.2f", Double(nanoseconds) / 1_000_000))
    }

    @Test func thePlayerHashIsTheSaltedDigestsFirstSixBytesInHex() {
        for token in ["abc", "  padded token ", "한글"] {
            let trimmed = token.trimmingCharacters(in: .whitespaces)
            let expected = SHA256.hash(data: Data(("uquiz.log:" + trimmed).utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
            #expect(Line.PlayerHash(token: Substring(token)).description == expected)
        }
    }
}
