import Foundation
import UQuizWire

/// What a player typed, or what came instead, before a deadline.
public enum RemoteLine: Sendable, Equatable {
    case line(String)
    /// The deadline passed first.
    case deadline
    /// No more input will come.
    case ended
    /// The player asked to stop (Ctrl-C).
    case interrupted
}

/// Lines typed by the player on a monotonic clock.
public protocol RemoteSolveInput {
    func now() -> Duration
    /// The next line typed before `deadline` (`nil`: no deadline), or what came instead.
    func nextLine(until deadline: Duration?) -> RemoteLine
    /// Waits until `deadline` whatever is typed; `false` when the player asked to stop.
    func pause(until deadline: Duration) -> Bool
}

/// What a front end shows of a play on a server.
public protocol RemoteSolveObserver {
    /// The play as the server started it, before its first quiz.
    func playStarted(_ play: ServerAPI.PlayState)
    func quizStarted(_ quiz: ServerAPI.QuizState, of count: Int)
    func stageRevealed(_ quiz: ServerAPI.QuizState)
    /// A guess that did not end the quiz, as the server judged it (`wrong`, `another_movie`, ...).
    func guessRejected(_ text: String, judgement: String)
    func hinted(_ hint: String)
    func quizEnded(_ quiz: ServerAPI.QuizState)
}

extension RemoteSolveObserver {
    public func playStarted(_ play: ServerAPI.PlayState) {}
}

/// A play judged by a server, driven from the client: the server keeps the time, judges and scores; this only waits
/// for what the server said is next (a quiz's start, its next stage, its end), sends what the player types, and reports
/// what the server answers. `?` asks for the hint, `/skip` skips, an empty line does nothing.
public struct RemoteSolve {
    public let client: ServerClient
    public let input: any RemoteSolveInput
    public let observer: any RemoteSolveObserver

    public init(client: ServerClient, input: any RemoteSolveInput, observer: any RemoteSolveObserver) {
        self.client = client
        self.input = input
        self.observer = observer
    }

    /// How a run ended: the play as the server has it last, and whether the player stopped it early.
    public struct Outcome {
        public var play: ServerAPI.PlayState
        public var stopped: Bool
    }

    public func run(_ started: ServerAPI.PlayState) throws(ServerClientError) -> Outcome {
        var play = started
        observer.playStarted(play)
        var announcedStarts: Set<Int> = []
        var shownStages: [Int: Int] = [:]
        var pending: [String] = []
        var endedShown: Set<Int> = []
        while let number = play.currentQuiz, !play.finished {
            let quiz = play.quizzes[number - 1]
            let asked = input.now()
            if quiz.status == "waiting" {
                // Lines typed before the quiz starts wait for it.
                let wake = asked + .milliseconds(quiz.startsInMs ?? 0)
                switch input.nextLine(until: wake) {
                case .line(let text): pending.append(text)
                case .interrupted: return Outcome(play: play, stopped: true)
                case .ended: if !input.pause(until: wake) { return Outcome(play: play, stopped: true) }
                case .deadline: break
                }
                if input.now() >= wake { play = try client.play(id: play.id) }
                continue
            }
            if announcedStarts.insert(number).inserted {
                observer.quizStarted(quiz, of: play.quizzes.count)
                shownStages[number] = quiz.stage
            } else if quiz.stage > shownStages[number, default: 0] {
                shownStages[number] = quiz.stage
                observer.stageRevealed(quiz)
            }
            let line: RemoteLine
            if !pending.isEmpty {
                line = .line(pending.removeFirst())
            } else {
                // Wake for the next stage or the end, whichever the server said comes first.
                let waits = (quiz.stagesInMs ?? []).filter { $0 > 0 } + [quiz.endsInMs ?? 0]
                // At least 10 ms: a stage the server has just reached may not be in its answer yet.
                line = input.nextLine(until: asked + .milliseconds(max(10, waits.min() ?? 0)))
            }
            switch line {
            case .interrupted: return Outcome(play: play, stopped: true)
            case .ended: return try waitForTheEnd(of: play, endedShown: endedShown)
            case .deadline: play = try client.play(id: play.id)
            case .line(let text): play = try send(text, quiz: number, in: play)
            }
            let after = play.quizzes[number - 1]
            if after.result != nil, endedShown.insert(number).inserted { observer.quizEnded(after) }
        }
        return Outcome(play: play, stopped: false)
    }

    /// One typed line sent to the server; the play as it answers.
    private func send(_ text: String, quiz: Int, in play: ServerAPI.PlayState) throws(ServerClientError) -> ServerAPI.PlayState {
        switch text.trimmingCharacters(in: .whitespaces) {
        case "":
            return try client.play(id: play.id)
        case "?":
            let answer = try client.hint(playId: play.id, quiz: quiz)
            observer.hinted(answer.hint)
            return answer.play
        case "/skip":
            return try client.skip(playId: play.id, quiz: quiz)
        case let guess:
            let answer = try client.guess(playId: play.id, quiz: quiz, text: guess)
            if answer.judgement != "accepted" { observer.guessRejected(guess, judgement: answer.judgement) }
            return play.applying(answer)
        }
    }

    /// With no more input the server's clock runs the rest of the play out; the client waits for it, quiz by quiz.
    private func waitForTheEnd(of start: ServerAPI.PlayState, endedShown: Set<Int>) throws(ServerClientError) -> Outcome {
        var play = start
        var shown = endedShown
        while let number = play.currentQuiz, !play.finished {
            let quiz = play.quizzes[number - 1]
            let wait = max(quiz.startsInMs ?? 0, quiz.endsInMs ?? 0, 10)
            guard input.pause(until: input.now() + .milliseconds(wait)) else { return Outcome(play: play, stopped: true) }
            play = try client.play(id: play.id)
            for ended in play.quizzes where ended.result != nil && shown.insert(ended.number).inserted {
                observer.quizEnded(ended)
            }
        }
        return Outcome(play: play, stopped: false)
    }
}
