import Foundation
internal import GRDB
import UQuizStorage

extension StoreError {
    /// Maps SQLite's result codes to what a user can act on; anything unexpected keeps SQLite's own words.
    static func from(_ error: any Error, path: String) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        // A write the file system refused (no space, a file size limit) comes back as one of these I/O errors.
        switch error.extendedResultCode {
        case .SQLITE_IOERR_WRITE, .SQLITE_IOERR_FSYNC, .SQLITE_IOERR_TRUNCATE, .SQLITE_IOERR_SHMSIZE, .SQLITE_IOERR_SHMMAP:
            return StoreError.diskFull(path: path)
        default:
            break
        }
        switch error.resultCode {
        case .SQLITE_NOTADB: return StoreError.notADatabase(path: path)
        case .SQLITE_CORRUPT: return StoreError.corrupt(path: path, detail: error.message ?? "malformed")
        case .SQLITE_FULL: return StoreError.diskFull(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: return StoreError.locked(path: path)
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM: return StoreError.readOnly(path: path)
        default: return StoreError.io(path: path, detail: error.message ?? "\(error.resultCode)")
        }
    }
}

/// Runs `body`, turning SQLite errors into `StoreError`s that name `path`.
func mappingErrors<T>(path: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw StoreError.from(error, path: path)
    }
}
