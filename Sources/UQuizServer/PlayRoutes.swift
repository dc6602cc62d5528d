import Foundation
import Hummingbird
import NIOCore
import PosterGrid
import QuizCore
import QuizStore
import UQuizApp

/// Plays judged by the server, leaderboards, the daily quiz and movie search: each route reads its input, calls one
/// use case (`ServerPlays`, `Leaderboards`, `ServerMovieSearch`) and shapes its answer. What a play's JSON holds comes
/// from `PlayView`, which the use case builds from what the server clock has reached, so no route can send an answer
/// early.
struct PlayRoutes {
    let environment: ServerEnvironment
    let plays: ServerPlays
    let movies: ServerMovieSearch
    let playStarts: RateLimiter
    let guesses: RateLimiter
    let movieSearches: RateLimiter

    /// The longest guess judged, in characters: far past any title, short enough that judging stays cheap.
    static let maxGuessLength = 200

    // MARK: Bodies

    struct QuizBody: Encodable {
        struct Answer: Encodable {
            var title: String
            var year: String?
        }

        var number: Int
        var status: String
        var stageCount: Int
        var stage: Int
        var startsInMs: Int?
        var stagesInMs: [Int]?
        var endsInMs: Int?
        var hint: String?
        var result: QuizResult?
        var answer: Answer?

        init(_ view: QuizView) {
            number = view.number
            status = view.status.rawValue
            stageCount = view.stageCount
            stage = view.stage
            startsInMs = view.startsInMs
            stagesInMs = view.stagesInMs
            endsInMs = view.endsInMs
            hint = view.hint
            result = view.result
            answer = view.answer.map { Answer(title: $0.title, year: $0.year) }
        }
    }

    struct PlayBody: Encodable {
        var id: String
        var shareCode: String
        var packageTitle: String
        var daily: Int?
        var finished: Bool
        var ranked: Bool?
        var score: Int
        var currentQuiz: Int?
        var quizzes: [QuizBody]
        var shareLine: String?

        init(_ view: PlayView) {
            id = view.id
            shareCode = view.shareCode
            packageTitle = view.packageTitle
            daily = view.dailyNumber
            finished = view.finished
            ranked = view.ranked
            score = view.score
            currentQuiz = view.currentQuiz
            quizzes = view.quizzes.map(QuizBody.init)
            shareLine = view.shareLine
        }
    }

    struct GuessRequest: Decodable {
        var quiz: Int
        var text: String
    }

    struct QuizRequest: Decodable {
        var quiz: Int
    }

    struct GuessBody: Encodable {
        var judgement: String
        var play: PlayBody
    }

    struct HintBody: Encodable {
        var hint: String
        var play: PlayBody
    }

    struct LeaderboardBody: Encodable {
        struct Line: Encodable {
            var rank: Int
            var player: String
            var score: Int
            var seconds: Double
            var finishedAt: String

            init(_ entry: LeaderboardEntry) {
                rank = entry.rank
                player = entry.player
                score = entry.score
                seconds = (entry.elapsedSeconds * 1000).rounded() / 1000
                finishedAt = entry.finishedAt
            }
        }

        struct QuizLine: Encodable {
            var number: Int
            var attempts: Int
            var solved: Int
            var solveRate: Double?
            var averageStage: Double?
        }

        var shareCode: String
        var rankedPlays: Int
        var top: [Line]
        var me: Line?
        var quizzes: [QuizLine]?
    }

    struct DailyBody: Encodable {
        struct You: Encodable {
            var streak: Int
            var bestStreak: Int
            var play: PlayBody?
        }

        var number: Int
        var day: String
        var shareCode: String
        var packageTitle: String
        var quiz: Int
        var level: Level
        var language: QuizLanguage
        var stageCount: Int
        var you: You?
    }

    struct MoviesBody: Encodable {
        struct Movie: Encodable {
            var tmdbId: Int?
            var catalogKey: String
            var title: String
            var originalTitle: String
            var releaseDate: String?
            var posterPath: String?
        }

        /// `tmdb`, or `catalog` when TMDB was not asked or could not be reached.
        var source: String
        var page: Int
        var totalPages: Int
        var totalResults: Int
        var results: [Movie]
    }

    // MARK: Routes

