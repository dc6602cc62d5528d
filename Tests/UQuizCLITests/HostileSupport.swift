import Foundation
import Testing
import UQuizTestSupport

/// A one-package export file whose only quiz has this grid and movie, written into the sandbox.
func writeExport(
    in sandbox: Sandbox, name: String = "hostile.json",
    grid: String = #"{"columns": 50, "rows": 75, "areaSize": 5, "margin": 2}"#, catalogKey: String = "tmdb-19"
) throws -> String {
    let text = """
        {"format": 1, "kind": "uquiz-packages", "packages": [{
          "shareCode": "HSTX22", "title": "Hostile", "maker": "mallory", "level": "expert", "language": "en",
          "createdAt": "2026-11-23T00:00:00Z",
          "quizzes": [{
            "movie": {"catalogKey": "\(catalogKey)", "tmdbId": 19, "originalTitle": "Metropolis",
                      "titles": {"en": "Metropolis"}, "releaseDate": "1927-01-10", "aliases": []},
            "title": "Metropolis", "posterPath": "/metropolis-1927.jpg", "posterSource": "tmdb", "genreIds": [],
            "grid": \(grid), "areas": [[20, 20]]
          }]
        }]}
        """
    let path = sandbox.path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}
