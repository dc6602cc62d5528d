import Foundation
import LocalUseCases
import PosterGrid
import QuizCore
import QuizStore
import Testing
import UQuizRules
import UQuizStorage
import UQuizTestSupport

@Suite("Making, editing and sharing packages in process")
struct PackageUseCaseTests {
    func spec(_ quizzes: [PackageDocument.QuizEntry], level: String = "expert") throws -> PackageDocument.Checked {
        try PackageSpec(title: "Silent picks", maker: nil, level: level, language: "en", quizzes: quizzes)
            .check(geometry: .standard, levels: .standard)
    }

    @Test func createResolvesCatalogMoviesOfflineWithBundledPostersAndAutomaticAreasFromTheSeed() async throws {
        let folder = try TemporaryFolder()
        let environment = try testEnvironment(folder, seed: 11)
        let create = CreatePackage(environment: environment, levels: .standard, geometry: .standard)
        let checked = try spec([.init(movie: .tmdb(19)), .init(movie: .tmdb(653), areas: [[30, 25]])])
        let quizzes = try await create.quizzes(of: checked, language: .en, autoAreas: true, seed: 5)
        #expect(quizzes.map(\.title) == ["Metropolis", "Nosferatu"])
        #expect(quizzes.map(\.posterSource) == [.bundled, .bundled], "no TMDB poster offline: the bundled one")
        #expect(quizzes[0].areas.count == 3, "expert: three automatic areas")
        #expect(quizzes[1].areas == [Cell(row: 30, column: 25)], "given areas are kept")
        await #expect(try create.quizzes(of: checked, language: .en, autoAreas: true, seed: 5) == quizzes, "same seed, same layout")
        let saved = try create.save(.init(title: "Silent picks", maker: "me", level: .expert, language: .en, quizzes: quizzes))
        let stored = try environment.store().package(id: saved.id)
        #expect(stored.shareCode == saved.package.shareCode && stored.quizzes == quizzes && stored.origin == .user)
        #expect(stored.createdAt == "2026-11-18T11:06:40Z", "the environment's date, not the machine's")
    }

