import Foundation
import Testing
import UQuizTestSupport

/// Issue 13, item 16, through the binary.
@Suite("Say what is actually wrong")
struct SayWhatIsWrongTests {
    @Test func aDatabasePathThatIsNotARegularFileIsSaidSo() throws {
        let sandbox = try Sandbox()
        let device = try sandbox.run(["list", "--db", "/dev/null"])
        #expect(device.status == 1)
        #expect(device.stderrLines.count == 1)
        #expect(device.stderr.contains("/dev/null is not a regular file"), "\(device.stderr)")
        #expect(!device.stderr.contains("disk is full"), "\(device.stderr)")

        let folder = sandbox.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let directory = try sandbox.run(["list", "--db", folder])
        #expect(directory.status == 1)
        #expect(directory.stderrLines.count == 1)
        #expect(directory.stderr.contains("\(folder) is a directory"), "\(directory.stderr)")
        #expect(!directory.stderr.contains("read-only"), "\(directory.stderr)")

        // The files commands read and write are said the same way.
        try sandbox.run(["list"])
        for arguments in [["import", folder], ["create", "--from", folder], ["export", "en-silent", "-o", folder]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1)
            #expect(result.stderrLines.count == 1 && result.stderr.contains("\(folder) is a directory"), "\(arguments): \(result.stderr)")
        }
        let empty = try sandbox.run(["import", "/dev/null"])
        #expect(empty.stderr.contains("/dev/null is not a regular file"), "\(empty.stderr)")
    }

    @Test func aCellThatIsNotAWholeNumberIsSaidSoAtItsPath() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let spec = sandbox.path("spec.json")
        try Data(#"{"format": 1, "title": "t", "level": "expert", "quizzes": [{"movie": 19, "areas": [[30.5, 20]]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: spec))
        let created = try sandbox.run(["create", "--from", spec])
        #expect(created.status != 0)
        #expect(created.stderr.contains("$.quizzes[0].areas[0][0]"), "\(created.stderr)")
        #expect(created.stderr.contains("30.5 is not a whole number"), "\(created.stderr)")
        #expect(!created.stderr.contains("not JSON"), "\(created.stderr)")

        let file = try writeExport(in: sandbox, areas: "[[20, 20.5]]")
        let imported = try sandbox.run(["import", file])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("$.packages[0].quizzes[0].areas[0][1]"), "\(imported.stderr)")
        #expect(imported.stderr.contains("20.5 is not a whole number"), "\(imported.stderr)")

        let flag = try sandbox.run(["create", "--title", "t", "--level", "expert", "--quiz", "movie=19 areas=30.5:20"])
        #expect(flag.status == 64)
        #expect(flag.stderr.contains("whole number"), "\(flag.stderr)")
        #expect(try packageCount(sandbox) == 8)
    }

    @Test func aNegativeRetryAfterIsNotAWaitOfMinusFiveSeconds() throws {
        let server = try FakeServerProcess(["--fault", "/3/search/movie;status=429;retry-after=-5"])
        let sandbox = try onlineSandbox(server)
        sandbox.environment["UQUIZ_TMDB_RETRY_BASE_DELAY_SECONDS"] = "0.01"
        try sandbox.run(["list"])
        let result = try sandbox.run(["search", "toy"])
        #expect(result.status == 0, "\(result.stderr)")
        let said = result.stderrLines.last ?? ""
        #expect(said.contains("rate limit"), "\(result.stderr)")
        #expect(!said.contains("-5 s"), "\(result.stderr)")
        #expect(said.hasSuffix("try again in a moment)"), "\(result.stderr)")
    }
}
