import Testing

@testable import MovieSearch

@Suite("Header lines from libcurl")
struct HeaderLineTests {
    func parse(_ line: String) -> HeaderLine {
        Array(line.utf8).withUnsafeBytes { HeaderLine($0) }
    }

    @Test func fieldsStatusLinesAndTheRest() {
        #expect(parse("HTTP/1.1 200 OK\r\n") == .statusLine)
        #expect(parse("HTTP/2 404\r\n") == .statusLine)
        #expect(parse("Content-Type: application/json;charset=utf-8\r\n") == .field(name: "content-type", value: "application/json;charset=utf-8"))
        #expect(parse("ETag:\t\"abc\"  \r\n") == .field(name: "etag", value: "\"abc\""))
        #expect(parse("Retry-After: 3\n") == .field(name: "retry-after", value: "3"))
        #expect(parse("X-Empty:\r\n") == .field(name: "x-empty", value: ""))
        #expect(parse("Location: http://h:80/a\r\n") == .field(name: "location", value: "http://h:80/a"), "only the first colon splits")
        #expect(parse("X-Title: 토이 스토리\r\n") == .field(name: "x-title", value: "토이 스토리"))
        #expect(parse("\r\n") == .other)
        #expect(parse("") == .other)
    }
}

@Suite("Query strings")
struct QueryEscapingTests {
    @Test func everythingButUnreservedCharactersIsPercentEncoded() {
        #expect(TMDBClient.escaped("Toy-Story_2.0~") == "Toy-Story_2.0~")
        #expect(TMDBClient.escaped("a+b c&d=e?#/%") == "a%2Bb%20c%26d%3De%3F%23%2F%25")
        #expect(TMDBClient.escaped("기생충") == "%EA%B8%B0%EC%83%9D%EC%B6%A9")
        #expect(TMDBClient.escaped("") == "")
    }
}
