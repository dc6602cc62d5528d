import Foundation
import PosterGrid
import QuizCore
import QuizStore
import UQuizStorage
import Testing

/// Players, publishing, browsing, updates, deletions and posters: the same answers from SQLite and PostgreSQL.
@Suite struct SharingContractTests {
    @Test(arguments: StoreKind.allCases)
    func playersAreKnownByTheirTokenHash(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let bob = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            #expect(ann.id != bob.id)
            #expect(try await store.player(tokenHash: tokenHash(1)) == ann)
            #expect(try await store.player(tokenHash: tokenHash(2)) == Player(id: bob.id, name: "Bob"))
            #expect(try await store.player(tokenHash: tokenHash(3)) == nil)
            await #expect(throws: (any Error).self) { try await store.insertPlayer(name: "Ann again", tokenHash: tokenHash(1), at: Date()) }
            #expect(await store.answers())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRenamedPlayerIsShownByTheNewNameOnBoards(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            try await recordPlay(on: store, packageId: id, player: ann, score: 100)
            #expect(try await store.renamePlayer(id: ann.id, name: "Annika") == Player(id: ann.id, name: "Annika"))
            #expect(try await store.player(tokenHash: tokenHash(1))?.name == "Annika")
            #expect(try await store.leaderboard(packageId: id, limit: 10, playerId: nil).top.map(\.player) == ["Annika"])
            #expect(try await store.renamePlayer(id: ann.id + 1000, name: "Nobody") == nil)
        }
    }

    /// A link code gives its player a second token, once, until it expires; the first token goes on working.
    @Test(arguments: StoreKind.allCases)
    func aLinkCodeGivesItsPlayerASecondTokenOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let now = Date()
            try await store.insertLinkCode(codeHash: tokenHash(50), playerId: ann.id, expiresAt: now.addingTimeInterval(600))
            try await store.insertLinkCode(codeHash: tokenHash(51), playerId: ann.id, expiresAt: now.addingTimeInterval(-1))
            #expect(try await store.redeemLinkCode(codeHash: tokenHash(51), at: now, tokenHash: tokenHash(3)) == nil, "expired")
            #expect(try await store.redeemLinkCode(codeHash: tokenHash(52), at: now, tokenHash: tokenHash(3)) == nil, "unknown")
            #expect(try await store.player(tokenHash: tokenHash(3)) == nil)
            #expect(try await store.redeemLinkCode(codeHash: tokenHash(50), at: now, tokenHash: tokenHash(2)) == ann)
            #expect(try await store.redeemLinkCode(codeHash: tokenHash(50), at: now, tokenHash: tokenHash(3)) == nil, "spent")
            #expect(try await store.player(tokenHash: tokenHash(2)) == ann, "the new token is the same player")
            #expect(try await store.player(tokenHash: tokenHash(1)) == ann, "and the first one still is")
            #expect(try await store.player(tokenHash: tokenHash(3)) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func publishingChoosesAFreeShareCode(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let owner = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let first = try await store.insertPublished(
                makePackage(code: "AAAAA2"), owner: owner.id, visibility: .public, otherCodes: [])
            #expect(first.shareCode.value == "AAAAA2")
            // The package's own code is taken, and so is the first drawn: the second drawn is free.
            let second = try await store.insertPublished(
                makePackage(title: "Second", code: "AAAAA2"), owner: owner.id, visibility: .unlisted,
                otherCodes: [ShareCode("AAAAA2")!, ShareCode("BBBBB3")!])
            #expect(second.shareCode.value == "BBBBB3")
            await #expect(try store.package(id: second.id).title == "Second")
            await #expect(try store.publishedPackage(shareCode: ShareCode("BBBBB3")!)?.visibility == .unlisted)
            // Every code taken: refused, and nothing of it is stored.
            let taken = Array(repeating: ShareCode("BBBBB3")!, count: ShareCode.triesPerNewPackage - 1)
            await #expect(throws: StoreError.noFreeShareCode(tries: ShareCode.triesPerNewPackage)) {
                try await store.insertPublished(
                    makePackage(title: "Third", code: "AAAAA2"), owner: owner.id, visibility: .public, otherCodes: taken)
            }
            await #expect(try store.publicPackages(.init(), after: nil, limit: 10).map(\.title) == ["My movies"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func publishedPackageShowsItsCountsAndOwner(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, owner) = try await publish(makePackage(code: "CCCCC4", quizzes: 3), on: store)
            let player = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(9), at: Date())
            try await recordPlay(on: store, packageId: id, player: player, score: 300)
            let published = try #require(try await store.publishedPackage(shareCode: ShareCode("CCCCC4")!))
            #expect(published.id == id)
            #expect(published.ownerId == owner.id)
            #expect(published.quizCount == 3)
            #expect(published.plays == 1)
            #expect(published.serverAttempts == 3)
            #expect(published.serverSolves == 3)
            #expect(published.visibility == .public)
            #expect(published.createdAt == "2026-11-22T10:00:00Z")
            #expect(try await store.publishedPackage(shareCode: ShareCode("DDDDD5")!) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func browsingNewestFirstPagesWithFilters(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let owner = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let specs: [(String, String, Level, QuizLanguage, String, Visibility)] = [
                ("Alpha", "AAAAA2", .beginner, .en, "2026-01-01T00:00:00Z", .public),
                ("Beta 100%", "BBBBB3", .expert, .en, "2026-01-02T00:00:00Z", .public),
                ("감마", "CCCCC4", .beginner, .ko, "2026-01-02T00:00:00Z", .public),
                ("Delta", "DDDDD5", .beginner, .en, "2026-01-03T00:00:00Z", .unlisted),
                ("Epsilon", "EEEEE6", .beginner, .en, "2026-01-04T00:00:00Z", .public),
            ]
            for (title, code, level, language, createdAt, visibility) in specs {
                _ = try await store.insertPublished(
                    makePackage(title: title, code: code, level: level, language: language, createdAt: createdAt),
                    owner: owner.id, visibility: visibility, otherCodes: [])
            }
            var pages: [[String]] = []
            var position: BrowsePosition?
            repeat {
                let page = try await store.publicPackages(.init(), after: position, limit: 2)
                pages.append(page.map(\.title))
                position = page.last.map { BrowsePosition(createdAt: $0.createdAt, id: $0.id) }
            } while position != nil
            // Same creation time: the higher id first. The unlisted package never shows.
            #expect(pages == [["Epsilon", "감마"], ["Beta 100%", "Alpha"], []])
            await #expect(try store.publicPackages(.init(level: .beginner), after: nil, limit: 10).map(\.title) == ["Epsilon", "감마", "Alpha"])
            await #expect(try store.publicPackages(.init(language: .ko), after: nil, limit: 10).map(\.title) == ["감마"])
            await #expect(try store.publicPackages(.init(text: "ALPH"), after: nil, limit: 10).map(\.title) == ["Alpha"])
            await #expect(try store.publicPackages(.init(text: "0%"), after: nil, limit: 10).map(\.title) == ["Beta 100%"])
            await #expect(try store.publicPackages(.init(text: "감"), after: nil, limit: 10).map(\.title) == ["감마"])
            await #expect(try store.publicPackages(.init(text: "tester"), after: nil, limit: 10).count == 4)
            await #expect(try store.publicPackages(.init(text: "_"), after: nil, limit: 10).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func browsingCanKeepToPackagesWhosePostersTheStoreHolds(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var held = makePackage(title: "Held", code: "AAAAA2", quizzes: 2)
            for index in held.quizzes.indices {
                held.quizzes[index].posterSource = .bundled
                held.quizzes[index].posterPath = "held-\(index).jpg"
            }
            var mixed = makePackage(title: "Mixed", code: "BBBBB3", quizzes: 2)
            mixed.quizzes[0].posterSource = .bundled
            mixed.quizzes[0].posterPath = "mixed.jpg"
            for package in [held, mixed, makePackage(title: "TMDB", code: "CCCCC4", quizzes: 1)] {
                try await publish(package, on: store)
            }
            let everything = try await store.publicPackages(BrowseFilter(), after: nil, limit: 10).map(\.title)
            #expect(Set(everything) == ["Held", "Mixed", "TMDB"])
            let onlyHeld = BrowseFilter(postersHeldOnly: true)
            #expect(try await store.publicPackages(onlyHeld, after: nil, limit: 10).map(\.title) == ["Held"])
            #expect(try await store.popularPackages(onlyHeld, after: nil, limit: 10).map(\.title) == ["Held"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func uploadsAreHeldToAQuotaAndThoseNoQuizUsesGo(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ann = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            let bob = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(2), at: Date())
            let day = Date(timeIntervalSince1970: 1_800_000_000)
            func upload(_ name: String, _ bytes: Int, by player: Player, at date: Date = day) async throws -> UploadStored {
                try await store.storeUpload(
                    fileName: name, jpeg: Data(repeating: 1, count: bytes), attribution: "test", owner: player.id, at: date,
                    quotaBytes: 1_000)
            }
            #expect(try await upload("upload-a.jpg", 600, by: ann) == .stored)
            #expect(try await upload("upload-b.jpg", 600, by: ann) == .overQuota(heldBytes: 600))
            #expect(try await upload("upload-a.jpg", 600, by: ann) == .existing)
            #expect(try await upload("upload-b.jpg", 600, by: bob) == .stored)
            #expect(try await upload("upload-c.jpg", 100, by: bob, at: day.addingTimeInterval(7200)) == .stored)
            #expect(try await upload("upload-d.jpg", 100, by: bob) == .stored)
            // A draft names d: a maker's work in progress keeps its upload.
            _ = try await store.insertDraft(
                playerId: bob.id, document: #"{"title": "Mine", "quizzes": [{"poster": "upload-d.jpg"}]}"#, at: day, limit: 10, quotaBytes: 1 << 20)
            #expect(try await store.bundledPoster(fileName: "upload-b.jpg") != nil)
            // A quiz uses a; b and c are used by none; c is newer than the cut-off.
            var package = makePackage(code: "AAAAA2", quizzes: 1)
            package.quizzes[0].posterSource = .bundled
            package.quizzes[0].posterPath = "upload-a.jpg"
            try await publish(package, on: store)
            let removed = try await store.deleteUnusedUploads(storedBefore: day.addingTimeInterval(3600))
            #expect(removed == ["upload-b.jpg"])
            #expect(try await store.bundledPoster(fileName: "upload-b.jpg") == nil)
            #expect(try await store.bundledPoster(fileName: "upload-a.jpg") != nil)
            #expect(try await store.bundledPoster(fileName: "upload-c.jpg") != nil)
            #expect(try await store.bundledPoster(fileName: "upload-d.jpg") != nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func browsingByPopularityPagesByPlays(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let owner = try await store.insertPlayer(name: "Ann", tokenHash: tokenHash(1), at: Date())
            var ids: [String: Int64] = [:]
            for (title, code) in [("One", "AAAAA2"), ("Two", "BBBBB3"), ("Three", "CCCCC4"), ("None", "DDDDD5")] {
                ids[title] = try await store.insertPublished(
                    makePackage(title: title, code: code, language: title == "Three" ? .ko : .en), owner: owner.id,
                    visibility: .public, otherCodes: []
                ).id
            }
            var players: [Player] = []
            for index in 0..<3 {
                players.append(try await store.insertPlayer(name: "P\(index)", tokenHash: tokenHash(UInt8(10 + index)), at: Date()))
            }
            for (title, count) in [("One", 1), ("Two", 2), ("Three", 3)] {
                for index in 0..<count { try await recordPlay(on: store, packageId: ids[title]!, player: players[index], score: 10) }
            }
            var pages: [[String]] = []
            var position: PopularPosition?
            repeat {
                let page = try await store.popularPackages(.init(), after: position, limit: 3)
                pages.append(page.map(\.title))
                position = page.last.map { PopularPosition(plays: $0.plays, id: $0.id) }
            } while position != nil
            #expect(pages == [["Three", "Two", "One"], ["None"], []])
            await #expect(try store.popularPackages(.init(language: .en), after: nil, limit: 10).map(\.title) == ["Two", "One", "None"])
            await #expect(try store.popularPackages(.init(text: "on"), after: nil, limit: 10).map(\.title) == ["One", "None"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func updatesReplaceQuizzesOnlyWhileUnplayedAndNotInPlay(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 2), on: store)
            try await store.updatePublished(packageId: id, .titleAndMaker(title: "Renamed", maker: "Ann"), visibility: .unlisted)
            var package = try await store.package(id: id)
            #expect(package.title == "Renamed" && package.maker == "Ann")
            #expect(try await store.publishedPackage(shareCode: ShareCode("AAAAA2")!)?.visibility == .unlisted)
            // A whole update keeps the code, creation time and the quizzes that stay.
            let kept = try await store.quizIDs(packageId: id)
            var edited = makePackage(title: "Whole", code: "ZZZZZ9", createdAt: "2030-01-01T00:00:00Z", quizzes: 3, firstFilm: 2)
            edited.level = .beginner
            try await store.updatePublished(packageId: id, .whole(edited), visibility: nil)
            package = try await store.package(id: id)
            #expect(package.title == "Whole" && package.level == .beginner)
            #expect(package.shareCode.value == "AAAAA2" && package.createdAt == "2026-11-22T10:00:00Z")
            #expect(package.quizzes.map(\.title) == ["Film 2", "Film 3", "Film 4"])
            let now = try await store.quizIDs(packageId: id)
            #expect(now.first == kept[1])
            #expect(!now.contains(kept[0]))
            // An open play of it: refused while it is open.
            let player = try await store.insertPlayer(name: "Bob", tokenHash: tokenHash(7), at: Date())
            try await store.insertOpenPlay(openRecord(id: "open-1", player: player, packageId: id, quizIds: now), maxOpen: 10)
            await #expect(throws: StoreError.packageInPlay(openPlays: 1)) {
                try await store.updatePublished(packageId: id, .whole(edited), visibility: nil)
            }
            // Title and maker may still change.
            try await store.updatePublished(packageId: id, .titleAndMaker(title: "Again", maker: "Ann"), visibility: nil)
            // A stored play: refused for good.
            try await recordPlay(on: store, packageId: id, player: player, score: 10)
            await #expect(throws: StoreError.packagePlayed(plays: 1)) {
                try await store.updatePublished(packageId: id, .whole(edited), visibility: nil)
            }
            await #expect(throws: StoreError.packageNotFound("999999")) {
                try await store.updatePublished(packageId: 999_999, .titleAndMaker(title: "X", maker: "Y"), visibility: nil)
            }
            #expect(try await store.package(id: id).title == "Again")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deletingPackagesIsAllOrNothing(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (first, owner) = try await publish(makePackage(title: "First", code: "AAAAA2"), on: store)
            let (second, _) = try await publish(makePackage(title: "Second", code: "BBBBB3"), on: store, owner: owner)
            try await recordPlay(on: store, packageId: first, player: owner, score: 10)
            await #expect(throws: StoreError.packageNotFound("424242")) { try await store.deletePackages(ids: [first, 424_242]) }
            #expect(try await store.package(id: first).title == "First")
            #expect(try await store.deletePackages(ids: [second, first]) == ["Second", "First"])
            await #expect(throws: StoreError.packageNotFound("\(first)")) { try await store.package(id: first) }
            #expect(try await store.publishedPackage(shareCode: ShareCode("AAAAA2")!) == nil)
            #expect(try await store.quizIDs(packageId: first).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func posterImagesAreKeptOnceAndPostersReplaced(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let jpeg = Data([0xFF, 0xD8, 0xFF, 0x00, 0x01, 0xFF, 0xD9])
            #expect(try await store.storePosterImage(fileName: "abc.jpg", jpeg: jpeg, attribution: "upload"))
            #expect(try await !store.storePosterImage(fileName: "abc.jpg", jpeg: Data([1]), attribution: "upload"))
            #expect(try await store.bundledPoster(fileName: "abc.jpg") == jpeg)
            #expect(try await store.bundledPoster(fileName: "missing.jpg") == nil)
            try await store.upsertMovies([
                CatalogMovie(
                    catalogKey: "tmdb-1001", tmdbId: 1001, originalTitle: "Film 1", titles: [.en: "Film 1"],
                    releaseDate: nil, posterPaths: [.en: "/poster1.jpg", .ko: "/ko.jpg"], bundledPoster: nil, aliases: [])
            ])
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let quizId = try await store.quizIDs(packageId: id)[0]
            try await store.replacePoster(quizId: quizId, with: "/new.jpg")
            #expect(try await store.package(id: id).quizzes[0].posterPath == "/new.jpg")
            #expect(try await store.catalogMovie(key: "tmdb-1001")?.posterPaths == [.en: "/new.jpg", .ko: "/ko.jpg"])
            await #expect(throws: StoreError.packageNotFound("quiz 999999")) { try await store.replacePoster(quizId: 999_999, with: "/x.jpg") }
        }
    }

    /// A listener hears each update and delete of a package as it commits: renames until one is heard, since a
    /// PostgreSQL listener starts listening on a connection of its own a moment after the store starts.
    @Test(arguments: StoreKind.allCases)
    func listenersHearEachCommittedChangeOfAPackage(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (id, _) = try await publish(makePackage(code: "AAAAA2", quizzes: 1), on: store)
            let expected = PackageChange.package(id: id, shareCode: ShareCode("AAAAA2")!)
            let heard = HeardChanges()
            let changes = store.packageChanges()
            let listening = Task { for await change in changes { await heard.add(change) } }
            defer { listening.cancel() }
            /// Whether `expected` arrives within `limit`, looked for every 10 ms; what was heard is forgotten.
            func hears(within limit: Duration) async throws -> Bool {
                let deadline = ContinuousClock.now + limit
                repeat {
                    if await heard.take(expected) { return true }
                    try await Task.sleep(for: .milliseconds(10))
                } while ContinuousClock.now < deadline
                return false
            }
            var renames = 0
            var renameHeard = false
            while !renameHeard, renames < 50 {
                renames += 1
                try await store.updatePublished(packageId: id, .titleAndMaker(title: "Renamed \(renames)", maker: "Ann"), visibility: nil)
                renameHeard = try await hears(within: .milliseconds(200))
            }
            #expect(renameHeard)
            try await store.deletePackages(ids: [id])
            #expect(try await hears(within: .seconds(5)))
        }
    }
}

/// The changes a listener heard, looked at by the test as they come.
private actor HeardChanges {
    private var changes: [PackageChange] = []

    func add(_ change: PackageChange) { changes.append(change) }

    /// Whether `change` was heard; what was heard is forgotten once it was.
    func take(_ change: PackageChange) -> Bool {
        guard changes.contains(change) else { return false }
        changes.removeAll()
        return true
    }
}
