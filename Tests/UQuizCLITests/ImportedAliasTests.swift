import Foundation
import Testing
import UQuizTestSupport

/// Issue 13, item 2, through the binary.
@Suite("Imported aliases judge only their own package")
struct ImportedAliasTests {
    @Test func anImportedAliasJudgesOnlyItsOwnPackageAndNeverEntersTheCatalog() throws {
        let sandbox = try Sandbox()
        let file = try writeExport(in: sandbox, aliases: ["xylophone"])
        let imported = try sandbox.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Metropolis is quiz 1 of the seeded silent classics (TMDB 19).
        #expect(try verdicts(sandbox, "HSTX22", quiz: 1, guesses: ["xylophone"]) == ["accepted"], "its own package")
        #expect(try verdicts(sandbox, "en-silent", quiz: 1, guesses: ["xylophone"]) == ["rejected"], "not the seed's")
        let exported = try sandbox.run(["export", "en-silent", "-o", sandbox.path("silent.json")])
        #expect(exported.status == 0, "\(exported.stderr)")
        let silent = try String(contentsOfFile: sandbox.path("silent.json"), encoding: .utf8)
        #expect(!silent.contains("xylophone"), "an export of another package does not carry it")
        let search = try sandbox.run(["search", "xylophone", "--offline"])
        #expect(!search.stdout.contains("Metropolis"), "the catalog does not know it")

        // Gone with its package, for good: a seed merge brings nothing back.
        #expect(try sandbox.run(["delete", "HSTX22", "--yes"]).status == 0)
        #expect(try sandbox.run(["seed", "merge"]).status == 0)
        #expect(try verdicts(sandbox, "en-silent", quiz: 1, guesses: ["xylophone", "Metropolis"]) == ["rejected", "accepted"])

        // Its own export carries it on, and a re-import judges with it again.
        #expect(try sandbox.run(["import", file]).status == 0)
        #expect(try sandbox.run(["export", "HSTX22", "-o", sandbox.path("again.json")]).status == 0)
        #expect(try String(contentsOfFile: sandbox.path("again.json"), encoding: .utf8).contains("xylophone"))
    }

    /// The same flaw through titles: a file's title for a language the catalog lacks would be accepted for the movie
    /// in every package. Häxan (quiz 12 of the silent classics) has no Korean title in the seed.
    @Test func aTitleFromAFileDoesNotTeachTheCatalogEither() throws {
        let sandbox = try Sandbox()
        let file = sandbox.path("haxan.json")
        try Data("""
            {"format": 1, "kind": "uquiz-packages", "packages": [{
              "shareCode": "HSTX23", "title": "Titles", "maker": "mallory", "level": "expert", "language": "en",
              "createdAt": "2026-11-23T00:00:00Z",
              "quizzes": [{
                "movie": {"catalogKey": "seed-haxan", "tmdbId": null, "originalTitle": "Häxan",
                          "titles": {"en": "Häxan", "ko": "xylophone"}, "releaseDate": "1922", "aliases": []},
                "title": "Häxan", "posterPath": "/haxan.jpg", "posterSource": "tmdb", "genreIds": [],
                "grid": {"columns": 50, "rows": 75, "areaSize": 5, "margin": 2}, "areas": [[20, 20]]
              }]
            }]}
            """.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try sandbox.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try verdicts(sandbox, "en-silent", quiz: 12, guesses: ["xylophone", "Häxan"]) == ["rejected", "accepted"])
        let search = try sandbox.run(["search", "xylophone", "--offline"])
        #expect(!search.stdout.contains("Häxan"), "\(search.stdout)")
    }
}
