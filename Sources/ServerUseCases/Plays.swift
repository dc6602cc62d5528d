import Foundation
import PosterArt
import PosterGrid
import QuizCore
import UQuizRules
import UQuizStorage

/// How the server runs a play.
public struct PlayRules: Sendable {
    /// The pause before each quiz starts (the first one too): time for a client to fetch the poster and, after a quiz,
    /// to show its answer, without costing the player points.
    public var interlude: Duration
    /// The most plays open at once (across every instance on the store); starting one more is refused until some end.
    public var maxOpenPlays: Int
    /// The JPEG bytes of cut stage posters kept in memory.
    public var posterCacheBytes: Int
    /// How often each instance records the plays whose time ran out with nobody asking (`sweepOverdue`).
    public var sweepInterval: Duration

    public init(
        interlude: Duration = .seconds(3), maxOpenPlays: Int = 100_000, posterCacheBytes: Int = 64 << 20,
        sweepInterval: Duration = .seconds(5)
    ) {
        self.interlude = interlude
        self.maxOpenPlays = maxOpenPlays
        self.posterCacheBytes = posterCacheBytes
        self.sweepInterval = sweepInterval
    }
}

/// Plays judged by the server: a player starts one on a package, the servers' shared clock runs its quizzes one after
/// another (each starts `interlude` after the previous ended), and guesses, hints and skips are judged by the same
/// `QuizRound` and `AnswerJudge` as the CLI's.
///
/// No play lives in this object's memory: an open play is a record in the store (`OpenPlayRecord`: who, what, when it
/// started, and what the player did when), and every request rebuilds the play by replaying that record through
/// `QuizRound` up to now. So any server instance on the same store takes any request of any play, a restarted instance
/// loses nothing, and a change is saved under the store's lock on the play, so two instances never act on one play at
/// once. When the play ends it leaves the open plays and is recorded in the same transaction (the player's first
/// finished play of a package being the ranked one); later it is read back from the store.
///
/// The clock is injected: `now` is the shared clock (`SharedClock`: the database server's time, read through each
/// instance's monotonic clock), which only moves forward; tests drive it by hand. Instants are kept to the microsecond,
/// as they are stored, so a replay sees exactly what the request that saved an action saw.
public final class Plays: Sendable {
    public let environment: SharingEnvironment
    public let levels: LevelRules
    public let rules: PlayRules
    private let now: @Sendable () -> Duration
    private let plans: RefreshingCache<Int64, PlayPlan>
    private let posters: StagePosterCache<String>
    /// The package a share code names, as last read from the store (a visible one), for `packageLifetime`: a link
    /// shared widely starts many plays at once, and each would read the whole package only to find its id. A change
    /// to the package drops it at once (`packageChanged`); what may lag by that long is a moderator's hiding, as the
    /// package's own page does.
    private let packageIds: ExpiringMap<String, Int64>
    static let packageLifetime: Duration = .seconds(1)

    /// How long an instance uses its plan of a package before making it again in the background. A change to the
    /// package drops the plan at once (`packageChanged`, fed by the store's change feed on every instance); what can lag
    /// by this long is only the catalog's titles and aliases, which the judges refuse or accept. Quizzes cannot change
    /// under an open play (the store refuses it), and a play is never started on an outdated plan (the store checks
    /// its quiz ids).
    static let planLifetime: Duration = .seconds(60)

    public init(
        environment: SharingEnvironment, levels: LevelRules, rules: PlayRules = .init(),
        now: @escaping @Sendable () -> Duration
    ) {
        self.environment = environment
        self.levels = levels
        self.rules = rules
        self.now = now
        plans = RefreshingCache(lifetime: Self.planLifetime, capacity: 256, now: now)
        posters = StagePosterCache(byteLimit: rules.posterCacheBytes)
        packageIds = ExpiringMap(lifetime: Self.packageLifetime, capacity: 10_000)
    }

    // MARK: - Starting

    /// A play started, or the player's open play of the package resumed: a player plays a package once at a time, so
    /// that what one play shows (a skip shows the answer) cannot be typed into another.
    public struct Start: Sendable {
        public var view: PlayView
        public var resumed: Bool
    }

