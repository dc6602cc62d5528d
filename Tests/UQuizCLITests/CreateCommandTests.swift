import Foundation
import PosterArt
import PosterGrid
import Testing
import UQuizTestSupport

/// Packages in the sandbox's database, for "nothing written" checks.
func packageCount(_ sandbox: Sandbox) throws -> Int {
    let list = try sandbox.run(["list", "--json", "--all"])
    return (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as! [Any]).count
}

@Suite("uquiz create")
struct CreateCommandTests {
    @Test func scriptedFromFlagsWithCatalogMoviesOffline() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run([
            "create", "--title", "Friday night", "--level", "expert", "--maker", "mina", "--language", "en", "--json",
            "--quiz", "movie=27205 areas=12:30,40:12,60:25", "--quiz", "movie=862 areas=630,r50c20",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let package = try jsonObject(result.stdout)
        #expect(package["title"] as? String == "Friday night")
        #expect(package["maker"] as? String == "mina")
        #expect(package["origin"] as? String == "user")
        let quizzes = package["quizzes"] as! [[String: Any]]
        #expect(quizzes.map { $0["title"] as! String } == ["Inception", "Toy Story"])
        #expect(quizzes[0]["areas"] as? [[Int]] == [[12, 30], [40, 12], [60, 25]])
        #expect(quizzes[1]["areas"] as? [[Int]] == [[12, 30], [50, 20]])
        #expect(quizzes[0]["posterPath"] as? String == "/4i1I0cvwYhUTVbU5Qe6HbD1audF.jpg")
        let code = package["shareCode"] as! String
        let mine = try sandbox.run(["list", "--mine", "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(mine.stdout.utf8)) as! [[String: Any]]).map { $0["shareCode"] as! String } == [code])
    }

    @Test func automaticAreasAreReproducibleWithASeed() throws {
        let sandbox = try Sandbox()
        var layouts: [[[Int]]] = []
        for title in ["One", "Two"] {
            let result = try sandbox.run([
                "create", "--title", title, "--level", "beginner", "--quiz", "movie=19", "--auto-areas", "--seed", "11", "--json",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let quiz = (try jsonObject(result.stdout)["quizzes"] as! [[String: Any]])[0]
            #expect(quiz["posterSource"] as? String == "tmdb" || quiz["posterSource"] as? String == "bundled")
            layouts.append(quiz["areas"] as! [[Int]])
        }
        #expect(layouts[0].count == 5)
        #expect(layouts[0] == layouts[1])
        let withoutAuto = try sandbox.run(["create", "--title", "x", "--level", "beginner", "--quiz", "movie=19"])
        #expect(withoutAuto.status == 64)
        #expect(withoutAuto.stderrLines == ["Error: quiz 1 (movie 19) has no areas: give areas= or --auto-areas"])
    }

    @Test func automaticAreasLeanOnThePostersPixels() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run([
            "create", "--title", "Pixels", "--level", "beginner", "--quiz", "movie=19", "--auto-areas", "--seed", "11", "--json",
        ])
        let areas = ((try jsonObject(result.stdout)["quizzes"] as! [[String: Any]])[0]["areas"] as! [[Int]])
            .map { Cell(row: $0[0], column: $0[1]) }
        let poster = try JPEG.decode(try Data(contentsOf: repositoryRoot.appendingPathComponent("Seed/posters/metropolis-1927.jpg")))
        let raster = CellRaster(image: poster, geometry: .standard)
        #expect(areas == AreaLayout.spreadOut(count: 5, geometry: .standard, seed: 11) { raster.detail(ofAreaAround: $0) })
        #expect(areas != AreaLayout.spreadOut(count: 5, geometry: .standard, seed: 11), "the pixels changed the choice")
    }

    @Test func onlineFactsComeFromTMDBAndJoinTheCatalogWithAliases() throws {
        let server = try FakeServerProcess()
        let sandbox = try onlineSandbox(server)
        let result = try sandbox.run([
            "create", "--title", "Sequels", "--level", "intermediate", "--quiz", "movie=863 areas=30:25", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let quiz = (try jsonObject(result.stdout)["quizzes"] as! [[String: Any]])[0]
        #expect(quiz["title"] as? String == "Toy Story 2")
        #expect(quiz["releaseDate"] as? String == "1999-10-30")
        // Inception's alias, learned when a quiz brings the movie, is searchable offline.
        try sandbox.run(["create", "--title", "Dreams", "--level", "expert", "--quiz", "movie=27205 areas=30:25"])
        let alias = try sandbox.run(["search", "Origen", "--offline", "--json"])
        #expect((try jsonObject(alias.stdout)["results"] as! [[String: Any]]).first?["id"] as? Int == 27205)
    }

    @Test func fromASpecFile() throws {
        let sandbox = try Sandbox()
        let spec = """
            {"format": 1, "title": "명량과 친구들", "level": "intermediate", "language": "ko",
             "quizzes": [{"movie": "seed-the-admiral-roaring-currents", "areas": [[20, 20], [40, 30]]},
                         {"movie": 1255, "areas": [[30, 25]]}]}
            """
        try Data(spec.utf8).write(to: URL(fileURLWithPath: sandbox.path("spec.json")))
        let result = try sandbox.run(["create", "--from", sandbox.path("spec.json"), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let package = try jsonObject(result.stdout)
        #expect(package["language"] as? String == "ko")
        #expect((package["quizzes"] as! [[String: Any]]).map { $0["title"] as! String } == ["명량", "괴물"])
        #expect((package["quizzes"] as! [[String: Any]])[0]["tmdbId"] is NSNull)
    }

    @Test(arguments: [
        (["--title", "", "--level", "expert", "--quiz", "movie=27205 areas=30:25"], "$.title: the title is empty"),
        (["--title", String(repeating: "가", count: 201), "--level", "expert", "--quiz", "movie=27205 areas=30:25"],
         "$.title: the title has 201 characters: at most 200"),
        (["--title", "t", "--level", "hard", "--quiz", "movie=27205 areas=30:25"],
         "$.level: unknown level \"hard\": use beginner, intermediate or expert"),
        (["--title", "t", "--level", "expert", "--quiz", "movie=27205 areas=-3:25"],
         "--quiz: \"-3:25\" is off the grid: rows are 0...74, columns 0...49, indexes 0...3749"),
        (["--title", "t", "--level", "expert", "--quiz", "movie=27205 areas=ab:25"],
         "--quiz: \"ab:25\" is not a cell: write row:column (12:30), r12 c30, or a cell index"),
        (["--title", "t", "--level", "expert", "--quiz", "movie=27205 areas=30:25,31:26"],
         "$.quizzes[0].areas[1]: r31 c26 overlaps area 1 (centred on r30 c25): areas may not share cells"),
        (["--title", "t", "--level", "expert", "--quiz", "movie=27205 areas=10:10,30:30,50:10,70:40"],
         "$.quizzes[0].areas[3]: r70 c40 would be one area too many: the level allows only 3"),
        (["--title", "t", "--level", "expert", "--quiz", "movie=27205 areas=30:25", "--quiz", "movie=27205 areas=30:25"],
         "$.quizzes[1].movie: movie 27205 is already quiz 1 of this package"),
        (["--title", "t", "--level", "expert", "--quiz", "areas=30:25"], "--quiz: \"areas=30:25\" names no movie="),
    ])
    func badFlagsAreUsageErrorsAndWriteNothing(arguments: [String], message: String) throws {
        let sandbox = try Sandbox()
        let before = try packageCount(sandbox)
        let result = try sandbox.run(["create"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderrLines == ["Error: \(message)"])
        #expect(try packageCount(sandbox) == before)
    }

    @Test func moreThanFiftyQuizzesAreRefused() throws {
        let sandbox = try Sandbox()
        let quizzes = (0..<51).map { #"{"movie": \#(1000 + $0), "areas": [[30, 25]]}"# }.joined(separator: ",")
        try Data(#"{"format": 1, "title": "t", "level": "expert", "quizzes": [\#(quizzes)]}"#.utf8)
            .write(to: URL(fileURLWithPath: sandbox.path("big.json")))
        let result = try sandbox.run(["create", "--from", sandbox.path("big.json")])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["Error: \(sandbox.path("big.json")): $.quizzes: 51 quizzes: a package holds at most 50"])
    }

    @Test func badSpecFilesAreOneLineWithTheirJSONPathAndWriteNothing() throws {
        let sandbox = try Sandbox()
        let before = try packageCount(sandbox)
        let cases: [(String, String)] = [
            ("not json at all", "$: not JSON (or cut short)"),
            (#"{"format": 1, "title": "t", "level": "expert", "quizzes": [{"movie": 27205, "areas": [[30, 2"#,
             "$: not JSON (or cut short)"),
            (#"{"format": 2, "title": "t", "level": "expert", "quizzes": [{"movie": 27205}]}"#,
             "$.format: format 2 is newer than this uquiz understands (1); upgrade uquiz"),
            (#"{"format": 1, "level": "expert", "quizzes": []}"#, "$: missing \"title\""),
            (#"{"format": 1, "title": "t", "level": "expert", "quizzes": [{"movie": 27205, "areas": [["a", 1]]}]}"#,
             "$.quizzes[0].areas[0][0]: expected a whole number"),
            (#"{"format": 1, "title": "t", "level": "expert", "quizzes": []}"#, "$.quizzes: a package needs at least 1 quiz"),
            (#"{"format": 1, "title": "t\u0007", "level": "expert", "quizzes": [{"movie": 1}]}"#,
             "$.title: the title contains control characters"),
        ]
        for (index, (text, message)) in cases.enumerated() {
            let file = sandbox.path("spec\(index).json")
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let result = try sandbox.run(["create", "--from", file])
            #expect(result.status == 1, "case \(index)")
            #expect(result.stderrLines == ["Error: \(file): \(message)"], "case \(index)")
        }
        // 100 MB of garbage is refused by its size, without reading it.
        let huge = sandbox.path("huge.json")
        _ = FileManager.default.createFile(atPath: huge, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let result = try sandbox.run(["create", "--from", huge])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["Error: \(huge) is 100 MB: a package spec is at most 5 MB"])
        #expect(try packageCount(sandbox) == before)
    }

    @Test func anUnknownMovieOfflineIsAClearErrorAndWritesNothing() throws {
        let sandbox = try Sandbox()
        let before = try packageCount(sandbox)
        let result = try sandbox.run(["create", "--title", "t", "--level", "expert", "--quiz", "movie=424242 areas=30:25"])
        #expect(result.status == 1)
        #expect(result.stderrLines == [
            "Error: movie 424242 is not in the local catalog and there are no TMDB credentials; find it with `uquiz search`"
        ])
        #expect(try packageCount(sandbox) == before)
    }

    @Test func theSchemaFileDocumentsTheSpec() throws {
        let schema = try JSONSerialization.jsonObject(
            with: Data(contentsOf: repositoryRoot.appendingPathComponent("Config/schemas/package-spec.schema.json"))) as! [String: Any]
        let properties = schema["properties"] as! [String: Any]
        #expect(Set(properties.keys) == ["format", "title", "maker", "level", "language", "quizzes"])
        #expect(schema["required"] as? [String] == ["format", "title", "level", "quizzes"])
    }
}
