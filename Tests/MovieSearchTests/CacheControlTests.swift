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
}