    func add(to router: Router<ServerRequestContext>) {
        let packages = router.group("v1/packages")
        packages.post("{code}/plays") { request, context in
            let player = try request.authenticatedPlayer(environment)
            try Self.take(playStarts, for: player)
            let view = try plays.start(shareCode: try context.parameters.require("code"), by: player)
            return Self.created(view)
        }
        packages.get("{code}/leaderboard") { request, context in try leaderboard(request, context) }

        let play = router.group("v1/plays")
        play.get("{id}") { request, context in
            let player = try request.authenticatedPlayer(environment)
            return JSONBody.response(PlayBody(try plays.view(playId: try context.parameters.require("id"), by: player)))
        }
        play.get("{id}/quizzes/{quiz}/poster") { request, context in
            let player = try request.authenticatedPlayer(environment)
            let quiz = try Self.wholeNumber(context.parameters.require("quiz"), name: "quiz")
            let stage = try request.uri.queryParameters.get("stage").map { try Self.wholeNumber($0, name: "stage") }
            let jpeg = try plays.poster(playId: try context.parameters.require("id"), quiz: quiz, stage: stage, by: player)
            // A stage poster is the player's alone and changes as the clock runs: no shared cache may keep it.
            return Response(
                status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
        }
        play.post("{id}/guesses") { request, context in
            let player = try request.authenticatedPlayer(environment)
            let body = try JSONBody.decode(GuessRequest.self, from: try await JSONBody.bytes(of: request))
            guard body.text.count <= Self.maxGuessLength else {
                throw APIError.badRequest("$.text: at most \(Self.maxGuessLength) characters")
            }
            try Self.take(guesses, for: player)
            let outcome = try plays.guess(
                playId: try context.parameters.require("id"), quiz: body.quiz, text: body.text, by: player)
            return JSONBody.response(GuessBody(judgement: outcome.judgement.rawValue, play: PlayBody(outcome.play)))
        }
        play.post("{id}/hints") { request, context in
            let player = try request.authenticatedPlayer(environment)
            let body = try JSONBody.decode(QuizRequest.self, from: try await JSONBody.bytes(of: request))
            let outcome = try plays.hint(playId: try context.parameters.require("id"), quiz: body.quiz, by: player)
            return JSONBody.response(HintBody(hint: outcome.hint, play: PlayBody(outcome.play)))
        }
        play.post("{id}/skips") { request, context in
            let player = try request.authenticatedPlayer(environment)
            let body = try JSONBody.decode(QuizRequest.self, from: try await JSONBody.bytes(of: request))
            let view = try plays.skip(playId: try context.parameters.require("id"), quiz: body.quiz, by: player)
            return JSONBody.response(PlayBody(view))
        }

        router.get("v1/daily") { request, _ in
            let viewer = request.headers[.authorization] == nil ? nil : try request.authenticatedPlayer(environment)
            let view = try plays.daily(viewer: viewer)
            let position = view.choice.position ?? 0
            return JSONBody.response(
                DailyBody(
                    number: view.choice.number, day: view.choice.day, shareCode: view.package.shareCode.value,
                    packageTitle: view.package.title, quiz: position + 1, level: view.package.level,
                    language: view.package.language, stageCount: view.stageCount,
                    you: view.streak.map { DailyBody.You(streak: $0.current, bestStreak: $0.best, play: view.play.map(PlayBody.init)) }))
        }
        router.post("v1/daily/plays") { request, _ in
            let player = try request.authenticatedPlayer(environment)
            try Self.take(playStarts, for: player)
            return Self.created(try plays.startDaily(by: player))
        }

        router.get("v1/movies") { request, _ in try searchMovies(request) }
    }

    private func leaderboard(_ request: Request, _ context: ServerRequestContext) throws -> Response {
        let around = request.uri.queryParameters.get("around")
        if let around, around != "me" { throw APIError.badRequest("around: \"\(around)\" is not known here: use me") }
        var viewer: Player?
        if around != nil || request.headers[.authorization] != nil {
            viewer = try request.authenticatedPlayer(environment)
        }
        let view = try Leaderboards(environment: environment.sharing).board(
            shareCode: try context.parameters.require("code"), viewer: viewer)
        return JSONBody.response(
            LeaderboardBody(
                shareCode: view.package.shareCode, rankedPlays: view.board.rankedPlays,
                top: view.board.top.map(LeaderboardBody.Line.init), me: view.board.mine.map(LeaderboardBody.Line.init),
                quizzes: view.quizzes?.map {
                    .init(
                        number: $0.position, attempts: $0.attempts, solved: $0.solved,
                        solveRate: $0.attempts == 0 ? nil : Double($0.solved) / Double($0.attempts),
                        averageStage: $0.averageStage)
                }))
    }

    private func searchMovies(_ request: Request) throws -> Response {
        let player = try request.authenticatedPlayer(environment)
        let query = request.uri.queryParameters
        guard let text = query.get("q"), !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw APIError.badRequest("q: a title or part of one is needed")
        }
        guard text.count <= ServerMovieSearch.maxQueryLength else {
            throw APIError.badRequest("q: at most \(ServerMovieSearch.maxQueryLength) characters")
        }
        var language = QuizLanguage.en
        if let value = query.get("language") {
            guard let parsed = QuizLanguage(rawValue: value) else {
                throw APIError.badRequest("language: \"\(value)\" is not a language: use ko or en")
            }
            language = parsed
        }
        var page = 1
        if let value = query.get("page") {
            guard let parsed = Int(value), ServerMovieSearch.pages.contains(parsed) else {
                throw APIError.badRequest(
                    "page: \"\(value)\" is not a whole number from 1 to \(ServerMovieSearch.pages.upperBound)")
            }
            page = parsed
        }
        var year: Int?
        if let value = query.get("year") {
            guard let parsed = Int(value), (1870...2100).contains(parsed) else {
                throw APIError.badRequest("year: \"\(value)\" is not a year from 1870 to 2100")
            }
            year = parsed
        }
        try Self.take(movieSearches, for: player)
        let found = try movies.find(text, language: language, page: page, year: year)
        return JSONBody.response(
            MoviesBody(
                source: found.offlineReason == nil ? "tmdb" : "catalog", page: found.page, totalPages: found.totalPages,
                totalResults: found.totalResults,
                results: found.results.map {
                    .init(
                        tmdbId: $0.tmdbId, catalogKey: $0.catalogKey, title: $0.title, originalTitle: $0.originalTitle,
                        releaseDate: $0.releaseDate, posterPath: $0.posterPath)
                }))
    }

    // MARK: Helpers

    static func created(_ view: PlayView) -> Response {
        var response = JSONBody.response(PlayBody(view), status: .created)
        response.headers[.location] = "/v1/plays/\(view.id)"
        return response
    }

    /// A path or query number: 400 naming it when it is not a whole number.
    static func wholeNumber(_ text: String, name: String) throws -> Int {
        guard let value = Int(text) else { throw APIError.badRequest("\(name): \"\(text)\" is not a whole number") }
        return value
    }

    /// One token of `limiter` for `player`, or 429 with `Retry-After`.
    static func take(_ limiter: RateLimiter, for player: Player) throws {
        if let wait = limiter.take(for: "player:\(player.id)") { throw APIError.tooManyRequests(wait) }
    }
}
