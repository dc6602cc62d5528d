import PosterGrid
import Testing

@Suite("Reveal schedule")
struct RevealScheduleTests {
    func schedule(
        start: Duration = .seconds(100), stages: Int = 5, stage: Duration = .seconds(2), limit: Duration = .seconds(20),
        pauses: [PauseInterval] = []
    ) throws -> RevealSchedule {
        try RevealSchedule(start: start, stageCount: stages, stageDuration: stage, timeLimit: limit, pauses: pauses)
    }

    @Test func stageKStartsAtStartPlusKStageDurationsWithoutPauses() throws {
        let s = try schedule()
        for k in 0..<5 {
            let window = s.window(ofStage: k)
            #expect(window.start == .seconds(100 + 2 * k))
            #expect(window.end == .seconds(102 + 2 * k))
        }
        #expect(s.deadline == .seconds(120))
    }

    @Test func aPauseBeforeAStageDelaysItByThePauseLength() throws {
        // Paused from 103.0 to 104.5: stage 0 (100-102) is untouched, stage 1 ends 1.5 s late, later stages start late.
        let s = try schedule(pauses: [PauseInterval(start: .seconds(103), end: .milliseconds(104_500))])
        #expect(s.window(ofStage: 0).start == .seconds(100))
        #expect(s.window(ofStage: 0).end == .seconds(102))
        #expect(s.window(ofStage: 1).start == .seconds(102))
        #expect(s.window(ofStage: 1).end == .milliseconds(105_500))
        #expect(s.window(ofStage: 2).start == .milliseconds(105_500))
        #expect(s.window(ofStage: 4).end == .milliseconds(111_500))
        #expect(s.deadline == .milliseconds(121_500))
    }

    @Test func aPauseStartingExactlyAtAStageBoundaryDelaysThatStage() throws {
        let s = try schedule(pauses: [PauseInterval(start: .seconds(104), end: .seconds(107))])
        #expect(s.window(ofStage: 1).end == .seconds(107))
        #expect(s.window(ofStage: 2).start == .seconds(107))
    }

    @Test func pausesAddUpAndAnOpenPauseHoldsEverythingAfterIt() throws {
        let pauses = [
            PauseInterval(start: .seconds(101), end: .seconds(102)),
            PauseInterval(start: .seconds(105), end: .seconds(108)),
            PauseInterval(start: .seconds(110), end: nil),
        ]
        let s = try schedule(pauses: pauses)
        // Active time runs 100-101, 102-105, 108-110: 6 s by the open pause.
        #expect(s.activeElapsed(at: .seconds(110)) == .seconds(6))
        #expect(s.activeElapsed(at: .seconds(500)) == .seconds(6), "the clock stands still while paused")
        // Active 4 s falls at 105, the instant pause 2 begins, so stage 2 waits for its end.
        #expect(s.window(ofStage: 2).start == .seconds(108))
        #expect(s.window(ofStage: 3).start == nil, "stage 3 starts at active 6 s, held by the open pause")
        #expect(s.deadline == nil)
        #expect(s.isPaused(at: .seconds(300)))
        #expect(!s.isPaused(at: .seconds(103)))
    }

    @Test func resumingAHalfFinishedFadeContinuesWhereItStood() throws {
        let paused = try schedule(pauses: [PauseInterval(start: .milliseconds(103_500), end: nil)])
        #expect(paused.position(at: .seconds(200)) == .revealing(stage: 1, progress: 0.75))
        let resumed = try paused.with(pauses: [PauseInterval(start: .milliseconds(103_500), end: .seconds(200))])
        #expect(resumed.position(at: .seconds(200)) == .revealing(stage: 1, progress: 0.75))
        #expect(resumed.position(at: .milliseconds(200_250)) == .revealing(stage: 1, progress: 0.875))
        #expect(resumed.position(at: .milliseconds(200_500)) == .revealing(stage: 2, progress: 0))
    }

    @Test func positionWalksThroughEveryStageThenFullyRevealedThenTimeUp() throws {
        let s = try schedule(stages: 3, stage: .seconds(3))
        #expect(s.position(at: .seconds(50)) == .revealing(stage: 0, progress: 0), "before the start nothing has run")
        for ms in stride(from: 0, to: 20_000, by: 250) {
            let position = s.position(at: .seconds(100) + .milliseconds(ms))
            switch ms {
            case 0..<9000:
                let stage = ms / 3000
                #expect(position == .revealing(stage: stage, progress: Double(ms - stage * 3000) / 3000), "at \(ms) ms")
            default:
                #expect(position == .fullyRevealed, "at \(ms) ms")
            }
        }
        #expect(s.position(at: .seconds(120)) == .timeUp)
    }

    @Test func noDriftOverAnHourOfStages() throws {
        // 1800 stages of 2 s: the last stage starts exactly at start + 3598 s, which a tick counter of floats would miss.
        let s = try RevealSchedule(
            start: .milliseconds(7), stageCount: 1800, stageDuration: .seconds(2), timeLimit: .seconds(4000))
        #expect(s.window(ofStage: 1799).start == .milliseconds(3_598_007))
    }

    @Test func unevenStageDurations() throws {
        let s = try RevealSchedule(
            start: .zero, stageDurations: [.seconds(1), .milliseconds(2500), .seconds(3)], timeLimit: .seconds(20))
        #expect(s.window(ofStage: 1).start == .seconds(1))
        #expect(s.window(ofStage: 2).start == .milliseconds(3500))
        #expect(s.window(ofStage: 2).end == .milliseconds(6500))
    }

    @Test func invalidSchedulesAreRefused() {
        #expect(throws: RevealScheduleError.noStages) {
            try RevealSchedule(start: .zero, stageDurations: [], timeLimit: .seconds(20))
        }
        #expect(throws: RevealScheduleError.stageDurationNotPositive(stage: 2)) {
            try RevealSchedule(start: .zero, stageDurations: [.seconds(1), .zero], timeLimit: .seconds(20))
        }
        #expect(throws: RevealScheduleError.pauseEndsBeforeItStarts(index: 0)) {
            try schedule(pauses: [PauseInterval(start: .seconds(5), end: .seconds(4))])
        }
        #expect(throws: RevealScheduleError.pausesOverlap(index: 1)) {
            try schedule(pauses: [
                PauseInterval(start: .seconds(5), end: .seconds(8)), PauseInterval(start: .seconds(7), end: .seconds(9)),
            ])
        }
        #expect(throws: RevealScheduleError.openPauseNotLast(index: 0)) {
            try schedule(pauses: [PauseInterval(start: .seconds(5), end: nil), PauseInterval(start: .seconds(7), end: nil)])
        }
    }

    @Test func levelRulesValidate() {
        var rules = LevelRules.standard
        #expect(rules.timeLimit == .seconds(20))
        #expect(rules[.expert].stageDuration == .seconds(3))
        #expect((try? rules.validate()) != nil)
        rules[.expert].areaCount = 0
        #expect(throws: LevelRulesError.areaCountTooSmall(.expert, 0)) { try rules.validate() }
        rules = .standard
        rules.timeLimit = .zero
        #expect(throws: LevelRulesError.timeLimitNotPositive) { try rules.validate() }
        #expect(Level.beginner < Level.expert)
    }
}
