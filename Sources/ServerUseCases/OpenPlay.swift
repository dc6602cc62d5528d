import Foundation
import PosterArt
import PosterGrid
import QuizCore
import UQuizStorage

/// One play rebuilt from its record: which quiz is on, its `QuizRound`, and how the ones before it ended.
struct OpenPlay {
    struct Ended {
        var result: QuizResult
        /// Instant on the shared clock, and wall time for the record.
        var at: Duration
        var endedAt: Date
        var hint: String?
        /// The quiz's wrong guesses, each once, in `TitleNormalizer.readable` form: what its maker learns from.
        var wrongGuesses: [String]
    }

    let id: String
    let player: Player
    let plan: Plays.PlayPlan
    let startedAt: Date
    /// The instant the play started on the shared clock.
    let startInstant: Duration
    let dailyDay: String?
    let dailyNumber: Int?
    /// 0-based index of the quiz on (or next) in `plan.rounds`; `rounds.count` once all have ended.
    var current = 0
    /// The current quiz's state, `nil` before it starts.
    var round: QuizRound?
    /// When the current quiz starts (or started).
    var nextStart: Duration
    var ended: [Ended] = []
    var finishedAt: Duration?
    /// The current quiz's wrong guesses so far.
    var wrongGuesses: [String] = []

    init(_ record: OpenPlayRecord, plan: Plays.PlayPlan, interlude: Duration) {
        id = record.id
        player = Player(id: record.playerId, name: record.playerName)
        self.plan = plan
        startedAt = record.startedAt
        startInstant = .microseconds(record.startMicros)
        dailyDay = record.dailyDay
        dailyNumber = record.dailyNumber
        nextStart = startInstant + interlude
    }

    /// The play as it stands at `instant`: the record's actions done again, each at its instant, then the clock run on.
    /// `QuizRound` is a pure function of these, so every instance rebuilds the same play.
    static func replay(
        _ record: OpenPlayRecord, plan: Plays.PlayPlan, to instant: Duration, interlude: Duration
    ) -> OpenPlay {
        var play = OpenPlay(record, plan: plan, interlude: interlude)
        for action in record.events { _ = play.apply(action, interlude: interlude) }
        play.advance(to: instant, interlude: interlude)
        return play
    }

    /// Does one action at its instant (after bringing the play to it); the guess's verdict, if it was one. An action on
    /// a quiz that is not being played does nothing: none is ever saved, and a replay must not fail on one.
    mutating func apply(_ action: PlayerAction, interlude: Duration) -> Verdict? {
        let at = Duration.microseconds(action.atMicros)
        advance(to: at, interlude: interlude)
        guard action.quiz - 1 == current, round != nil else { return nil }
        var verdict: Verdict?
        switch action.kind {
        case .guess:
            for event in round!.guess(action.text ?? "", at: at) {
                if case .guessed(_, _, let judged, _) = event { verdict = judged }
            }
            if case .rejected(let why) = verdict, why != .emptyGuess {
                let wrong = TitleNormalizer.readable(action.text ?? "")
                if !wrong.isEmpty, !wrongGuesses.contains(wrong) { wrongGuesses.append(wrong) }
            }
        case .hint:
            _ = round!.hint(at: at)
        case .skip:
            _ = round!.skip(at: at)
        }
        endIfOver(at: at, interlude: interlude)
        return verdict
    }

    /// The play as the store records it once it has ended.
    func finished(unrankedReason: UnrankedReason?) -> FinishedServerPlay {
        let results = ended.map(\.result)
        return FinishedServerPlay(
            publicId: id, packageId: plan.packageId, player: player, startedAt: startedAt,
            finishedAt: startedAt.addingTimeInterval(((finishedAt ?? startInstant) - startInstant).seconds),
            score: results.reduce(0) { $0 + $1.score }, elapsedSeconds: results.reduce(0) { $0 + $1.seconds },
            dailyDay: dailyDay,
            attempts: zip(plan.quizIDs, ended).map {
                PlayAttempt(quizId: $0, endedAt: $1.endedAt, result: $1.result, wrongGuesses: $1.wrongGuesses)
            },
            unrankedReason: unrankedReason)
    }

    var isFinished: Bool { finishedAt != nil }

    /// Starts the quizzes whose time has come and ends those whose time is up, up to `now`.
    mutating func advance(to now: Duration, interlude: Duration) {
        while current < plan.rounds.count {
            if round == nil {
                guard nextStart <= now else { return }
                round = plan.loop.state(for: plan.rounds[current], start: nextStart)
            }
            guard round != nil else {
                // A round that cannot be made (no areas) is filtered out when planning; this keeps the loop finite.
                current += 1
                continue
            }
            _ = round!.advance(to: now)
            guard let result = round!.result else { return }
            end(result, at: round!.schedule.deadline ?? now, interlude: interlude)
        }
    }