    /// Starts a play of the package `shareCode` (any case) for `player`, on the server's clock from now, or resumes
    /// the player's play of it that is still open.
    public func start(shareCode: String, by player: Player) async throws -> Start {
        let key = shareCode.uppercased()
        let kept = packageIds.value(for: key, at: now())
        return try await beginOnFreshPlan { fresh in
            // A plan the store finds outdated may be a package deleted or replaced since its id was kept: the retry
            // asks the store which package the code names now (and says so when none does).
            let packageId: Int64
            if let kept, !fresh {
                packageId = kept
            } else {
                let instant = now()
                packageId = try await Packages(environment: environment).package(shareCode: shareCode).id
                packageIds.set(packageId, for: key, at: instant)
            }
            return try await begin(plan: try await plan(packageId: packageId, fresh: fresh), player: player, daily: nil)
        }
    }

    /// Starts a play of `plan`, or resumes the player's open play of its package; one that has just ended is recorded
    /// by being looked at, and a new one starts.
    private func begin(
        plan: PlayPlan, player: Player, daily: (day: String, number: Int)?, archivedDay: String? = nil
    ) async throws -> Start {
        for _ in 0..<3 {
            do {
                return Start(
                    view: try await beginNew(plan: plan, player: player, daily: daily, archivedDay: archivedDay),
                    resumed: false)
            } catch OpenPlayRefusal.packageOpen(let playId) {
                let open = try await view(playId: playId, by: player)
                if !open.finished { return Start(view: open, resumed: true) }
            }
        }
        throw PlayError.packageChanging
    }

    /// Starts today's daily quiz in `language` for `player`: a play of that one quiz, once per player and day (in
    /// whichever language: a streak counts days).
    public func startDaily(by player: Player, language: QuizLanguage) async throws -> PlayView {
        let choice = try await today(language: language)
        guard let packageId = choice.packageId, let quizId = choice.quizId else {
            throw PlayError.dailyDeleted(number: choice.number)
        }
        if let stored = try await environment.store().dailyPlayId(playerId: player.id, day: choice.day) {
            throw PlayError.dailyAlreadyPlayed(playId: stored)
        }
        return try await beginOnFreshPlan { fresh in
            try await begin(
                plan: try await plan(packageId: packageId, fresh: fresh).restricted(to: quizId), player: player,
                daily: (choice.day, choice.number))
        }.view
    }

    /// Starts a play of a past day's daily quiz in `language` from the archive: that one quiz, unranked
    /// (`UnrankedReason.dailyArchive`) and outside the streak, as often as the player likes; an open play of it is
    /// resumed.
    public func startArchivedDaily(day: String, language: QuizLanguage, by player: Player) async throws -> PlayView {
        guard day < Self.dayText(environment.now()),
            let choice = try await environment.store().dailyChoice(day: day, language: language)
        else { throw PlayError.noArchivedDaily(day: day) }
        guard let packageId = choice.packageId, let quizId = choice.quizId else {
            throw PlayError.dailyDeleted(number: choice.number)
        }
        return try await beginOnFreshPlan { fresh in
            try await begin(
                plan: try await plan(packageId: packageId, fresh: fresh).restricted(to: quizId), player: player,
                daily: nil, archivedDay: day)
        }.view
    }

    /// Runs `start`, on a plan read fresh from the store when the store found the cached one outdated (its owner
    /// replaced the quizzes meanwhile); a package that keeps changing that fast is refused for now.
    private func beginOnFreshPlan(_ start: (_ fresh: Bool) async throws -> Start) async throws -> Start {
        for attempt in 0..<3 {
            do { return try await start(attempt > 0) } catch OpenPlayRefusal.outdatedPlan { continue }
        }
        throw PlayError.packageChanging
    }

    /// Forgets this instance's plan of a package its owner has just changed, so the next play here reads it afresh.
    public func packageChanged(_ packageId: Int64) {
        plans.forget(packageId)
        packageIds.removeAll { $0 == packageId }
    }

