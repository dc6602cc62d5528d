import Foundation
import Hummingbird
import NIOCore
import PosterGrid
import QuizCore
import ServerUseCases
import UQuizRules
import UQuizStorage
import UQuizWire

/// Plays judged by the server, leaderboards, the daily quiz and movie search: each route reads its input, calls one
/// use case (`Plays`, `Leaderboards`, `MovieSearches`) and shapes its answer. What a play's JSON holds comes
/// from `PlayView`, which the use case builds from what the server clock has reached, so no route can send an answer
/// early.
struct PlayRoutes {
    let environment: ServerEnvironment
    let plays: Plays
    let movies: MovieSearches
    let titles: TitleSuggestions
    let playStarts: RateLimiter
    let guesses: RateLimiter
    let movieSearches: RateLimiter
    let titleSuggestions: RateLimiter

    /// The longest guess judged, in characters: far past any title, short enough that judging stays cheap.
    static let maxGuessLength = 200

    // MARK: Routes

    func add(to router: Router<ServerRequestContext>) {
        let packages = router.group("v1/packages")
        packages.post("{code}/plays") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            try await Self.take(playStarts, for: player)
            let start = try await plays.start(shareCode: try context.parameters.require("code"), by: player)
            // The player's open play of the package, resumed, is no new resource.
            return start.resumed ? JSONBody.response(ServerAPI.PlayState(start.view)) : Self.created(start.view)
        }
        packages.get("{code}/leaderboard") { request, context in try await leaderboard(request, context) }

