import Foundation
import Testing
import UQuizTestSupport

/// A one-package export file whose only quiz has this grid and movie, written into the sandbox.
func writeExport(
    in sandbox: Sandbox, name: String = "hostile.json",
    grid: String = #"{"columns": 50, "rows": 75, "areaSize": 5, "margin": 2}"#, catalogKey: String = "tmdb-19",
    aliases: [String] = [], areas: String = "[[20, 20]]", shareCode: String = "HSTX22"
) throws -> String {
    let aliasList = String(decoding: try JSONSerialization.data(withJSONObject: aliases), as: UTF8.self)
    let text = """
        {"format": 1, "kind": "uquiz-packages", "packages": [{
          "shareCode": "\(shareCode)", "title": "Hostile", "maker": "mallory", "level": "expert", "language": "en",
          "createdAt": "2026-11-23T00:00:00Z",
          "quizzes": [{
            "movie": {"catalogKey": "\(catalogKey)", "tmdbId": 19, "originalTitle": "Metropolis",
                      "titles": {"en": "Metropolis"}, "releaseDate": "1927-01-10", "aliases": \(aliasList)},
            "title": "Metropolis", "posterPath": "/metropolis-1927.jpg", "posterSource": "tmdb", "genreIds": [],
            "grid": \(grid), "areas": \(areas)
          }]
        }]}
        """
    let path = sandbox.path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// The verdicts of `guesses` typed at one quiz of a package, from `solve --json`.
func verdicts(_ sandbox: Sandbox, _ package: String, quiz: Int, guesses: [String]) throws -> [String] {
    let input = sandbox.path("guesses-\(UUID().uuidString).txt")
    try Data((guesses + ["/skip"]).map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: input))
    let result = try sandbox.runWithInput(
        ["solve", package, "--quiz", "\(quiz)", "--json", "--time-scale", "0.01"], input: input)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").compactMap { line in
        guard let event = try? jsonObject(String(line)), event["event"] as? String == "guess" else { return nil }
        return event["verdict"] as? String
    }
}
