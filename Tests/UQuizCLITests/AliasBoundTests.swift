import Foundation
import Testing
import UQuizTestSupport

/// Issue 13, item 8, through the binary.
@Suite("What a file may carry is bounded")
struct AliasBoundTests {
    @Test func aFileWithAHundredThousandAliasesIsRefusedInOneLineNamingThePath() throws {
        let sandbox = try Sandbox()
        try sandbox.run(["list"])
        let file = try writeExport(in: sandbox, aliases: (0..<100_000).map { "alias \($0)" })
        let result = try sandbox.run(["import", file])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1, "\(result.stderr.prefix(500))")
        #expect(result.stderr.contains("$.packages[0].quizzes[0].movie.aliases"), "\(result.stderr.prefix(500))")
        #expect(result.stderr.contains("at most 50"), "\(result.stderr.prefix(500))")
        #expect(try packageCount(sandbox) == 8, "nothing imported")
    }
}
