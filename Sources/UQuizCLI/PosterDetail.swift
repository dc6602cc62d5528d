import Foundation
import MovieSearch
import PosterArt
import PosterGrid
import QuizCore
import QuizStore

/// How detailed each area of a poster is, for automatic areas that lean toward regions worth revealing.
enum PosterDetail {
    /// Reads the poster from the bundle, the poster cache, or the image server (caching it); `nil` when its pixels
    /// cannot be had, and the layout is then spread out on geometry alone.
    static func function(
        posterPath: String, source: PosterSource, geometry: GridGeometry, context: AppContext, database: AppDatabase
    ) -> ((Cell) -> Double)? {
        guard let raster = raster(posterPath: posterPath, source: source, geometry: geometry, context: context, database: database)
        else { return nil }
        return { raster.detail(ofAreaAround: $0) }
    }

    /// The poster seen through the grid, from the bundle, the poster cache or the image server (caching it).
    static func raster(
        posterPath: String, source: PosterSource, geometry: GridGeometry, context: AppContext, database: AppDatabase
    ) -> CellRaster? {
        guard let jpeg = jpegBytes(posterPath: posterPath, source: source, context: context, database: database),
            let image = try? JPEG.decode(jpeg)
        else { return nil }
        return CellRaster(image: image, geometry: geometry)
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
