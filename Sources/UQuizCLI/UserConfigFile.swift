import Foundation

/// The user's own config file (`$XDG_CONFIG_HOME/uquiz/config.json`), the one file uquiz writes settings to: the
/// other keys in it are kept as they are, and it is readable by its owner only, since it may hold tokens.
struct UserConfigFile {
    let path: String

    /// Sets `values` (dotted keys, `server.token`) and writes the file atomically with mode 0600.
    func set(_ values: [String: String]) throws {
        var root = try contents()
        for (key, value) in values {
            root = Self.setting(value, at: key.split(separator: ".").map(String.init), in: root)
        }
        let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let file = URL(fileURLWithPath: path)
        let folder = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // Made 0600 before the token is in it, then renamed over the old file, so no reader sees it half-written or
            // open to others.
            let temporary = folder.appendingPathComponent(".config.json.\(ProcessInfo.processInfo.processIdentifier)")
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission) }
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.write(contentsOf: data + Data("\n".utf8))
            try handle.close()
            guard rename(temporary.path, file.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw CommandFailure(message: "cannot write \(path) (\(error.localizedDescription)); check that folder's permissions")
        }
    }

    /// The file's object, or an empty one when there is no file; a file that is not a JSON object is refused rather
    /// than overwritten.
    private func contents() throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw CommandFailure(message: "\(path) is not a JSON object; fix or remove it, then try again")
        }
        return object
    }

    private static func setting(_ value: String, at keys: [String], in object: [String: Any]) -> [String: Any] {
        var object = object
        guard let first = keys.first else { return object }
        if keys.count == 1 {
            object[first] = value
        } else {
            object[first] = setting(value, at: Array(keys.dropFirst()), in: object[first] as? [String: Any] ?? [:])
        }
        return object
    }
}