    @Test func createSaysWhatIsMissingAsTypedProblems() async throws {
        let folder = try TemporaryFolder()
        let create = CreatePackage(environment: try testEnvironment(folder), levels: .standard, geometry: .standard)
        await #expect(throws: CreatePackageError.noAreas(quiz: 1, movie: .tmdb(19))) {
            try await create.quizzes(of: try spec([.init(movie: .tmdb(19))]), language: .en, autoAreas: false, seed: 1)
        }
        await #expect(throws: MovieLookupProblem.notInCatalog(.tmdb(4_242_424), hadCredentials: false)) {
            try await create.quizzes(of: try spec([.init(movie: .tmdb(4_242_424), areas: [[30, 25]])]), language: .en, autoAreas: false, seed: 1)
        }
    }

    @Test func twoPackagesSavedWithTheSameRandomnessGetDifferentShareCodes() async throws {
        let folder = try TemporaryFolder()
        let environment = try testEnvironment(folder, seed: 99)
        let create = CreatePackage(environment: environment, levels: .standard, geometry: .standard)
        let quizzes = try await create.quizzes(of: try spec([.init(movie: .tmdb(19), areas: [[30, 25]])]), language: .en, autoAreas: false, seed: 1)
        let draft = CreatePackage.Draft(title: "Twice", maker: "me", level: .expert, language: .en, quizzes: quizzes)
        let first = try create.save(draft)
        let second = try create.save(draft)
        #expect(first.package.shareCode != second.package.shareCode, "the second draws past the code the first took")
    }

    @Test func editDeleteAndStatsGoThroughTheLibrary() async throws {
        let folder = try TemporaryFolder()
        let environment = try testEnvironment(folder)
        let library = PackageLibrary(environment: environment)
        let edited = try await library.edit("en-silent", [.title("Silent, edited"), .remove(quiz: 25)], levels: .standard)
        #expect(edited.title == "Silent, edited" && edited.quizzes.count == 24)
        #expect(try library.package("FE7NWW").title == "Silent, edited")
        await #expect(throws: EditProblem(.areas, "quiz 1: a quiz needs at least 1 area")) {
            try await library.edit("en-silent", [.areas(quiz: 1, [])], levels: .standard)
        }
        #expect(try library.package("en-silent").quizzes.count == 24, "a refused edit changes nothing")
        let ids = try library.ids(of: ["en-silent", "FE7NWW", "ko-beginner"])
        #expect(ids.count == 2, "the same package named twice is one")
        #expect(try library.delete(ids: ids) == ["Silent, edited", "너무 유명해서 다 아는 영화!"])
        #expect(try library.list().total == 6)
        #expect(try library.stats(package: nil, player: nil).attempts == 0)
    }

    @Test func anExportImportsAsACopyAndTwiceIsRefused() throws {
        let folder = try TemporaryFolder()
        let environment = try testEnvironment(folder)
        let library = PackageLibrary(environment: environment)
        let sharing = PackageSharing(environment: environment)
        let export = try sharing.export(ids: try library.ids(of: ["en-silent"]))
        #expect(export.count == 1)
        let file = (name: "silent.json", size: export.data.count, read: { export.data })
        #expect(throws: StoreError.self) { try sharing.importFiles([file], levels: .standard, asCopy: false) }
        let copies = try sharing.importFiles([file], levels: .standard, asCopy: true)
        #expect(copies.count == 1 && copies[0].isCopy && copies[0].package.shareCode.value == "FE7NWW")
        #expect(try library.package(copies[0].shareCode.value).quizzes.count == 25)
        #expect(throws: PackageImportError.duplicateShareCode("FE7NWW")) {
            try sharing.importFiles([file, file], levels: .standard, asCopy: true)
        }
        let garbage = Data("{\"format\": 1}".utf8)
        #expect(throws: PackageImportError.self) {
            try sharing.importFiles([(name: "bad.json", size: garbage.count, read: { garbage })], levels: .standard, asCopy: true)
        }
        #expect(throws: PackageImportError.fileTooLarge(name: "huge.json", bytes: 30 << 20, maxBytes: ExportDocument.maxBytes)) {
            try sharing.importFiles([(name: "huge.json", size: 30 << 20, read: { Issue.record("read"); return Data() })], levels: .standard, asCopy: true)
        }
        #expect(try library.list().total == 9, "only the one good copy was added")
    }

    @Test func searchWithoutCredentialsAnswersFromTheCatalogAndSaysWhy() async throws {
        let folder = try TemporaryFolder()
        let movies = MovieSearching(environment: try testEnvironment(folder))
        let found = try await movies.find("metro", language: .ko, offline: false)
        #expect(found.offlineReason == .noCredentials)
        #expect(found.results.map(\.title) == ["메트로폴리스"])
        await #expect(try movies.find("metro", language: .en, offline: true).offlineReason == .asked)
        await #expect(try movies.find("metro", language: .en, year: 1999, offline: true).results.isEmpty)
        let first = try await movies.find("e", language: .en, offline: true)
        let second = try await movies.find("e", language: .en, page: 2, offline: true)
        #expect(first.totalPages > 1 && second.page == 2 && first.results.count == 20)
        #expect(Set(first.results.map(\.catalogKey)).isDisjoint(with: second.results.map(\.catalogKey)), "page 2 is not page 1")
        await #expect(try movies.find("e", language: .en, page: 99, offline: true).page == first.totalPages)
    }

    @Test func seedStatusAndMergeReportTheBundle() throws {
        let folder = try TemporaryFolder()
        let environment = try testEnvironment(folder)
        let seed = SeedMaintenance(environment: environment, files: SQLiteSeedFiles()) { _ in repositorySeed }
        let status = try seed.status()
        #expect(status.database.seedPackages == 8 && status.bundleVersion != nil && status.bundleProblem == nil)
        try PackageLibrary(environment: environment).delete(ids: try PackageLibrary(environment: environment).ids(of: ["en-silent"]))
        #expect(try seed.merge().added == ["en-silent"])
    }
}
