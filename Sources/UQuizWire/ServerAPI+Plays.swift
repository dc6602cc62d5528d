import PosterGrid
import QuizCore
import UQuizStorage

/// The JSON of plays judged by the server, leaderboards, the daily quiz and movie search, shared by the server that
/// encodes it from what its clock has reached (`PlayView`) and the CLI that decodes it.
extension ServerAPI {
    public struct QuizState: Codable, Sendable, Equatable {
        public struct Answer: Codable, Sendable, Equatable {
            public var title: String
            public var year: String?
            /// The original title, when it is not `title`.
            public var original: String?

            public init(title: String, year: String? = nil, original: String? = nil) {
                self.title = title
                self.year = year
                self.original = original
            }
        }

        public var number: Int
        public var status: String
        public var stageCount: Int
        public var stage: Int
        public var startsInMs: Int?
        public var stagesInMs: [Int]?
        public var endsInMs: Int?
        public var hint: String?
        public var result: QuizResult?
        public var answer: Answer?

        public init(
            number: Int, status: String, stageCount: Int, stage: Int, startsInMs: Int?, stagesInMs: [Int]?, endsInMs: Int?,
            hint: String?, result: QuizResult?, answer: Answer?
        ) {
            self.number = number
            self.status = status
            self.stageCount = stageCount
            self.stage = stage
            self.startsInMs = startsInMs
            self.stagesInMs = stagesInMs
            self.endsInMs = endsInMs
            self.hint = hint
            self.result = result
            self.answer = answer
        }
    }

    public struct PlayState: Codable, Sendable, Equatable {
        public var id: String
        public var shareCode: String
        public var packageTitle: String
        public var daily: Int?
        public var finished: Bool
        public var ranked: Bool?
        /// Why a finished play could not be ranked (nor a daily play count in the streak): `maker`,
        /// `answer_seen_in_play` or `answer_seen_in_room`; absent otherwise.
        public var unrankedReason: UnrankedReason?
        public var score: Int
        public var currentQuiz: Int?
        public var quizzes: [QuizState]
        public var shareLine: String?

        public init(
            id: String, shareCode: String, packageTitle: String, daily: Int?, finished: Bool, ranked: Bool?,
            unrankedReason: UnrankedReason?, score: Int, currentQuiz: Int?, quizzes: [QuizState], shareLine: String?
        ) {
            self.id = id
            self.shareCode = shareCode
            self.packageTitle = packageTitle
            self.daily = daily
            self.finished = finished
            self.ranked = ranked
            self.unrankedReason = unrankedReason
            self.score = score
            self.currentQuiz = currentQuiz
            self.quizzes = quizzes
            self.shareLine = shareLine
        }

        /// The play once `answer`'s change is merged in: what the server would answer for the whole play then.
        public func applying(_ answer: GuessAnswer) -> PlayState {
            var play = self
            play.finished = answer.finished
            play.ranked = answer.ranked
            play.unrankedReason = answer.unrankedReason
            play.score = answer.score
            play.currentQuiz = answer.currentQuiz
            play.shareLine = answer.shareLine
            for quiz in answer.quizzes where play.quizzes.indices.contains(quiz.number - 1) {
                play.quizzes[quiz.number - 1] = quiz
            }
            return play
        }
    }

    public struct GuessRequest: Codable, Sendable, Equatable {
        public var quiz: Int
        public var text: String

        public init(quiz: Int, text: String) {
            self.quiz = quiz
            self.text = text
        }
    }

    public struct QuizRequest: Codable, Sendable, Equatable {
        public var quiz: Int

        public init(quiz: Int) {
            self.quiz = quiz
        }
    }

    /// A guess as judged, and what it changed in the play (`PlayChange`): the play's new totals and the quizzes from the
    /// one guessed through the current one. `PlayState.applying(_:)` merges it into the play a client holds. The whole
    /// play comes too only when asked for (`?play=full`).
    public struct GuessAnswer: Codable, Sendable, Equatable {
        public var judgement: String
        public var finished: Bool
        public var ranked: Bool?
        public var unrankedReason: UnrankedReason?
        public var score: Int
        public var currentQuiz: Int?
        public var quizzes: [QuizState]
        public var shareLine: String?
        public var play: PlayState?

        public init(
            judgement: String, finished: Bool, ranked: Bool?, unrankedReason: UnrankedReason?, score: Int,
            currentQuiz: Int?, quizzes: [QuizState], shareLine: String?, play: PlayState? = nil
        ) {
            self.judgement = judgement
            self.finished = finished
            self.ranked = ranked
            self.unrankedReason = unrankedReason
            self.score = score
            self.currentQuiz = currentQuiz
            self.quizzes = quizzes
            self.shareLine = shareLine
            self.play = play
        }
    }

    public struct HintAnswer: Codable, Sendable, Equatable {
        public var hint: String
        public var play: PlayState

        public init(hint: String, play: PlayState) {
            self.hint = hint
            self.play = play
        }
    }

