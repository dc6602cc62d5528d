import Foundation
import PostgresStore
import QuizStore
import ServerUseCases
import UQuizCLI
import UQuizStorage

/// `uquiz admin`'s database: the server's (SQLite, or PostgreSQL migrated like `uquiz serve` does), with a desk that
/// records who acted as "uquiz admin" and the system user running it.
func moderate(_ options: StoreOptions, _ body: @escaping @Sendable (ModerationDesk) async throws -> Void) async throws {
    let context = try await AppContext.make(options)
    let environment = ProcessInfo.processInfo.environment
    let actor = "uquiz admin" + ((environment["USER"] ?? environment["LOGNAME"]).map { " (\($0))" } ?? "")
    switch try context.settings.serverDatabase() {
    case .sqlite:
        let store = try SQLiteServerStore(database: context.openDatabase())
        try await body(ModerationDesk(store: store, actor: actor))
    case .postgres(let url):
        let settings = context.settings
        try await PostgresQuizStore.withRunning(url: url, seedContent: { try settings.seedBundle().content() }) { store in
            try await body(ModerationDesk(store: store, actor: actor))
        }
    }
}
