import PosterArt

/// The full screen of a player on a server's clock (a play on a server, a live room): the terminal, the canvas frames
/// are drawn on, and this process's clock since the screen opened, on which the loop keeps the server's deadlines.
struct ServerClockScreen {
    private let screen: FullScreen
    private var canvas: TerminalCanvas
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    /// The size the last frame was laid out for; `nil` clears the screen before the next.
    private var laidOut: (rows: Int, columns: Int)?

    init(environment: [String: String]) {
        let mode = TerminalCanvas.ColourMode.forTerminal(environment: environment)
        screen = FullScreen(colourMode: mode, mouse: false)
        canvas = TerminalCanvas(mode: mode, origin: (3, 1))
        origin = clock.now
    }

    /// Runs `body` on the full screen, given back as it was after.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        try screen.run(restoringOnInterrupt: false, body)
    }

    func now() -> Duration { clock.now - origin }

    /// Clears the whole screen before the next frame (a new layout: another phase of a room).
    mutating func relayOut() { laidOut = nil }

    /// The terminal's size for the next frame; the screen is cleared first when it changed since the last.
    mutating func size() -> (rows: Int, columns: Int) {
        let size = screen.size()
        if laidOut.map({ $0 != size }) ?? true {
            laidOut = size
            canvas.invalidate()
            screen.write("\u{1B}[2J")
        }
        return size
    }

    mutating func draw(_ frame: PlayerFrame, rows: Int) {
        screen.write(frame.render(on: &canvas, rows: rows))
    }

    /// One line at the top, in place of a frame.
    func say(_ line: String) {
        screen.write("\u{1B}[1;1H\u{1B}[2K" + line)
    }
}
