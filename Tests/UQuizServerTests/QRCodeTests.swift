import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PosterArt
import Testing
@testable import UQuizServer

/// The QR codes of join links: libqrencode's symbols as SVG, of this server's own pages only.
@Suite("QR codes")
struct QRCodeTests {
    /// A symbol has the three finder patterns (7x7 squares with a dark 3x3 centre) in its corners: libqrencode drew a
    /// real QR code, whose content the browser tests read back with zbarimg.
    @Test func aSymbolHasItsFinderPatternsAndAQuietZone() throws {
        let code = try #require(QRCode("http://localhost:8080/r/ABCD"))
        #expect(code.size >= 21 && (code.size - 17) % 4 == 0, "versions are 21, 25, 29... modules wide")
        for (row, column) in [(0, 0), (0, code.size - 7), (code.size - 7, 0)] {
            for offset in 0..<7 {
                #expect(code[row, column + offset] && code[row + 6, column + offset], "finder edge")
                #expect(code[row + offset, column] && code[row + offset, column + 6], "finder edge")
            }
            #expect(code[row + 3, column + 3] && !code[row + 1, column + 1], "finder centre and ring")
        }
        #expect(code.svg.contains(#"viewBox="0 0 \#(code.size + 8) \#(code.size + 8)""#))
        #expect(QRCode("") == nil && QRCode(String(repeating: "x", count: 257)) == nil)
    }

    @Test func theRouteDrawsOnlyLinksToThisServer() async throws {
        let server = try TestServer()
        try await server.test { client in
            let response = try await client.execute(uri: "/v1/qr.svg?path=/r/ABCD", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'") == true)
            #expect(response.text == QRCode("http://localhost/r/ABCD")?.svg, "the origin the client asked")
            for path in ["", "r/ABCD", "//evil.example/x", "/r/<script>", "/" + String(repeating: "a", count: 100)] {
                let refused = try await client.execute(
                    uri: "/v1/qr.svg?path=\(path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")", method: .get)
                #expect(refused.status == .badRequest, "\(path)")
            }
            #expect(try await client.execute(uri: "/v1/qr.svg", method: .get).status == .badRequest)
        }
    }
}
