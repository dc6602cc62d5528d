import Foundation
internal import GRDB

/// Everything the store can fail with, each said in one line: what happened and what to do.
public enum StoreError: Error, Equatable, Sendable, LocalizedError {
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

    public var errorDescription: String? {
        switch self {
        case let .notADatabase(path):
            "\(path) is not a uquiz database (not a SQLite file); move it aside or pass another --db"
        case let .corrupt(path, detail):
            "database \(path) is corrupt (\(detail)); restore a backup or run `uquiz seed reset`"
        case let .newerSchema(path, unknown):
            "database \(path) was written by a newer uquiz (schema \(unknown.joined(separator: ", "))); upgrade uquiz"
        case let .cannotCreate(path, reason):
            "cannot create \(path): \(reason); choose a writable place with --db or UQUIZ_DB"
        case let .readOnly(path):
            "database \(path) or its folder is read-only; make it writable or pass another --db"
        case let .notAFile(path, kind) where kind == "a directory":
            "\(path) is a directory, not a database file; name a file (e.g. \(path)/uquiz.sqlite)"
        case let .notAFile(path, kind):
            "\(path) is not a regular file (\(kind.hasPrefix("not") ? "of no known kind" : "it is \(kind)")); name a database file, or one to create"
        case let .diskFull(path):
            "cannot write \(path): the disk is full or a file size limit was reached; free some space and try again (nothing was changed)"
        case let .locked(path):
            "database \(path) stayed locked by another uquiz process; try again when it has finished"
        case let .seedBundleNotFound(searched):
            "seed bundle not found (looked in \(searched.joined(separator: ", "))); set UQUIZ_SEED to the Seed folder"
        case let .seedBundleCorrupt(path, detail):
            "seed bundle \(path) is unusable (\(detail)); reinstall uquiz or set UQUIZ_SEED to a good Seed folder"
        case let .seedSourceInvalid(path, detail):
            "seed source \(path) is invalid: \(detail)"
        case let .packageNotFound(reference):
            "no package \"\(reference)\"; `uquiz list` shows ids and share codes"
        case let .ambiguousReference(reference):
            "\"\(reference)\" names more than one package; use its numeric id"
        case let .io(path, detail):
            "cannot read or write \(path): \(detail)"
        case let .alreadyImported(code, id):
            "package \(code) is already here (id \(id)); nothing imported; use --as-copy to keep both"
        case let .missingBundledPoster(file):
            "the bundled poster \(file) is not in this database; run `uquiz seed merge` first; nothing imported"
        case let .inMemory(operation):
            "cannot \(operation): the database is in memory only, with no file to back up or replace"
        case let .refused(detail):
            "cannot save \(detail); nothing was saved"
        case let .noFreeShareCode(tries):
            "no free share code after \(tries) tries; nothing was saved; try again"
        }
    }

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
