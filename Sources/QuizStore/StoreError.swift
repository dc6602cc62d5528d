import Foundation
internal import GRDB

/// Everything the store can fail with, as facts a front end words (the CLI in one line with what to do, the server as
/// a status).
public enum StoreError: Error, Equatable, Sendable {
    case notADatabase(path: String)
    case corrupt(path: String, detail: String)
    case newerSchema(path: String, unknownMigrations: [String])
    case cannotCreate(path: String, reason: String)
    case readOnly(path: String)
    /// The path names a directory, a device, a pipe or a socket (`kind` says which), never a database file.
    case notAFile(path: String, kind: String)
    case diskFull(path: String)
    case locked(path: String)
    case seedBundleNotFound(searched: [String])
    case seedBundleCorrupt(path: String, detail: String)
    case seedSourceInvalid(path: String, detail: String)
    case packageNotFound(String)
    case ambiguousReference(String)
    case io(path: String, detail: String)
    case alreadyImported(code: String, id: Int64)
    case missingBundledPoster(String)
    /// An operation on the database file (a reset and its backup) asked of a database that lives in memory only.
    case inMemory(operation: String)
    /// Every share code drawn for a new package was taken already.
    case noFreeShareCode(tries: Int)
    /// What was to be saved breaks a rule every stored value keeps (`detail` names the field and the rule).
    case refused(detail: String)
    /// A package's quizzes cannot be replaced: `plays` plays of it are stored, judged on the quizzes it has.
    case packagePlayed(plays: Int)
    /// A package's quizzes cannot be replaced while `openPlays` plays of it are being played on them.
    case packageInPlay(openPlays: Int)
    /// The database server cannot be reached or refuses work now (down, restarting, out of connections): nothing was
    /// done, and the same request may succeed later. `detail` never holds a password.
    case unavailable(detail: String)

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
