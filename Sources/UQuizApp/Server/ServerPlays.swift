import Foundation
import PosterArt
import PosterGrid
import QuizCore
import QuizStore
import Synchronization

/// How the server runs a play.
public struct PlayRules: Sendable {
    /// The pause before each quiz starts (the first one too): time for a client to fetch the poster and, after a quiz,
    /// to show its answer, without costing the player points.
    public var interlude: Duration
    /// How long a finished play stays in memory; afterwards it is read back from the store.
    public var finishedRetention: Duration
    /// The most plays held in memory at once; starting one more is refused until some finish.
    public var maxOpenPlays: Int
    /// The JPEG bytes of cut stage posters kept in memory.
    public var posterCacheBytes: Int

    public init(
        interlude: Duration = .seconds(3), finishedRetention: Duration = .seconds(600), maxOpenPlays: Int = 100_000,
        posterCacheBytes: Int = 64 << 20
    ) {
        self.interlude = interlude
        self.finishedRetention = finishedRetention
        self.maxOpenPlays = maxOpenPlays
        self.posterCacheBytes = posterCacheBytes
    }
}

/// A play as its player may see it now. Built only from what the server clock has reached: a quiz that has not ended
/// carries no answer, and none carries a TMDB id or a poster path.
public struct PlayView: Sendable, Equatable {
    public var id: String
    public var shareCode: String
    public var packageTitle: String
    /// The daily quiz's number when this play is one.
    public var dailyNumber: Int?
    public var finished: Bool
    /// Whether the finished play is the player's ranked one of the package; `nil` until it is stored.
    public var ranked: Bool?
    public var score: Int
    /// 1-based; `nil` once the play is over.
    public var currentQuiz: Int?
    public var quizzes: [QuizView]
    /// The line to paste, once the play is over.
    public var shareLine: String?
}

/// One quiz of a play as its player may see it now.
public struct QuizView: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// Not started: the next quiz shows when it starts, the ones after it do not know yet.
        case waiting
        case playing
        case solved
        case missed
        case skipped
    }

    public struct Answer: Sendable, Equatable {
        public var title: String
        public var year: String?
    }

    public var number: Int
    public var status: Status
    public var stageCount: Int
    /// Stages revealed so far (0 before the quiz starts; every stage once it has ended).
    public var stage: Int
    /// Milliseconds until the quiz starts, for the next quiz only.
    public var startsInMs: Int?
    /// Milliseconds until each stage is revealed (0 for those already revealed), while the quiz is played.
    public var stagesInMs: [Int]?
    /// Milliseconds until the time is up, while the quiz is played.
    public var endsInMs: Int?
    /// The hint, once asked for.
    public var hint: String?
    public var result: QuizResult?
    /// Only once the quiz has ended.
    public var answer: Answer?
}

/// A guess as judged: accepted, or why not. A rejection never names the answer (`digitsDiffer` alone would).
public struct GuessOutcome: Sendable, Equatable {
    public enum Judgement: String, Sendable {
        case accepted
        case empty
        case wrongNumber = "wrong_number"
        case anotherMovie = "another_movie"
        case wrong
    }

    public var judgement: Judgement
    public var play: PlayView
}

/// Plays judged by the server: a player starts one on a package, the server's monotonic clock runs its quizzes one
/// after another (each starts `interlude` after the previous ended), and guesses, hints and skips are judged by the
/// same `QuizRound` and `AnswerJudge` as the CLI's. Open plays are held in memory; a finished one is recorded (the
/// player's first finished play of a package being the ranked one) and later read back from the store.
///
/// The clock is injected: `now` is monotonic time, which only moves forward; tests drive it by hand.
public final class ServerPlays: Sendable {
    public let environment: SharingEnvironment
    public let levels: LevelRules
    public let rules: PlayRules
    private let now: @Sendable () -> Duration
    private let state = Mutex(State())
    private let posters: StagePosterCache<String>

