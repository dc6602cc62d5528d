import Foundation

/// A file a command reads (`import FILE`, `create --from FILE`) or writes (`export -o FILE`), refused in words that
/// say what the path really is: a directory, a device, a missing file, one that may not be read, or one too large.
enum InputFile {
    /// The whole file, at most `limit` bytes; `what` names it in the refusal of a larger one ("an export").
    static func read(_ path: String, limit: Int, what: String) throws -> Data {
        if let problem = problem(with: path, writing: false) { throw CommandFailure(message: problem) }
        var info = stat()
        if stat(path, &info) == 0, Int(info.st_size) > limit {
            throw CommandFailure(message: "\(path) is \(Int(info.st_size) >> 20) MB: \(what) is at most \(limit >> 20) MB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "cannot read \(path): \(String(cString: strerror(errno)).lowercased())")
        }
        return data
    }

    /// Why `path` cannot be read (or written as a whole file), or `nil` when nothing is known to be wrong.
    static func problem(with path: String, writing: Bool) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if writing && errno == ENOENT { return nil }
            return "cannot \(writing ? "write" : "read") \(path): \(String(cString: strerror(errno)).lowercased())"
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "\(path) is a directory, not a file"
        default: return "\(path) is not a regular file"
        }
    }
}
