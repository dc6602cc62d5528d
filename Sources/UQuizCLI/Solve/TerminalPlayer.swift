import CTerminal
import Dispatch
import Foundation
import PosterArt
import PosterGrid
import QuizCore

/// The full-screen game on a terminal: the poster (half blocks), its areas fading in stage by stage, a time bar and an
/// answer line that takes typing while the reveal runs. Esc pauses (the poster is hidden and the clock stops), any key
/// resumes; Tab skips; `?` on an empty line asks for the hint; Ctrl-C quits. The terminal is restored on every exit:
/// the end, an error, Ctrl-C, SIGTERM and SIGHUP.
final class TerminalPlayer {
    struct Round {
        var loopRound: SolveLoop.Round
        /// The poster's cells, or why its pixels could not be had (the player says so; the title can still be typed).
        var poster: Result<CellRaster, PosterUnavailable>
        var raster: CellRaster? { try? poster.get() }
    }

    let rounds: [Round]
    let levels: LevelRules
    let level: Level
    let timeScale: Double
    let packageTitle: String
    let colourMode: TerminalCanvas.ColourMode
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private var canvas: TerminalCanvas
    private var typed = ""
    private var status = ""
    /// The size last laid out; a different one on the next draw means the terminal was resized.
    private var laidOut: (rows: Int, columns: Int)?
    private var signalSources: [any DispatchSourceSignal] = []

    init(rounds: [Round], levels: LevelRules, level: Level, timeScale: Double, packageTitle: String, environment: [String: String]) {
        self.rounds = rounds
        self.levels = levels
        self.level = level
        self.timeScale = timeScale
        self.packageTitle = packageTitle
        let colourTerm = environment["COLORTERM"] ?? ""
        colourMode = colourTerm.contains("truecolor") || colourTerm.contains("24bit") ? .trueColour : .palette256
        canvas = TerminalCanvas(mode: colourMode, origin: (3, 1))
        origin = clock.now
    }

    private func now() -> Duration { clock.now - origin }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    // MARK: - Terminal set-up and restoration