    public init(
        environment: SharingEnvironment, levels: LevelRules, rules: PlayRules = .init(),
        now: @escaping @Sendable () -> Duration
    ) {
        self.environment = environment
        self.levels = levels
        self.rules = rules
        self.now = now
        posters = StagePosterCache(byteLimit: rules.posterCacheBytes)
    }

    public enum Problem: Error, Equatable {
        /// No play has this id (or it is not an id at all).
        case unknownPlay
        /// The play is another player's.
        case notYours
        /// The quiz number is outside the play.
        case noSuchQuiz(Int, quizCount: Int)
        /// The stage number is outside the quiz.
        case noSuchStage(Int, stageCount: Int)
        /// The quiz has not started; the next one starts in `startsIn` (unknown for those after it).
        case quizNotStarted(Int, startsIn: Duration?)
        /// The quiz has ended: no more guesses, hints or skips.
        case quizOver(Int)
        /// The package has no quiz with areas: nothing to play.
        case nothingToPlay
        /// The server holds as many plays as it may; try again later.
        case full
        /// The poster's pixels cannot be had now.
        case posterUnavailable
        /// No public quiz exists to be the daily one.
        case noDaily
        /// The day's quiz was deleted by its maker.
        case dailyDeleted(number: Int)
        /// The player has played today's daily quiz already (or is playing it).
        case dailyAlreadyPlayed(playId: String?)
        /// A play of the package is open, or finished and not stored yet: its quizzes cannot be replaced under it.
        case packageInPlay
        /// The package changed every time a play of it was about to start; try again.
        case packageChanging
    }

    /// A plan made before its package changed: the start is tried again on a fresh one.
    struct OutdatedPlan: Error {}

    // MARK: - Starting

    /// Starts a play of the package `shareCode` (any case) for `player`, on the server's clock from now.
    public func start(shareCode: String, by player: Player) throws -> PlayView {
        let package = try BrowsePackages(environment: environment).package(shareCode: shareCode)
        return try beginOnFreshPlan { try begin(plan: try plan(packageId: package.id, only: nil), player: player, daily: nil) }
    }

    /// Starts today's daily quiz for `player`: a play of that one quiz, once per player and day.
    public func startDaily(by player: Player) throws -> PlayView {
        let choice = try today()
        guard let packageId = choice.packageId, let position = choice.position else {
            throw Problem.dailyDeleted(number: choice.number)
        }
        if let stored = try environment.store().dailyPlayId(playerId: player.id, day: choice.day) {
            throw Problem.dailyAlreadyPlayed(playId: stored)
        }
        return try beginOnFreshPlan {
            try begin(plan: try plan(packageId: packageId, only: position), player: player, daily: (choice.day, choice.number))
        }
    }

    /// Runs `start`, again on a fresh plan when its package changed between planning and starting (an owner's update
    /// at that very moment); a package that keeps changing that fast is refused for now.
    private func beginOnFreshPlan(_ start: () throws -> PlayView) throws -> PlayView {
        for _ in 1...3 {
            do { return try start() } catch is OutdatedPlan { continue }
        }
        throw Problem.packageChanging
    }

    /// Runs `change` (an owner's update of package `packageId` in the store) while no play can start: when
    /// `quizzesChange`, only if no play of the package is open or waiting to be stored, since such a play would be
    /// judged or recorded on quizzes that are gone. Afterwards plans made of the old package are dropped and any made
    /// meanwhile refused, so every play started later sees the update. `change` runs under the plays' lock, so it
    /// holds up every play request for its few milliseconds: updates are rare, and this keeps the check and the
    /// change one step.
    public func changingPackage(_ packageId: Int64, quizzesChange: Bool, _ change: () throws -> Void) throws {
        try state.withLock { state in
            if quizzesChange {
                let inPlay = state.plays.values.contains { play in
                    guard play.plan.packageId == packageId else { return false }
                    switch play.storage {
                    case .stored, .abandoned: return false
                    case .notStored, .recording: return true
                    }
                }
                if inPlay { throw Problem.packageInPlay }
            }
            try change()
            state.packageVersions[packageId, default: 0] += 1
            state.plans = state.plans.filter { $0.key.packageId != packageId }
        }
    }

