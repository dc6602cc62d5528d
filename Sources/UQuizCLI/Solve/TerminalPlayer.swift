import CTerminal
import Dispatch
import Foundation
import LocalUseCases
import PosterArt
import PosterGrid
import QuizCore
import Synchronization
import UQuizRules

/// What the player's screen shows at one instant, computed from the game's state alone (`frame(of:size:)`), so a
/// test can check a screen without a terminal.
struct PlayerFrame: Equatable {
    var header: String
    /// The poster as it is revealed now, and the column it starts at; `nil` when its pixels could not be had.
    var picture: HalfBlockPicture?
    var pictureColumn: Int
    /// Where the poster would be when it cannot be had: why, wrapped to the width, whole.
    var notice: [String] = []
    var status: String
    var input: String
    var footer: String

    static let footerText = "Enter guesses · ? hint · Tab skips · Esc pauses · Ctrl-C quits"
    /// Below this the header, a poster worth looking at and the answer lines do not fit.
    static let minimumSize = (rows: 10, columns: 30)

    /// What is on screen while a quiz runs: header with the time bar, the poster through its revealed areas, the
    /// status line and what the player has typed.
    /// Every line fits the width (cut with `…` by display width, never wrapped); below `minimumSize` the frame only says
    /// so, until the terminal grows.
    static func frame(
        packageTitle: String, quizNumber: Int, quizCount: Int, stage: (shown: Int, of: Int), score: Int,
        secondsLeft: Double, timeLimit: Double, poster: CellRaster?, areas: [Cell], reveal: [Double], status: String,
        typed: String, size: (rows: Int, columns: Int), posterProblem: String? = nil, footer: String = footerText
    ) -> PlayerFrame {
        guard size.rows >= minimumSize.rows, size.columns >= minimumSize.columns else {
            let message = "terminal too small (needs \(minimumSize.columns)x\(minimumSize.rows))"
            return PlayerFrame(
                header: TextWidth.cut(message, to: size.columns), picture: nil, pictureColumn: 1, status: "", input: "",
                footer: "")
        }
        let header = header(
            packageTitle: packageTitle, quizNumber: quizNumber, quizCount: quizCount, stage: stage, score: score,
            secondsLeft: secondsLeft, timeLimit: timeLimit, columns: size.columns)
        var picture: HalfBlockPicture?
        if let poster {
            picture = HalfBlockPicture(
                cells: PosterFrame.cells(raster: poster, areas: areas, reveal: reveal), geometry: poster.geometry,
                maxWidth: size.columns - 2, maxHeight: max(4, size.rows - 6))
        }
        return around(
            header: header, picture: picture, size: size, status: status, typed: typed, footer: footer,
            posterProblem: posterProblem)
    }

    /// A frame around `picture` (whatever it shows), with the header already made.
    static func around(
        header: String, picture: HalfBlockPicture?, size: (rows: Int, columns: Int), status: String, typed: String,
        footer: String, posterProblem: String?
    ) -> PlayerFrame {
        let notice = picture == nil ? posterProblem.map { TextWidth.wrap($0, to: size.columns - 4) } ?? [] : []
        return PlayerFrame(
            header: header, picture: picture, pictureColumn: max(1, (size.columns - (picture?.width ?? 0)) / 2),
            notice: Array(notice.prefix(max(0, size.rows - 6))),
            status: TextWidth.fit(status, to: size.columns - 2), input: typed,
            footer: TextWidth.cut(footer, to: size.columns - 2))
    }

