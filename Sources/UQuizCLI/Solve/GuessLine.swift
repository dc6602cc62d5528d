/// The guess line of a player on a server's clock (a play on a server, a live room): keys typed into a line, Enter hands
/// it over, `?` on an empty line asks for the hint. There is no pause, so Escape only says so.
struct GuessLine {
    /// What is typed and not sent yet.
    private(set) var typed = ""
    /// Lines handed over and not yet taken, oldest first.
    private var lines: [String] = []
    /// What Tab hands over as a line of its own (`/skip` in a play), `nil` for nothing.
    let tabLine: String?

    init(tabLine: String? = nil) {
        self.tabLine = tabLine
    }

    /// Takes the keys in `bytes`; whether Escape was among them.
    mutating func take(_ bytes: [UInt8]) -> Bool {
        var escaped = false
        for key in TerminalPlayer.keys(in: bytes) {
            switch key {
            case .enter:
                lines.append(typed)
                typed = ""
            case .tab:
                if let tabLine { lines.append(tabLine) }
            case .backspace:
                if !typed.isEmpty { typed.removeLast() }
            case .text("?") where typed.isEmpty:
                lines.append("?")
            case .text(let text):
                typed += text
            case .escape:
                escaped = true
            case .other:
                break
            }
        }
        return escaped
    }

    /// The oldest line handed over, if any.
    mutating func next() -> String? {
        lines.isEmpty ? nil : lines.removeFirst()
    }
}
