import PostgresStore
import QuizStore
import UQuizApp

/// The PostgreSQL store serves every boundary the server needs, so several `uquiz serve` instances can share it.
extension PostgresQuizStore: SharingStorage, OpenPlayStorage, RateLimitStorage, StoreClock, RoomResultStorage, RoomDirectoryStorage {}
