import Foundation
import Testing
import UQuizTestSupport

@Suite("Grid bounds through the binary")
struct GridBoundsCommandTests {
    @Test(arguments: [
        (#"{"columns": 1000000, "rows": 1000000, "areaSize": 5, "margin": 2}"#,
         "grid size 1000000x1000000 is invalid: columns and rows must be 1 to 1000"),
        (#"{"columns": 50, "rows": 75, "areaSize": 5, "margin": 9223372036854775807}"#,
         "a 5x5 area with a 9223372036854775807-cell margin does not fit in a 50x75 grid"),
        (#"{"columns": 9223372036854775807, "rows": 9223372036854775807, "areaSize": 9223372036854775807, "margin": 2}"#,
         "grid size 9223372036854775807x9223372036854775807 is invalid: columns and rows must be 1 to 1000"),
    ])
    func aHugeGridInAnImportIsRefusedInOneLine(grid: String, message: String) throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.defaultDatabase))
        let file = try writeExport(in: sandbox, grid: grid)
        let result = try sandbox.run(["import", file])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["Error: \(file): $.packages[0].quizzes[0].grid: \(message); nothing imported"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.defaultDatabase)) == before)
    }
}