    /// The header: the package's title, the counters and a time bar, cut to the width (the bar gives way first).
    static func header(
        packageTitle: String, quizNumber: Int, quizCount: Int, stage: (shown: Int, of: Int), score: Int,
        secondsLeft: Double, timeLimit: Double, columns: Int
    ) -> String {
        // The time bar gives way first, then the title: the counters and the seconds are what a player needs.
        let title = SafeText.clean(packageTitle)
        let counters = "quiz \(quizNumber)/\(quizCount) · stage \(stage.shown)/\(stage.of) · \(score) pts · \(String(format: "%4.1f", secondsLeft)) s "
        let room = columns - 2 - TextWidth.of(counters)
        let barWidth = max(5, min(40, room - TextWidth.of(title) - 3))
        let filled = Int((Double(barWidth) * min(1, secondsLeft / timeLimit)).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        let titleRoom = room - barWidth - 3
        let shownTitle = titleRoom >= 4 ? TextWidth.cut(title, to: titleRoom) + " · " : ""
        return TextWidth.cut(" " + shownTitle + counters + bar, to: columns)
    }

    /// The escape sequences that put this frame on a screen of `rows` rows; the picture goes through `canvas`, which
    /// sends only the cells that changed since its last draw.
    func render(on canvas: inout TerminalCanvas, rows: Int) -> String {
        var output = "\u{1B}[1;1H\u{1B}[2K" + header
        guard rows >= PlayerFrame.minimumSize.rows else { return output }
        if let picture {
            canvas.origin = (3, pictureColumn)
            output += canvas.draw(picture)
        }
        for (index, line) in notice.enumerated() { output += "\u{1B}[\(4 + index);3H\u{1B}[2K\(line)" }
        output += "\u{1B}[\(rows - 2);1H\u{1B}[2K \(status)"
        output += "\u{1B}[\(rows - 1);1H\u{1B}[2K > \(input)"
        output += "\u{1B}[\(rows);1H\u{1B}[2K \(footer)"
        return output
    }
}

/// The full-screen game on a terminal: the keyboard as the game loop's input (typing, Enter, `?`, Tab, Esc, resize)
/// and the screen as its observer, drawn from `PlayerFrame`. Esc pauses (the poster is hidden and the clock stops),
/// any key resumes; Tab skips; `?` on an empty line asks for the hint; Ctrl-C quits. The terminal is restored on every
/// exit: the end, an error, Ctrl-C, SIGTERM and SIGHUP.
final class TerminalPlayer: SolveInput, SolveObserver {
    /// Each quiz's poster by its number in the play, or why its pixels could not be had (the player says so; the title
    /// can still be typed).
    let posters: [Int: Result<CellRaster, PosterUnavailable>]
    let quizCount: Int
    let levels: LevelRules
    let timeScale: Double
    let packageTitle: String
    let describe: (PosterUnavailable) -> String
    let interruption: Interruption?
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private var canvas: TerminalCanvas
    private var typed = ""
    private var status = ""
    /// Actions read from one burst of keys and not yet given to the loop.
    private var pending: [SolveAction] = []
    /// Points of the quizzes finished so far, for the header.
    private var scoreSoFar = 0
    /// The size last laid out; a different one on the next draw means the terminal was resized.
    private var laidOut: (rows: Int, columns: Int)?
    /// Paused because the terminal became too small to play on: the clock waits for a resize, not for a key.
    private var pausedForSize = false
    private var signalSources: [any DispatchSourceSignal] = []
    /// Rung for a wrong guess, a solve and the time running out.
    var bell = Bell.off

    init(
        posters: [Int: Result<CellRaster, PosterUnavailable>], quizCount: Int, levels: LevelRules, timeScale: Double,
        packageTitle: String, environment: [String: String], describe: @escaping (PosterUnavailable) -> String,
        interruption: Interruption? = nil
    ) {
        self.interruption = interruption
        self.posters = posters
        self.quizCount = quizCount
        self.levels = levels
        self.timeScale = timeScale
        self.packageTitle = packageTitle
        self.describe = describe
        canvas = TerminalCanvas(mode: TerminalCanvas.ColourMode.forTerminal(environment: environment), origin: (3, 1))
        origin = clock.now
    }

    /// Every write to the screen holds this lock, and none is made once a signal handler has restored the terminal for
    /// good (`true`): a frame the game loop is still drawing cannot land after the restored main screen.
    private static let screen = Mutex(false)

    private func write(_ text: String) {
        Self.screen.withLock { restoredForGood in
            if !restoredForGood { FileHandle.standardOutput.write(Data(text.utf8)) }
        }
    }

    // MARK: - Terminal set-up and restoration

    private static let enterScreen = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    private static let leaveScreen = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// Runs `play` in the alternate screen with the keyboard in raw mode, and restores the terminal however it ends.
    func run<T>(_ play: () throws -> T) rethrows -> T {
        enter()
        defer { Self.restoreTerminal() }
        return try play()
    }

