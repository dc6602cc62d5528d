import UQuizStorage

/// The SQLite file serves the CLI's commands through `AppDatabase`, synchronously.
extension AppDatabase: QuizStorage {
    public var location: String { path }
}

/// The same file serves `uquiz serve` through `SQLiteServerStore`, asynchronously.
extension SQLiteServerStore: ServerStorage {}
