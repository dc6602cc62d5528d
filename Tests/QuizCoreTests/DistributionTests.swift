import Testing
@testable import QuizCore

@Suite("Distributions charts draw")
struct DistributionTests {
    @Test func stagesRunFromOneWithGapsKept() {
        #expect(Distribution.stages([:]) == [])
        #expect(Distribution.stages([3: 2, 1: 1]) == [
            StageCount(stage: 1, solved: 1), StageCount(stage: 2, solved: 0), StageCount(stage: 3, solved: 2),
        ])
        #expect(Distribution.stages([2: 1], through: 4).map(\.solved) == [0, 1, 0, 0])
    }

    @Test func scoresFallInRoundBinsThatHoldEveryPlay() {
        #expect(Distribution.scoreBins([:]) == [])
        let counts = [0: 2, 340: 1, 1_000: 3, 1_999: 1, 2_450: 4]
        let bins = Distribution.scoreBins(counts)
        #expect(bins.count <= 10 && bins.first?.from == 0 && bins.last.map { $0.to >= 2_450 } == true)
        #expect(Set(bins.map { $0.to - $0.from + 1 }) == [500], "one round width")
        #expect(bins.map(\.plays).reduce(0, +) == 11, "every play is in a bin")
        #expect(bins[Distribution.bin(of: 1_999, in: bins)!] == ScoreBin(from: 1_500, to: 1_999, plays: 1))
        #expect(Distribution.scoreBins([7: 1]) == [ScoreBin(from: 0, to: 0, plays: 0), ScoreBin(from: 1, to: 1, plays: 0),
            ScoreBin(from: 2, to: 2, plays: 0), ScoreBin(from: 3, to: 3, plays: 0), ScoreBin(from: 4, to: 4, plays: 0),
            ScoreBin(from: 5, to: 5, plays: 0), ScoreBin(from: 6, to: 6, plays: 0), ScoreBin(from: 7, to: 7, plays: 1)])
    }
}
