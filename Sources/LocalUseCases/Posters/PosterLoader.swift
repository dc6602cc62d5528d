import Foundation
import MovieSearch
import PosterArt
import PosterGrid
import QuizCore
import UQuizRules

/// Poster pixels seen through a quiz's grid, from the bundle, the poster cache or the image server: for the player,
/// and for automatic areas that lean toward detailed regions.
public struct PosterLoader: Sendable {
    public let environment: AppEnvironment
    /// Called with the number of posters about to be downloaded, before a play's batch starts.
    public var willDownload: @Sendable (Int) -> Void = { _ in }

    public init(environment: AppEnvironment) {
        self.environment = environment
    }

    /// How detailed the poster is around each cell, or `nil` when its pixels cannot be had (automatic areas then
    /// spread out on geometry alone).
    public func detail(posterPath: String, source: PosterSource, geometry: GridGeometry) async -> ((Cell) -> Double)? {
        guard let jpeg = await jpegBytes(posterPath: posterPath, source: source),
            let raster = try? Self.raster(jpeg, geometry: geometry).get()
        else { return nil }
        return { raster.detail(ofAreaAround: $0) }
    }

    /// A poster's cells for a maker choosing areas on it: from the bundle, the cache or the image server (and cached).
    public func raster(posterPath: String, source: PosterSource, geometry: GridGeometry) async -> Result<CellRaster, PosterUnavailable> {
        do {
            return Self.raster(try await jpeg(posterPath: posterPath, source: source), geometry: geometry)
        } catch {
            return .failure(error)
        }
    }

    /// Whether a poster a maker names can be shown: its bytes from the bundle, the cache or the image server, decoded.
    /// - Throws: `PosterUnavailable` saying why not.
    public func verify(posterPath: String, source: PosterSource) async throws(PosterUnavailable) {
        let bytes = try await jpeg(posterPath: posterPath, source: source)
        guard (try? JPEG.decode(bytes)) != nil else { throw .unreadable }
    }

    /// A quiz's poster as JPEG bytes (what the server cuts its stage posters from): bundled ones from the store, TMDB
    /// ones from the poster cache, downloaded and cached when missing.
    /// - Throws: `PosterUnavailable` saying why not.
    public func jpeg(for quiz: Quiz) async throws(PosterUnavailable) -> Data {
        try await jpeg(posterPath: quiz.posterPath, source: quiz.posterSource)
    }

    public func jpeg(posterPath: String, source: PosterSource) async throws(PosterUnavailable) -> Data {
        guard let jpeg = await jpegBytes(posterPath: posterPath, source: source) else {
            throw source == .bundled ? .bundledPosterMissing : .downloadFailed("no image at \(posterPath)")
        }
        return jpeg
    }

    /// The posters of the quizzes about to be played: bundled ones from the store, TMDB ones from the poster cache,
    /// and the missing ones downloaded together (libcurl's multi interface, retried as the rules say) and cached. A
    /// poster TMDB no longer has is replaced by the movie's current one and the quiz updated, as `fetch-posters` does.
    /// With `offline`, nothing is downloaded: a TMDB poster that is not cached is unavailable.
    public func rasters(
        for quizzes: [(id: Int64, quiz: Quiz)], language: QuizLanguage, offline: Bool
    ) async -> [Result<CellRaster, PosterUnavailable>] {
        var results = [Result<CellRaster, PosterUnavailable>](
            repeating: .failure(.notCachedOffline), count: quizzes.count)
        var online: [Int] = []
        for (index, entry) in quizzes.enumerated() {
            switch entry.quiz.posterSource {
            case .bundled:
                let bytes = try? environment.catalog().bundledPoster(fileName: entry.quiz.posterPath)
                results[index] = Self.raster(bytes, geometry: entry.quiz.geometry, otherwise: .bundledPosterMissing)
            case .tmdb:
                online.append(index)
            }
        }
        guard !online.isEmpty else { return results }
        do {
            let cache = try environment.posterCache().checking(JPEG.isReadable)
            let size = "w\(try environment.posterPlayWidth())"
            if offline {
                for index in online {
                    let quiz = quizzes[index].quiz
                    results[index] = Self.raster(
                        cache.data(for: quiz.posterPath, size: size), geometry: quiz.geometry, otherwise: .notCachedOffline)
                }
                return results
            }
            let fetcher = PosterFetcher(client: try environment.imageClient(), cache: cache, size: size)
            let missing = online.filter { !cache.contains(quizzes[$0].quiz.posterPath, size: size) }.count
            if missing > 0 { willDownload(missing) }
            let outcomes = await fetcher.fetch(online.map {
                PosterRequest(posterPath: quizzes[$0].quiz.posterPath, tmdbId: quizzes[$0].quiz.tmdbId, language: language)
            })
            for (index, outcome) in zip(online, outcomes) {
                var path = quizzes[index].quiz.posterPath
                switch outcome {
                case .failed(let reason):
                    results[index] = .failure(.downloadFailed(reason))
                    continue
                case .replaced(let newPath):
                    try? environment.catalog().replacePoster(quizId: quizzes[index].id, with: newPath)
                    path = newPath
                case .alreadyCached, .downloaded:
                    break
                }
                results[index] = Self.raster(cache.data(for: path, size: size), geometry: quizzes[index].quiz.geometry)
            }
        } catch {
            for index in online { results[index] = .failure(.downloadFailed(error.localizedDescription)) }
        }
        return results
    }

    /// The poster's cells, or `reason` when there are no bytes or they are not a readable JPEG.
    private static func raster(
        _ jpeg: Data?, geometry: GridGeometry, otherwise reason: PosterUnavailable = .unreadable
    ) -> Result<CellRaster, PosterUnavailable> {
        guard let jpeg else { return .failure(reason) }
        return Result { CellRaster(image: try JPEG.decode(jpeg), geometry: geometry) }.mapError { _ in reason }
    }

    private func jpegBytes(posterPath: String, source: PosterSource) async -> Data? {
        switch source {
        case .bundled:
            return try? environment.catalog().bundledPoster(fileName: posterPath)
        case .tmdb:
            return await environment.tmdbPosterFiles.jpeg(posterPath: posterPath)
        }
    }
}