    private static let enterScreen = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    private static let leaveScreen = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    private func enter() {
        uquiz_enter_raw_mode(STDIN_FILENO)
        write(Self.enterScreen)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                // Restore, then die of the same signal so the shell sees why.
                Self.restoreTerminal()
                signal(signalNumber, SIG_DFL)
                kill(getpid(), signalNumber)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    static func restoreTerminal() {
        uquiz_restore_terminal(STDIN_FILENO)
        FileHandle.standardOutput.write(Data(leaveScreen.utf8))
    }

    // MARK: - The game

    /// Plays every round; `finished` gets each result as its quiz ends.
    func run(finished: (SolveLoop.Round, QuizResult) -> Void) -> [QuizResult] {
        enter()
        defer { Self.restoreTerminal() }
        var results: [QuizResult] = []
        let rule = levels[level]
        for round in rounds {
            guard var state = try? QuizRound(
                index: round.loopRound.number, judge: round.loopRound.judge, hint: Hint.firstHint(for: round.loopRound.quiz.title),
                stageCount: round.loopRound.quiz.areas.count, stageDuration: rule.stageDuration * timeScale,
                timeLimit: levels.timeLimit * timeScale, start: now(), timeScale: timeScale)
            else { continue }
            typed = ""
            status = ""
            if case .failure(let problem) = round.poster {
                status = "No poster: \(SafeText.clean(problem.reason)). Type the title, or Tab skips."
            }
            laidOut = nil
            handle(state.advance(to: now()), state: state)
            while !state.isOver {
                draw(round, state)
                let wait = nextWait(state)
                guard let bytes = readInput(timeout: wait) else {
                    handle(state.advance(to: now()), state: state)
                    continue
                }
                for key in Self.keys(in: bytes) where !state.isOver {
                    let instant = now()
                    if state.isPaused {
                        handle(state.resume(at: instant), state: state)
                        laidOut = nil
                        continue
                    }
                    switch key {
                    case .escape:
                        handle(state.pause(at: instant), state: state)
                    case .tab:
                        handle(state.skip(at: instant), state: state)
                    case .enter:
                        let guess = typed
                        typed = ""
                        let events = state.guess(guess, at: instant)
                        handle(events, state: state)
                    case .backspace:
                        if !typed.isEmpty { typed.removeLast() }
                    case .text(let text):
                        if text == "?" && typed.isEmpty {
                            handle(state.hint(at: instant), state: state)
                        } else {
                            typed += text
                        }
                    case .other:
                        break
                    }
                }
            }
            guard let result = state.result else { continue }
            results.append(result)
            finished(round.loopRound, result)
            showEnd(round, result)
        }
        return results
    }

    /// Short waits while a fade or the time bar moves; nothing moves while paused.
    private func nextWait(_ state: QuizRound) -> Int32 {
        if state.isPaused { return -1 }
        let untilDeadline = state.nextDeadline.map { max(0, Int32(LiveSolveSource.seconds($0 - now()) * 1000) + 1) } ?? 200
        let fading = state.reveal(at: now()).contains { $0 > 0 && $0 < 1 }
        return min(untilDeadline, fading ? 33 : 200)
    }

    private func handle(_ events: [PlayEvent], state: QuizRound) {
        for event in events {
            switch event {
            case let .guessed(_, guess, verdict, _) where !verdict.isAccepted:
                status = "✗ \"\(SafeText.clean(guess))\" is wrong (\(verdict.reason))"
            case let .hintShown(_, hint, _):
                status = "Hint: \(hint)"
            case .paused:
                write("\u{1B}[2J\u{1B}[3;3HPaused: the poster is hidden and the clock stopped. Press any key to go on.")
            default:
                break
            }
        }
    }

    private func layout() -> (rows: Int, columns: Int) {
        var rows: Int32 = 24
        var columns: Int32 = 80
        _ = uquiz_terminal_size(STDOUT_FILENO, &rows, &columns)
        return (Int(rows), Int(columns))
    }

    private func draw(_ round: Round, _ state: QuizRound) {
        guard !state.isPaused else { return }
        let size = layout()
        if laidOut.map({ $0 != size }) ?? true {
            laidOut = size
            canvas.invalidate()
            write("\u{1B}[2J")
        }
        let instant = now()
        let elapsed = LiveSolveSource.seconds(state.schedule.activeElapsed(at: instant)) / timeScale
        let limit = LiveSolveSource.seconds(levels.timeLimit)
        let left = max(0, limit - elapsed)
        let barWidth = max(10, min(40, size.columns - 40))
        let filled = Int((Double(barWidth) * left / limit).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        var output = "\u{1B}[1;1H\u{1B}[2K"
        output += " \(SafeText.clean(packageTitle)) · quiz \(round.loopRound.number)/\(rounds.count) · \(String(format: "%4.1f", left)) s \(bar)"
        if let raster = round.raster {
            let cells = PosterFrame.cells(raster: raster, areas: round.loopRound.quiz.areas, reveal: state.reveal(at: instant))
            let picture = HalfBlockPicture(
                cells: cells, geometry: raster.geometry, maxWidth: size.columns - 2, maxHeight: max(4, size.rows - 6))
            canvas.origin = (3, max(1, (size.columns - picture.width) / 2))
            output += canvas.draw(picture)
        }
        let bottom = size.rows
        output += "\u{1B}[\(bottom - 2);1H\u{1B}[2K \(TextWidth.fit(status, to: size.columns - 2))"
        output += "\u{1B}[\(bottom - 1);1H\u{1B}[2K > \(typed)"
        output += "\u{1B}[\(bottom);1H\u{1B}[2K Enter guesses · ? hint · Tab skips · Esc pauses · Ctrl-C quits"
        write(output)
    }

    /// The whole poster and the answer, for a moment or until a key.
    private func showEnd(_ round: Round, _ result: QuizResult) {
        let size = layout()
        var output = ""
        if let raster = round.raster {
            let picture = HalfBlockPicture(
                cells: PosterFrame.uncovered(raster: raster), geometry: raster.geometry, maxWidth: size.columns - 2,
                maxHeight: max(4, size.rows - 6))
            output += canvas.draw(picture)
        }
        let title = SafeText.clean(round.loopRound.quiz.title)
        let line = switch result.outcome {
        case .solved: "✓ \(title)! +\(result.score) points 🎉"
        case .missed: "⏰ Time is up: it was \(title)"
        case .skipped: "Skipped: it was \(title)"
        }
        output += "\u{1B}[\(size.rows - 2);1H\u{1B}[2K \(line)\u{1B}[\(size.rows - 1);1H\u{1B}[2K"
        write(output)
        _ = readInput(timeout: Int32(1500 * min(1, timeScale)))
    }

    // MARK: - Keys

    enum Key: Equatable {
        case enter, tab, backspace, escape
        case text(String)
        case other
    }

    /// Bytes available on standard input within `timeout` ms (-1 waits for ever), or `nil` when none came.
    private func readInput(timeout: Int32) -> [UInt8]? {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeout) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }

    /// Splits a read into keys: UTF-8 text (Korean included) as typed, control keys, and escape sequences (arrows and
    /// the like) as `.other` rather than a pause.
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
                    while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                    keys.append(.other)
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
