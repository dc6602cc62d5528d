/// The one rule for a poster's path, checked wherever a path comes in: spec files and `--quiz` flags, `edit --poster`,
/// imports, the seed source, TMDB's answers, and the poster cache and image client themselves.
///
/// A TMDB path is `/` and one file name (`/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg`); a bundled poster is a file name alone
/// (`metropolis-1927.jpg`). Anything else (`../../etc/passwd`, `/..`, `/a/b.jpg`, a query, a space, an escape) would
/// make the client ask the image server for another resource or the cache read another file, so it is refused.
public enum PosterPath {
    /// Real TMDB names are 27 characters (a 23-letter id and `.jpg`), the seed's longest about 40.
    public static let maxNameLength = 100
    public static let extensions = [".jpg", ".jpeg", ".png"]

    public static let rule =
        "a TMDB poster path is / and a file name of letters, digits, _, - and . ending in .jpg, .jpeg or .png"
    public static let bundledRule =
        "a bundled poster is a file name of letters, digits, _, - and . ending in .jpg, .jpeg or .png"

    /// What a spec's `poster` may be: a TMDB path, or the name of a poster image stored in the database.
    public static let specRule =
        "a poster is a TMDB path (/ and a file name) or the name of a stored poster image (a file name of letters, digits, _, - and . ending in .jpg, .jpeg or .png)"

    /// The source a spec's `poster` names: TMDB for a path, the database's poster images for a bare file name.
    public static func source(ofSpecPoster poster: String) -> PosterSource {
        isTMDBPath(poster) ? .tmdb : .bundled
    }

    public static func isTMDBPath(_ path: String) -> Bool {
        path.hasPrefix("/") && isFileName(path.dropFirst())
    }

    public static func isBundledName(_ name: String) -> Bool {
        isFileName(name[...])
    }

    /// Whether `path` is valid for a poster of this source.
    public static func isValid(_ path: String, source: PosterSource) -> Bool {
        switch source {
        case .tmdb: isTMDBPath(path)
        case .bundled: isBundledName(path)
        }
    }

    /// Refuses a path that breaks the rule of its source, naming where it was found.
    public static func check(_ path: String, source: PosterSource = .tmdb, at location: String) throws(SpecProblem) {
        guard isValid(path, source: source) else {
            throw SpecProblem(location, source == .tmdb ? rule : bundledRule)
        }
    }

    static func isFileName(_ name: Substring) -> Bool {
        guard (1...maxNameLength).contains(name.utf8.count), name != ".", name != ".." else { return false }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".": true
            default: false
            }
        }
        let lowered = name.lowercased()
        return allowed && extensions.contains { lowered.hasSuffix($0) && lowered.count > $0.count }
    }
}
