import PosterGrid

/// A room's state as the store keeps it, so that another server instance can carry the room on: who sits in it (their
/// names, resume token digests, results, who hosts), where it is (lobby, a quiz loading or running, an interlude, the
/// podium) and every instant on the servers' shared clock. The quizzes themselves are not in it: they are the
/// package's, and the instance that takes the room over prepares them again (`Room.init(restoring:…)`).
///
/// Codable, for the store; instants are whole microseconds of the shared clock.
public struct RoomCheckpoint: Codable, Sendable, Equatable {
    public struct Seat: Codable, Sendable, Equatable {
        public var player: Int
        public var name: String
        public var tokenDigest: String
        public var droppedAt: Int64?
        /// `left`, `seatExpired` or `kicked`.
        public var departure: String?
        public var firstQuiz: Int
        public var loadedQuiz: Int?
        /// The player's round of the running quiz.
        public var round: Round?
        public var results: [QuizOutcome]
        /// Absent without teams (and in checkpoints from before teams).
        public var team: Int?
    }

    public struct Round: Codable, Sendable, Equatable {
        public var hintsUsed: Int
        public var result: QuizResult?
        /// Guessed at least once (absent in checkpoints from before big screens).
        public var answered: Bool?
    }

    public struct QuizOutcome: Codable, Sendable, Equatable {
        public var quiz: Int
        public var result: QuizResult
    }

    public enum Phase: Codable, Sendable, Equatable {
        case lobby
        case loading(quiz: Int, since: Int64)
        /// Quiz `quiz` runs, its schedule started at `start`.
        case playing(quiz: Int, start: Int64, revealedStages: Int)
        case interlude(after: Int, until: Int64)
        case finished(at: Int64)
    }

    public struct LastQuiz: Codable, Sendable, Equatable {
        public var quiz: Int
        public var ending: RoomQuizSummary.Ending
        public var at: Int64
    }

    public var code: String
    public var shareCode: String
    public var quizCount: Int
    public var rules: RoomRules
    public var openedAt: Int64
    public var lastActivity: Int64
    /// The instant the room had been brought to when the checkpoint was taken.
    public var now: Int64
    public var phase: Phase
    public var host: Int?
    public var joinCount: Int
    public var lastQuiz: LastQuiz?
    public var seats: [Seat]
    /// The digests of the big screens' tokens (absent in checkpoints from before big screens).
    public var screens: [String]?
    public var teams: RoomTeams?
}

/// Why a checkpoint cannot make a room again.
public enum RoomRestoreError: Error, Equatable, Sendable {
    /// The package's quizzes are not the ones the room played (it changed, or lost a quiz).
    case quizzesChanged
    case invalidCheckpoint
}

extension Room {
    /// The room as a checkpoint; `nil` once it has expired (nothing is left to carry on).
    public var checkpoint: RoomCheckpoint? {
        let phase: RoomCheckpoint.Phase
        switch self.phase {
        case .lobby: phase = .lobby
        case let .loading(quiz, since): phase = .loading(quiz: quiz, since: since.wholeMicroseconds)
        case .playing(let quiz):
            guard let schedule else { return nil }
            phase = .playing(quiz: quiz, start: schedule.start.wholeMicroseconds, revealedStages: revealedStages)
        case let .interlude(after, until): phase = .interlude(after: after, until: until.wholeMicroseconds)
        case .finished(let at): phase = .finished(at: at.wholeMicroseconds)
        case .expired: return nil
        }
        return RoomCheckpoint(
            code: code.value, shareCode: shareCode.value, quizCount: quizzes.count, rules: rules,
            openedAt: openedAt.wholeMicroseconds, lastActivity: lastActivity.wholeMicroseconds, now: now.wholeMicroseconds, phase: phase,
            host: host?.value, joinCount: joinCount,
            lastQuiz: lastEnding.map { .init(quiz: $0.quiz, ending: $0.ending, at: $0.at.wholeMicroseconds) },
            seats: seats.map { seat in
                RoomCheckpoint.Seat(
                    player: seat.id.value, name: seat.name, tokenDigest: seat.tokenDigest,
                    droppedAt: seat.droppedAt?.wholeMicroseconds, departure: seat.departure?.rawValue,
                    firstQuiz: seat.firstQuiz, loadedQuiz: seat.loadedQuiz,
                    round: seat.round.map { .init(hintsUsed: $0.hintsUsed, result: $0.result, answered: seat.answered) },
                    results: seat.results.sorted { $0.key < $1.key }.map { .init(quiz: $0.key, result: $0.value) },
                    team: seat.team)
            },
            screens: screenDigests, teams: teams)
    }