    private func begin(plan: PlayPlan, player: Player, daily: (day: String, number: Int)?) throws -> PlayView {
        guard !plan.rounds.isEmpty else { throw Problem.nothingToPlay }
        let id = Base64URL.encode(Data(environment.tokenBytes(16)))
        let instant = now()
        try sweep(at: instant)
        let play = OpenPlay(
            id: id, player: player, plan: plan, startedAt: environment.app.now(), dailyDay: daily?.day,
            dailyNumber: daily?.number, startInstant: instant, nextStart: instant + rules.interlude)
        return try state.withLock { state in
            guard plan.version == state.packageVersions[plan.packageId, default: 0] else { throw OutdatedPlan() }
            guard state.plays.count < rules.maxOpenPlays else { throw Problem.full }
            if let day = daily?.day {
                let key = OpenPlay.dailyKey(player.id, day)
                if let open = state.openDaily[key] { throw Problem.dailyAlreadyPlayed(playId: open) }
                state.openDaily[key] = id
            }
            state.plays[id] = play
            return play.view(at: instant, interlude: rules.interlude)
        }
    }

    // MARK: - Playing

    /// The play as it stands on the server's clock now.
    public func view(playId: String, by player: Player) throws -> PlayView {
        let instant = now()
        if let view = try withOpenPlay(playId, player, at: instant, { play in play.view(at: instant, interlude: rules.interlude) }) {
            return view
        }
        return try storedView(playId: playId, player: player)
    }

    /// Judges a guess at quiz `quiz` (1-based), which must be the one being played.
    public func guess(playId: String, quiz: Int, text: String, by player: Player) throws -> GuessOutcome {
        let instant = now()
        let outcome = try withOpenPlay(playId, player, at: instant) { play -> GuessOutcome in
            try play.requirePlaying(quiz, at: instant)
            var verdict: Verdict?
            for event in play.round!.guess(text, at: instant) {
                if case .guessed(_, _, let judged, _) = event { verdict = judged }
            }
            play.endIfOver(at: instant, interlude: rules.interlude)
            return GuessOutcome(judgement: Self.judgement(verdict), play: play.view(at: instant, interlude: rules.interlude))
        }
        guard let outcome else { throw try problemForStoredPlay(playId, player, quiz: quiz) }
        return outcome
    }

    /// The hint of quiz `quiz` (1-based), which must be the one being played; the first ask halves its score.
    public func hint(playId: String, quiz: Int, by player: Player) throws -> HintOutcome {
        let instant = now()
        let result = try withOpenPlay(playId, player, at: instant) { play -> HintOutcome in
            try play.requirePlaying(quiz, at: instant)
            _ = play.round!.hint(at: instant)
            return HintOutcome(hint: play.round!.hintText, play: play.view(at: instant, interlude: rules.interlude))
        }
        guard let result else { throw try problemForStoredPlay(playId, player, quiz: quiz) }
        return result
    }

    /// Gives up quiz `quiz` (1-based), which must be the one being played: it scores 0 and its answer shows.
    public func skip(playId: String, quiz: Int, by player: Player) throws -> PlayView {
        let instant = now()
        let view = try withOpenPlay(playId, player, at: instant) { play -> PlayView in
            try play.requirePlaying(quiz, at: instant)
            _ = play.round!.skip(at: instant)
            play.endIfOver(at: instant, interlude: rules.interlude)
            return play.view(at: instant, interlude: rules.interlude)
        }
        guard let view else { throw try problemForStoredPlay(playId, player, quiz: quiz) }
        return view
    }