    public struct Leaderboard: Codable, Sendable, Equatable {
        public struct Line: Codable, Sendable, Equatable {
            public var rank: Int
            public var player: String
            public var score: Int
            public var seconds: Double
            public var finishedAt: String

            public init(_ entry: LeaderboardEntry) {
                rank = entry.rank
                player = entry.player
                score = entry.score
                seconds = (entry.elapsedSeconds * 1000).rounded() / 1000
                finishedAt = entry.finishedAt
            }
        }

        public struct QuizLine: Codable, Sendable, Equatable {
            public var number: Int
            public var attempts: Int
            public var solved: Int
            public var solveRate: Double?
            public var averageStage: Double?
            /// Attempts in which the player asked for the hint.
            public var hinted: Int?
            /// The wrong guesses most plays made (normalized, most first, at most 5; nobody named).
            public var commonWrongGuesses: [String]?
            /// How many solves came at each stage, from stage 1 to the quiz's last.
            public var solvedAtStage: [StageCount]?

            public init(
                number: Int, attempts: Int, solved: Int, solveRate: Double? = nil, averageStage: Double? = nil, hinted: Int? = nil,
                commonWrongGuesses: [String]? = nil, solvedAtStage: [StageCount]? = nil
            ) {
                self.solvedAtStage = solvedAtStage
                self.commonWrongGuesses = commonWrongGuesses
                self.hinted = hinted
                self.number = number
                self.attempts = attempts
                self.solved = solved
                self.solveRate = solveRate
                self.averageStage = averageStage
            }
        }

        public var shareCode: String
        public var rankedPlays: Int
        public var top: [Line]
        public var me: Line?
        public var quizzes: [QuizLine]?
        /// The ranked plays' scores in round bins (`Distribution.scoreBins`); `me` says which bin is the viewer's.
        public var scores: [ScoreBin]?

        public init(
            shareCode: String, rankedPlays: Int, top: [Line], me: Line? = nil, quizzes: [QuizLine]? = nil, scores: [ScoreBin]? = nil
        ) {
            self.scores = scores
            self.shareCode = shareCode
            self.rankedPlays = rankedPlays
            self.top = top
            self.me = me
            self.quizzes = quizzes
        }
    }

    public struct Daily: Codable, Sendable, Equatable {
        public struct You: Codable, Sendable, Equatable {
            public var streak: Int
            public var bestStreak: Int
            /// The player's daily play of today: of this daily quiz, or of another language's when
            /// `playedAnotherLanguage` (one daily a day counts for the streak).
            public var play: PlayState?
            public var playedAnotherLanguage: Bool?

            public init(streak: Int, bestStreak: Int, play: PlayState? = nil, playedAnotherLanguage: Bool? = nil) {
                self.streak = streak
                self.bestStreak = bestStreak
                self.play = play
                self.playedAnotherLanguage = playedAnotherLanguage
            }
        }

        public var number: Int
        public var day: String
        public var shareCode: String
        public var packageTitle: String
        public var quiz: Int
        public var level: Level
        public var language: QuizLanguage
        public var stageCount: Int
        public var you: You?

        public init(number: Int, day: String, shareCode: String, packageTitle: String, quiz: Int, level: Level, language: QuizLanguage, stageCount: Int, you: You? = nil) {
            self.number = number
            self.day = day
            self.shareCode = shareCode
            self.packageTitle = packageTitle
            self.quiz = quiz
            self.level = level
            self.language = language
            self.stageCount = stageCount
            self.you = you
        }

    }

    /// A page of past daily quizzes of one language, newest first; `before` is the day to ask before for the next
    /// page, absent on the last.
    public struct DailyArchive: Codable, Sendable, Equatable {
        public var days: [Daily]
        public var before: String?

        public init(days: [Daily], before: String?) {
            self.days = days
            self.before = before
        }
    }

    /// The posters a maker may choose for a movie's quiz, its default one first.
    public struct MoviePosters: Codable, Sendable, Equatable {
        public struct Poster: Codable, Sendable, Equatable {
            /// What a spec's quiz names as its `poster`.
            public var poster: String
            /// The language of its text; `nil` when it has none or it is not known.
            public var language: String?

            public init(poster: String, language: String?) {
                self.poster = poster
                self.language = language
            }
        }

        public var posters: [Poster]

        public init(posters: [Poster]) { self.posters = posters }
    }

    public struct MovieResults: Codable, Sendable, Equatable {
        public struct Movie: Codable, Sendable, Equatable {
            public var tmdbId: Int?
            public var catalogKey: String
            public var title: String
            public var originalTitle: String
            public var releaseDate: String?
            public var posterPath: String?

            public init(tmdbId: Int? = nil, catalogKey: String, title: String, originalTitle: String, releaseDate: String? = nil, posterPath: String? = nil) {
                self.tmdbId = tmdbId
                self.catalogKey = catalogKey
                self.title = title
                self.originalTitle = originalTitle
                self.releaseDate = releaseDate
                self.posterPath = posterPath
            }
        }

