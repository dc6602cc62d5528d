import PosterGrid

/// The languages packages are made in; a package's titles, posters and answers are judged in its language first.
public enum QuizLanguage: String, CaseIterable, Sendable, Codable {
    case ko
    case en
}

/// Where a package came from: the bundled seed (restorable with `seed merge`) or a user.
public enum PackageOrigin: String, CaseIterable, Sendable, Codable {
    case seed
    case user
}

/// Where a quiz's poster image lives.
public enum PosterSource: String, CaseIterable, Sendable, Codable {
    /// A TMDB image file path, fetched from the image server (and cached) when played.
    case tmdb
    /// A public-domain JPEG that travels inside the seed bundle, playable with no network.
    case bundled
}

/// A movie of the local catalog: everything the seed or a search ever brought.
public struct CatalogMovie: Hashable, Sendable, Codable {
    /// Stable identity across seed versions: `tmdb-<id>`, or `seed-<slug>` for films whose TMDB id is not known.
    public var catalogKey: String
    public var tmdbId: Int?
    public var originalTitle: String
    public var titles: [QuizLanguage: String]
    /// `YYYY-MM-DD`, or just `YYYY` where the day is not known.
    public var releaseDate: String?
    public var posterPaths: [QuizLanguage: String]
    /// File name of a poster bundled with the seed.
    public var bundledPoster: String?
    public var aliases: [String]

    public init(
        catalogKey: String, tmdbId: Int?, originalTitle: String, titles: [QuizLanguage: String],
        releaseDate: String?, posterPaths: [QuizLanguage: String], bundledPoster: String?, aliases: [String]
    ) {
        self.catalogKey = catalogKey
        self.tmdbId = tmdbId
        self.originalTitle = originalTitle
        self.titles = titles
        self.releaseDate = releaseDate
        self.posterPaths = posterPaths
        self.bundledPoster = bundledPoster
        self.aliases = aliases
    }

    /// The title shown to players of a package in `language`, falling back to English, then the original.
    public func title(in language: QuizLanguage) -> String {
        titles[language] ?? titles[.en] ?? originalTitle
    }
}

/// One poster of a package with the areas revealed on it, stage 1 first.
public struct Quiz: Hashable, Sendable {
    public var tmdbId: Int?
    public var catalogKey: String?
    public var title: String
    public var originalTitle: String
    public var releaseDate: String?
    public var genreIds: [Int]
    public var posterPath: String
    public var posterSource: PosterSource
    /// The grid the areas were placed on; kept with the quiz so changing the configured grid never breaks it.
    public var geometry: GridGeometry
    public var areas: [Cell]
    /// Other names this quiz's package accepts for its movie: the aliases an imported file brought. They judge this
    /// quiz only and never enter the shared catalog, whose aliases come from TMDB and the seed alone, so a file cannot
    /// change how any other package is judged.
    public var aliases: [String]

    public init(
        tmdbId: Int?, catalogKey: String?, title: String, originalTitle: String, releaseDate: String?, genreIds: [Int],
        posterPath: String, posterSource: PosterSource, geometry: GridGeometry, areas: [Cell], aliases: [String] = []
    ) {
        self.tmdbId = tmdbId
        self.catalogKey = catalogKey
        self.title = title
        self.originalTitle = originalTitle
        self.releaseDate = releaseDate
        self.genreIds = genreIds
        self.posterPath = posterPath
        self.posterSource = posterSource
        self.geometry = geometry
        self.areas = areas
        self.aliases = aliases
    }

    /// The year part of the release date, for display.
    public var releaseYear: String? { releaseDate.map { String($0.prefix(4)) } }
}

/// A quiz package as stored: what `show` prints and what `export` will write.
public struct QuizPackage: Hashable, Sendable {
    public var id: Int64?
    public var shareCode: ShareCode
    /// Stable id of a seed package (`ko-beginner`, …); `nil` for packages users made.
    public var seedId: String?
    public var origin: PackageOrigin
    public var title: String
    public var maker: String
    public var level: Level
    public var language: QuizLanguage
    /// ISO 8601 in UTC, e.g. `2024-05-01T00:00:00Z`.
    public var createdAt: String
    public var quizzes: [Quiz]

    public init(
        id: Int64? = nil, shareCode: ShareCode, seedId: String?, origin: PackageOrigin, title: String, maker: String,
        level: Level, language: QuizLanguage, createdAt: String, quizzes: [Quiz]
    ) {
        self.id = id
        self.shareCode = shareCode
        self.seedId = seedId
        self.origin = origin
        self.title = title
        self.maker = maker
        self.level = level
        self.language = language
        self.createdAt = createdAt
        self.quizzes = quizzes
    }
}

/// One row of `list`.
public struct PackageSummary: Hashable, Sendable {
    public var id: Int64
    public var shareCode: String
    public var title: String
    public var level: Level
    public var language: QuizLanguage
    public var maker: String
    public var origin: PackageOrigin
    public var quizCount: Int
    public var bestScore: Int?
    public var createdAt: String
    /// The codes servers gave the copies `uquiz publish` made of it, by server base URL.
    public var serverCodes: [String: String]

    public init(
        id: Int64, shareCode: String, title: String, level: Level, language: QuizLanguage, maker: String,
        origin: PackageOrigin, quizCount: Int, bestScore: Int?, createdAt: String, serverCodes: [String: String] = [:]
    ) {
        self.serverCodes = serverCodes
        self.id = id
        self.shareCode = shareCode
        self.title = title
        self.level = level
        self.language = language
        self.maker = maker
        self.origin = origin
        self.quizCount = quizCount
        self.bestScore = bestScore
        self.createdAt = createdAt
    }
}