    /// The poster of quiz `quiz` (1-based) as a JPEG: while it is played, with only the areas of stages 1 to `stage`
    /// visible, where a stage the clock has not reached counts as the current one (never more); once it has ended, the
    /// whole poster.
    public func poster(playId: String, quiz: Int, stage: Int?, by player: Player) throws -> Data {
        let instant = now()
        let sight = try withOpenPlay(playId, player, at: instant) { play -> PosterSight in
            try play.checkQuiz(quiz)
            let round = play.plan.rounds[quiz - 1]
            if let stage, !(1...round.quiz.areas.count).contains(stage) {
                throw Problem.noSuchStage(stage, stageCount: round.quiz.areas.count)
            }
            if quiz - 1 < play.ended.count { return PosterSight(quiz: round.quiz, revealed: nil) }
            guard quiz - 1 == play.current, let state = play.round else {
                throw Problem.quizNotStarted(quiz, startsIn: play.startsIn(quiz, at: instant))
            }
            let shown = min(stage ?? state.revealedStages, state.revealedStages)
            return PosterSight(quiz: round.quiz, revealed: Array(round.quiz.areas.prefix(shown)))
        }
        let seen: PosterSight
        if let sight {
            seen = sight
        } else {
            // A play no longer in memory is over: every quiz of it has ended, and shows whole.
            let stored = try storedPlay(playId: playId, player: player)
            guard quiz >= 1, quiz <= stored.quizzes.count else {
                throw Problem.noSuchQuiz(quiz, quizCount: stored.quizzes.count)
            }
            seen = PosterSight(quiz: stored.quizzes[quiz - 1], revealed: nil)
        }
        let loader = PosterLoader(environment: environment.app)
        guard let revealed = seen.revealed else {
            do { return try loader.jpeg(for: seen.quiz) } catch { throw Problem.posterUnavailable }
        }
        let key = StagePosterCache<String>.Key(
            poster: "\(seen.quiz.posterSource.rawValue):\(seen.quiz.posterPath)", geometry: seen.quiz.geometry,
            revealed: revealed)
        do {
            return try posters.cut(key) { () throws(PosterUnavailable) -> Data in try loader.jpeg(for: seen.quiz) }
        } catch {
            throw Problem.posterUnavailable
        }
    }

    /// How many plays are in memory now, open or recently finished.
    public var heldPlays: Int { state.withLock { $0.plays.count } }

    // MARK: - The daily quiz

    /// Today's daily quiz (today in UTC by the environment's wall clock), chosen on the first ask of the day.
    public func today() throws -> DailyChoice {
        let date = environment.app.now()
        let day = Self.dayText(date)
        // Read first: only the day's first ask needs a write.
        if let known = try environment.store().dailyChoice(day: day) { return known }
        let choice = try environment.store().daily(
            day: day, chosenAt: date,
            number: { first in first.flatMap { Self.daysBetween($0, day) }.map { $0 + 1 } ?? 1 },
            pick: { candidates in
                // Drawn with the day itself as the seed: the same day on the same candidates draws the same quiz.
                var generator = AreaLayout.SeededGenerator(seed: UInt64(bitPattern: Int64(Self.dayIndex(date))))
                return Int.random(in: 0..<candidates.count, using: &generator)
            })
        guard let choice else { throw Problem.noDaily }
        return choice
    }

    /// A player's run of consecutive days with the daily quiz solved, up to today (or yesterday, while today's is not
    /// solved yet), and their best run.
    public func streak(of player: Player) throws -> (current: Int, best: Int) {
        let solvedDays = Set(try environment.store().dailyResults(playerId: player.id).filter(\.solved).compactMap {
            Self.dayIndex(of: $0.day)
        })
        let today = Self.dayIndex(environment.app.now())
        var day = solvedDays.contains(today) ? today : today - 1
        var current = 0
        while solvedDays.contains(day) {
            current += 1
            day -= 1
        }
        var best = 0
        for start in solvedDays where !solvedDays.contains(start - 1) {
            var length = 1
            while solvedDays.contains(start + length) { length += 1 }
            best = max(best, length)
        }
        return (current, best)
    }

