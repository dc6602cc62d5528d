import Foundation
import HummingbirdTesting
import QuizStore
import UQuizStorage
import Testing
import UQuizServer

@Suite("Package metadata kept for a moment")
struct RecentAnswersTests {
    /// A package's metadata is answered from memory for a second (a play recorded meanwhile shows after it), and an
    /// owner's update or delete through the server is seen at once, whatever the code's case.
    @Test func keptForASecondAndDroppedByAnUpdateOrADelete() async throws {
        let server = try TestServer()
        let clock = ManualClock()
        try await server.test(monotonicNow: clock.now) { client in
            #expect(try await client.send(.get, "/v1/packages/\(silentClassics)").json["plays"] as? Int == 0)
            let id = try server.file.packageID(for: silentClassics)
            _ = try server.file.recordPlay(
                packageId: id, player: "cli", startedAt: Date(), finishedAt: Date(), score: 10, attempts: [])
            #expect(try await client.send(.get, "/v1/packages/\(silentClassics)").json["plays"] as? Int == 0, "kept")
            clock.advance(.seconds(1))
            #expect(try await client.send(.get, "/v1/packages/\(silentClassics)").json["plays"] as? Int == 1, "a second later")

            let owner = try await client.newPlayer("Owner")
            let code = try await client.publish(validSpec(), token: owner)
            #expect(try await client.send(.get, "/v1/packages/\(code.lowercased())").json["title"] as? String == "Pixar night")
            let renamed = try await client.send(.put, "/v1/packages/\(code)", json: validSpec(title: "Renamed"), token: owner)
            #expect(renamed.status == .ok)
            #expect(try await client.send(.get, "/v1/packages/\(code.lowercased())").json["title"] as? String == "Renamed")
            #expect(try await client.send(.delete, "/v1/packages/\(code.lowercased())", token: owner).status == .noContent)
            #expect(try await client.send(.get, "/v1/packages/\(code)").status == .notFound, "gone at once")
        }
    }
}