    /// The room of `checkpoint`, carried on at `instant` by another instance, with the package's `quizzes` (their
    /// count must be the checkpoint's). Nobody is connected to the new room yet: every seated player is dropped at
    /// `instant` and has the seat hold to resume.
    ///
    /// `replayingRunningQuiz`: the checkpoint may be older than the room (its holder died): a quiz that was running
    /// then is played again from its loading, since guesses made after the checkpoint are lost. Off for a checkpoint
    /// taken by a holder handing the room over, which is the room as it was: the running quiz goes on on its clock.
    public init(
        restoring checkpoint: RoomCheckpoint, quizzes: [RoomQuiz], at instant: Duration, replayingRunningQuiz: Bool
    ) throws(RoomRestoreError) {
        guard quizzes.count == checkpoint.quizCount,
            zip(checkpoint.seats, checkpoint.seats.dropFirst()).allSatisfy({ $0.player < $1.player })
        else { throw quizzes.count == checkpoint.quizCount ? .invalidCheckpoint : .quizzesChanged }
        guard let code = RoomCode(checkpoint.code), let shareCode = ShareCode(checkpoint.shareCode) else {
            throw .invalidCheckpoint
        }
        do {
            try self.init(
                code: code, shareCode: shareCode, quizzes: quizzes, rules: checkpoint.rules,
                openedAt: .microseconds(checkpoint.openedAt))
        } catch {
            throw .invalidCheckpoint
        }
        let taken = Duration.microseconds(checkpoint.now)
        now = taken
        joinCount = checkpoint.joinCount
        host = checkpoint.host.map(RoomPlayerID.init)
        var seats: [Seat] = []
        for saved in checkpoint.seats {
            var results: [Int: QuizResult] = [:]
            for outcome in saved.results {
                guard (1...quizzes.count).contains(outcome.quiz) else { throw .invalidCheckpoint }
                results[outcome.quiz] = outcome.result
            }
            var departure: Departure?
            if let reason = saved.departure {
                guard let known = Departure(rawValue: reason) else { throw .invalidCheckpoint }
                departure = known
            }
            seats.append(Seat(
                id: RoomPlayerID(saved.player), name: saved.name, nameSkeleton: ReadableName.skeleton(saved.name),
                tokenDigest: saved.tokenDigest,
                droppedAt: saved.droppedAt.map { .microseconds($0) }, departure: departure,
                firstQuiz: saved.firstQuiz, loadedQuiz: saved.loadedQuiz, round: nil, results: results, team: saved.team))
        }
        self.seats = seats
        screenDigests = Array((checkpoint.screens ?? []).suffix(RoomRules.maxScreens))
        if let saved = checkpoint.teams {
            guard (2...RoomTeams.maxCount).contains(saved.count),
                checkpoint.seats.allSatisfy({ $0.team.map { (1...saved.count).contains($0) } ?? true })
            else { throw .invalidCheckpoint }
            teams = saved
        }
        if let last = checkpoint.lastQuiz {
            guard (1...quizzes.count).contains(last.quiz) else { throw .invalidCheckpoint }
            lastEnding = (last.quiz, last.ending, .microseconds(last.at))
        }
        switch checkpoint.phase {
        case .lobby:
            phase = .lobby
        case let .loading(quiz, since):
            guard (1...quizzes.count).contains(quiz) else { throw .invalidCheckpoint }
            phase = .loading(quiz: quiz, since: .microseconds(since))
        case let .playing(quiz, start, revealed):
            guard (1...quizzes.count).contains(quiz) else { throw .invalidCheckpoint }
            if replayingRunningQuiz {
                for index in self.seats.indices { self.seats[index].loadedQuiz = nil }
                now = max(taken, instant)
                phase = .loading(quiz: quiz, since: now)
            } else {
                let startedAt = Duration.microseconds(start)
                schedule = try? RevealSchedule(
                    start: startedAt, stageCount: quizzes[quiz - 1].stageCount, stageDuration: rules.stageDuration,
                    timeLimit: rules.timeLimit)
                guard schedule != nil, (1...quizzes[quiz - 1].stageCount).contains(revealed) else { throw .invalidCheckpoint }
                revealedStages = revealed
                for (index, saved) in checkpoint.seats.enumerated() {
                    guard let kept = saved.round else { continue }
                    var round = makeRound(quiz, start: startedAt)
                    _ = round.advance(to: taken)
                    round.restore(hintsUsed: kept.hintsUsed, result: kept.result)
                    self.seats[index].round = round
                    self.seats[index].answered = kept.answered ?? false
                }
                phase = .playing(quiz: quiz)
            }
        case let .interlude(after, until):
            guard (1..<quizzes.count).contains(after) else { throw .invalidCheckpoint }
            phase = .interlude(after: after, until: .microseconds(until))
        case .finished(let at):
            phase = .finished(at: .microseconds(at))
        }
        if let last = lastEnding { lastSummary = summary(of: last.quiz, ending: last.ending, at: last.at) }
        // Everyone's connection was to the instance that held the room: each seat waits for its player to resume.
        let restoredAt = max(now, instant)
        for index in self.seats.indices where self.seats[index].isSeated && self.seats[index].droppedAt == nil {
            self.seats[index].droppedAt = restoredAt
        }
        // The time the room changed hands is nobody's idleness.
        lastActivity = max(.microseconds(checkpoint.lastActivity), restoredAt)
    }
}

extension Duration {
    /// Whole microseconds (rounded toward zero): how instants are stored, in checkpoints and in the store.
    public var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
