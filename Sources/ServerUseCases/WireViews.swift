import QuizCore
import UQuizStorage
import UQuizWire

/// The server's views of plays and the daily quiz as the wire shows them: the wire's types know nothing of the server's.
extension ServerAPI.QuizState {
    public init(_ view: QuizView) {
        self.init(
            number: view.number, status: view.status.rawValue, stageCount: view.stageCount, stage: view.stage,
            startsInMs: view.startsInMs, stagesInMs: view.stagesInMs, endsInMs: view.endsInMs, hint: view.hint,
            result: view.result, answer: view.answer.map { Answer(title: $0.title, year: $0.year, original: $0.original) })
    }
}

extension ServerAPI.PlayState {
    public init(_ view: PlayView) {
        self.init(
            id: view.id, shareCode: view.shareCode, packageTitle: view.packageTitle, daily: view.dailyNumber,
            finished: view.finished, ranked: view.ranked, unrankedReason: view.unrankedReason, score: view.score,
            currentQuiz: view.currentQuiz, quizzes: view.quizzes.map(ServerAPI.QuizState.init), shareLine: view.shareLine)
    }
}

extension ServerAPI.GuessAnswer {
    public init(judgement: String, change: PlayChange, play: ServerAPI.PlayState? = nil) {
        self.init(
            judgement: judgement, finished: change.finished, ranked: change.ranked,
            unrankedReason: change.unrankedReason, score: change.score, currentQuiz: change.currentQuiz,
            quizzes: change.quizzes.map(ServerAPI.QuizState.init), shareLine: change.shareLine, play: play)
    }
}

extension ServerAPI.Daily {
    /// `view` as the wire shows it.
    public init(_ view: DailyView) {
        self.init(
            number: view.choice.number, day: view.choice.day, shareCode: view.package.shareCode.value,
            packageTitle: view.package.title, quiz: (view.choice.position ?? 0) + 1, level: view.package.level,
            language: view.package.language, stageCount: view.stageCount,
            you: view.streak.map {
                You(
                    streak: $0.current, bestStreak: $0.best, play: view.play.map(ServerAPI.PlayState.init),
                    playedAnotherLanguage: view.playedAnotherLanguage ? true : nil)
            })
    }
}
