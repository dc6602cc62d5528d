import Crypto
import PosterGrid

/// A player's number in one room, given in join order from 1; never reused in that room, so events about a player who
/// left still name them unambiguously.
public struct RoomPlayerID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let value: Int

    public init(_ value: Int) { self.value = value }

    public static func < (lhs: RoomPlayerID, rhs: RoomPlayerID) -> Bool { lhs.value < rhs.value }
    public var description: String { "#\(value)" }
}

/// The secret a player keeps to take their seat back after a lost connection: 128 bits from the room's injected
/// generator, as 32 lowercase hex digits.
public struct ResumeToken: Hashable, Sendable, CustomStringConvertible {
    public let value: String

    /// Accepts the 32 hex digits in any case; `nil` for anything else.
    public init?(_ text: String) {
        let lower = text.lowercased()
        guard lower.count == 32, lower.allSatisfy(\.isHexDigit) else { return nil }
        value = lower
    }

    public static func random(using generator: inout some RandomNumberGenerator) -> ResumeToken {
        let words = [generator.next(), generator.next()] as [UInt64]
        let hex = words.map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return ResumeToken(hex.joined())!
    }

    /// What a room keeps of the token: its SHA-256 in hex. A room compares digests, so how long a wrong token takes to
    /// refuse tells a guesser nothing, and neither a room's memory nor its checkpoint in the store holds a token.
    public var digest: String { Self.digest(of: value) }

    /// The SHA-256 of a secret in hex, as a room keeps it.
    static func digest(of secret: String) -> String {
        SHA256.hash(data: Array(secret.utf8)).lowercaseHex
    }

    /// Tokens are secrets: never printed in logs or test failures in full.
    public var description: String { "token(\(value.prefix(4))…)" }
}

/// One quiz as a room plays it: what judges the guesses and what is shown once it has ended.
public struct RoomQuiz: Sendable {
    /// Shown to everyone only when the quiz has ended.
    public var answerTitle: String
    public var answerYear: String?
    public var judge: AnswerJudge
    public var hint: String
    /// Areas revealed one per stage; at least 1.
    public var stageCount: Int

    public init(answerTitle: String, answerYear: String?, judge: AnswerJudge, stageCount: Int, hint: String? = nil) {
        self.answerTitle = answerTitle
        self.answerYear = answerYear
        self.judge = judge
        self.stageCount = stageCount
        self.hint = hint ?? Hint.firstHint(for: answerTitle)
    }

    /// A package's quiz with the judge the solo play uses for it (`AnswerJudge(quiz:catalog:)`).
    public init(quiz: Quiz, judge: AnswerJudge) {
        self.init(answerTitle: quiz.title, answerYear: quiz.releaseYear, judge: judge, stageCount: quiz.areas.count)
    }
}

/// The timings of a room. Fixed limits that are safety bounds rather than game settings are static constants.
public struct RoomRules: Sendable, Equatable, Codable {
    /// The seats of a room unless the server gives it more (`seatLimit`): the most players seated at once (connected
    /// or holding a seat); one more join is refused. Up to this many, everyone is told about everyone.
    public static let maxPlayers = 50
    /// The most seats a room may be given: a room for an event, whose players are told counts and the first of each
    /// board rather than everyone's names (`isLarge`).
    public static let largestRoom = 2_000
    /// Big screens open on a room at once; a newer one takes the place of the oldest.
    public static let maxScreens = 4
    /// How long the host's screen pass may be used, once.
    public static let screenPassLifetime: Duration = .seconds(10 * 60)
    /// Wrong passes tried before the pass is withdrawn (the host asks for a new one): a pass of 8 digits then holds
    /// against guessing.
    public static let screenPassTries = 5
    /// The most a guess's time may be moved back for the latency measured on the player's connection. Bounded so a
    /// client claiming a huge latency gains at most this much time bonus (150 ms of a 20 s quiz is under 1 point).
    public static let maxLatencyAllowance: Duration = .milliseconds(150)
    /// Names are shown on everyone's screen: short, on one line.
    public static let maxNameLength = 24
    /// The longest guess judged; longer text is refused unread (no title is anywhere near this long).
    public static let maxGuessLength = 200

