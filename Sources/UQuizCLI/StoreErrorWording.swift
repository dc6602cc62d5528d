import Foundation
import QuizStore
import UQuizStorage

/// The store's failures in the CLI's words: what happened and what to do, naming the flags and commands that help.
extension StoreError: LocalizedError {
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
        case let .packagePlayed(plays):
            "the package's quizzes cannot change: \(plays) play\(plays == 1 ? " was" : "s were") judged on them; nothing was saved"
        case let .packageInPlay(openPlays):
            "the package's quizzes cannot change while \(openPlays) play\(openPlays == 1 ? " is" : "s are") open on them; nothing was saved; try again when they end"
        case let .unavailable(detail):
            "the database cannot be reached (\(detail)); nothing was done; try again when it is back"
        case let .noFreeShareCode(tries):
            "no free share code after \(tries) tries; nothing was saved; try again"
        }
    }
}
