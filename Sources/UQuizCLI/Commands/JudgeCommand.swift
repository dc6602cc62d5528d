import ArgumentParser
import QuizCore

struct JudgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "judge",
        abstract: "Judge a guess against a movie's titles, as a quiz would.",
        discussion: """
            Prints `accepted: ...` and exits 0, or `rejected: ...` and exits 1. A guess is compared by its letters and \
            digits only (case, spacing, punctuation, Latin accents, full-width forms and a leading The/A/An do not \
            matter; Roman numerals II-X after the first word read as digits). Titles of 6 or more characters forgive \
            1 typo, of 12 or more 2. A different number, or another movie's exact title (--other-movie), is never \
            accepted.

            --json prints {"accepted": bool, "reason": string, "matchedTitle": string|null, "distance": int|null}; \
            reason is the text after `accepted: `/`rejected: `.
            """
    )

    @Option(help: ArgumentHelp("The movie's title.", valueName: "title")) var title: String
    @Option(help: ArgumentHelp("Its original title.", valueName: "title")) var original: String?
    @Option(help: ArgumentHelp("Another accepted title (other language, alternative title); repeatable.", valueName: "title"))
    var alias: [String] = []
    @Option(
        name: .customLong("other-movie"),
        help: ArgumentHelp("The title of another movie, never accepted; repeatable.", valueName: "title"))
    var otherMovies: [String] = []
    @Flag(help: "Print JSON instead of a line.") var json = false
    @Argument(help: "What the player typed.") var guess: String

    func checkFlags() throws {
        if TitleNormalizer.normalize(title).isEmpty {
            throw ValidationError("--title must contain a letter or a digit")
        }
    }

    func run() throws {
        let judge = AnswerJudge(acceptedTitles: [title] + (original.map { [$0] } ?? []) + alias, otherMovieTitles: otherMovies)
        let verdict = judge.judge(guess)
        if json {
            print(try JSONOutput.string(VerdictJSON(verdict)))
        } else {
            print(SafeText.clean("\(verdict.isAccepted ? "accepted" : "rejected"): \(verdict.reason)"))
        }
        if !verdict.isAccepted { throw ExitCode(1) }
    }
}

extension Verdict {
    /// Why `guess` was judged so: the other movie's title is not repeated when the player typed exactly that.
    func reason(for guess: String) -> String {
        if case .rejected(.titleOfAnotherMovie(let title)) = self, title == guess.trimmingCharacters(in: .whitespaces) {
            return "that is the title of another movie"
        }
        return reason
    }

    /// Why, in words a player reads.
    var reason: String {
        switch self {
        case .accepted(let title, 0): "matches \"\(title)\" exactly"
        case .accepted(let title, 1): "matches \"\(title)\" within 1 typo"
        case .accepted(let title, let distance): "matches \"\(title)\" within \(distance) typos"
        case .rejected(.emptyGuess): "empty guess"
        case .rejected(.digitsDiffer(let title)): "digits differ from \"\(title)\""
        case .rejected(.titleOfAnotherMovie(let title)): "that is the title of another movie (\"\(title)\")"
        case .rejected(.tooFar): "too far from every accepted title"
        }
    }
}

/// The documented JSON shape of a verdict; `matchedTitle` and `distance` are `null` for a rejection.
struct VerdictJSON: Encodable {
    var accepted: Bool
    var reason: String
    @NullEncodable var matchedTitle: String?
    @NullEncodable var distance: Int?

    init(_ verdict: Verdict) {
        accepted = verdict.isAccepted
        reason = verdict.reason
        if case .accepted(let title, let distance) = verdict {
            matchedTitle = title
            self.distance = distance
        }
    }
}
