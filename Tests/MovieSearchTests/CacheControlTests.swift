import Foundation
import Testing

@testable import MovieSearch

@Suite("Cache-Control max-age")
struct CacheControlTests {
    @Test func onlyDigitsAreAMaxAgeAndAHugeOneIsCapped() {
        #expect(HTTPCache.maxAge("public, max-age=3600") == 3600)
        #expect(HTTPCache.maxAge("max-age=0") == 0)
        for bad in ["max-age=nan", "max-age=inf", "max-age=-5", "max-age=1e300", "max-age=", "max-age=12abc", "max-age=0x10"] {
            #expect(HTTPCache.maxAge(bad) == nil, "\(bad)")
        }
        #expect(HTTPCache.maxAge("max-age=99999999999999999999999") == Double(HTTPCache.longestMaxAge))
        #expect(HTTPCache.maxAge("max-age=604801") == Double(HTTPCache.longestMaxAge))
        #expect(HTTPCache.maxAge("no-store, max-age=60") == nil)
    }

    @Test func aRetryAfterIsDeltaSecondsOnlyOrNoWaitAtAll() {
        func said(_ header: String) -> Int? {
            guard case let .http(_, _, _, _, retryAfter) = TMDBDecoding.error(
                status: 429, body: Data(), retryAfter: header, endpoint: "/search/movie")
            else { return nil }
            return retryAfter
        }
        #expect(said("120") == 120)
        #expect(said(" 0 ") == 0)
        for bad in ["-5", "1.5", "nan", "inf", "1e300", "Wed, 21 Oct 2015 07:28:00 GMT", ""] {
            #expect(said(bad) == nil, "\(bad)")
        }
        #expect(said("99999999999999999999") == TMDBDecoding.longestRetryAfter)
        let message = MovieSearchError.http(status: 429, endpoint: "/search/movie", tmdbCode: nil, message: nil, retryAfter: said("-5"))
        #expect(message.localizedDescription.hasSuffix("try again in a moment"))
    }
}
