import Foundation
import Testing
import UQuizTestSupport

@Suite("Numeric settings are finite and in range")
struct NumericSettingsTests {
    @Test(arguments: [
        ("UQUIZ_QUIZ_TIME_LIMIT_SECONDS", "nan"), ("UQUIZ_QUIZ_TIME_LIMIT_SECONDS", "inf"),
        ("UQUIZ_QUIZ_TIME_LIMIT_SECONDS", "1e300"), ("UQUIZ_LEVELS_EXPERT_STAGE_SECONDS", "-inf"),
        ("UQUIZ_TMDB_TIMEOUT_SECONDS", "0.0004"), ("UQUIZ_TMDB_RETRY_BUDGET_SECONDS", "1e300"),
        ("UQUIZ_GRID_COLUMNS", "1000000"), ("UQUIZ_POSTERS_CACHE_MEGABYTES", "9223372036854775807"),
        ("UQUIZ_LEVELS_BEGINNER_AREAS", "1000000000"),
    ])
    func aNumericSettingOutOfRangeIsOneLineEvenForConfig(variable: String, value: String) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["config"], extraEnvironment: [variable: value])
        #expect(result.status == 1, "\(variable)=\(value): \(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderrLines.first?.hasPrefix("Error: \(variable) must be ") == true, "\(result.stderr)")
        // A command that reads the setting says the same; one that does not may run, but nothing traps.
        let list = try sandbox.run(["list"], extraEnvironment: [variable: value])
        #expect(list.status == 0 || list.stderrLines == result.stderrLines, "\(list.stderr)")
    }

    @Test func aConfigFileWithAHugeNumberIsOneLine() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.path("config/uquiz")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"{"quiz": {"timeLimitSeconds": 1e308}, "tmdb": {"timeoutSeconds": 0.0004}}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/config.json"))
        let result = try sandbox.run(["config"])
        #expect(result.status == 1)
        #expect(result.stderrLines == [
            "Error: quiz.timeLimitSeconds in \(folder)/config.json must be a number from 0.001 to 86400, not 1e+308"
        ])
    }

    /// `config --check FILE` reads that file alone and lists every problem, not just the first; a good file is "ok".
    @Test func checkingAConfigFileListsEveryProblem() throws {
        let sandbox = try Sandbox()
        let file = sandbox.path("candidate.json")
        try Data(#"{"quiz": {"timeLimitSeconds": 1e308}, "tmdb": {"timeoutSeconds": 0.0004}, "grid": {"columns": "wide"}}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let bad = try sandbox.run(["config", "--check", file])
        #expect(bad.status == 1)
        #expect(bad.stdout.split(separator: "\n") == [
            "grid.columns in \(file) must be a whole number",
            "quiz.timeLimitSeconds in \(file) must be a number from 0.001 to 86400, not 1e+308",
            "tmdb.timeoutSeconds in \(file) must be a number from 0.001 to 3600, not 0.0004",
        ])
        try Data(#"{"grid": {"columns": 10, "rows": 10, "areaSize": 9, "margin": 3}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let misfit = try sandbox.run(["config", "--check", file])
        #expect(misfit.stdout == "configured grid is invalid: a 9x9 area with a 3-cell margin does not fit in a 10x10 grid\n")
        let good = try sandbox.run(["config", "--check", repositoryRoot.appendingPathComponent("Config/uquiz.json").path])
        #expect(good.status == 0 && good.stdout.hasSuffix("Config/uquiz.json: ok\n"))
    }
}