    /// After a guess or a skip: ends the current quiz if it is over.
    mutating func endIfOver(at now: Duration, interlude: Duration) {
        guard let result = round?.result else { return }
        end(result, at: now, interlude: interlude)
    }

    private mutating func end(_ result: QuizResult, at instant: Duration, interlude: Duration) {
        // Wall time of the end, from the play's start on the wall clock and the monotonic time since: no clock read here.
        let endedAt = startedAt.addingTimeInterval((instant - startInstant).seconds)
        ended.append(
            Ended(
                result: result, at: instant, endedAt: endedAt, hint: (round?.hintsUsed ?? 0) > 0 ? round?.hintText : nil,
                wrongGuesses: wrongGuesses))
        wrongGuesses = []
        current += 1
        round = nil
        nextStart = instant + interlude
        if current >= plan.rounds.count { finishedAt = instant }
    }

    func checkQuiz(_ number: Int) throws {
        guard number >= 1, number <= plan.rounds.count else {
            throw PlayError.noSuchQuiz(number, quizCount: plan.rounds.count)
        }
    }

    /// Guesses, hints and skips go to the quiz being played only.
    func requirePlaying(_ number: Int, at now: Duration) throws {
        try checkQuiz(number)
        if number - 1 < ended.count { throw PlayError.quizOver(number) }
        guard number - 1 == current, round != nil else {
            throw PlayError.quizNotStarted(number, startsIn: startsIn(number, at: now))
        }
    }

    /// How long until quiz `number` starts, when it is the next one.
    func startsIn(_ number: Int, at now: Duration) -> Duration? {
        number - 1 == current && round == nil ? max(.zero, nextStart - now) : nil
    }

    func view(at now: Duration, interlude: Duration) -> PlayView {
        PlayView(
            id: id, shareCode: plan.shareCode.value, packageTitle: plan.title, dailyNumber: dailyNumber,
            finished: isFinished, ranked: nil, unrankedReason: nil, score: score, currentQuiz: currentQuiz,
            quizzes: plan.rounds.indices.map { quizView($0, at: now) }, shareLine: shareLine)
    }

    /// What changed since quiz `number` (1-based) was acted on: the quizzes from it through the current one.
    func change(from number: Int, at now: Duration) -> PlayChange {
        let first = max(0, min(number - 1, plan.rounds.count))
        let end = max(first, min(current + 1, plan.rounds.count))
        return PlayChange(
            finished: isFinished, ranked: nil, unrankedReason: nil, score: score, currentQuiz: currentQuiz,
            quizzes: (first..<end).map { quizView($0, at: now) }, shareLine: shareLine)
    }

    private var score: Int { ended.reduce(0) { $0 + $1.result.score } }
    private var currentQuiz: Int? { isFinished ? nil : current + 1 }
    private var shareLine: String? {
        isFinished ? Self.shareLine(code: plan.shareCode, daily: dailyNumber, results: ended.map(\.result)) : nil
    }

    /// Quiz `index` (0-based) as its player may see it at `now`.
    private func quizView(_ index: Int, at now: Duration) -> QuizView {
        let round = plan.rounds[index]
        let stageCount = round.quiz.areas.count
        if index < ended.count {
            return .ended(number: index + 1, quiz: round.quiz, result: ended[index].result, hint: ended[index].hint)
        }
        if index == current, let state = self.round {
            let stages = (0..<stageCount).map { stage in
                state.schedule.window(ofStage: stage).start.map { Self.milliseconds($0 - now) } ?? 0
            }
            return QuizView(
                number: index + 1, status: .playing, stageCount: stageCount, stage: state.revealedStages,
                stagesInMs: stages, endsInMs: state.schedule.deadline.map { Self.milliseconds($0 - now) },
                hint: state.hintsUsed > 0 ? state.hintText : nil)
        }
        return QuizView(
            number: index + 1, status: .waiting, stageCount: stageCount, stage: 0,
            startsInMs: index == current ? Self.milliseconds(nextStart - now) : nil)
    }

    static func shareLine(code: ShareCode, daily: Int?, results: [QuizResult]) -> String {
        if let daily, results.count == 1 { return ShareLine.daily(number: daily, result: results[0]) }
        return ShareLine.text(code: code, results: results)
    }

    /// Whole milliseconds until `remaining` has passed, rounded up (so 0 means "now"), never negative.
    static func milliseconds(_ remaining: Duration) -> Int {
        remaining <= .zero ? 0 : Int((remaining / .milliseconds(1)).rounded(.up))
    }
}