    private func enter() {
        uquiz_enter_raw_mode(STDIN_FILENO)
        write(Self.enterScreen)
        // SIGQUIT (Ctrl-\) gets a plain C handler: Swift's backtracer would otherwise take it while the terminal stays
        // raw in the alternate screen. Ctrl-C is the play's `Interruption`; these two end the process.
        uquiz_restore_terminal_on_signal(SIGQUIT)
        for signalNumber in [SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                // Restore, then die of the same signal so the shell sees why.
                Self.restoreForGood()
                signal(signalNumber, SIG_DFL)
                kill(getpid(), signalNumber)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Restores the terminal for good: nothing more is drawn (a signal is about to end the process).
    static func restoreForGood() {
        screen.withLock { restoredForGood in
            if !restoredForGood { restore() }
            restoredForGood = true
        }
    }

    static func restoreTerminal() {
        screen.withLock { restoredForGood in
            if !restoredForGood { restore() }
        }
    }

    private static func restore() {
        uquiz_restore_terminal(STDIN_FILENO)
        FileHandle.standardOutput.write(Data(leaveScreen.utf8))
    }

    // MARK: - Input

    func now() -> Duration { clock.now - origin }

    func next(until deadline: Duration?, in round: QuizRound) -> SolveAction {
        if interruption?.isRequested == true { return .quit }
        if !pending.isEmpty { return pending.removeFirst() }
        // Too small to play on: nobody can see the poster or the clock, so the clock stops until the terminal grows.
        let size = layout()
        let tooSmall = size.rows < PlayerFrame.minimumSize.rows || size.columns < PlayerFrame.minimumSize.columns
        if tooSmall && !round.isPaused {
            pausedForSize = true
            return .pause
        }
        if pausedForSize && !tooSmall {
            pausedForSize = false
            laidOut = nil
            return .resume
        }
        guard let bytes = readInput(timeout: nextWait(round, deadline: deadline)) else {
            return interruption?.isRequested == true ? .quit : .tick
        }
        take(Self.keys(in: bytes), paused: round.isPaused)
        // Typing alone changes only the screen: a tick redraws it.
        return pending.isEmpty ? .tick : pending.removeFirst()
    }

    /// Turns keys into actions queued in `pending`, and typing into `typed`. Any key resumes a pause.
    private func take(_ keys: [Key], paused wasPaused: Bool) {
        var paused = wasPaused
        for key in keys where !pausedForSize {
            if paused {
                pending.append(.resume)
                laidOut = nil
                paused = false
                continue
            }
            switch key {
            case .escape:
                pending.append(.pause)
                paused = true
            case .tab:
                pending.append(.skip)
            case .enter:
                // The line player's commands work here too; an empty line (Enter after `?`) is no guess.
                switch typed.trimmingCharacters(in: .whitespaces) {
                case "": break
                case "/skip": pending.append(.skip)
                case "?": pending.append(.hint)
                default: pending.append(.guess(typed))
                }
                typed = ""
            case .backspace:
                if !typed.isEmpty { typed.removeLast() }
            case .text(let text):
                if text == "?" && typed.isEmpty {
                    pending.append(.hint)
                } else {
                    typed += text
                }
            case .up, .down, .other:
                break
            }
        }
    }

    /// Short waits while a fade or the time bar moves; nothing moves while paused.
    /// Nothing moves while paused by a key; paused for size, the size is looked at again five times a second (a resize
    /// does not wake `poll`). The time bar moves every 0.2 s of game time, faster under `--time-scale` below 1.
    private func nextWait(_ round: QuizRound, deadline: Duration?) -> Int32 {
        if round.isPaused { return pausedForSize ? 200 : -1 }
        let untilDeadline = deadline.map { max(0, Int32(($0 - now()).seconds * 1000) + 1) } ?? 200
        let fading = round.reveal(at: now()).contains { $0 > 0 && $0 < 1 }
        return min(untilDeadline, fading ? 33 : max(33, Int32(200 * min(1, timeScale))))
    }

    // MARK: - Screen

    func show(_ step: SolveStep) {
        switch step.event {
        case .quizStarted:
            typed = ""
            pending = []
            laidOut = nil
            status = ""
            if let problem = posterProblem(step.round) {
                status = "No poster: \(problem). Type the title, or Tab skips."
            }
        case let .guessed(_, guess, verdict, _) where !verdict.isAccepted:
            status = "✗ \"\(SafeText.clean(guess))\" is wrong (\(verdict.reason(for: guess)))"
            write(bell.signal(.wrong))
        case let .hintShown(_, hint, _):
            status = "Hint: \(hint)"
        case .paused where pausedForSize:
            let needs = "terminal too small (needs \(PlayerFrame.minimumSize.columns)x\(PlayerFrame.minimumSize.rows)): the clock waits"
            let lines = TextWidth.wrap(needs, to: max(1, layout().columns))
            write("\u{1B}[2J" + lines.enumerated().map { "\u{1B}[\($0.offset + 1);1H" + $0.element }.joined())
        case .paused:
            write("\u{1B}[2J\u{1B}[3;3HPaused: the poster is hidden and the clock stopped. Press any key to go on.")
        default:
            break
        }
    }

    /// Why this quiz's poster cannot be shown, escaped; `nil` when it can.
    private func posterProblem(_ round: SolveRound) -> String? {
        guard case .failure(let problem) = posters[round.number] else { return nil }
        return SafeText.clean(describe(problem))
    }

    private func layout() -> (rows: Int, columns: Int) { FullScreen.size() }

    func willWait(_ round: SolveRound, state: QuizRound, at instant: Duration) {
        guard !state.isPaused else { return }
        let size = layout()
        if laidOut.map({ $0 != size }) ?? true {
            laidOut = size
            canvas.invalidate()
            write("\u{1B}[2J")
        }
        let limit = levels.timeLimit.seconds
        let elapsed = state.schedule.activeElapsed(at: instant).seconds / timeScale
        let frame = PlayerFrame.frame(
            packageTitle: packageTitle, quizNumber: round.number, quizCount: quizCount,
            stage: (state.revealedStages, state.stageCount), score: scoreSoFar, secondsLeft: max(0, limit - elapsed), timeLimit: limit, poster: try? posters[round.number]?.get(),
            areas: round.quiz.areas, reveal: state.reveal(at: instant), status: status, typed: typed, size: size,
            posterProblem: posterProblem(round))
        write(frame.render(on: &canvas, rows: size.rows))
    }

    /// The whole poster and the answer, for a moment or until a key.
    func quizEnded(_ round: SolveRound, result: QuizResult) {
        scoreSoFar += result.score
        let size = layout()
        // The header as the quiz ended (the time left then, the score now): the last wait may have drawn it a moment
        // before the time was up.
        let limit = levels.timeLimit.seconds
        let header = PlayerFrame.header(
            packageTitle: packageTitle, quizNumber: round.number, quizCount: quizCount,
            stage: (result.stageReached, round.quiz.areas.count), score: scoreSoFar,
            secondsLeft: result.outcome == .missed ? 0 : max(0, limit - result.seconds), timeLimit: limit, columns: size.columns)
        var output = "\u{1B}[1;1H\u{1B}[2K" + header
        if let raster = try? posters[round.number]?.get() {
            let picture = HalfBlockPicture(
                cells: PosterFrame.uncovered(raster: raster), geometry: raster.geometry, maxWidth: size.columns - 2,
                maxHeight: max(4, size.rows - 6))
            output += canvas.draw(picture)
        }
        let title = SafeText.clean(round.quiz.title) + (round.quiz.releaseYear.map { " (\(SafeText.clean($0)))" } ?? "")
        let line = switch result.outcome {
        case .solved: "✓ \(title)! +\(result.score) points at stage \(result.stageReached)/\(round.quiz.areas.count) 🎉"
        case .missed: "⏰ Time is up: it was \(title)"
        case .skipped: "Skipped: it was \(title)"
        }
        let next = round.number < quizCount ? "any key: the next quiz" : "any key: the summary"
        output += "\u{1B}[\(size.rows - 2);1H\u{1B}[2K \(TextWidth.cut(line, to: size.columns - 2))"
        output += "\u{1B}[\(size.rows - 1);1H\u{1B}[2K\u{1B}[\(size.rows);1H\u{1B}[2K \(next)"
        switch result.outcome {
        case .solved: output += bell.signal(.right)
        case .missed: output += bell.signal(.timeUp)
        case .skipped: break
        }
        write(output)
        // The whole poster is the reward: it stays until a key, and the next quiz's clock starts only then.
        _ = readInput(timeout: -1)
    }

    // MARK: - Keys

    enum Key: Equatable {
        case enter, tab, backspace, escape, up, down
        case text(String)
        case other
    }

    private func readInput(timeout: Int32) -> [UInt8]? {
        FullScreen.read(timeout: timeout, wake: interruption?.wakeDescriptor)
    }

    /// Splits a read into keys: UTF-8 text (Korean included) as typed, control keys, the up and down arrows, and other
    /// escape sequences as `.other` rather than a pause.
    static func keys(in bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x09: keys.append(.tab)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x1B:
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O") {
                    index += 2
                    let start = index
                    while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                    // A bare arrow (`ESC [ A`, or `ESC O A` in application mode); any other sequence is no key here.
                    let bare = index == start && index < bytes.count
                    keys.append(bare && bytes[index] == UInt8(ascii: "A") ? .up : bare && bytes[index] == UInt8(ascii: "B") ? .down : .other)
                } else {
                    keys.append(.escape)
                }
            case 0x00..<0x20:
                keys.append(.other)
            default:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let end = min(bytes.count, index + length)
                keys.append(.text(String(decoding: bytes[index..<end], as: UTF8.self)))
                index = end - 1
            }
            index += 1
        }
        return keys
    }
}

extension TerminalCanvas.ColourMode {
    /// The poster's colours on this terminal: 24-bit where it says so, the 256-colour cube otherwise, and for
    /// `NO_COLOR` shade characters with no colour codes (the picture keeps its light and dark, without hue).
    static func forTerminal(environment: [String: String]) -> TerminalCanvas.ColourMode {
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return .shades }
        let colourTerm = environment["COLORTERM"] ?? ""
        return colourTerm.contains("truecolor") || colourTerm.contains("24bit") ? .trueColour : .palette256
    }
}
