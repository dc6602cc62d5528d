import PosterGrid
import QuizCore
import UQuizStorage

/// How a quiz is built from a maker's spec and its resolved movie, on either side: the command line's `CreatePackage`
/// and the server's `Publications` build quizzes by these, so a package is the same whichever side made it.
package enum QuizBuilding {
    /// Quiz `index` of `spec` on its resolved movie and `geometry`, as `CreatePackage.quiz(_:of:…)` makes it, with `chosenAreas`
    /// giving the areas of a quiz the spec gives none (`nil`: `CreatePackageError.noAreas`). Needs nothing from
    /// outside: what the server builds a publication's quizzes by.
    package static func quiz(
        _ index: Int, of spec: PackageDocument.Checked, resolved: ResolvedMovie, language: QuizLanguage,
        hasStoredPoster: (String) throws -> Bool, geometry: GridGeometry,
        chosenAreas: ((path: String, source: PosterSource)) async -> [Cell]? = { _ in nil }
    ) async throws -> Quiz {
        let entry = spec.quizzes[index]
        guard let poster = entry.poster.map({ (path: $0, source: PosterPath.source(ofSpecPoster: $0)) })
            ?? defaultPoster(of: resolved.movie, in: language)
        else { throw CreatePackageError.noPoster(quiz: index + 1, movie: entry.movie) }
        if poster.source == .bundled, entry.poster != nil, try !hasStoredPoster(poster.path) {
            throw CreatePackageError.noStoredPoster(quiz: index + 1, name: poster.path)
        }
        var areas = entry.areas
        if areas == nil { areas = await chosenAreas(poster) }
        guard let areas else { throw CreatePackageError.noAreas(quiz: index + 1, movie: entry.movie) }
        var made = quiz(of: resolved, language: language, poster: poster, areas: areas, geometry: geometry)
        made.aliases = entry.aliases
        return made
    }

    /// The movie's TMDB poster in `language` (else in English), else its bundled one.
    package static func defaultPoster(of movie: CatalogMovie, in language: QuizLanguage) -> (path: String, source: PosterSource)? {
        if let path = movie.posterPaths[language] ?? movie.posterPaths[.en] { return (path, .tmdb) }
        return movie.bundledPoster.map { ($0, .bundled) }
    }

    /// A quiz on a movie: its title in the package's language, its facts, the chosen poster and the areas.
    package static func quiz(
        of resolved: ResolvedMovie, language: QuizLanguage, poster: (path: String, source: PosterSource), areas: [Cell],
        geometry: GridGeometry
    ) -> Quiz {
        let movie = resolved.movie
        return Quiz(
            tmdbId: movie.tmdbId, catalogKey: movie.catalogKey, title: movie.title(in: language),
            originalTitle: movie.originalTitle, releaseDate: movie.releaseDate, genreIds: resolved.genreIds,
            posterPath: poster.path, posterSource: poster.source, geometry: geometry, areas: areas)
    }
}

/// Why a package cannot be made as asked.
public enum CreatePackageError: Error, Equatable {
    /// The movie has no TMDB poster in any language and none bundled.
    case noPoster(quiz: Int, movie: MovieReference)
    /// The quiz gives no areas and automatic areas were not asked for.
    case noAreas(quiz: Int, movie: MovieReference)
    /// The quiz names a stored poster image (bundled or uploaded) this database does not hold.
    case noStoredPoster(quiz: Int, name: String)
}