    /// The daily play a player finished or is playing today, if any.
    public func dailyPlay(of player: Player, day: String) throws -> PlayView? {
        let open = state.withLock { $0.openDaily[OpenPlay.dailyKey(player.id, day)] }
        if let id = try open ?? environment.store().dailyPlayId(playerId: player.id, day: day) {
            return try view(playId: id, by: player)
        }
        return nil
    }

    static func dayText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// Days since 1970-01-01, UTC.
    static func dayIndex(_ date: Date) -> Int { Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }

    static func dayIndex(of text: String) -> Int? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.date(from: text).map(dayIndex)
    }

    static func daysBetween(_ first: String, _ day: String) -> Int? {
        guard let from = dayIndex(of: first), let to = dayIndex(of: day) else { return nil }
        return to - from
    }

    // MARK: - Inside

    /// The quizzes of a package as the server plays them: in the package's order, those with areas, with their judges.
    /// Plans are shared by every play of a package, so many open plays of one package hold one copy.
    struct PlayPlan: Sendable {
        var packageId: Int64
        var shareCode: ShareCode
        var title: String
        var loop: SolveLoop
        var rounds: [SolveRound] { loop.rounds }
        var quizIDs: [Int64]
        /// How many times the package had changed when this plan was made of it.
        var version: Int
    }

    private func plan(packageId: Int64, only position: Int?) throws -> PlayPlan {
        let key = PlanKey(packageId: packageId, position: position)
        // The version is read before the package is: a change after this point makes the plan outdated, not wrong.
        let (cached, version) = state.withLock { ($0.plans[key], $0.packageVersions[packageId, default: 0]) }
        if let cached { return cached }
        let store = try environment.app.store()
        let package = try store.package(id: packageId)
        let ids = try store.quizIDs(packageId: packageId)
        let catalog = try store.allCatalogMovies()
        var indices = package.quizzes.indices.filter { !package.quizzes[$0].areas.isEmpty }
        if let position { indices = indices.filter { $0 == position } }
        let rounds = indices.enumerated().map { number, index in
            SolveRound(
                quiz: package.quizzes[index], judge: AnswerJudge(quiz: package.quizzes[index], catalog: catalog),
                number: number + 1)
        }
        let plan = PlayPlan(
            packageId: packageId, shareCode: package.shareCode, title: package.title,
            loop: SolveLoop(rounds: rounds, levels: levels, level: package.level, timeScale: 1),
            quizIDs: indices.map { ids[$0] }, version: version)
        state.withLock { state in
            // An update drops a package's plans (`changingPackage`); one made of the package before it is not kept.
            guard version == state.packageVersions[packageId, default: 0] else { return }
            if state.plans.count >= 256 { state.plans.removeAll() }
            state.plans[key] = plan
        }
        return plan
    }

    struct PlanKey: Hashable {
        var packageId: Int64
        var position: Int?
    }

    struct PosterSight {
        var quiz: Quiz
        /// The areas to show, or `nil` for the whole poster.
        var revealed: [Cell]?
    }

    struct State {
        var plays: [String: OpenPlay] = [:]
        /// "player|day" of daily plays in memory, to refuse a second one before the first is stored.
        var openDaily: [String: String] = [:]
        var plans: [PlanKey: PlayPlan] = [:]
        /// How many times each package was changed by its owner since the server started (absent: never).
        var packageVersions: [Int64: Int] = [:]
        var lastSweep: Duration?
    }

    /// Runs `body` on the play in memory after bringing it to `instant`, then records it if it has just finished.
    /// `nil` when the play is not in memory (unknown, or finished and let go).
    private func withOpenPlay<Value: CarriesPlayView>(
        _ playId: String, _ player: Player, at instant: Duration, _ body: (inout OpenPlay) throws -> Value
    ) throws -> Value? {
        guard Self.isPlayId(playId) else { throw Problem.unknownPlay }
        try sweep(at: instant)
        let (value, toRecord) = try state.withLock { state -> (Value?, OpenPlay?) in
            guard var play = state.plays[playId] else { return (nil, nil) }
            guard play.player.id == player.id else { throw Problem.notYours }
            play.advance(to: instant, interlude: rules.interlude)
            // The play is written back whatever `body` throws: the clock has moved it on either way.
            defer { state.plays[playId] = play }
            let value = try body(&play)
            var toRecord: OpenPlay?
            if play.isFinished, play.storage == .notStored {
                play.storage = .recording
                toRecord = play
            }
            return (value, toRecord)
        }
        if let toRecord { record(toRecord) }
        // The view was made before the play was stored: it learns now whether the store ranked it.
        guard var value else { return nil }
        if toRecord != nil, let ranked = state.withLock({ $0.plays[playId]?.ranked }) { value.setRanked(ranked) }
        return value
    }

    /// How many times a finished play is offered to the store before it is given up.
    static let recordTries = 3

    /// Stores a finished play; on failure it is tried again on the next ask or sweep.
    private func record(_ play: OpenPlay) {
        let results = play.ended.map(\.result)
        let elapsed = results.reduce(0) { $0 + $1.seconds }
        let outcome: PlayStorage
        do {
            let ranked = try environment.store().recordServerPlay(
                publicId: play.id, packageId: play.plan.packageId, player: play.player, startedAt: play.startedAt,
                finishedAt: environment.app.now(), score: results.reduce(0) { $0 + $1.score }, elapsedSeconds: elapsed,
                dailyDay: play.dailyDay,
                attempts: zip(play.plan.quizIDs, play.ended).map {
                    AppDatabase.Attempt(quizId: $0, endedAt: $1.endedAt, result: $1.result)
                })
            outcome = .stored(ranked: ranked)
        } catch {
            // A store that is busy now may take it later; a play it refuses every time (its package deleted since,
            // say) is given up after a few tries, so it does not fill the log and the memory for ever.
            let tries = play.recordFailures + 1
            environment.app.log(
                "play \(play.id) could not be stored (try \(tries) of \(Self.recordTries)): \(error)")
            outcome = tries >= Self.recordTries ? .abandoned : .notStored
        }
        state.withLock { state in
            state.plays[play.id]?.storage = outcome
            if outcome == .notStored { state.plays[play.id]?.recordFailures += 1 }
            if outcome == .abandoned, let day = play.dailyDay {
                state.openDaily[OpenPlay.dailyKey(play.player.id, day)] = nil
            }
            if case .stored = outcome, let day = play.dailyDay {
                state.openDaily[OpenPlay.dailyKey(play.player.id, day)] = nil
            }
        }
    }

    /// At most every few seconds, on any request about plays: brings every play to now, stores those that finished
    /// with nobody asking (their quizzes ran out of time), and lets go of those finished longer than
    /// `finishedRetention` ago. Plays still open when the process stops are lost; finished ones are all stored.
    private func sweep(at instant: Duration) throws {
        let finished = state.withLock { state -> [OpenPlay] in
            if let last = state.lastSweep, instant - last < .seconds(5) { return [] }
            state.lastSweep = instant
            var toRecord: [OpenPlay] = []
            for id in Array(state.plays.keys) {
                guard var play = state.plays[id] else { continue }
                play.advance(to: instant, interlude: rules.interlude)
                if let over = play.finishedAt, play.storage.isSettled, instant - over > rules.finishedRetention
                {
                    state.plays[id] = nil
                    continue
                }
                if play.isFinished, play.storage == .notStored {
                    play.storage = .recording
                    toRecord.append(play)
                }
                state.plays[id] = play
            }
            return toRecord
        }
        for play in finished { record(play) }
    }

    private func storedPlay(playId: String, player: Player) throws -> (play: StoredServerPlay, quizzes: [Quiz]) {
        guard let stored = try environment.store().serverPlay(publicId: playId) else { throw Problem.unknownPlay }
        guard stored.playerId == player.id else { throw Problem.notYours }
        let store = try environment.app.store()
        let package = try store.package(id: stored.packageId)
        let ids = try store.quizIDs(packageId: stored.packageId)
        let byId = Dictionary(uniqueKeysWithValues: zip(ids, package.quizzes))
        return (stored, stored.attempts.compactMap { byId[$0.quizId] })
    }

    private func storedView(playId: String, player: Player) throws -> PlayView {
        let (stored, quizzes) = try storedPlay(playId: playId, player: player)
        let package = try environment.app.store().package(id: stored.packageId)
        var dailyNumber: Int?
        if let day = stored.dailyDay {
            dailyNumber = try environment.store().dailyChoice(day: day)?.number
        }
        let results = stored.attempts.map(\.result)
        let views = zip(quizzes, results).enumerated().map { index, pair in
            QuizView.ended(number: index + 1, quiz: pair.0, result: pair.1, hint: nil)
        }
        return PlayView(
            id: stored.publicId, shareCode: package.shareCode.value, packageTitle: package.title, dailyNumber: dailyNumber,
            finished: true, ranked: stored.ranked, score: stored.score, currentQuiz: nil, quizzes: views,
            shareLine: OpenPlay.shareLine(code: package.shareCode, daily: dailyNumber, results: results))
    }

    /// Why a guess, hint or skip cannot go to a play that is not in memory: it is over (or unknown, or not yours).
    private func problemForStoredPlay(_ playId: String, _ player: Player, quiz: Int) throws -> Problem {
        let (_, quizzes) = try storedPlay(playId: playId, player: player)
        guard quiz >= 1, quiz <= quizzes.count else { return .noSuchQuiz(quiz, quizCount: quizzes.count) }
        return .quizOver(quiz)
    }

    static func isPlayId(_ text: String) -> Bool {
        text.utf8.count == 22 && text.utf8.allSatisfy(Base64URL.isAlphabet)
    }

    static func judgement(_ verdict: Verdict?) -> GuessOutcome.Judgement {
        switch verdict {
        case .accepted: .accepted
        case .rejected(.emptyGuess), nil: .empty
        case .rejected(.digitsDiffer): .wrongNumber
        case .rejected(.titleOfAnotherMovie): .anotherMovie
        case .rejected(.tooFar): .wrong
        }
    }
}

