import Foundation
import Testing
import UQuizTestSupport

@Suite("Imports reconciled by TMDB id")
struct CatalogReconcileCommandTests {
    @Test func anImportedMovieHeldUnderAnotherKeyIsReconciledByItsTMDBId() throws {
        let sandbox = try Sandbox()
        let file = try writeExport(in: sandbox, catalogKey: "export-metropolis")
        let result = try sandbox.run(["import", file])
        #expect(result.status == 0, "\(result.stderr)")
        let shown = try jsonObject(try sandbox.run(["show", "HSTX22", "--json"]).stdout)
        #expect(((shown["quizzes"] as! [[String: Any]])[0]["title"] as? String) == "Metropolis")
    }
}
