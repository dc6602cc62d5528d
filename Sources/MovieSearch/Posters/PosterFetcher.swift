import Foundation
import QuizCore

/// A poster a caller wants on disk; `tmdbId` lets a poster TMDB no longer has be replaced by another of the movie's.
public struct PosterRequest: Sendable, Hashable {
    public var posterPath: String
    public var tmdbId: Int?
    public var language: QuizLanguage

    public init(posterPath: String, tmdbId: Int?, language: QuizLanguage) {
        self.posterPath = posterPath
        self.tmdbId = tmdbId
        self.language = language
    }
}

public enum PosterOutcome: Sendable, Equatable {
    case alreadyCached
    case downloaded
    /// TMDB answered 404 for the old path; this one of the movie's current posters took its place.
    case replaced(newPath: String)
    case failed(String)
}

/// Brings posters into the cache: the missing ones all at once over libcurl's multi interface.
public struct PosterFetcher: Sendable {
    let client: TMDBClient
    let cache: PosterCache
    let size: String

    /// `isPoster`, when given, replaces the cache's judge of what a poster is (the application layer passes a decoder,
    /// which this module has not): a body it refuses is a failure and is not cached, a cached file it refuses is fetched
    /// again.
    public init(client: TMDBClient, cache: PosterCache, size: String, isPoster: (@Sendable (Data) -> Bool)? = nil) {
        self.client = client
        self.cache = isPoster.map(cache.checking) ?? cache
        self.size = size
    }

    /// One outcome per request, in order; `progress` gets (done, total) as downloads finish.
    public func fetch(_ requests: [PosterRequest], progress: (Int, Int) -> Void = { _, _ in }) async -> [PosterOutcome] {
        var outcomes = [PosterOutcome?](repeating: nil, count: requests.count)
        var missing: [String] = []
        for (index, request) in requests.enumerated() {
            if cache.contains(request.posterPath, size: size) {
                outcomes[index] = .alreadyCached
            } else if !missing.contains(request.posterPath) {
                missing.append(request.posterPath)
            }
        }
        let downloads = await client.downloadPosters(missing, size: size) { progress($0, missing.count) }
        var byPath: [String: Result<Data, MovieSearchError>] = [:]
        for (path, result) in zip(missing, downloads) { byPath[path] = result }
        for (index, request) in requests.enumerated() where outcomes[index] == nil {
            switch byPath[request.posterPath]! {
            case .success(let data):
                outcomes[index] = store(data, request.posterPath, .downloaded)
            case .failure(.http(404, _, _, _, _)) where request.tmdbId != nil:
                outcomes[index] = await replace(request)
            case .failure(let error):
                outcomes[index] = .failed(error.localizedDescription)
            }
        }
        return outcomes.map { $0! }
    }

    private func store(_ data: Data, _ path: String, _ outcome: PosterOutcome) -> PosterOutcome {
        do {
            try cache.store(data, for: path, size: size)
            return outcome
        } catch let error as PosterCache.NotAPoster {
            return .failed("the image server sent something that is not a readable poster (\(error.localizedDescription))")
        } catch {
            return .failed("cannot write the poster cache (\(error.localizedDescription))")
        }
    }

    /// The movie's best poster in the quiz language (else English, else any) stands in for one TMDB removed.
    private func replace(_ request: PosterRequest) async -> PosterOutcome {
        guard client.settings.credentials != nil else {
            return .failed("TMDB no longer has \(request.posterPath); set TMDB credentials to find its current poster")
        }
        do {
            let posters = try await client.posters(movieID: request.tmdbId!, language: request.language)
            guard let chosen = posters.first(where: { $0.language == request.language.rawValue })
                ?? posters.first(where: { $0.language == "en" }) ?? posters.first
            else { return .failed("TMDB has no poster left for movie \(request.tmdbId!)") }
            let data = try await client.downloadPosters([chosen.filePath], size: size)[0].get()
            return store(data, chosen.filePath, .replaced(newPath: chosen.filePath))
        } catch {
            return .failed(error.localizedDescription)
        }
    }
}

extension TMDBClient {
    /// Downloads poster images (no credentials needed: the image server is public), all at once; those that failed in a
    /// way worth retrying (429, 5xx, a broken connection, a timeout) go again in later rounds, as the retry policy says.
    public func downloadPosters(
        _ paths: [String], size: String, finished: (Int) -> Void = { _ in }
    ) async -> [Result<Data, MovieSearchError>] {
        var results = [Result<Data, MovieSearchError>](repeating: .failure(.invalidRequest("not downloaded")), count: paths.count)
        // A path that is not "/" and a file name would ask the image server for something else (`/../../etc/passwd`).
        var pending = paths.indices.filter { PosterPath.isTMDBPath(paths[$0]) }
        for index in paths.indices where !PosterPath.isTMDBPath(paths[index]) {
            results[index] = .failure(.invalidRequest("\"\(paths[index])\" is not a poster path: \(PosterPath.rule)"))
        }
        let started = clock.now()
        var attempt = 0
        while !pending.isEmpty {
            attempt += 1
            let requests = pending.map { HTTPRequest(url: posterURL(path: paths[$0], size: size), maxBodyBytes: 10 << 20) }
            for request in requests { log("GET \(Redaction.redact(url: request.url))") }
            let replies = await transport.sendAll(requests, finished: finished)
            var again: [Int] = []
            var wait: Duration = .zero
            for (index, reply) in zip(pending, replies) {
                results[index] = Self.posterResult(reply, endpoint: "/\(size)\(paths[index])")
                guard case .failure(let failure) = results[index],
                    let delay = retry.delay(
                        afterAttempt: attempt, failure: failure, elapsed: clock.now() - started, random: clock.random())
                else { continue }
                again.append(index)
                wait = max(wait, delay)
            }
            if !again.isEmpty, !Task.isCancelled { await clock.wait(wait) }
            pending = again
        }
        return results
    }

    static func posterResult(_ result: Result<HTTPReply, TransportError>, endpoint: String) -> Result<Data, MovieSearchError> {
        switch result {
        case .failure(let error):
            return .failure(.transport(error))
        case .success(let reply) where reply.status != 200:
            return .failure(httpError(reply, endpoint: endpoint))
        case .success(let reply) where !reply.body.starts(with: [0xFF, 0xD8, 0xFF]):
            return .failure(.malformed(endpoint: endpoint, detail: "not a JPEG"))
        case .success(let reply):
            return .success(reply.body)
        }
    }
}