    /// The room's seats, when the server sets them (`nil`, as in checkpoints from before the setting: `maxPlayers`).
    public var seatLimit: Int?
    /// How long each stage lasts and the quiz's time limit: the package level's, as in solo play.
    public var stageDuration: Duration
    public var timeLimit: Duration
    /// The longest a quiz waits for every player to have loaded its first poster.
    public var loadingTimeout: Duration
    /// Between two quizzes: the answer, the whole poster and the scoreboard are shown this long.
    public var interlude: Duration
    /// How long a dropped player's seat (and score) is kept for them to resume.
    public var seatHold: Duration
    /// A room in which no player did anything for this long expires.
    public var idleLifetime: Duration
    /// A room nobody has joined (not even its opener) expires this long after it was opened: opening one costs its
    /// instance memory (about 650 KB with its posters) that a room never played should not hold for hours.
    public var unjoinedLifetime: Duration
    /// A finished room (podium shown) expires this long after its end.
    public var endedLifetime: Duration

    public init(
        stageDuration: Duration, timeLimit: Duration, loadingTimeout: Duration = .seconds(10),
        interlude: Duration = .seconds(8), seatHold: Duration = .seconds(90), idleLifetime: Duration = .seconds(2 * 3600),
        endedLifetime: Duration = .seconds(30 * 60), unjoinedLifetime: Duration = .seconds(5 * 60)
    ) {
        self.unjoinedLifetime = unjoinedLifetime
        self.stageDuration = stageDuration
        self.timeLimit = timeLimit
        self.loadingTimeout = loadingTimeout
        self.interlude = interlude
        self.seatHold = seatHold
        self.idleLifetime = idleLifetime
        self.endedLifetime = endedLifetime
    }

    /// The most players seated at once.
    public var seats: Int { seatLimit ?? Self.maxPlayers }

    /// A room of more than `maxPlayers` seats: its players' messages carry counts and the first lines of each board
    /// (and their own), not everyone's names, so what a join or a quiz's end sends grows with the room, not its square.
    public var isLarge: Bool { seats > Self.maxPlayers }

    /// The rules of a package of `level`: its stage duration and the time limit, as solo play uses them.
    public init(levels: LevelRules, level: Level) {
        self.init(stageDuration: levels[level].stageDuration, timeLimit: levels.timeLimit)
    }
}

/// Why a command changed nothing.
public enum RoomError: Error, Equatable, Sendable {
    case roomExpired
    /// The last quiz has ended: nobody joins a finished room.
    case roomFinished
    case roomFull(limit: Int)
    /// Empty after trimming, too long, or with control characters.
    case invalidName
    /// Another seated player has this name (ignoring case).
    case nameTaken
    /// The player was never in the room, left, was kicked or lost their seat.
    case notInRoom
    /// The token is not any seat's.
    case wrongResumeToken
    /// The player's connection is lost: they resume first.
    case notConnected
    case notHost
    /// The target of a kick or a host pass is not a seated player (or is the host themself).
    case invalidTarget
    case alreadyStarted
    /// A guess, hint or `loaded` for a quiz that is not the one running (or loading): too early, too late or unknown.
    case quizNotRunning(quiz: Int)
    case nothingToSkip
    /// The player joined during this quiz: they watch it and play from the next.
    case watching(quiz: Int)
    /// The player already solved this quiz (or it ended for them).
    case alreadyDone(quiz: Int)
    case guessTooLong(limit: Int)
    /// Not a screen pass of this room, or one used, withdrawn or out of date.
    case wrongScreenPass
    /// Not a screen token of this room (or one a newer screen replaced).
    case wrongScreenToken
    /// Teams are off in this room, or the team is not one of its teams.
    case noSuchTeam
    /// Not 0 (off) or 2 to `RoomTeams.maxCount` teams.
    case invalidTeamCount
    /// Teams are set and picked in the lobby only.
    case teamsOnlyInTheLobby
}

/// A room played in teams: its players in `count` teams, a team's points for a quiz the mean (or the best) of the points
/// of its players who played it, summed over the quizzes. Like every room, never ranked.
public struct RoomTeams: Sendable, Equatable, Codable {
    public enum Scoring: String, Sendable, Equatable, Codable, CaseIterable {
        case mean
        case best
    }

    public static let maxCount = 6

    public var count: Int
    public var scoring: Scoring

    public init(count: Int, scoring: Scoring) {
        self.count = count
        self.scoring = scoring
    }
}

