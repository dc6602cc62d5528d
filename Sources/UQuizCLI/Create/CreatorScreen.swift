import CTerminal
import Foundation
import LocalUseCases
import MovieSearch
import PosterArt
import PosterGrid
import QuizCore
import RemoteClient

#if canImport(Glibc)
    import Glibc
#endif

/// The full-screen parts of the interactive `create`: the poster chooser and the area picker, each in the alternate
/// screen with the keyboard raw, and the terminal given back as it was (line mode, main screen) when it returns, so
/// the rest of `create` goes on line by line. Ctrl-C, SIGTERM and SIGHUP restore the terminal and end the process with
/// nothing saved, as Ctrl-C does everywhere in `create`.
struct CreatorScreen {
    let loader: PosterLoader
    let geometry: GridGeometry
    let stageDuration: (Level) -> Duration
    let colourMode: TerminalCanvas.ColourMode

    /// Whether this process may draw full screen: standard input and output a terminal whose type is known and can
    /// address the cursor. An unset `TERM` or `TERM=dumb` keeps the line-by-line prompts.
    static func available(environment: [String: String]) -> Bool {
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return false }
        return isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// The poster's cells, or why it cannot be shown (in words, escaped).
    func raster(path: String, source: PosterSource) async -> (CellRaster?, String?) {
        await Self.raster(loader: loader, geometry: geometry, path: path, source: source)
    }

    private static func raster(
        loader: PosterLoader, geometry: GridGeometry, path: String, source: PosterSource
    ) async -> (CellRaster?, String?) {
        switch await loader.raster(posterPath: path, source: source, geometry: geometry) {
        case .success(let raster): (raster, nil)
        case .failure(let problem): (nil, SafeText.clean(Wording.posterUnavailable(problem)))
        }
    }

    /// The cells of every poster, fetched at once before a screen that shows them starts reading keys.
    func rasters(_ posters: [(path: String, source: PosterSource)]) async -> [(CellRaster?, String?)] {
        let loader = loader
        let geometry = geometry
        return await withTaskGroup(of: (Int, (CellRaster?, String?)).self) { group in
            for (index, poster) in posters.enumerated() {
                group.addTask {
                    (index, await Self.raster(loader: loader, geometry: geometry, path: poster.path, source: poster.source))
                }
            }
            var rasters = [(CellRaster?, String?)](repeating: (nil, nil), count: posters.count)
            for await (index, raster) in group { rasters[index] = raster }
            return rasters
        }
    }

    /// Lets the maker place areas on the poster; the centres in stage order, or `nil` when they leave with `q` or Esc.
    func pickAreas(
        title: String, level: Level, limit: Int, poster: (path: String, source: PosterSource), starting: [Cell],
        automatic: ([Cell]) -> [Cell]
    ) async -> [Cell]? {
        let (raster, problem) = await raster(path: poster.path, source: poster.source)
        let picker = AreaPickerLoop(
            screen: FullScreen(colourMode: colourMode), poster: raster, posterProblem: problem,
            stageDuration: stageDuration(level))
        let state = AreaPickerState(title: title, geometry: geometry, limit: limit, starting: starting)
        guard case .done(let areas) = picker.run(state, automatic: automatic) else { return nil }
        return areas
    }

    /// Plays each quiz's reveal as a solver sees it, one after the other; any key goes on to the next, Esc or `q`
    /// stops.
    func playPreviews(of quizzes: [Quiz], level: Level) async {
        let rasters = await rasters(quizzes.map { ($0.posterPath, $0.posterSource) })
        let screen = FullScreen(colourMode: colourMode)
        screen.run {
            for (index, quiz) in quizzes.enumerated() {
                let (raster, problem) = rasters[index]
                let state = AreaPickerState(
                    title: "quiz \(index + 1)/\(quizzes.count), \(quiz.title)", geometry: quiz.geometry, limit: quiz.areas.count,
                    starting: quiz.areas)
                let loop = AreaPickerLoop(screen: screen, poster: raster, posterProblem: problem, stageDuration: stageDuration(level))
                let keys = loop.playPreview(state, footer: "any key: the next quiz · Esc: back to the questions")
                if [.escape, .character("q")].contains(keys.first) { return }
            }
        }
    }

