/// How many solves came at one stage of the reveal (1 = the first area shown).
public struct StageCount: Codable, Hashable, Sendable {
    public var stage: Int
    public var solved: Int

    public init(stage: Int, solved: Int) {
        self.stage = stage
        self.solved = solved
    }
}

/// How many plays scored from `from` to `to`, both included.
public struct ScoreBin: Codable, Hashable, Sendable {
    public var from: Int
    public var to: Int
    public var plays: Int

    public init(from: Int, to: Int, plays: Int) {
        self.from = from
        self.to = to
        self.plays = plays
    }
}

/// The distributions charts draw (the web's SVG, the terminal's bars), made once from counted rows so that every front
/// end shows the same numbers.
public enum Distribution {
    /// Every stage from 1 to the last that has a solve (or to `through`, when later), with its count; a stage nobody
    /// solved at is kept as 0 so that the bars of a chart stand for consecutive stages.
    public static func stages(_ counts: [Int: Int], through last: Int = 0) -> [StageCount] {
        let end = max(last, counts.filter { $0.value > 0 }.keys.max() ?? 0)
        guard end >= 1 else { return [] }
        return (1...end).map { StageCount(stage: $0, solved: counts[$0] ?? 0) }
    }

    /// Scores (`counts`: how many plays scored each) in at most `binCount` bins of one round width (1, 2 or 5 times a
    /// power of ten) from 0 to the highest score; empty when there is no play.
    public static func scoreBins(_ counts: [Int: Int], binCount: Int = 10) -> [ScoreBin] {
        let played = counts.filter { $0.value > 0 }
        guard let highest = played.keys.max(), binCount > 0 else { return [] }
        let top = max(0, highest)
        let width = roundWidth(atLeast: (top + binCount) / binCount)
        let bins = top / width + 1
        var result = (0..<bins).map { ScoreBin(from: $0 * width, to: ($0 + 1) * width - 1, plays: 0) }
        for (score, plays) in played { result[min(bins - 1, max(0, score) / width)].plays += plays }
        return result
    }

    /// The smallest of 1, 2, 5, 10, 20, 50, ... that is at least `minimum`.
    static func roundWidth(atLeast minimum: Int) -> Int {
        var power = 1
        while true {
            for step in [1, 2, 5] where step * power >= minimum { return step * power }
            power *= 10
        }
    }

    /// The bin `score` falls in, if any.
    public static func bin(of score: Int, in bins: [ScoreBin]) -> Int? {
        bins.firstIndex { $0.from <= score && score <= $0.to }
    }
}