/// One team's line of the team scoreboard.
public struct RoomTeamScore: Sendable, Equatable {
    /// Equal scores share a rank, as players' do.
    public var rank: Int
    /// 1 to the room's team count.
    public var team: Int
    public var score: Int
    /// Its players (those who left after playing included), best first.
    public var players: [RoomPlayerID]
}

/// Who a message goes to; the server sends `everyone` to each connected player and big screen of the room.
public enum RoomRecipient: Hashable, Sendable {
    case everyone
    case player(RoomPlayerID)
    /// The room's big screens only.
    case screens
}

public struct RoomMessage: Sendable, Equatable {
    public var to: RoomRecipient
    public var event: RoomEvent

    public init(to: RoomRecipient, _ event: RoomEvent) {
        self.to = to
        self.event = event
    }
}

/// Everything a room tells its players. Remaining times are whole milliseconds from `serverTime`, the server's
/// monotonic instant when the message was made, rounded up (0 means "now").
public enum RoomEvent: Sendable, Equatable {
    /// Who is in, connected or not, and who hosts.
    case lobbyChanged(RoomLobby)
    case hostChanged(RoomPlayerID)
    /// The next quiz's first poster may be fetched; it starts when everyone has loaded it or after `startsWithinMs`.
    case quizLoading(quiz: Int, quizCount: Int, stageCount: Int, startsWithinMs: Int, serverTime: Duration)
    /// Stage 1 is revealed: the quiz clock runs for everyone from now.
    case quizStarted(RoomQuizClock)
    case stageRevealed(RoomQuizClock)
    /// To the guesser only.
    case guessJudged(quiz: Int, judgement: RoomGuessJudgement)
    /// To the asker only.
    case hintShown(quiz: Int, hint: String)
    /// To everyone: who solved, at which stage; never what they typed.
    case solved(quiz: Int, player: RoomPlayerID, stage: Int)
    /// To the big screens: how many of the running quiz's players have answered and solved it.
    case progress(RoomProgress)
    case quizEnded(RoomQuizSummary)
    case podium(RoomPodium)
    /// To the kicked player, before the server closes their connection.
    case kicked
    case roomExpired(RoomExpiry)
    /// To one player: everything they may know now (on joining and on resuming).
    case snapshot(RoomSnapshot)
}

/// How far the running quiz has got, in counts only: what a big screen shows while everyone answers.
public struct RoomProgress: Sendable, Equatable {
    public var quiz: Int
    /// Players of the quiz (watchers are not).
    public var players: Int
    /// Players who guessed at least once, right or wrong.
    public var answered: Int
    public var solved: Int

    public init(quiz: Int, players: Int, answered: Int, solved: Int) {
        self.quiz = quiz
        self.players = players
        self.answered = answered
        self.solved = solved
    }
}

public enum RoomExpiry: String, Sendable, Equatable {
    /// Nobody did anything for `idleLifetime`.
    case idle
    /// `endedLifetime` passed after the podium.
    case ended
    /// The last seated player went.
    case empty
}

/// A quiz's clock as one message states it.
public struct RoomQuizClock: Sendable, Equatable {
    public var quiz: Int
    /// Stages revealed, 1…stageCount.
    public var stage: Int
    public var stageCount: Int
    /// `nil` once the last stage is revealed.
    public var nextStageInMs: Int?
    public var endsInMs: Int
    public var serverTime: Duration

    public init(quiz: Int, stage: Int, stageCount: Int, nextStageInMs: Int?, endsInMs: Int, serverTime: Duration) {
        self.quiz = quiz
        self.stage = stage
        self.stageCount = stageCount
        self.nextStageInMs = nextStageInMs
        self.endsInMs = endsInMs
        self.serverTime = serverTime
    }
}

/// A guess as judged, for the guesser. A rejection never names the answer (`Rejection.digitsDiffer` would, so only its
/// kind is said).
public enum RoomGuessJudgement: Sendable, Equatable {
    case accepted(points: Int, stage: Int)
    case empty
    case wrongNumber
    case anotherMovie
    case wrong

    init(_ verdict: Verdict, result: QuizResult?) {
        switch verdict {
        case .accepted: self = .accepted(points: result?.score ?? 0, stage: result?.stageReached ?? 1)
        case .rejected(.emptyGuess): self = .empty
        case .rejected(.digitsDiffer): self = .wrongNumber
        case .rejected(.titleOfAnotherMovie): self = .anotherMovie
        case .rejected(.tooFar): self = .wrong
        }
    }
}