    /// Shows a movie's posters side by side; the index of the one chosen, or `nil` to keep the primary poster.
    func choosePoster(of movie: String, posters: [PosterImage]) async -> Int? {
        let loaded = await rasters(posters.map { ($0.filePath, .tmdb) })
        let screen = FullScreen(colourMode: colourMode)
        var rasters: [Int: (raster: CellRaster?, problem: String?)] = [:]
        var state = PosterChoiceState(labels: posters.enumerated().map { index, poster in
            "\(index + 1)) \(poster.language ?? "no text") · \(String(format: "%.1f", poster.voteAverage)) (\(poster.voteCount) votes) · \(poster.filePath)"
        })
        return screen.run {
            while state.outcome == nil {
                let size = screen.size()
                for index in PickerFrame.visiblePosters(state, columns: size.columns) where rasters[index] == nil {
                    rasters[index] = loaded[index]
                }
                screen.draw(PickerFrame.posterChoice(state, movie: movie, posters: rasters, geometry: geometry, size: size))
                guard let bytes = screen.read(timeout: 250) else { continue }
                for key in PickerKey.keys(in: bytes) where state.outcome == nil { state.handle(key) }
            }
            if case .chosen(let index) = state.outcome { return index }
            return nil
        }
    }
}

/// The area picker's input loop: keys (and mouse clicks) into `AreaPickerState`, the state drawn by `PickerFrame`;
/// `p` plays the reveal until it ends or a key is pressed.
struct AreaPickerLoop {
    let screen: FullScreen
    let poster: CellRaster?
    let posterProblem: String?
    let stageDuration: Duration

    func run(_ start: AreaPickerState, automatic: ([Cell]) -> [Cell]) -> AreaPickerState.Outcome {
        var state = start
        var keys: [PickerKey] = []
        return screen.run {
            while state.outcome == nil {
                let size = screen.size()
                let frame = PickerFrame.frame(state, poster: poster, posterProblem: posterProblem, size: size)
                screen.draw(frame)
                if keys.isEmpty {
                    guard let bytes = screen.read(timeout: 250) else { continue }
                    keys = PickerKey.keys(in: bytes)
                }
                let key = keys.removeFirst()
                if !PickerFrame.takesKey(key, at: size) { continue }
                if case .click(let row, let column) = key {
                    if let cell = frame.cell(atRow: row, column: column) { state.clicked(on: cell) }
                } else {
                    state.handle(key, automatic: automatic)
                }
                if state.mode == .preview {
                    keys = Array(playPreview(state).dropFirst())
                    state.previewEnded()
                }
            }
            return state.outcome!
        }
    }

    /// The stages fade in on their level's timing, as in a solver's game; the last one is held a moment. A key ends it
    /// early: the keys typed then are given back, the one that ended it first.
    func playPreview(_ state: AreaPickerState, footer: String = PickerFrame.previewFooter) -> [PickerKey] {
        let clock = ContinuousClock()
        let started = clock.now
        let stages = state.selection.centres.count
        while let (reveal, stage) = PickerPreview.reveal(at: clock.now - started, stages: stages, stageDuration: stageDuration) {
            screen.draw(PickerFrame.preview(state, poster: poster, reveal: reveal, stage: stage, size: screen.size(), footer: footer))
            if let bytes = screen.read(timeout: 33) { return PickerKey.keys(in: bytes) }
        }
        return []
    }
}

/// The preview's reveal over time: the solver's schedule (stages of `stageDuration`, each fading in over its stage)
/// followed by the whole reveal held for one more stage.
enum PickerPreview {
    /// How far each stage has faded in at `elapsed`, and the stage (from 1) being shown; `nil` once the preview is over.
    static func reveal(at elapsed: Duration, stages: Int, stageDuration: Duration) -> (reveal: [Double], stage: Int)? {
        guard stages > 0,
            let schedule = try? RevealSchedule(
                start: .zero, stageCount: stages, stageDuration: stageDuration, timeLimit: stageDuration * (stages + 1))
        else { return nil }
        switch schedule.position(at: elapsed) {
        case let .revealing(stage, progress):
            return ((0..<stages).map { $0 < stage ? 1 : $0 == stage ? progress : 0 }, stage + 1)
        case .fullyRevealed:
            return (Array(repeating: 1, count: stages), stages)
        case .timeUp:
            return nil
        }
    }
}

/// The alternate screen with the keyboard raw (and mouse clicks reported), for one full-screen step of `create`.
final class FullScreen {
    private var canvas: TerminalCanvas
    /// The size and stage numbers last drawn: a change means the screen is drawn whole again.
    private var shown: (size: (rows: Int, columns: Int), labels: [PickerFrame.Label], hasPicture: Bool)?
    private var lastFrame: PickerFrame?

    /// Whether clicks are reported (the picker places areas with them).
    private let mouse: Bool