    /// Forgets every plan: changes may have been missed.
    public func forgetAllPlans() {
        plans.forgetAll()
        packageIds.removeAll { _ in true }
    }

    private func beginNew(
        plan: PlayPlan, player: Player, daily: (day: String, number: Int)?, archivedDay: String?
    ) async throws -> PlayView {
        guard !plan.rounds.isEmpty else { throw PlayError.nothingToPlay }
        let instant = currentInstant()
        let record = OpenPlayRecord(
            id: Base64URL.encode(Data(environment.tokenBytes(16))), playerId: player.id, playerName: player.name,
            packageId: plan.packageId, quizIds: plan.quizIDs, dailyDay: daily?.day, dailyNumber: daily?.number,
            archivedDailyDay: archivedDay, startedAt: environment.now(), startMicros: Self.micros(instant),
            endsByMicros: Self.micros(plan.latestEnd(startingAt: instant, interlude: rules.interlude)))
        do {
            try await environment.store().insertOpenPlay(record, maxOpen: rules.maxOpenPlays)
        } catch OpenPlayRefusal.full {
            throw PlayError.full
        } catch OpenPlayRefusal.dailyOpen(let playId) {
            throw PlayError.dailyAlreadyPlayed(playId: playId)
        }
        ServerCounters.playStarted(daily: daily != nil)
        return OpenPlay.replay(record, plan: plan, to: instant, interlude: rules.interlude)
            .view(at: instant, interlude: rules.interlude)
    }

    // MARK: - Playing

    /// The play as it stands on the server's clock now.
    public func view(playId: String, by player: Player) async throws -> PlayView {
        if let view = try await readOpenPlay(playId, player, { play, instant in play.view(at: instant, interlude: self.rules.interlude) }) {
            return view
        }
        return try await storedView(playId: playId, player: player)
    }

    /// Judges a guess at quiz `quiz` (1-based), which must be the one being played; the whole play comes with the
    /// change only when `wholePlay` asks for it.
    public func guess(
        playId: String, quiz: Int, text: String, by player: Player, wholePlay: Bool = false
    ) async throws -> GuessOutcome {
        let interlude = rules.interlude
        let outcome = try await act(playId, player, quiz: quiz, .guess, text: text) { play, verdict, instant in
            GuessOutcome(
                judgement: Self.judgement(verdict), change: play.change(from: quiz, at: instant),
                play: wholePlay ? play.view(at: instant, interlude: interlude) : nil)
        }
        ServerCounters.guessJudged(in: "play")
        return outcome
    }

    /// The hint of quiz `quiz` (1-based), which must be the one being played; the first ask halves its score.
    public func hint(playId: String, quiz: Int, by player: Player) async throws -> HintOutcome {
        try await act(playId, player, quiz: quiz, .hint, text: nil) { play, _, instant in
            HintOutcome(
                hint: play.plan.rounds[quiz - 1].hint,
                play: play.view(at: instant, interlude: self.rules.interlude))
        }
    }

    /// Gives up quiz `quiz` (1-based), which must be the one being played: it scores 0 and its answer shows.
    public func skip(playId: String, quiz: Int, by player: Player) async throws -> PlayView {
        try await act(playId, player, quiz: quiz, .skip, text: nil) { play, _, instant in
            play.view(at: instant, interlude: self.rules.interlude)
        }
    }

