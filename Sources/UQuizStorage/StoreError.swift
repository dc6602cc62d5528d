import Foundation

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
}