/// The hint of a quiz, and the play after asking for it.
public struct HintOutcome: Sendable, Equatable {
    public var hint: String
    public var play: PlayView
}

/// What an operation on a play answers with: it holds the play's view, which learns whether the play is ranked once
/// it has been stored.
protocol CarriesPlayView {
    mutating func setRanked(_ ranked: Bool)
}

extension PlayView: CarriesPlayView {
    mutating func setRanked(_ ranked: Bool) { self.ranked = ranked }
}

extension GuessOutcome: CarriesPlayView {
    mutating func setRanked(_ ranked: Bool) { play.ranked = ranked }
}

extension HintOutcome: CarriesPlayView {
    mutating func setRanked(_ ranked: Bool) { play.ranked = ranked }
}

extension ServerPlays.PosterSight: CarriesPlayView {
    mutating func setRanked(_ ranked: Bool) {}
}

enum PlayStorage: Equatable {
    case notStored
    case recording
    case stored(ranked: Bool)
    /// The store refused it every time it was offered.
    case abandoned

    /// Nothing more will be done about storing it.
    var isSettled: Bool {
        switch self {
        case .stored, .abandoned: true
        case .notStored, .recording: false
        }
    }
}

/// One play in the server's memory: which quiz is on, its `QuizRound`, and how the ones before it ended.
struct OpenPlay {
    struct Ended {
        var result: QuizResult
        /// Instant on the monotonic clock, and wall time for the record.
        var at: Duration
        var endedAt: Date
        var hint: String?
    }

