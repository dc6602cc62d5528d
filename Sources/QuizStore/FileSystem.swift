import Foundation
import UQuizStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX steps that make file replacement crash-safe; Foundation's atomic writes do not fsync.
enum FileSystem {
    /// Writes `data` to a new file at `path` (which must not exist) and flushes it to disk.
    static func writeNewFileSynced(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw posixError("create", path) }
        defer { close(fd) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw posixError("write", path)
                }
                offset += written
            }
        }
        guard fsync(fd) == 0 else { throw posixError("fsync", path) }
    }

    static func syncFile(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw posixError("open", path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw posixError("fsync", path) }
    }

    /// Makes a rename or link inside `directory` durable.
    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Flushes `temporary`, then renames it over `destination`: readers see the old file or the new one, never a mix.
    static func syncAndReplace(temporary: String, destination: String) throws {
        try syncFile(temporary)
        guard rename(temporary, destination) == 0 else { throw posixError("rename", destination) }
        syncDirectory((destination as NSString).deletingLastPathComponent)
    }

    /// Gives `temporary` the name `destination` only if nothing has that name yet, then drops the temporary name.
    /// - Returns: `false` when another process created `destination` first.
    static func linkIfAbsent(temporary: String, destination: String) throws -> Bool {
        defer { unlink(temporary) }
        if link(temporary, destination) == 0 {
            syncDirectory((destination as NSString).deletingLastPathComponent)
            return true
        }
        if errno == EEXIST { return false }
        throw posixError("link", destination)
    }

    static func isProcessAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Refuses a database path that names something other than a file before SQLite opens it: SQLite reads a
    /// directory as a read-only database and a device such as /dev/null as a full disk, which sends the user after the
    /// wrong problem. A missing path is fine (the seed is installed there); a symbolic link is judged by its target.
    static func checkDatabasePath(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw StoreError.notAFile(path: path, kind: "a directory")
        case S_IFCHR, S_IFBLK: throw StoreError.notAFile(path: path, kind: "a device")
        case S_IFIFO: throw StoreError.notAFile(path: path, kind: "a pipe")
        case S_IFSOCK: throw StoreError.notAFile(path: path, kind: "a socket")
        default: throw StoreError.notAFile(path: path, kind: "not a regular file")
        }
    }

    static func posixError(_ operation: String, _ path: String) -> StoreError {
        let code = errno
        let reason = String(cString: strerror(code))
        switch code {
        case EISDIR: return .notAFile(path: path, kind: "a directory")
        case ENOSPC, EDQUOT, EFBIG: return .diskFull(path: path)
        case EACCES, EPERM, EROFS: return .cannotCreate(path: path, reason: reason.lowercased())
        default: return .io(path: path, detail: "\(operation): \(reason.lowercased())")
        }
    }
}