        let play = router.group("v1/plays")
        play.get("{id}") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            return JSONBody.response(ServerAPI.PlayState(try await plays.view(playId: try context.parameters.require("id"), by: player)))
        }
        play.get("{id}/quizzes/{quiz}/poster") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let quiz = try QueryValue.wholeNumber(context.parameters.require("quiz"), name: "quiz")
            let stage = try request.uri.queryParameters.get("stage").map { try QueryValue.wholeNumber($0, name: "stage") }
            let jpeg = try await plays.poster(playId: try context.parameters.require("id"), quiz: quiz, stage: stage, by: player)
            return JPEGBody.response(jpeg)
        }
        play.post("{id}/guesses") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let body = try JSONBody.decode(ServerAPI.GuessRequest.self, from: try await JSONBody.bytes(of: request))
            guard body.text.count <= Self.maxGuessLength else {
                throw APIError.badRequest("$.text: at most \(Self.maxGuessLength) characters")
            }
            let wholePlay = try Self.wantsWholePlay(request)
            try await Self.take(guesses, for: player)
            let outcome = try await plays.guess(
                playId: try context.parameters.require("id"), quiz: body.quiz, text: body.text, by: player,
                wholePlay: wholePlay)
            return JSONBody.response(
                ServerAPI.GuessAnswer(
                    judgement: outcome.judgement.rawValue, change: outcome.change, play: outcome.play.map(ServerAPI.PlayState.init)))
        }
        play.post("{id}/hints") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let body = try JSONBody.decode(ServerAPI.QuizRequest.self, from: try await JSONBody.bytes(of: request))
            let outcome = try await plays.hint(playId: try context.parameters.require("id"), quiz: body.quiz, by: player)
            return JSONBody.response(ServerAPI.HintAnswer(hint: outcome.hint, play: ServerAPI.PlayState(outcome.play)))
        }
        play.post("{id}/skips") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            let body = try JSONBody.decode(ServerAPI.QuizRequest.self, from: try await JSONBody.bytes(of: request))
            let view = try await plays.skip(playId: try context.parameters.require("id"), quiz: body.quiz, by: player)
            return JSONBody.response(ServerAPI.PlayState(view))
        }

        router.get("v1/daily") { request, _ in
            var viewer: Player?
            if request.headers[.authorization] != nil { viewer = try await request.authenticatedPlayer(environment) }
            let view = try await plays.daily(viewer: viewer, language: try QueryValue.language(of: request))
            return JSONBody.response(ServerAPI.Daily(view))
        }
        router.post("v1/daily/plays") { request, _ in
            let player = try await request.authenticatedPlayer(environment)
            try await Self.take(playStarts, for: player)
            return Self.created(try await plays.startDaily(by: player, language: try QueryValue.language(of: request)))
        }
        router.get("v1/daily/archive") { request, _ in
            let query = request.uri.queryParameters
            let limit = try query.get("limit").map {
                try QueryValue.wholeNumber($0, name: "limit", in: Plays.archivePageSizes)
            } ?? Plays.archiveDefaultPageSize
            let page = try await plays.dailyArchive(
                language: try QueryValue.language(of: request), before: try query.get("before").map(QueryValue.day),
                limit: limit)
            return JSONBody.response(ServerAPI.DailyArchive(days: page.days.map(ServerAPI.Daily.init), before: page.before))
        }
        router.post("v1/daily/archive/{day}/plays") { request, context in
            let player = try await request.authenticatedPlayer(environment)
            try await Self.take(playStarts, for: player)
            let day = try QueryValue.day(try context.parameters.require("day"))
            return Self.created(
                try await plays.startArchivedDaily(day: day, language: try QueryValue.language(of: request), by: player))
        }

        router.get("v1/titles") { request, _ in try await suggestTitles(request) }
        router.get("v1/movies") { request, _ in try await searchMovies(request) }
        router.get("v1/movies/posters") { request, _ in
            let (player, movie, language) = try await posterChoice(request)
            try await Self.take(movieSearches, for: player)
            let posters = try await movies.posters(of: movie, language: language)
            return JSONBody.response(
                ServerAPI.MoviePosters(posters: posters.map { .init(poster: $0.poster, language: $0.language) }))
        }
        router.get("v1/movies/searched-poster") { request, _ in
            _ = try await request.authenticatedPlayer(environment)
            guard let poster = try request.uri.queryParameters.get("poster").map({ try QueryValue.searchText($0, name: "poster") }),
                !poster.isEmpty
            else { throw APIError.badRequest("poster: the posterPath of a search's movie is needed") }
            return JPEGBody.response(try await movies.searchedPoster(poster))
        }
        router.get("v1/movies/posters/{number}") { request, context in
            let (player, movie, language) = try await posterChoice(request)
            let number = try QueryValue.wholeNumber(
                try context.parameters.require("number"), name: "number", in: 1...MoviePoster.most)
            // The posters of a list just asked for cost nothing more; others cost a search.
            if !movies.holdsPosters(of: movie, language: language) { try await Self.take(movieSearches, for: player) }
            return JPEGBody.response(try await movies.poster(number, of: movie, language: language))
        }
    }

    /// Whether a guess's answer is to carry the whole play (`?play=full`), not only what the guess changed.
    private static func wantsWholePlay(_ request: Request) throws -> Bool {
        guard let play = request.uri.queryParameters.get("play") else { return false }
        guard play == "full" else { throw APIError.badRequest("play: \"\(play)\" is not known here: use full") }
        return true
    }

    /// The player, movie and language a poster choice is asked for (`movie`: a TMDB id or a catalog key).
    private func posterChoice(_ request: Request) async throws -> (Player, MovieReference, QuizLanguage) {
        let player = try await request.authenticatedPlayer(environment)
        let query = request.uri.queryParameters
        guard let text = try query.get("movie").map({ try QueryValue.searchText($0, name: "movie") }), !text.isEmpty else {
            throw APIError.badRequest("movie: a TMDB id or a catalog key is needed")
        }
        guard text.count <= MovieSearches.maxQueryLength else {
            throw APIError.badRequest("movie: at most \(MovieSearches.maxQueryLength) characters")
        }
        let movie: MovieReference = Int(text).map { .tmdb($0) } ?? .catalog(text)
        return (player, movie, try query.get("language").map(QueryValue.language) ?? .en)
    }

    private func leaderboard(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let around = request.uri.queryParameters.get("around")
        if let around, around != "me" { throw APIError.badRequest("around: \"\(around)\" is not known here: use me") }
        var viewer: Player?
        if around != nil || request.headers[.authorization] != nil {
            viewer = try await request.authenticatedPlayer(environment)
        }
        let view = try await Leaderboards(environment: environment.sharing).board(
            shareCode: try context.parameters.require("code"), viewer: viewer)
        return JSONBody.response(
            ServerAPI.Leaderboard(
                shareCode: view.package.shareCode, rankedPlays: view.board.rankedPlays,
                top: view.board.top.map(ServerAPI.Leaderboard.Line.init), me: view.board.mine.map(ServerAPI.Leaderboard.Line.init),
                quizzes: view.quizzes?.map {
                    .init(
                        number: $0.position, attempts: $0.attempts, solved: $0.solved,
                        solveRate: $0.attempts == 0 ? nil : Double($0.solved) / Double($0.attempts),
                        averageStage: $0.averageStage, hinted: $0.hinted, commonWrongGuesses: $0.commonWrongGuesses,
                        solvedAtStage: view.solvedAtStage(of: $0))
                },
                scores: Distribution.scoreBins(view.board.scoreCounts)))
    }

    private func suggestTitles(_ request: Request) async throws -> Response {
        let player = try await request.authenticatedPlayer(environment)
        let query = request.uri.queryParameters
        guard let text = try query.get("q").map({ try QueryValue.searchText($0, name: "q") }) else {
            throw APIError.badRequest("q: what the player has typed is needed")
        }
        guard text.count <= Self.maxGuessLength else {
            throw APIError.badRequest("q: at most \(Self.maxGuessLength) characters")
        }
        let language = try query.get("language").map(QueryValue.language) ?? .en
        try await Self.take(titleSuggestions, for: player)
        let answer = try await titles.suggest(text, language: language)
        return JSONBody.response(
            ServerAPI.TitleSuggestions(
                titles: answer.titles.map { .init(title: $0.title, originalTitle: $0.originalTitle, year: $0.year) },
                available: answer.available, pending: answer.pending))
    }

    private func searchMovies(_ request: Request) async throws -> Response {
        let player = try await request.authenticatedPlayer(environment)
        let query = request.uri.queryParameters
        guard let text = try query.get("q").map({ try QueryValue.searchText($0, name: "q") }),
            !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else {
            throw APIError.badRequest("q: a title or part of one is needed")
        }
        guard text.count <= MovieSearches.maxQueryLength else {
            throw APIError.badRequest("q: at most \(MovieSearches.maxQueryLength) characters")
        }
        let language = try query.get("language").map(QueryValue.language) ?? .en
        let page = try query.get("page").map { try QueryValue.wholeNumber($0, name: "page", in: MovieSearches.pages) } ?? 1
        var year: Int?
        if let value = query.get("year") {
            guard let parsed = Int(value), (1870...2100).contains(parsed) else {
                throw APIError.badRequest("year: \"\(value)\" is not a year from 1870 to 2100")
            }
            year = parsed
        }
        try await Self.take(movieSearches, for: player)
        let found = try await movies.find(text, language: language, page: page, year: year)
        return JSONBody.response(
            ServerAPI.MovieResults(
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
        var response = JSONBody.response(ServerAPI.PlayState(view), status: .created)
        response.headers[.location] = "/v1/plays/\(view.id)"
        return response
    }

    /// One token of `limiter` for `player`, or 429 with `Retry-After`.
    static func take(_ limiter: RateLimiter, for player: Player) async throws {
        if let wait = try await limiter.take(for: "player:\(player.id)") { throw APIError.tooManyRequests(wait) }
    }
}
