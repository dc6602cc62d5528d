import Foundation
import MovieSearch
import Testing
import UQuizTestSupport

@Suite("libcurl transport against fake-tmdb")
struct TransportTests {
    let transport = CurlTransport(options: .init(userAgent: "uquiz/test", connectTimeout: 2, totalTimeout: 2))

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let server = try FakeServerProcess()
        var opened = 0
        for query in ["toy", "inception", "parasite", "host", "metropolis", "star", "a", "b", "c", "d"] {
            let reply = try await transport.send(HTTPRequest(url: "\(server.apiURL)/search/movie?query=\(query)"))
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "application/json;charset=utf-8")
            opened += reply.newConnections
        }
        #expect(opened == 1, "ten requests, one connection")
        #expect(server.requests.count == 10)
        #expect(server.requests.allSatisfy { $0.hasSuffix("user-agent=uquiz/test") })
    }

    @Test func headersAreSentAndTheBodyArrivesWhole() async throws {
        let server = try FakeServerProcess(["--api-key", "sekrit-123"])
        let denied = try await transport.send(HTTPRequest(url: "\(server.apiURL)/configuration"))
        #expect(denied.status == 401)
        #expect(String(decoding: denied.body, as: UTF8.self).contains("\"status_code\":7"))
        let allowed = try await transport.send(
            HTTPRequest(url: "\(server.apiURL)/configuration", headers: [HTTPHeader("Authorization", "Bearer sekrit-123")]))
        #expect(allowed.status == 200)
        #expect(allowed.headers["cache-control"] == "public, max-age=43200")
        #expect(server.requests.last?.contains("authorization=REDACTED") == true)
    }

    @Test func nothingListeningIsOffline() async throws {
        let port = closedLocalPort()
        await #expect(throws: TransportError.offline(host: "127.0.0.1:\(port)", detail: "couldn't connect to server")) {
            try await transport.send(HTTPRequest(url: "http://127.0.0.1:\(port)/3/configuration"))
        }
    }

    @Test func anUnknownHostIsOffline() async {
        await #expect {
            try await transport.send(HTTPRequest(url: "http://no-such-host.invalid/3/configuration"))
        } throws: { error in
            guard case TransportError.offline(let host, _) = error else { return false }
            return host == "no-such-host.invalid"
        }
    }

    @Test func aSlowServerTimesOut() async throws {
        let server = try FakeServerProcess(["--fault", "/3/configuration;delay-ms=4000"])
        let quick = CurlTransport(options: .init(userAgent: "uquiz/test", connectTimeout: 1, totalTimeout: 0.5))
        await #expect(throws: TransportError.timeout(host: "127.0.0.1:\(server.port)", seconds: 0.5)) {
            try await quick.send(HTTPRequest(url: "\(server.apiURL)/configuration"))
        }
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;huge=200000"])
        await #expect(throws: TransportError.bodyTooLarge(host: "127.0.0.1:\(server.port)", limit: 10_000)) {
            try await transport.send(HTTPRequest(url: "\(server.apiURL)/search/movie?query=x", maxBodyBytes: 10_000))
        }
    }

    @Test func aTruncatedBodyIsALostConnectionAndRetryable() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;truncate;times=1"])
        await #expect {
            try await transport.send(HTTPRequest(url: "\(server.apiURL)/search/movie?query=x"))
        } throws: { error in
            guard let error = error as? TransportError, case .connectionLost = error else { return false }
            return error.isRetryable
        }
        // The next request gets a fresh connection and a whole answer.
        #expect(try await transport.send(HTTPRequest(url: "\(server.apiURL)/search/movie?query=toy")).status == 200)
    }

    @Test func aSlowDripStillArrivesWhole() async throws {
        let server = try FakeServerProcess(["--fault", "/3/search;drip-ms=2;status=200"])
        let reply = try await transport.send(HTTPRequest(url: "\(server.apiURL)/search/movie?query=x"))
        #expect(String(decoding: reply.body, as: UTF8.self) == #"{"page":1,"results":[],"total_pages":1,"total_results":0}"#)
    }

    @Test func manyDownloadsAtOnceKeepTheirOrder() async throws {
        let server = try FakeServerProcess()
        let paths = ["/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg", "/4i1I0cvwYhUTVbU5Qe6HbD1audF.jpg", "/nope.jpg"]
        let requests = (0..<30).map { HTTPRequest(url: "\(server.imageURL)/w342\(paths[$0 % 3])") }
        let results = await transport.sendAll(requests)
        #expect(results.count == 30)
        for (index, result) in results.enumerated() {
            let reply = try result.get()
            #expect(reply.status == (index % 3 == 2 ? 404 : 200), "request \(index)")
            if index % 3 != 2 { #expect(reply.body.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG") }
        }
        // A second batch reuses the pooled handles' connections.
        let again = await transport.sendAll(Array(requests.prefix(5)))
        #expect(again.allSatisfy { (try? $0.get().newConnections) == 0 })
    }

    @Test func credentialsAreRedactedFromURLs() async {
        #expect(
            Redaction.redact(url: "https://api.themoviedb.org/3/search/movie?api_key=abc123&query=toy")
                == "https://api.themoviedb.org/3/search/movie?api_key=REDACTED&query=toy")
        #expect(Redaction.host(of: "http://127.0.0.1:8080/3/x?api_key=abc") == "127.0.0.1:8080")
    }

    @Test(arguments: [
        // A configured URL ending in `#`: what the client appends is a fragment, where a URL parser finds no query.
        ("http://h/3#/search/movie?query=toy&api_key=s3cr3t", "http://h/3#/search/movie?query=toy&api_key=REDACTED"),
        ("https://user:s3cr3t@h:8080/3/movie?x=1", "https://REDACTED@h:8080/3/movie?x=1"),
        ("https://s3cr3t@h/3", "https://REDACTED@h/3"),
        ("https://u:p@ss:s3cr3t@h/3#a@b", "https://REDACTED@h/3#a@b"),
        ("http://h/3?API_KEY=s3cr3t;token=s3cr3t#access_token=s3cr3t", "http://h/3?API_KEY=REDACTED;token=REDACTED#access_token=REDACTED"),
        ("http://h/3?api%5Fkey=s3cr3t&q=a@b", "http://h/3?api%5Fkey=REDACTED&q=a@b"),
        ("http://h/3/search?query=toy", "http://h/3/search?query=toy"),
    ])
    func credentialsAnywhereInAURLAreRedacted(url: String, shown: String) {
        #expect(Redaction.redact(url: url) == shown)
    }
}