public struct RoomLobby: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var player: RoomPlayerID
        public var name: String
        public var connected: Bool
        /// Joined during a quiz: watches it, plays from the next.
        public var watching: Bool
        /// Their team, when the room plays in teams (none yet while they have not picked one in the lobby).
        public var team: Int?

        public init(player: RoomPlayerID, name: String, connected: Bool, watching: Bool, team: Int? = nil) {
            self.player = player
            self.name = name
            self.connected = connected
            self.watching = watching
            self.team = team
        }
    }

    /// Seated players in join order.
    public var players: [Entry]
    public var host: RoomPlayerID?
    /// `nil` when the room plays without teams.
    public var teams: RoomTeams?

    public init(players: [Entry], host: RoomPlayerID?, teams: RoomTeams? = nil) {
        self.players = players
        self.host = host
        self.teams = teams
    }
}

/// One line of the scoreboard: points of the quizzes that have ended.
public struct RoomScore: Sendable, Equatable {
    /// Equal scores share a rank (1, 1, 3); among them, join order.
    public var rank: Int
    public var player: RoomPlayerID
    public var name: String
    public var score: Int
    public var solved: Int
    /// Quizzes this player played (late joiners played fewer).
    public var played: Int
    /// Left the room or lost their seat: their points stay on the board.
    public var left: Bool
}

public struct RoomQuizSummary: Sendable, Equatable {
    public enum Ending: String, Sendable, Equatable, Codable {
        /// Every player of the quiz solved it before the time was up.
        case everyoneSolved
        case timeUp
        case skipped
    }

    public struct Solver: Sendable, Equatable {
        public var player: RoomPlayerID
        public var name: String
        public var points: Int
        public var stage: Int
        public var seconds: Double
    }

    public var quiz: Int
    public var quizCount: Int
    public var answerTitle: String
    public var answerYear: String?
    public var ending: Ending
    /// Best first (most points, then fastest, then join order).
    public var solvers: [Solver]
    public var scoreboard: [RoomScore]
    /// With teams: the teams' board.
    public var teamScoreboard: [RoomTeamScore]?
    /// When the next quiz starts loading; `nil` after the last.
    public var nextQuizInMs: Int?
    public var serverTime: Duration
}

public struct RoomPodium: Sendable, Equatable {
    public struct Place: Sendable, Equatable {
        public var rank: Int
        public var player: RoomPlayerID
        public var name: String
        public var score: Int
        public var left: Bool
        /// Each played quiz's result, by quiz number: what the server stores for this player and room.
        public var results: [Int: QuizResult]
        /// `ShareLine.text` of the quizzes this player played, in order; `nil` for one who played none (joined
        /// during the last quiz).
        public var shareLine: String?
    }

    public var places: [Place]
    /// With teams: the teams in their final order, each with its players.
    public var teams: [RoomTeamScore]?
}

/// A player's view of the room at one instant: what a reconnecting player or a late joiner needs to draw it. It holds
/// the current quiz's stage count and revealed stages, never its answer or anything about stages still hidden.
public struct RoomSnapshot: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        case lobby
        case loading(quiz: Int, stageCount: Int, startsWithinMs: Int)
        case playing(RoomQuizClock)
        /// Quiz `after` has ended (its summary is `lastQuiz`); the next loads in `nextQuizInMs`.
        case interlude(after: Int, nextQuizInMs: Int)
        case finished
        case expired
    }

    /// How the current quiz stands for the snapshot's player.
    public enum Standing: Sendable, Equatable {
        case watching
        case playing(hint: String?)
        case done(QuizResult)
    }

    public var code: RoomCode
    /// The player it is for; `nil` for a big screen.
    public var you: RoomPlayerID?
    public var quizCount: Int
    public var lobby: RoomLobby
    public var phase: Phase
    /// Only while a quiz is loading or running, and only a player's.
    public var standing: Standing?
    /// A big screen's, while a quiz runs.
    public var progress: RoomProgress?
    public var scoreboard: [RoomScore]
    public var teamScoreboard: [RoomTeamScore]?
    /// The quiz that ended last, answer included.
    public var lastQuiz: RoomQuizSummary?
    public var podium: RoomPodium?
    public var serverTime: Duration
}
