import Foundation
import QuizCore
import QuizStore
import ServerUseCases
import Synchronization
import Testing
import UQuizStorage
import UQuizTestSupport

@Suite("Players, publishing and browsing in process")
struct SharingUseCaseTests {
    /// The environment over a database in `folder`, which the caller keeps alive while it is used.
    func sharing(_ folder: TemporaryFolder, tokenBytes: @escaping @Sendable (Int) -> [UInt8] = SharingEnvironment.systemRandomBytes)
        throws -> SharingEnvironment
    {
        let app = try testEnvironment(folder)
        let store = SQLiteServerStore(database: try app.store() as! AppDatabase, deadline: .forTests)
        return SharingEnvironment(app: app, store: { store }, tokenBytes: tokenBytes)
    }

    @Test func aTokenIsKnownByItsHashAndNothingElseLetsIn() async throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let players = Players(environment: try sharing(folder, tokenBytes: { Array(repeating: 0xFF, count: $0) }))
        let made = try await players.register(name: "Ada")
        #expect(made.token.text == String(repeating: "_", count: 42) + "8", "32 bytes of 0xFF in base64url, unpadded")
        #expect("\(made.token)" == "<token>", "a token never prints itself")
        #expect(try await players.authenticate(made.token) == made.player)
        for forged in ["", "short", String(repeating: "-", count: 43), made.token.text + "x", String(made.token.text.dropLast()) + "+"] {
            await #expect(throws: PlayerError.unknownToken) { try await players.authenticate(PlayerToken(text: forged)) }
        }
    }

    /// Once authenticated, a player is known to this process without asking the store again; an unknown token always
    /// asks (and is refused), so a forged token never gets in from memory.
    @Test func aKnownPlayerIsRememberedAndAnUnknownTokenAlwaysAsksTheStore() async throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let app = try testEnvironment(folder)
        let lookups = Mutex(0)
        let store = SQLiteServerStore(database: try app.store() as! AppDatabase, deadline: .forTests)
        let environment = SharingEnvironment(app: app, store: {
            lookups.withLock { $0 += 1 }
            return store
        })
        let players = Players(environment: environment)
        let made = try await players.register(name: "Ada")
        let afterRegister = lookups.withLock { $0 }
        #expect(try await players.authenticate(made.token) == made.player)
        #expect(lookups.withLock { $0 } == afterRegister + 1)
        for _ in 0..<5 { #expect(try await players.authenticate(made.token) == made.player) }
        #expect(lookups.withLock { $0 } == afterRegister + 1, "remembered: the store is not asked again")
        let unknown = PlayerToken(text: String(repeating: "A", count: 43))
        for attempt in 1...2 {
            await #expect(throws: PlayerError.unknownToken) { try await players.authenticate(unknown) }
            #expect(lookups.withLock { $0 } == afterRegister + 1 + attempt)
        }
    }

    @Test func systemTokensDiffer() async throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let players = Players(environment: try sharing(folder))
        var tokens: [String] = []
        for number in 0..<20 { tokens.append(try await players.register(name: "P\(number)").token.text) }
        #expect(Set(tokens).count == 20)
    }

    @Test func aCursorIsOpaqueAndAForgedOneIsRefused() {
        let cursor = BrowseCursor(position: BrowsePosition(createdAt: "2024-05-01T00:00:00Z", id: 42))
        #expect(!cursor.text.contains("2024") && !cursor.text.contains("="))
        #expect(BrowseCursor(text: cursor.text) == cursor)
        for forged in ["", "!!", "bm90LWEtY3Vyc29y", Data("2024-05-01T00:00:00Z|x".utf8).base64EncodedString(),
                       Data("yesterday|4".utf8).base64EncodedString(), String(repeating: "A", count: 300)] {
            #expect(BrowseCursor(text: forged) == nil, "\(forged)")
        }
        let popular = BrowseCursor(place: .popular(PopularPosition(plays: 12, id: 42)))
        #expect(BrowseCursor(text: popular.text) == popular && popular.order == .popular && cursor.order == .new)
        #expect(popular.text != cursor.text)
        for forged in ["popular|x|4", "popular|-1|4", "popular|3", "unpopular|3|4"] {
            let text = Data(forged.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(BrowseCursor(text: text) == nil, "\(forged)")
        }
    }
}

@Suite struct KnownPlayersTests {
    /// A rename made on another instance reaches this one once its remembered player is `lifetime` old.
    @Test func aRememberedPlayerIsForgottenAfterItsLifetime() {
        let clock = Mutex(Duration.zero)
        let known = KnownPlayers(capacity: 10, lifetime: .seconds(60), now: { clock.withLock { $0 } })
        let hash = Data(repeating: 1, count: 32)
        known.remember(Player(id: 1, name: "Ann"), tokenHash: hash)
        clock.withLock { $0 = .seconds(59) }
        #expect(known.player(tokenHash: hash)?.name == "Ann")
        clock.withLock { $0 = .seconds(60) }
        #expect(known.player(tokenHash: hash) == nil)
    }

    /// A token found good keeps getting through its address's lockout for a day after it was last found good, long
    /// after its player is forgotten; a token never found good never does.
    @Test func aTokenFoundGoodIsVouchedForADaySinceItWasLastFoundGood() {
        let clock = Mutex(Duration.zero)
        let known = KnownPlayers(capacity: 10, lifetime: .seconds(60), now: { clock.withLock { $0 } })
        let hash = Data(repeating: 1, count: 32)
        #expect(!known.vouches(forTokenHash: hash))
        known.remember(Player(id: 1, name: "Ann"), tokenHash: hash)
        clock.withLock { $0 = .seconds(3600) }
        #expect(known.player(tokenHash: hash) == nil && known.vouches(forTokenHash: hash))
        known.remember(Player(id: 1, name: "Ann"), tokenHash: hash)  // looked up in the store again
        clock.withLock { $0 = .seconds(3600 + 24 * 3600 - 1) }
        #expect(known.vouches(forTokenHash: hash), "found good again an hour in: a day from then")
        clock.withLock { $0 = .seconds(3600 + 24 * 3600) }
        #expect(!known.vouches(forTokenHash: hash))
        #expect(!known.vouches(forTokenHash: Data(repeating: 2, count: 32)))
    }
}
