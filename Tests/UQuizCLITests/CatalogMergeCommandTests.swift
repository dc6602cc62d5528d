import Foundation
import Testing
import UQuizTestSupport

@Suite("Catalog updates through the binary")
struct CatalogMergeCommandTests {
    @Test func anOnlineSearchKeepsTheKoreanTitleAndPostersOfSeededMovies() throws {
        let catalog = """
            [{"id": 313369, "original_title": "La La Land", "titles": {"en": "La La Land"}, "release_date": "2016-12-09",
              "genre_ids": [35, 18], "posters": [{"file_path": "/lalaland-en.jpg", "language": "en", "vote_average": 5, "vote_count": 3}],
              "alternative_titles": [], "overview": ""},
             {"id": 19, "original_title": "Metropolis", "titles": {"en": "Metropolis"}, "release_date": "1927-01-10",
              "genre_ids": [18], "posters": [], "alternative_titles": [], "overview": ""}]
            """
        let setup = try Sandbox()
        let file = setup.path("catalog.json")
        try Data(catalog.utf8).write(to: URL(fileURLWithPath: file))
        let server = try FakeServerProcess(["--catalog", file])
        let sandbox = try onlineSandbox(server)
        for query in ["la la land", "metropolis"] {
            let online = try sandbox.run(["search", query, "--language", "en", "--json"])
            #expect(online.status == 0, "\(online.stderr)")
            #expect(try jsonObject(online.stdout)["source"] as? String == "tmdb")
        }
        let offline = try sandbox.run(["search", "라라", "--offline", "--language", "ko", "--json"])
        let results = try jsonObject(offline.stdout)["results"] as! [[String: Any]]
        #expect(results.first?["id"] as? Int == 313369, "\(offline.stdout)")
        #expect(results.first?["title"] as? String == "라라랜드")
        // Metropolis keeps its bundled poster: an offline quiz on it can still be made.
        let created = try sandbox.run([
            "create", "--title", "Offline", "--level", "expert", "--language", "ko", "--quiz", "movie=19 areas=20:20",
        ], extraEnvironment: ["TMDB_API_KEY": ""])
        #expect(created.status == 0, "\(created.stderr)")
    }
}
