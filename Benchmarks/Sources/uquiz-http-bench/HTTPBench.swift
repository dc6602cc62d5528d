import Foundation
import MovieSearch

/// `uquiz-http-bench searches API_URL COUNT`: COUNT sequential searches (query q0, q1, …) through TMDBClient, no cache.
/// `uquiz-http-bench posters IMAGE_URL PATHS_FILE`: every poster path in the file (one per line) at once, as
/// fetch-posters downloads them.
/// The client-side rate limit (TMDB's 40 requests a second) is lifted: it is a courtesy to TMDB, not a cost of the client.
@main
enum HTTPBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4 else {
            FileHandle.standardError.write(Data("usage: uquiz-http-bench searches API_URL COUNT | posters IMAGE_URL PATHS_FILE\n".utf8))
            exit(64)
        }
        let transport = CurlTransport(options: .init(userAgent: "uquiz/bench"))
        switch arguments[1] {
        case "searches":
            let client = TMDBClient(
                settings: TMDBSettings(apiURL: arguments[2], credentials: nil), transport: transport, cache: nil,
                limiter: RateLimiter(limit: 1_000_000))
            var found = 0
            for index in 0..<(Int(arguments[3]) ?? 0) {
                found += try client.search("q\(index)", language: .en).results.count
            }
            if found < 0 { print(found) }
        case "posters":
            let client = TMDBClient(
                settings: TMDBSettings(imageURL: arguments[2], credentials: nil), transport: transport, cache: nil)
            let paths = try String(contentsOfFile: arguments[3], encoding: .utf8).split(separator: "\n").map(String.init)
            let results = client.downloadPosters(paths, size: "w342")
            let failed = results.filter { (try? $0.get()) == nil }.count
            if failed > 0 {
                FileHandle.standardError.write(Data("\(failed) downloads failed\n".utf8))
                exit(1)
            }
        default:
            exit(64)
        }
    }
}
