import Foundation
import UQuizStorage
import Testing

/// Drafts of packages: the same answers from SQLite and PostgreSQL, and each player's alone.
@Suite struct DraftContractTests {
    @Test(arguments: StoreKind.allCases)
    func aDraftIsItsMakersAloneAndHeldToALimit(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let bob = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            let monday = Date(timeIntervalSince1970: 1_800_000_000)
            let first = try #require(try await store.insertDraft(
                playerId: ann.id, document: #"{"title":"Silent"}"#, at: monday, limit: 2, quotaBytes: 1 << 20))
            #expect(first.playerId == ann.id && first.document == #"{"title":"Silent"}"# && first.createdAt == first.updatedAt)
            let second = try #require(try await store.insertDraft(
                playerId: ann.id, document: "{}", at: monday.addingTimeInterval(60), limit: 2, quotaBytes: 1 << 20))
            #expect(try await store.insertDraft(playerId: ann.id, document: "{}", at: monday, limit: 2, quotaBytes: 1 << 20) == nil, "at the limit")
            #expect(try await store.insertDraft(playerId: bob.id, document: "{}", at: monday, limit: 2, quotaBytes: 1 << 20) != nil, "Bob has his own")

            #expect(try await store.drafts(playerId: ann.id).map(\.id) == [second.id, first.id], "the one changed last first")
            let saved = try #require(try await store.updateDraft(
                id: first.id, playerId: ann.id, document: #"{"title":"Silent Classics"}"#, at: monday.addingTimeInterval(120), quotaBytes: 1 << 20))
            #expect(saved.document == #"{"title":"Silent Classics"}"# && saved.createdAt == first.createdAt
                && saved.updatedAt > first.updatedAt)
            #expect(try await store.drafts(playerId: ann.id).map(\.id) == [first.id, second.id])

            // Bob reaches none of Ann's drafts, whichever way he asks.
            #expect(try await store.draft(id: first.id, playerId: bob.id) == nil)
            #expect(try await store.updateDraft(id: first.id, playerId: bob.id, document: "{}", at: monday, quotaBytes: 1 << 20) == nil)
            #expect(try await store.deleteDraft(id: first.id, playerId: bob.id) == false)
            #expect(try await store.draft(id: first.id, playerId: ann.id) == saved)

            #expect(try await store.deleteDraft(id: first.id, playerId: ann.id))
            #expect(try await store.deleteDraft(id: first.id, playerId: ann.id) == false, "gone")
            #expect(try await store.drafts(playerId: ann.id).map(\.id) == [second.id])
        }
    }

    /// A player's drafts hold at most their quota together (UTF-8 bytes, the draft being saved counted once), and
    /// drafts nobody changed since a moment are removed, whoever's they are.
    @Test(arguments: StoreKind.allCases)
    func draftsHoldAQuotaAndExpireUnchanged(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let bob = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            let monday = Date(timeIntervalSince1970: 1_800_000_000)
            let title = #"{"title":"Ça"}"#  // 15 bytes: "Ç" is two
            let first = try #require(try await store.insertDraft(
                playerId: ann.id, document: title, at: monday, limit: 10, quotaBytes: 30))
            _ = try #require(try await store.insertDraft(playerId: ann.id, document: title, at: monday, limit: 10, quotaBytes: 30))
            await #expect(throws: DraftQuotaExceeded(heldBytes: 30)) {
                try await store.insertDraft(playerId: ann.id, document: "{}", at: monday, limit: 10, quotaBytes: 30)
            }
            // Saving a draft counts it once: a size that fits beside the other fits, a larger one does not.
            #expect(try await store.updateDraft(id: first.id, playerId: ann.id, document: #"{"title":"Ab"}"#, at: monday, quotaBytes: 30) != nil)
            await #expect(throws: DraftQuotaExceeded(heldBytes: 15)) {
                try await store.updateDraft(id: first.id, playerId: ann.id, document: #"{"title":"Abcd"}"#, at: monday, quotaBytes: 30)
            }
            #expect(try await store.draft(id: first.id, playerId: ann.id)?.document == #"{"title":"Ab"}"#, "left as it was")
            #expect(try await store.insertDraft(playerId: bob.id, document: "{}", at: monday, limit: 10, quotaBytes: 30) != nil)

            let later = monday.addingTimeInterval(86_400)
            _ = try await store.updateDraft(id: first.id, playerId: ann.id, document: "{}", at: later, quotaBytes: 30)
            #expect(try await store.deleteDrafts(changedBefore: later) == 2, "Ann's other one and Bob's")
            #expect(try await store.drafts(playerId: ann.id).map(\.id) == [first.id])
            #expect(try await store.drafts(playerId: bob.id).isEmpty)
        }
    }

    /// A maker's list: every package they published, whoever may find it, newest first, and nobody else's.
    @Test(arguments: StoreKind.allCases)
    func aMakersPackagesAreListedNewestFirst(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (first, ann) = try await publish(makePackage(title: "First", code: "AAAAA2", quizzes: 1), on: store)
            let (other, _) = try await publish(makePackage(title: "Not Ann's", code: "BBBBB2", quizzes: 1), on: store)
            var later = makePackage(title: "Second", code: "CCCCC2", quizzes: 2)
            later.createdAt = "2099-01-01T00:00:00Z"
            let second = try await store.insertPublished(later, owner: ann.id, visibility: .unlisted, otherCodes: []).id
            let owned = try await store.ownedPackages(playerId: ann.id, after: nil, limit: 100)
            #expect(owned.map(\.id) == [second, first] && !owned.map(\.id).contains(other))
            #expect(owned.map(\.visibility) == [.unlisted, .public] && owned.map(\.quizCount) == [2, 1])
            #expect(try await store.ownedPackages(playerId: 999, after: nil, limit: 100) == [])
        }
    }

    /// A maker's list a page at a time: the pages, each after the last package of the one before, are the whole list
    /// in its order, once each, also where packages share a creation time; another maker's packages are on none.
    @Test(arguments: StoreKind.allCases)
    func aMakersPackagesArePagedThroughOnceEach(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let times = ["2030-01-01T00:00:00Z", "2030-01-02T00:00:00Z", "2030-01-02T00:00:00Z", "2030-01-02T00:00:00Z",
                         "2030-01-03T00:00:00Z", "2029-12-31T00:00:00Z", "2030-01-02T00:00:00Z"]
            var made: [(id: Int64, createdAt: String)] = []
            for (index, time) in times.enumerated() {
                var package = makePackage(title: "Ann \(index)", code: "ANN\(index + 2)A2", quizzes: 1)
                package.createdAt = time
                let id = try await store.insertPublished(
                    package, owner: ann.id, visibility: index.isMultiple(of: 2) ? .public : .unlisted, otherCodes: []).id
                made.append((id, time))
                var others = makePackage(title: "Bob \(index)", code: "BXB\(index + 2)B2", quizzes: 1)
                others.createdAt = time
                _ = try await publish(others, on: store)
            }
            let expected = made.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }.map(\.id)
            var seen: [Int64] = []
            var position: BrowsePosition?
            for _ in 0..<10 {
                let page = try await store.ownedPackages(playerId: ann.id, after: position, limit: 2)
                #expect(page.count <= 2)
                seen += page.map(\.id)
                guard let last = page.last else { break }
                position = BrowsePosition(createdAt: last.createdAt, id: last.id)
            }
            #expect(seen == expected)
        }
    }
}
