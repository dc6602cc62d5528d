import Foundation

/// The terminal's bell at a play's moments, when the player asked for sound (`--sound`, the `sound` setting): a right
/// guess rings once, a wrong one once, and the time running out twice. Only the full-screen players ring it, so that
/// `--plain` and `--json` lines never carry a control character a script or a screen reader would have to skip.
struct Bell: Sendable {
    enum Moment: Sendable {
        case right, wrong, timeUp

        /// BEL characters for the moment: time up is the one a player may be looking away for.
        var rings: Int { self == .timeUp ? 2 : 1 }
    }

    var enabled: Bool
    var write: @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) }

    static let off = Bell(enabled: false)

    static let onlyFullScreen = "--sound rings in the full-screen player only: --plain and --json lines carry no bell"

    /// What to write for `moment`: BEL characters, or nothing when sound is off.
    func signal(_ moment: Moment) -> String {
        enabled ? String(repeating: "\u{07}", count: moment.rings) : ""
    }

    func ring(_ moment: Moment) {
        if enabled { write(signal(moment)) }
    }
}
