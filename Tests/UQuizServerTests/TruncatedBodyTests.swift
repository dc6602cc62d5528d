import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import UQuizServer

#if canImport(Glibc)
    import Glibc
#endif

/// A request whose body stops before its Content-Length says (the client half-closes, or the connection is cut by the
/// idle timeout) is the client's fault: a JSON 400, never the 500 of an unexpected error (found by ServeFaultTests,
/// where the idle timeout cut half-sent bodies and the server logged each as an unexpected HTTPParserError).
@Suite("Truncated bodies")
struct TruncatedBodyTests {
    /// Sends `bytes` on a new connection to 127.0.0.1:`port`, closes the sending side, and reads all the server says.
    static func sendAndHalfClose(_ bytes: Data, port: Int) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Runs blocking socket calls on a thread of their own: on one of Swift's cooperative threads (two on this machine)
    /// they would starve the in-process server that is to answer them, whenever another test blocks the other one.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result(catching: body)) }.start()
        }
    }

    @Test func aBodyThatEndsBeforeItsLengthIsA400() async throws {
        let server = try TestServer()
        let router = buildRouter(environment: server.environment)
        var logger = Logger(label: "uquiz.server.tests")
        logger.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            for path in ["/v1/players", "/v1/packages"] {
                let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                let answer = try await Self.offThePool { try Self.sendAndHalfClose(Data((head + "{\"name\": \"Ad").utf8), port: port) }
                #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(path): \(answer.prefix(200))")
                #expect(answer.contains("\"code\":\"bad_request\""), "\(path): \(answer)")
                #expect(answer.contains("the request body could not be read"), "\(path)")
            }
            // The server is none the worse for it.
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }
}