    /// The poster of quiz `quiz` (1-based) as a JPEG: while it is played, with only the areas of stages 1 to `stage`
    /// visible, where a stage the clock has not reached counts as the current one (never more); once it has ended, the
    /// whole poster.
    public func poster(playId: String, quiz: Int, stage: Int?, by player: Player) async throws -> Data {
        let sight = try await readOpenPlay(playId, player) { play, instant -> PosterSight in
            try play.checkQuiz(quiz)
            let round = play.plan.rounds[quiz - 1]
            if let stage, !(1...round.quiz.areas.count).contains(stage) {
                throw PlayError.noSuchStage(stage, stageCount: round.quiz.areas.count)
            }
            if quiz - 1 < play.ended.count { return PosterSight(quiz: round.quiz, revealed: nil) }
            guard quiz - 1 == play.current, let state = play.round else {
                throw PlayError.quizNotStarted(quiz, startsIn: play.startsIn(quiz, at: instant))
            }
            let shown = min(stage ?? state.revealedStages, state.revealedStages)
            return PosterSight(quiz: round.quiz, revealed: Array(round.quiz.areas.prefix(shown)))
        }
        let seen: PosterSight
        if let sight {
            seen = sight
        } else {
            // A play that is not open is over: every quiz of it has ended, and shows whole.
            let stored = try await storedPlay(playId: playId, player: player)
            guard quiz >= 1, quiz <= stored.quizzes.count else {
                throw PlayError.noSuchQuiz(quiz, quizCount: stored.quizzes.count)
            }
            seen = PosterSight(quiz: stored.quizzes[quiz - 1], revealed: nil)
        }
        do {
            return try await QuizPosters(environment: environment).poster(of: seen.quiz, revealed: seen.revealed, cache: posters)
        } catch {
            throw PlayError.posterUnavailable
        }
    }

    // MARK: - The daily quiz

    /// Today's daily quiz in `language` (today in UTC by the environment's wall clock), chosen on the first ask of
    /// the day from the packages in that language.
    public func today(language: QuizLanguage) async throws -> DailyChoice {
        let date = environment.now()
        let day = Self.dayText(date)
        // Read first: only the day's first ask needs a write.
        if let known = try await environment.store().dailyChoice(day: day, language: language) { return known }
        let choice = try await environment.store().daily(
            day: day, language: language, chosenAt: date, among: environment.reachesTMDB ? .everyQuiz : .postersHeld,
            number: { first in first.flatMap { Self.daysBetween($0, day) }.map { $0 + 1 } ?? 1 },
            pick: { candidates in
                // Drawn with the day itself as the seed: the same day on the same candidates draws the same quiz.
                var generator = AreaLayout.SeededGenerator(seed: UInt64(bitPattern: Int64(Self.dayIndex(date))))
                return Int.random(in: 0..<candidates.count, using: &generator)
            })
        guard let choice else { throw PlayError.noDaily(language) }
        return choice
    }

    /// A player's run of consecutive days with the daily quiz solved, up to today (or yesterday, while today's is not
    /// solved yet), their best run, and their daily plays of the last few weeks.
    public func streak(of player: Player) async throws -> DailyStreak {
        let results = try await environment.store().dailyResults(playerId: player.id)
        let solvedDays = Set(results.filter(\.solved).compactMap { Self.dayIndex(of: $0.day) })
        let today = Self.dayIndex(environment.now())
        let recent = results.filter { result in
            Self.dayIndex(of: result.day).map { today - $0 < DailyStreak.calendarDays && $0 <= today } ?? false
        }.sorted { $0.day < $1.day }.map { DailyStreak.Day(day: $0.day, solved: $0.solved) }
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
        return DailyStreak(current: current, best: best, recentDays: recent)
    }

    /// The daily play a player finished or is playing today, if any.
    public func dailyPlay(of player: Player, day: String) async throws -> PlayView? {
        let store = try environment.store()
        var playId = try await store.openDailyPlayId(playerId: player.id, day: day)
        if playId == nil { playId = try await store.dailyPlayId(playerId: player.id, day: day) }
        if let id = playId {
            return try await view(playId: id, by: player)
        }
        return nil
    }

    /// The UTC day of `date` as `yyyy-MM-dd`, by arithmetic: a player's page reads hundreds of days, and a
    /// formatter made for each took a fifth of a millisecond.
    static func dayText(_ date: Date) -> String {
        let (year, month, day) = civilDate(daysSince1970: dayIndex(date))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + two(month) + "-" + two(day)
    }

    /// Days since 1970-01-01, UTC.
    static func dayIndex(_ date: Date) -> Int { Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }

