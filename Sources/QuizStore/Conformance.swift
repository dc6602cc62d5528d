import UQuizStorage

/// The SQLite file serves the CLI's commands and, for one `uquiz serve` process, everything the server stores.
extension AppDatabase: QuizStorage, ServerStorage {
    public var location: String { path }
}
