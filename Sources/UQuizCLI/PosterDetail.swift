import Foundation
import MovieSearch
import PosterArt
import PosterGrid
import QuizCore
import QuizStore

/// Why a poster's pixels could not be had, said on the player's status line.
struct PosterUnavailable: Error, Equatable {
    var reason: String
}

/// Poster pixels seen through a quiz's grid: for automatic areas that lean toward detailed regions, and for the player.
enum PosterDetail {
    /// Reads the poster from the bundle, the poster cache, or the image server (caching it); `nil` when its pixels
    /// cannot be had, and the layout is then spread out on geometry alone.
    static func function(
        posterPath: String, source: PosterSource, geometry: GridGeometry, context: AppContext, database: AppDatabase
    ) -> ((Cell) -> Double)? {
        guard let jpeg = jpegBytes(posterPath: posterPath, source: source, context: context, database: database),
            let raster = try? raster(jpeg, geometry: geometry)
        else { return nil }
        return { raster.detail(ofAreaAround: $0) }
    }

    /// The posters of the quizzes about to be played: bundled ones from the database, TMDB ones from the poster cache,
    /// and the missing ones downloaded together (libcurl's multi interface, retried as the rules say) and cached. A
    /// poster TMDB no longer has is replaced by the movie's current one and the quiz updated, as `fetch-posters` does.
    /// With `offline`, nothing is downloaded: a TMDB poster that is not cached is unavailable.
    static func rasters(
        for quizzes: [(id: Int64, quiz: Quiz)], language: QuizLanguage, offline: Bool, context: AppContext,
        database: AppDatabase
    ) -> [Result<CellRaster, PosterUnavailable>] {
        var results = [Result<CellRaster, PosterUnavailable>](
            repeating: .failure(PosterUnavailable(reason: "not looked for")), count: quizzes.count)
        var online: [Int] = []
        for (index, entry) in quizzes.enumerated() {
            switch entry.quiz.posterSource {
            case .bundled:
                results[index] = raster(
                    try? database.bundledPoster(fileName: entry.quiz.posterPath), geometry: entry.quiz.geometry,
                    otherwise: "the bundled poster is missing; uquiz seed merge restores it")
            case .tmdb:
                online.append(index)
            }
        }
        guard !online.isEmpty else { return results }
        do {
            let cache = try context.settings.posterCache()
            let size = "w\(try context.settings.posterPlayWidth())"
            if offline {
                for index in online {
                    let quiz = quizzes[index].quiz
                    results[index] = raster(
                        cache.data(for: quiz.posterPath, size: size), geometry: quiz.geometry,
                        otherwise: "it is not cached and --offline was given (uquiz fetch-posters caches it)")
                }
                return results
            }
            let fetcher = PosterFetcher(client: try context.imageClient(), cache: cache, size: size)
            let missing = online.filter { !cache.contains(quizzes[$0].quiz.posterPath, size: size) }.count
            if missing > 0 { Console.note("Downloading \(missing) poster\(missing == 1 ? "" : "s")…") }
            let outcomes = fetcher.fetch(online.map {
                PosterRequest(posterPath: quizzes[$0].quiz.posterPath, tmdbId: quizzes[$0].quiz.tmdbId, language: language)
            })
            for (index, outcome) in zip(online, outcomes) {
                var path = quizzes[index].quiz.posterPath
                switch outcome {
                case .failed(let reason):
                    results[index] = .failure(PosterUnavailable(reason: "it could not be downloaded: \(reason)"))
                    continue
                case .replaced(let newPath):
                    try? database.replacePoster(quizId: quizzes[index].id, with: newPath)
                    path = newPath
                case .alreadyCached, .downloaded:
                    break
                }
                results[index] = raster(
                    cache.data(for: path, size: size), geometry: quizzes[index].quiz.geometry,
                    otherwise: "the cached file is not a readable JPEG")
            }
        } catch {
            for index in online {
                results[index] = .failure(PosterUnavailable(reason: "it could not be downloaded: \(error.localizedDescription)"))
            }
        }
        return results
    }

    private struct NoPixels: Error {}

    private static func raster(_ jpeg: Data?, geometry: GridGeometry) throws -> CellRaster {
        guard let jpeg else { throw NoPixels() }
        return CellRaster(image: try JPEG.decode(jpeg), geometry: geometry)
    }

    /// The poster's cells, or `reason` when there are no bytes or they are not a readable JPEG.
    private static func raster(
        _ jpeg: Data?, geometry: GridGeometry, otherwise reason: String
    ) -> Result<CellRaster, PosterUnavailable> {
        Result { try raster(jpeg, geometry: geometry) }.mapError { _ in PosterUnavailable(reason: reason) }
    }

    private static func jpegBytes(
        posterPath: String, source: PosterSource, context: AppContext, database: AppDatabase
    ) -> Data? {
        switch source {
        case .bundled:
            return try? database.bundledPoster(fileName: posterPath)
        case .tmdb:
            guard let cache = try? context.settings.posterCache(), let width = try? context.settings.posterPlayWidth()
            else { return nil }
            let size = "w\(width)"
            if let cached = cache.data(for: posterPath, size: size) { return cached }
            guard let client = try? context.imageClient(),
                let data = try? client.downloadPosters([posterPath], size: size)[0].get()
            else {
                context.logger.debug("poster \(posterPath) unavailable: automatic areas use the layout alone")
                return nil
            }
            try? cache.store(data, for: posterPath, size: size)
            return data
        }
    }
}
