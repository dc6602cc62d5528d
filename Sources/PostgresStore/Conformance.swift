import UQuizStorage

/// The PostgreSQL store serves everything the server stores, so several `uquiz serve` instances can share it.
extension PostgresQuizStore: ServerStorage {}
