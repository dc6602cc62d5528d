import PosterGrid
import QuizCore
import Testing

@Suite("Solving one quiz")
struct QuizRoundTests {
    func round(stages: Int = 5, stage: Duration = .seconds(2)) throws -> QuizRound {
        var round = try QuizRound(
            index: 0, judge: AnswerJudge(acceptedTitles: ["Inception", "인셉션"], otherMovieTitles: ["Interstellar"]),
            hint: Hint.firstHint(for: "Inception"), stageCount: stages, stageDuration: stage, timeLimit: .seconds(20),
            start: .seconds(100))
        _ = round.advance(to: .seconds(100))
        return round
    }

    @Test func stagesAreRevealedOnScheduleAndLateOnesAllAtOnce() throws {
        var quiz = try round()
        #expect(quiz.revealedStages == 1)
        #expect(quiz.nextDeadline == .seconds(102))
        #expect(quiz.advance(to: .milliseconds(101_999)).isEmpty)
        #expect(quiz.advance(to: .seconds(102)) == [.stageRevealed(quiz: 0, stage: 2, scheduled: .seconds(102), at: .seconds(102))])
        #expect(quiz.advance(to: .seconds(107)) == [
            .stageRevealed(quiz: 0, stage: 3, scheduled: .seconds(104), at: .seconds(107)),
            .stageRevealed(quiz: 0, stage: 4, scheduled: .seconds(106), at: .seconds(107)),
        ])
        #expect(quiz.nextDeadline == .seconds(108))
        _ = quiz.advance(to: .seconds(108))
        #expect(quiz.nextDeadline == .seconds(120), "after the last stage, the time limit")
    }

    @Test func timeRunsOutAtTheLimit() throws {
        var quiz = try round()
        let events = quiz.advance(to: .seconds(121))
        #expect(events.suffix(2) == [
            .timeUp(quiz: 0, at: .seconds(121)),
            .quizEnded(quiz: 0, result: QuizResult(outcome: .missed, seconds: 20, stageReached: 5, hintsUsed: 0, score: 0)),
        ])
        #expect(quiz.isOver)
        #expect(quiz.guess("Inception", at: .seconds(122)).isEmpty, "nothing counts after the end")
    }

    @Test func wrongThenRightGuessesAndTheScore() throws {
        var quiz = try round()
        let wrong = quiz.guess("Interstellar", at: .milliseconds(103_000))
        #expect(wrong.last == .guessed(quiz: 0, guess: "Interstellar", verdict: .rejected(.titleOfAnotherMovie("Interstellar")), at: .seconds(103)))
        #expect(!quiz.isOver)
        let right = quiz.guess("inceptoin", at: .seconds(105))
        // Stage 3 revealed at 104; answered at 105: 100 + 2 hidden stages x 20 + 15 s of 20 left x 100 = 215.
        #expect(right.last == .quizEnded(quiz: 0, result: QuizResult(outcome: .solved, seconds: 5, stageReached: 3, hintsUsed: 0, score: 215)))
    }

    @Test func aHintHalvesTheScoreAndIsShownAgainForFree() throws {
        var quiz = try round()
        #expect(quiz.hint(at: .seconds(101)).last == .hintShown(quiz: 0, hint: "I________", at: .seconds(101)))
        _ = quiz.hint(at: .seconds(101))
        #expect(quiz.hintsUsed == 1)
        let events = quiz.guess("인셉션", at: .seconds(101))
        #expect(events.last == .quizEnded(quiz: 0, result: QuizResult(outcome: .solved, seconds: 1, stageReached: 1, hintsUsed: 1, score: (100 + 80 + 95) / 2)))
    }

    @Test func pausingStopsTheClockAndResumingContinuesTheFade() throws {
        var quiz = try round()
        #expect(quiz.reveal(at: .seconds(103)) == [1, 0.5, 0, 0, 0])
        #expect(quiz.pause(at: .seconds(103)) == [
            .stageRevealed(quiz: 0, stage: 2, scheduled: .seconds(102), at: .seconds(103)), .paused(quiz: 0, at: .seconds(103)),
        ])
        #expect(quiz.nextDeadline == nil)
        #expect(quiz.advance(to: .seconds(500)).isEmpty, "nothing happens while paused")
        #expect(quiz.guess("Inception", at: .seconds(150)).isEmpty, "no guessing while paused")
        #expect(quiz.resume(at: .seconds(153)) == [.resumed(quiz: 0, at: .seconds(153))])
        #expect(quiz.reveal(at: .seconds(153)) == [1, 0.5, 0, 0, 0], "the half-finished fade continues where it stood")
        #expect(quiz.nextDeadline == .seconds(154))
        let events = quiz.guess("Inception", at: .seconds(155))
        guard case let .quizEnded(_, result)? = events.last else { Issue.record("not ended"); return }
        #expect(result.seconds == 5, "50 paused seconds do not count")
    }

    @Test func skippingEndsWithNoPoints() throws {
        var quiz = try round(stages: 3, stage: .seconds(3))
        let events = quiz.skip(at: .seconds(104))
        #expect(events.last == .quizEnded(quiz: 0, result: QuizResult(outcome: .skipped, seconds: 4, stageReached: 2, hintsUsed: 0, score: 0)))
    }

    @Test(arguments: [(1, 5, 0.0, 0, 280), (5, 5, 19.0, 0, 105), (3, 3, 20.0, 0, 100), (1, 3, 10.0, 1, 95)])
    func scoringRewardsEarlyAnswersAndChargesHints(reached: Int, count: Int, seconds: Double, hints: Int, expected: Int) {
        #expect(Scoring.score(
            stageReached: reached, stageCount: count, elapsed: .milliseconds(Int(seconds * 1000)), timeLimit: .seconds(20),
            hints: hints) == expected)
    }
}
