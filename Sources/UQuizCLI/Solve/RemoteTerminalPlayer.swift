import CTerminal
import Foundation
import LocalUseCases
import PosterArt
import PosterGrid
import QuizCore
import RemoteClient
import UQuizWire

#if canImport(Glibc)
    import Glibc
#endif

/// The full-screen player for a play on a server (`solve CODE --server URL` on a terminal). The server keeps the clock
/// and cuts the posters: each stage's poster comes from it already black wherever nothing is revealed, so this draws it
/// whole, and the time bar counts down to the end the server announced. Keys become the lines `RemoteSolve` sends:
/// Enter a guess, `?` on an empty line the hint, Tab a skip, ↑ and ↓ a suggested title. Esc cannot pause: the server's
/// clock runs on.
final class RemoteTerminalPlayer: RemoteSolveInput, RemoteSolveObserver {
    private let client: ServerClient
    private let interruption: Interruption
    private var screen: ServerClockScreen
    private var playId = ""
    private var packageTitle = ""
    private var quizCount = 0
    private var quiz: ServerAPI.QuizState?
    private var score = 0
    /// When the server said the current quiz ends, on this process's clock.
    private var endsAt: Duration?
    private var timeLimit = 20.0
    private var poster: Result<CellRaster, ServerClientError>?
    private var guessLine = GuessLine(tabLine: "/skip")
    private let language: QuizLanguage
    private var status = ""
    /// Rung for a wrong guess, a solve and the time running out.
    var bell = Bell.off

    static let footer = "Enter guesses · ? hint · Tab skips · Ctrl-C stops (the server's clock runs on)"

    init(client: ServerClient, interruption: Interruption, environment: [String: String]) {
        self.client = client
        self.interruption = interruption
        screen = ServerClockScreen(environment: environment)
        language = ServerClient.suggestionLanguage(environment: environment)
    }

    func run<T>(_ body: () throws -> T) rethrows -> T {
        try screen.run(body)
    }

    // MARK: - Input

    func now() -> Duration { screen.now() }

    func nextLine(until deadline: Duration?) -> RemoteLine {
        while true {
            if interruption.isRequested { return .interrupted }
            if let line = guessLine.next() { return .line(line) }
            if let deadline, now() >= deadline { return .deadline }
            draw()
            // The time bar moves every 0.2 s; the deadline is met to the millisecond.
            let untilDeadline = deadline.map { max(0, Int32((($0 - now()).seconds * 1000).rounded(.up))) } ?? 200
            guard let bytes = read(timeout: min(guessLine.wantsSuggestions == nil ? 200 : 150, untilDeadline)) else {
                // Typing paused: the titles the server suggests for what is typed.
                if let text = guessLine.wantsSuggestions {
                    guessLine.suggested(client.guessSuggestions(for: text, language: language), for: text)
                }
                continue
            }
            take(bytes)
        }
    }

    func pause(until deadline: Duration) -> Bool {
        while now() < deadline {
            if interruption.isRequested { return false }
            draw()
            if let bytes = read(timeout: Int32(min(200, max(1, ((deadline - now()).seconds * 1000).rounded(.up))))) {
                take(bytes)
            }
        }
        return !interruption.isRequested
    }

    private func take(_ bytes: [UInt8]) {
        if guessLine.take(bytes) { status = "A play on a server cannot pause: its clock runs on." }
    }

    private func read(timeout: Int32) -> [UInt8]? {
        FullScreen.read(timeout: timeout, wake: interruption.wakeDescriptor)
    }

    // MARK: - What the server says

    func playStarted(_ play: ServerAPI.PlayState) {
        playId = play.id
        packageTitle = play.packageTitle
        quizCount = play.quizzes.count
        status = "The first quiz starts in a moment."
    }

    func quizStarted(_ quiz: ServerAPI.QuizState, of count: Int) {
        timeLimit = max(1, Double(quiz.endsInMs ?? 20_000) / 1000)
        status = ""
        show(quiz)
    }

    func stageRevealed(_ quiz: ServerAPI.QuizState) {
        show(quiz)
    }

    func guessRejected(_ text: String, judgement: String) {
        status = "✗ \"\(SafeText.clean(text))\" is wrong (\(RemoteSolvePrinter.reason(judgement)))"
        bell.ring(.wrong)
    }

    func hinted(_ hint: String) {
        status = "Hint: \(SafeText.clean(hint))"
    }

    func quizEnded(_ quiz: ServerAPI.QuizState) {
        guard let result = quiz.result else { return }
        score += result.score
        endsAt = nil
        // The server gives the whole poster once the quiz has ended.
        self.quiz = quiz
        poster = fetchPoster(quiz: quiz.number, stage: nil)
        let answer = SafeText.clean(quiz.answer.map { $0.title + ($0.year.map { " (\($0))" } ?? "") } ?? "?")
        status = switch result.outcome {
        case .solved: "✓ \(answer)! +\(result.score) points at stage \(result.stageReached)/\(quiz.stageCount) 🎉"
        case .missed: "⏰ Time is up: it was \(answer)"
        case .skipped: "Skipped: it was \(answer)"
        }
        draw()
        switch result.outcome {
        case .solved: bell.ring(.right)
        case .missed: bell.ring(.timeUp)
        case .skipped: break
        }
    }

    private func show(_ quiz: ServerAPI.QuizState) {
        self.quiz = quiz
        endsAt = now() + .milliseconds(quiz.endsInMs ?? 0)
        poster = fetchPoster(quiz: quiz.number, stage: quiz.stage)
        draw()
    }

    private func fetchPoster(quiz: Int, stage: Int?) -> Result<CellRaster, ServerClientError> {
        Result { () throws(ServerClientError) in
            let jpeg = try client.poster(playId: playId, quiz: quiz, stage: stage)
            guard let image = try? JPEG.decode(jpeg) else { throw .notAServer(status: 200) }
            return CellRaster(image: image, geometry: .standard)
        }
    }

    // MARK: - Screen

    private func draw() {
        let size = screen.size()
        guard size.rows >= PlayerFrame.minimumSize.rows, size.columns >= PlayerFrame.minimumSize.columns else {
            let needs = "terminal too small (needs \(PlayerFrame.minimumSize.columns)x\(PlayerFrame.minimumSize.rows))"
            screen.say(TextWidth.cut(needs, to: size.columns))
            return
        }
        let secondsLeft = endsAt.map { max(0, ($0 - now()).seconds) } ?? 0
        let header = PlayerFrame.header(
            packageTitle: packageTitle, quizNumber: quiz?.number ?? 1, quizCount: quizCount,
            stage: (quiz?.stage ?? 0, quiz?.stageCount ?? 0), score: score, secondsLeft: secondsLeft, timeLimit: timeLimit,
            columns: size.columns)
        var picture: HalfBlockPicture?
        var problem: String?
        switch poster {
        case .success(let raster)?:
            picture = HalfBlockPicture(
                cells: PosterFrame.uncovered(raster: raster), geometry: raster.geometry, maxWidth: size.columns - 2,
                maxHeight: max(4, size.rows - 6))
        case .failure(let error)?:
            problem = "No poster: " + Wording.server(error, at: client.baseURL)
        case nil:
            break
        }
        let frame = PlayerFrame.around(
            header: header, picture: picture, size: size, status: guessLine.suggestionLine ?? status, typed: guessLine.typed,
            footer: Self.footer,
            posterProblem: problem)
        screen.draw(frame, rows: size.rows)
    }
}