    let id: String
    let player: Player
    let plan: ServerPlays.PlayPlan
    let startedAt: Date
    /// The monotonic instant the play started.
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
    var storage = PlayStorage.notStored
    var recordFailures = 0

    init(
        id: String, player: Player, plan: ServerPlays.PlayPlan, startedAt: Date, dailyDay: String?, dailyNumber: Int?,
        startInstant: Duration, nextStart: Duration
    ) {
        self.startInstant = startInstant
        self.id = id
        self.player = player
        self.plan = plan
        self.startedAt = startedAt
        self.dailyDay = dailyDay
        self.dailyNumber = dailyNumber
        self.nextStart = nextStart
    }

    static func dailyKey(_ playerId: Int64, _ day: String) -> String { "\(playerId)|\(day)" }

    var isFinished: Bool { finishedAt != nil }

    var ranked: Bool? {
        if case .stored(let ranked) = storage { return ranked }
        return nil
    }

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
        ended.append(Ended(result: result, at: instant, endedAt: endedAt, hint: (round?.hintsUsed ?? 0) > 0 ? round?.hintText : nil))
        current += 1
        round = nil
        nextStart = instant + interlude
        if current >= plan.rounds.count { finishedAt = instant }
    }

    func checkQuiz(_ number: Int) throws {
        guard number >= 1, number <= plan.rounds.count else {
            throw ServerPlays.Problem.noSuchQuiz(number, quizCount: plan.rounds.count)
        }
    }

    /// Guesses, hints and skips go to the quiz being played only.
    func requirePlaying(_ number: Int, at now: Duration) throws {
        try checkQuiz(number)
        if number - 1 < ended.count { throw ServerPlays.Problem.quizOver(number) }
        guard number - 1 == current, round != nil else {
            throw ServerPlays.Problem.quizNotStarted(number, startsIn: startsIn(number, at: now))
        }
    }

    /// How long until quiz `number` starts, when it is the next one.
    func startsIn(_ number: Int, at now: Duration) -> Duration? {
        number - 1 == current && round == nil ? max(.zero, nextStart - now) : nil
    }

    func view(at now: Duration, interlude: Duration) -> PlayView {
        var quizzes: [QuizView] = []
        for (index, round) in plan.rounds.enumerated() {
            let stageCount = round.quiz.areas.count
            if index < ended.count {
                quizzes.append(.ended(number: index + 1, quiz: round.quiz, result: ended[index].result, hint: ended[index].hint))
            } else if index == current, let state = self.round {
                let stages = (0..<stageCount).map { stage in
                    state.schedule.window(ofStage: stage).start.map { Self.milliseconds($0 - now) } ?? 0
                }
                quizzes.append(QuizView(
                    number: index + 1, status: .playing, stageCount: stageCount, stage: state.revealedStages,
                    stagesInMs: stages, endsInMs: state.schedule.deadline.map { Self.milliseconds($0 - now) },
                    hint: state.hintsUsed > 0 ? state.hintText : nil))
            } else {
                quizzes.append(QuizView(
                    number: index + 1, status: .waiting, stageCount: stageCount, stage: 0,
                    startsInMs: index == current ? Self.milliseconds(nextStart - now) : nil))
            }
        }
        let results = ended.map(\.result)
        return PlayView(
            id: id, shareCode: plan.shareCode.value, packageTitle: plan.title, dailyNumber: dailyNumber,
            finished: isFinished, ranked: ranked, score: results.reduce(0) { $0 + $1.score },
            currentQuiz: isFinished ? nil : current + 1, quizzes: quizzes,
            shareLine: isFinished ? Self.shareLine(code: plan.shareCode, daily: dailyNumber, results: results) : nil)
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

extension QuizView {
    static func ended(number: Int, quiz: Quiz, result: QuizResult, hint: String?) -> QuizView {
        let status: Status =
            switch result.outcome {
            case .solved: .solved
            case .missed: .missed
            case .skipped: .skipped
            }
        return QuizView(
            number: number, status: status, stageCount: quiz.areas.count, stage: quiz.areas.count, hint: hint,
            result: result, answer: Answer(title: quiz.title, year: quiz.releaseYear))
    }
}