        /// `tmdb`, or `catalog` when TMDB was not asked or could not be reached.
        public var source: String
        public var page: Int
        public var totalPages: Int
        public var totalResults: Int
        public var results: [Movie]

        public init(source: String, page: Int, totalPages: Int, totalResults: Int, results: [Movie]) {
            self.source = source
            self.page = page
            self.totalPages = totalPages
            self.totalResults = totalResults
            self.results = results
        }
    }
}

extension ServerAPI {
    /// `GET /v1/titles`: movie titles suggested for what a player has typed, best first.
    public struct TitleSuggestions: Codable, Sendable, Equatable {
        public struct Title: Codable, Sendable, Equatable {
            /// In the asked language; what a guess picked from the list sends.
            public var title: String
            /// The original title, when it is not `title`.
            public var originalTitle: String?
            public var year: Int?

            public init(title: String, originalTitle: String? = nil, year: Int? = nil) {
                self.title = title
                self.originalTitle = originalTitle
                self.year = year
            }
        }

        public var titles: [Title]
        /// Whether this server suggests titles now (it needs TMDB, or a catalog large enough to give nothing away).
        public var available: Bool
        /// TMDB is being asked for this text: asking again in a moment may find more.
        public var pending: Bool

        public init(titles: [Title], available: Bool, pending: Bool) {
            self.titles = titles
            self.available = available
            self.pending = pending
        }
    }
}

// The answers of the hottest routes, written by hand (`JSONWriter`), the same JSON as their `Codable` forms; members
// in the sorted order of their keys.

extension QuizResult: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("hintsUsed", hintsUsed)
            json.member("outcome", outcome.rawValue)
            json.member("score", score)
            json.member("seconds", seconds)
            json.member("stageReached", stageReached)
        }
    }
}

extension ServerAPI.QuizState.Answer: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("title", title)
            json.member("year", ifPresent: year)
            json.member("original", ifPresent: original)
        }
    }
}

extension ServerAPI.QuizState: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("answer", ifPresent: answer)
            json.member("endsInMs", ifPresent: endsInMs)
            json.member("hint", ifPresent: hint)
            json.member("number", number)
            json.member("result", ifPresent: result)
            json.member("stage", stage)
            json.member("stageCount", stageCount)
            json.member("stagesInMs", ifPresent: stagesInMs)
            json.member("startsInMs", ifPresent: startsInMs)
            json.member("status", status)
        }
    }
}

extension ServerAPI.PlayState: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("currentQuiz", ifPresent: currentQuiz)
            json.member("daily", ifPresent: daily)
            json.member("finished", finished)
            json.member("id", id)
            json.member("packageTitle", packageTitle)
            json.member("quizzes", quizzes)
            json.member("ranked", ifPresent: ranked)
            json.member("score", score)
            json.member("shareCode", shareCode)
            json.member("shareLine", ifPresent: shareLine)
            json.member("unrankedReason", ifPresent: unrankedReason?.rawValue)
        }
    }
}

extension ServerAPI.GuessAnswer: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("currentQuiz", ifPresent: currentQuiz)
            json.member("finished", finished)
            json.member("judgement", judgement)
            json.member("play", ifPresent: play)
            json.member("quizzes", quizzes)
            json.member("ranked", ifPresent: ranked)
            json.member("score", score)
            json.member("shareLine", ifPresent: shareLine)
            json.member("unrankedReason", ifPresent: unrankedReason?.rawValue)
        }
    }
}

extension ServerAPI.HintAnswer: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("hint", hint)
            json.member("play", play)
        }
    }
}

// The bodies of the hottest requests, read by hand when plain (`JSONReadable`).

/// A member a plain body does not have: the body goes to `JSONDecoder`.
private struct NotPlain: Error {}

extension ServerAPI.GuessRequest: JSONReadable {
    public static func readJSON(_ reader: inout JSONReader) throws -> Self? {
        var quiz: Int?
        var text: String?
        try reader.members { reader, key in
            switch key {
            case "quiz" where quiz == nil: quiz = try reader.int()
            case "text" where text == nil: text = try reader.string()
            default: throw NotPlain()
            }
        }
        guard let quiz, let text else { return nil }
        return Self(quiz: quiz, text: text)
    }
}

extension ServerAPI.QuizRequest: JSONReadable {
    public static func readJSON(_ reader: inout JSONReader) throws -> Self? {
        var quiz: Int?
        try reader.members { reader, key in
            guard key == "quiz", quiz == nil else { throw NotPlain() }
            quiz = try reader.int()
        }
        return quiz.map(Self.init(quiz:))
    }
}

// Every keystroke of a guess asks for it.
extension ServerAPI.TitleSuggestions: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("available", available)
            json.member("pending", pending)
            json.key("titles")
            json.array(titles) { json, title in
                json.object { json in
                    json.member("originalTitle", ifPresent: title.originalTitle)
                    json.member("title", title.title)
                    json.member("year", ifPresent: title.year)
                }
            }
        }
    }
}