    init(colourMode: TerminalCanvas.ColourMode, mouse: Bool = true) {
        canvas = TerminalCanvas(mode: colourMode)
        self.mouse = mouse
    }

    /// Stage numbers stand out in black on yellow, or in reverse video without colour.
    private var stageStyle: String { canvas.mode == .shades ? "\u{1B}[7m" : "\u{1B}[1;30;103m" }

    private static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    private static let reportClicks = "\u{1B}[?1000h\u{1B}[?1006h"
    private static let leave = "\u{1B}[?1000l\u{1B}[?1006l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// Runs `body` in the alternate screen and gives the terminal back as it was, however `body` ends. A signal
    /// restores the terminal (C handler: async-signal-safe) and ends the process with nothing saved; Ctrl-C too unless
    /// `restoringOnInterrupt` is false, for a caller whose `Interruption` stops it in its own way.
    func run<T>(restoringOnInterrupt: Bool = true, _ body: () throws -> T) rethrows -> T {
        let signals = (restoringOnInterrupt ? [SIGINT] : []) + [SIGQUIT, SIGTERM, SIGHUP]
        uquiz_enter_raw_mode(STDIN_FILENO)
        write(Self.enter + (mouse ? Self.reportClicks : ""))
        for signalNumber in signals { uquiz_restore_terminal_on_signal(signalNumber) }
        defer {
            for signalNumber in signals { signal(signalNumber, SIG_DFL) }
            Self.restore()
        }
        return try body()
    }

    /// Gives the terminal back: the keyboard's old mode, the main screen, the cursor, no click reports.
    static func restore() {
        uquiz_restore_terminal(STDIN_FILENO)
        FileHandle.standardOutput.write(Data(leave.utf8))
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func size() -> (rows: Int, columns: Int) { Self.size() }

    /// The terminal's size in characters (80x24 when it cannot be asked).
    static func size() -> (rows: Int, columns: Int) {
        var rows: Int32 = 24
        var columns: Int32 = 80
        _ = uquiz_terminal_size(STDOUT_FILENO, &rows, &columns)
        return (Int(rows), Int(columns))
    }

    /// Bytes typed within `timeout` ms (-1 waits for ever), or `nil` when none came or `wake` (a Ctrl-C's self-pipe)
    /// became readable first.
    static func read(timeout: Int32, wake: Int32? = nil) -> [UInt8]? {
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&descriptors, 2, timeout) > 0, descriptors[0].revents & Int16(POLLIN) != 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = Glibc.read(STDIN_FILENO, &buffer, buffer.count)
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }

    func read(timeout: Int32) -> [UInt8]? { Self.read(timeout: timeout) }

    /// Draws `frame`, sending only the picture's characters that changed unless the size or the stage numbers did;
    /// nothing when the same frame is on screen at the same size.
    func draw(_ frame: PickerFrame) {
        let size = size()
        if let shown, shown.size == size, lastFrame == frame { return }
        lastFrame = frame
        var output = ""
        if shown.map({ $0.size != size || $0.labels != frame.labels || $0.hasPicture != (frame.picture != nil) }) ?? true {
            canvas.invalidate()
            output += "\u{1B}[0m\u{1B}[2J"
        }
        shown = (size, frame.labels, frame.picture != nil)
        output += "\u{1B}[1;1H\u{1B}[2K" + frame.header
        if size.rows >= PickerFrame.minimumSize.rows && size.columns >= PickerFrame.minimumSize.columns {
            output += "\u{1B}[2;1H\u{1B}[2K" + frame.ruler
            output += body(frame)
            output += "\u{1B}[\(size.rows - 2);1H\u{1B}[2K " + frame.status
            output += "\u{1B}[\(size.rows - 1);1H\u{1B}[2K " + frame.message
            output += "\u{1B}[\(size.rows);1H\u{1B}[2K " + frame.footer
        }
        write(output)
    }

    /// The picture (or the text in its place) and the labels over it.
    private func body(_ frame: PickerFrame) -> String {
        var output = ""
        if let picture = frame.picture {
            canvas.origin = (frame.pictureRow, frame.pictureColumn)
            output += canvas.draw(picture)
        } else {
            for (index, line) in frame.text.enumerated() { output += "\u{1B}[\(frame.pictureRow + index);3H\u{1B}[2K" + line }
        }
        for label in frame.labels {
            output += "\u{1B}[\(label.row);\(label.column)H"
                + (label.isStage ? "\(stageStyle)\(label.text)\u{1B}[0m" : "\u{1B}[0m\(label.text)")
        }
        return output
    }
}