    /// Days since 1970-01-01 of a `yyyy-MM-dd` day, or `nil` for text that is no real day of the Gregorian calendar.
    static func dayIndex(of text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1
        else { return nil }
        let index = daysSince1970(year: year, month: month, day: day)
        // A day past its month's end (02-30) comes back as another date.
        return civilDate(daysSince1970: index) == (year, month, day) ? index : nil
    }

    /// Howard Hinnant's days_from_civil: the proleptic Gregorian calendar in 400-year eras.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Howard Hinnant's civil_from_days, the inverse of `daysSince1970`.
    private static func civilDate(daysSince1970 days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysBetween(_ first: String, _ day: String) -> Int? {
        guard let from = dayIndex(of: first), let to = dayIndex(of: day) else { return nil }
        return to - from
    }

    // MARK: - Inside

    /// The quizzes of a package as the server plays them: in the package's order, those with areas, with their judges.
    /// Plans are shared by every play of a package, so many open plays of one package replay on one copy.
    struct PlayPlan: Sendable {
        var packageId: Int64
        var shareCode: ShareCode
        var title: String
        private(set) var loop: SolveLoop
        var rounds: [SolveRound] { loop.rounds }
        var quizIDs: [Int64]
        /// The quizzes' time limits together: how long the quizzes of a play last at most, the interludes aside.
        private(set) var quizTime: Duration

        init(packageId: Int64, shareCode: ShareCode, title: String, loop: SolveLoop, quizIDs: [Int64]) {
            self.packageId = packageId
            self.shareCode = shareCode
            self.title = title
            self.loop = loop
            self.quizIDs = quizIDs
            quizTime = Self.quizTime(of: loop)
        }

        /// Made once a plan, not on every start: a round's state is built to read its time limit.
        private static func quizTime(of loop: SolveLoop) -> Duration {
            loop.rounds.reduce(.zero) { total, round in
                guard let state = loop.state(for: round, start: .zero) else { return total }
                return total + (state.schedule.deadline ?? .zero)
            }
        }

        /// The plan of a daily play: the one quiz `quizId` (as quiz 1), or no quiz when the package no longer has it.
        func restricted(to quizId: Int64) -> PlayPlan {
            let kept = zip(quizIDs, rounds).filter { $0.0 == quizId }
            return PlayPlan(
                packageId: packageId, shareCode: shareCode, title: title,
                loop: SolveLoop(
                    rounds: kept.map { SolveRound(quiz: $0.1.quiz, judge: $0.1.judge, number: 1) }, levels: loop.levels,
                    level: loop.level, timeScale: loop.timeScale),
                quizIDs: kept.map(\.0))
        }

        /// The latest a play started at `start` can end: every quiz running out of time after its interlude (a fresh
        /// quiz's deadline is its start and its time limit).
        func latestEnd(startingAt start: Duration, interlude: Duration) -> Duration {
            start + interlude * rounds.count + quizTime
        }
    }

    private func plan(packageId: Int64, fresh: Bool) async throws -> PlayPlan {
        try await plans.value(of: packageId, fresh: fresh) { [environment, levels] in
            let store = try environment.store()
            let package = try await store.package(id: packageId)
            let ids = try await store.quizIDs(packageId: packageId)
            let judges = try await Self.judges(of: package.quizzes, environment: environment)
            let indices = package.quizzes.indices.filter { !package.quizzes[$0].areas.isEmpty }
            let rounds = indices.enumerated().map { number, index in
                SolveRound(quiz: package.quizzes[index], judge: judges[index], number: number + 1)
            }
            return PlayPlan(
                packageId: packageId, shareCode: package.shareCode, title: package.title,
                loop: SolveLoop(rounds: rounds, levels: levels, level: package.level, timeScale: 1),
                quizIDs: indices.map { ids[$0] })
        }
    }

    /// Each quiz's judge: its movie as the catalog has it now, and the whole catalog's titles shared by every judge.
    static func judges(of quizzes: [Quiz], environment: SharingEnvironment) async throws -> [AnswerJudge] {
        let store = try environment.store()
        let movies = try await store.catalogMovies(keys: quizzes.compactMap(\.catalogKey))
        let titles = try await environment.catalogTitles.current(environment).lookup
        return quizzes.map { quiz in
            AnswerJudge(quiz: quiz, movie: quiz.catalogKey.flatMap { movies[$0] }, catalogTitles: titles)
        }
    }

    /// The plan an open play was started on: the cached one when its quizzes are the play's, else read afresh.
    private func plan(for record: OpenPlayRecord) async throws -> PlayPlan {
        for fresh in [false, true] {
            var plan = try await plan(packageId: record.packageId, fresh: fresh)
            if record.playsOneQuiz, let quizId = record.quizIds.first { plan = plan.restricted(to: quizId) }
            if plan.quizIDs == record.quizIds { return plan }
        }
        // The store never lets a package's quizzes change under an open play, so this is a store out of step.
        throw PlayError.packageChanging
    }

    struct PosterSight: Sendable {
        var quiz: Quiz
        /// The areas to show, or `nil` for the whole poster.
        var revealed: [Cell]?
    }

    /// Now on the shared clock, to the microsecond (as instants are stored).
    private func currentInstant() -> Duration { .microseconds(Self.micros(now())) }

    static func micros(_ instant: Duration) -> Int64 { instant.wholeMicroseconds }

    /// Runs `body` on the open play `playId` replayed up to now, for reading; a play found finished meanwhile (its
    /// time ran out with nobody asking) is recorded first. `nil` when no such play is open.
    private func readOpenPlay<Value: CarriesPlayView>(
        _ playId: String, _ player: Player, _ body: (OpenPlay, Duration) throws -> Value
    ) async throws -> Value? {
        guard Self.isPlayId(playId) else { throw PlayError.unknownPlay }
        let instant = currentInstant()
        guard let record = try await environment.store().openPlay(id: playId) else { return nil }
        guard record.playerId == player.id else { throw PlayError.notYours }
        let play = OpenPlay.replay(record, plan: try await plan(for: record), to: instant, interlude: rules.interlude)
        var value = try body(play, instant)
        if play.isFinished, let settled = try await settle(playId, at: instant) {
            value.setRanked(settled.ranked, reason: settled.reason)
        }
        return value
    }

    /// Does what the player did (`kind` at quiz `quiz`) on the open play `playId`: the play is replayed up to now, the
    /// action judged and appended, and the play recorded if it has ended. What `result` makes of the play is the answer.
    ///
    /// Judged first on the play as read, without a lock: what changes nothing (a rejected guess, a refused action) is
    /// answered at once, and what only appends is stored by `appendOpenPlayEvents` if nobody appended meanwhile. What
    /// ends the play, or a play changed since it was read, is judged again under the store's lock on it.
    private func act<Value: CarriesPlayView>(
        _ playId: String, _ player: Player, quiz: Int, _ kind: PlayerAction.Kind, text: String?,
        _ result: @escaping @Sendable (OpenPlay, Verdict?, Duration) -> Value
    ) async throws -> Value {
        guard Self.isPlayId(playId) else { throw PlayError.unknownPlay }
        let instant = currentInstant()
        // The plan is found before any lock is taken: `change` must not call the store it runs in.
        guard let seen = try await environment.store().openPlay(id: playId) else {
            throw try await problemForStoredPlay(playId, player, quiz: quiz)
        }
        guard seen.playerId == player.id else { throw PlayError.notYours }
        let plan = try await plan(for: seen)
        let interlude = rules.interlude
        // What the player may have known is asked only of a change that ends the play (none ends on the fast path).
        let change = { (reason: UnrankedReason?) in { @Sendable (record: OpenPlayRecord) throws -> (Result<Value, any Error>, OpenPlayChange) in
            guard record.playerId == player.id, record.quizIds == plan.quizIDs else { throw PlayError.notYours }
            var play = OpenPlay.replay(record, plan: plan, to: instant, interlude: interlude)
            // Another instance's clock may have read a hair later for the last action: never act before it.
            let at = max(instant, record.events.last.map { .microseconds($0.atMicros) } ?? .zero)
            var kept = record
            let outcome: Result<Value, any Error>
            do {
                try play.requirePlaying(quiz, at: at)
                let action = PlayerAction(kind: kind, quiz: quiz, text: text, atMicros: Self.micros(at))
                let wrongBefore = play.wrongGuesses.count
                let verdict = play.apply(action, interlude: interlude)
                // A rejected guess changes nothing in a quiz: it is kept only the first time the play makes it (for the
                // maker's most common wrong guesses), so a repeated or empty one costs no write.
                if kind != .guess || verdict?.isAccepted == true || play.wrongGuesses.count > wrongBefore {
                    kept.events.append(action)
                }
                outcome = .success(result(play, verdict, at))
            } catch {
                // Refused (not this quiz's turn, say): nothing to save, but a play found over is still recorded.
                outcome = .failure(error)
            }
            return (outcome, play.isFinished ? .finish(play.finished(unrankedReason: reason)) : .keep(kept))
        }}
        if case (let outcome, .keep(let kept)) = try change(nil)(seen) {
            if kept == seen { return try outcome.get() }
            if try await environment.store().appendOpenPlayEvents(seen, giving: kept) { return try outcome.get() }
        }
        let reason = try await unrankedReason(of: seen)
        let changed = try await environment.store().updateOpenPlay(id: playId, change(reason))
        guard let changed else { throw try await problemForStoredPlay(playId, player, quiz: quiz) }
        if let ranked = changed.ranked { ServerCounters.playFinished(ranked: ranked) }
        var value = try changed.value.get()
        if let ranked = changed.ranked { value.setRanked(ranked, reason: reason) }
        return value
    }

    /// Records the open play `playId` if it has ended by `instant`, under the store's lock; whether it is ranked (and
    /// why not), or `nil` when it is still going or someone else recorded it first (then read from the store).
    @discardableResult
    private func settle(_ playId: String, at instant: Duration) async throws -> (ranked: Bool, reason: UnrankedReason?)? {
        let stored = { () async throws -> (ranked: Bool, reason: UnrankedReason?)? in
            try await self.environment.store().serverPlay(publicId: playId).map { ($0.ranked, $0.unrankedReason) }
        }
        guard let seen = try await environment.store().openPlay(id: playId) else { return try await stored() }
        let plan = try await plan(for: seen)
        let interlude = rules.interlude
        let reason = try await unrankedReason(of: seen)
        let settled = try await environment.store().updateOpenPlay(id: playId) { record -> (Void, OpenPlayChange) in
            let play = OpenPlay.replay(record, plan: plan, to: instant, interlude: interlude)
            return ((), play.isFinished ? .finish(play.finished(unrankedReason: reason)) : .keep(record))
        }
        if let ranked = settled?.ranked {
            ServerCounters.playFinished(ranked: ranked)
            return (ranked, reason)
        }
        return try await stored()
    }

    /// Why a play cannot be ranked, by what its player may have known when it ends: the answer of one of its quizzes,
    /// from making the package, an earlier play (of this package, of the daily quiz that is one of its quizzes, or of
    /// a package holding the daily quiz), or a live room on the package; a past daily quiz played from the archive,
    /// whose answer has been out since its day. A ranked result is one earned without that.
    func unrankedReason(of record: OpenPlayRecord) async throws -> UnrankedReason? {
        if record.archivedDailyDay != nil { return .dailyArchive }
        // One more than are looked at besides this play itself, which may be among them: more than that many others
        // then shows there were more.
        let others = try await environment.store().openPlays(playerId: record.playerId, limit: Self.openPlaysLooked + 2)
            .filter { $0.id != record.id }
        // More plays open at once than are looked at: their answers cannot all be checked, so none is assumed unseen.
        if others.count > Self.openPlaysLooked { return .answerSeenInPlay }
        let shown = try await environment.store().answersShown(
            playerId: record.playerId, packageId: record.packageId, quizIds: record.quizIds,
            alsoShown: try await endedQuizIds(of: others))
        if shown.maker { return .maker }
        if shown.inRoom { return .answerSeenInRoom }
        if shown.inPlay { return .answerSeenInPlay }
        return nil
    }

    /// How many of a player's other open plays a finishing play looks at for answers they showed.
    static let openPlaysLooked = 100

    /// The stored ids of the quizzes that have ended by now in these open plays: their answers have been shown.
    private func endedQuizIds(of plays: [OpenPlayRecord]) async throws -> [Int64] {
        let instant = currentInstant()
        var ended: [Int64] = []
        for record in plays {
            // A play whose plan cannot be had now is taken as having shown all its answers, rather than none.
            guard let plan = try? await plan(for: record) else {
                ended += record.quizIds
                continue
            }
            ended += record.quizIds.prefix(OpenPlay.replay(record, plan: plan, to: instant, interlude: rules.interlude).ended.count)
        }
        return ended
    }

    /// Records the plays whose time ran out with nobody asking (at most `limit`, the oldest first); how many it
    /// recorded. Run by a service of each instance every `PlayRules.sweepInterval`, never inside a request; any
    /// instance may, and the store's lock on each play makes it once.
    @discardableResult
    public func sweepOverdue(limit: Int = 100) async throws -> Int {
        let instant = currentInstant()
        var recorded = 0
        for playId in try await environment.store().overdueOpenPlays(before: Self.micros(instant), limit: limit) {
            if try await settle(playId, at: instant) != nil { recorded += 1 }
        }
        return recorded
    }

    private func storedPlay(playId: String, player: Player) async throws -> (play: StoredServerPlay, quizzes: [Quiz]) {
        guard let stored = try await environment.store().serverPlay(publicId: playId) else { throw PlayError.unknownPlay }
        guard stored.playerId == player.id else { throw PlayError.notYours }
        let store = try environment.store()
        let package = try await store.package(id: stored.packageId)
        let ids = try await store.quizIDs(packageId: stored.packageId)
        let byId = Dictionary(uniqueKeysWithValues: zip(ids, package.quizzes))
        return (stored, stored.attempts.compactMap { byId[$0.quizId] })
    }

    private func storedView(playId: String, player: Player) async throws -> PlayView {
        let (stored, quizzes) = try await storedPlay(playId: playId, player: player)
        let package = try await environment.store().package(id: stored.packageId)
        var dailyNumber: Int?
        if let day = stored.dailyDay {
            dailyNumber = try await environment.store().dailyChoice(day: day, language: package.language)?.number
        }
        let results = stored.attempts.map(\.result)
        let views = zip(quizzes, results).enumerated().map { index, pair in
            QuizView.ended(
                number: index + 1, quiz: pair.0, result: pair.1,
                hint: pair.1.hintsUsed > 0 ? Hint.firstHint(for: pair.0.title) : nil)
        }
        return PlayView(
            id: stored.publicId, shareCode: package.shareCode.value, packageTitle: package.title, dailyNumber: dailyNumber,
            finished: true, ranked: stored.ranked, unrankedReason: stored.unrankedReason, score: stored.score,
            currentQuiz: nil, quizzes: views,
            shareLine: OpenPlay.shareLine(code: package.shareCode, daily: dailyNumber, results: results))
    }

    /// Why a guess, hint or skip cannot go to a play that is not in memory: it is over (or unknown, or not yours).
    private func problemForStoredPlay(_ playId: String, _ player: Player, quiz: Int) async throws -> PlayError {
        let (_, quizzes) = try await storedPlay(playId: playId, player: player)
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

/// Why a server play refuses a request: the play's own rules, or the server's limits.
public enum PlayError: Error, Equatable {
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
    /// No public quiz in the language exists to be the daily one.
    case noDaily(QuizLanguage)
    /// The archive has no daily quiz of that day in that language (or the day is today or later).
    case noArchivedDaily(day: String)
    /// The day's quiz was deleted by its maker.
    case dailyDeleted(number: Int)
    /// The player has played today's daily quiz already (or is playing it).
    case dailyAlreadyPlayed(playId: String?)
    /// The package changed every time a play of it was about to start; try again.
    case packageChanging
}
