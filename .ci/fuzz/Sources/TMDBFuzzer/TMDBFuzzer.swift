import Foundation
import FuzzSupport
import MovieSearch

/// Any body TMDB (or something pretending to be it) sends must decode or be refused as malformed, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTMDB(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    _ = try? TMDBDecoding.searchPage(data)
    _ = try? TMDBDecoding.movie(data)
    _ = try? TMDBDecoding.posters(data)
    _ = try? TMDBDecoding.alternativeTitles(data)
    _ = try? TMDBDecoding.imageConfiguration(data)
    _ = TMDBDecoding.error(status: 500, body: data, retryAfter: String(data: data.prefix(8), encoding: .utf8), endpoint: "/x")
    return 0
}

@_cdecl("TMDBFuzzer_main")
public func tmdbFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, size in fuzzTMDB(bytes, size) }
}
