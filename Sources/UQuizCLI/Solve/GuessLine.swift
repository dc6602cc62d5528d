import QuizCore
import RemoteClient

/// The guess line of a player on a server's clock (a play on a server, a live room): keys typed into a line, Enter hands
/// it over, `?` on an empty line asks for the hint. There is no pause, so Escape only says so. Movie titles suggested
/// for what is typed (the server's, asked once typing pauses) are chosen with ↑ and ↓; Enter then sends the chosen one.
struct GuessLine {
    /// A suggested title: what is sent, and the line shown (with its year).
    struct Suggestion: Equatable {
        var title: String
        var shown: String
    }

    /// What is typed and not sent yet.
    private(set) var typed = ""
    /// Lines handed over and not yet taken, oldest first.
    private var lines: [String] = []
    /// What Tab hands over as a line of its own (`/skip` in a play), `nil` for nothing.
    let tabLine: String?
    private(set) var suggestions: [Suggestion] = []
    private(set) var chosen: Int?
    /// The text suggestions were last asked for; `nil` once the server said it suggests none.
    private var askedFor: String? = ""

    init(tabLine: String? = nil) {
        self.tabLine = tabLine
    }

    /// Takes the keys in `bytes`; whether Escape was among them.
    mutating func take(_ bytes: [UInt8]) -> Bool {
        var escaped = false
        for key in TerminalPlayer.keys(in: bytes) {
            switch key {
            case .enter:
                lines.append(chosen.map { suggestions[$0].title } ?? typed)
                typed = ""
                forgetSuggestions()
            case .tab:
                if let tabLine { lines.append(tabLine) }
            case .backspace:
                if !typed.isEmpty { typed.removeLast() }
                forgetSuggestions()
            case .text("?") where typed.isEmpty:
                lines.append("?")
            case .text(let text):
                typed += text
                forgetSuggestions()
            case .up where !suggestions.isEmpty:
                chosen = ((chosen ?? suggestions.count) + suggestions.count - 1) % suggestions.count
            case .down where !suggestions.isEmpty:
                chosen = ((chosen ?? -1) + 1) % suggestions.count
            case .escape:
                escaped = true
            case .up, .down, .other:
                break
            }
        }
        return escaped
    }

    /// The oldest line handed over, if any.
    mutating func next() -> String? {
        lines.isEmpty ? nil : lines.removeFirst()
    }

    private mutating func forgetSuggestions() {
        suggestions = []
        chosen = nil
    }

    /// The text to ask suggestions for: two letters or more typed, not a command, not asked for yet.
    var wantsSuggestions: String? {
        guard let askedFor, typed != askedFor, !typed.hasPrefix("/"),
            TitleNormalizer.readable(typed).count >= TitleIndex.minimumQueryLength
        else { return nil }
        return typed
    }

    /// What the server suggested for `text`; `nil` when it suggests none at all (it is not asked again).
    mutating func suggested(_ titles: [Suggestion]?, for text: String) {
        guard let titles else {
            askedFor = nil
            return
        }
        askedFor = text
        guard text == typed else { return }
        suggestions = titles
        chosen = nil
    }

    /// The suggestions as one status line, the chosen one in brackets; `nil` when there are none.
    var suggestionLine: String? {
        guard !suggestions.isEmpty else { return nil }
        let shown = suggestions.indices.map { index in
            let line = SafeText.clean(suggestions[index].shown)
            return index == chosen ? "[\(line)]" : line
        }
        return "↑↓ then Enter: " + shown.joined(separator: " · ")
    }
}

extension ServerClient {
    /// The titles the server suggests for `typed` as a guess line shows them; `nil` when it suggests none at all (no
    /// TMDB and too small a catalog). A failure is no suggestion this time.
    func guessSuggestions(for typed: String, language: QuizLanguage) -> [GuessLine.Suggestion]? {
        guard let answer = try? titles(for: typed, language: language) else { return [] }
        guard answer.available else { return nil }
        return answer.titles.map { .init(title: $0.title, shown: $0.title + ($0.year.map { " (\($0))" } ?? "")) }
    }

    /// The language suggestions are shown in: Korean where the terminal's locale is, else English.
    static func suggestionLanguage(environment: [String: String]) -> QuizLanguage {
        let locale = environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LANG"] ?? ""
        return locale.hasPrefix("ko") ? .ko : .en
    }
}
