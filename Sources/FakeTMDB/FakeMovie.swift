import Foundation

/// One movie of the fake server's catalog, in the shape of `--catalog FILE` (a JSON array of these).
public struct FakeMovie: Codable, Sendable {
    public var id: Int
    public var originalTitle: String
    public var titles: [String: String]
    public var releaseDate: String?
    public var genreIds: [Int]
    /// Posters as `/images` lists them; the first of the request's language is the primary `poster_path`.
    public var posters: [FakePoster]
    public var alternativeTitles: [String]
    public var overview: String

    public struct FakePoster: Codable, Sendable {
        public var filePath: String
        public var language: String?
        public var voteAverage: Double
        public var voteCount: Int

        public init(filePath: String, language: String?, voteAverage: Double, voteCount: Int) {
            self.filePath = filePath
            self.language = language
            self.voteAverage = voteAverage
            self.voteCount = voteCount
        }
    }

    public init(
        id: Int, originalTitle: String, titles: [String: String], releaseDate: String?, genreIds: [Int],
        posters: [FakePoster], alternativeTitles: [String] = [], overview: String = ""
    ) {
        self.id = id
        self.originalTitle = originalTitle
        self.titles = titles
        self.releaseDate = releaseDate
        self.genreIds = genreIds
        self.posters = posters
        self.alternativeTitles = alternativeTitles
        self.overview = overview
    }

    var posterPaths: [String] { posters.map(\.filePath) }

    /// TMDB's language parameter is `ko-KR`, `en-US` or just `ko`.
    static func languageCode(_ parameter: String?) -> String {
        String((parameter ?? "en-US").prefix(2))
    }

    func title(language: String?) -> String {
        titles[Self.languageCode(language)] ?? titles["en"] ?? originalTitle
    }

    func primaryPoster(language: String?) -> String? {
        let code = Self.languageCode(language)
        return (posters.first { $0.language == code } ?? posters.first { $0.language == "en" } ?? posters.first)?.filePath
    }

    func matches(_ query: String, year: Int?) -> Bool {
        if let year, releaseDate?.hasPrefix(String(year)) != true { return false }
        let needle = query.lowercased()
        return ([originalTitle] + Array(titles.values) + alternativeTitles).contains { $0.lowercased().contains(needle) }
    }

    func searchResult(language: String?) -> [String: Any] {
        [
            "adult": false,
            "id": id,
            "title": title(language: language),
            "original_title": originalTitle,
            "original_language": "en",
            "overview": overview,
            "release_date": releaseDate ?? "",
            "poster_path": primaryPoster(language: language) ?? NSNull(),
            "backdrop_path": NSNull(),
            "genre_ids": genreIds,
            "popularity": 10.5,
            "video": false,
            "vote_average": 7.9,
            "vote_count": 1200,
        ]
    }

    func details(language: String?) -> [String: Any] {
        var result = searchResult(language: language)
        result.removeValue(forKey: "genre_ids")
        result["genres"] = genreIds.map { ["id": $0, "name": "Genre \($0)"] }
        result["runtime"] = 120
        result["status"] = "Released"
        return result
    }

    func images(languages: Set<String>?) -> [String: Any] {
        let chosen = posters.filter { poster in
            guard let languages else { return true }
            return languages.contains(poster.language ?? "null")
        }
        return [
            "id": id,
            "backdrops": [Any](),
            "logos": [Any](),
            "posters": chosen.map { poster -> [String: Any] in
                [
                    "aspect_ratio": 0.667, "height": 3000, "width": 2000, "file_path": poster.filePath,
                    "iso_639_1": poster.language ?? NSNull(), "vote_average": poster.voteAverage,
                    "vote_count": poster.voteCount,
                ]
            },
        ]
    }

    func alternativeTitlesJSON() -> [String: Any] {
        ["id": id, "titles": alternativeTitles.map { ["iso_3166_1": "US", "title": $0, "type": ""] }]
    }

    /// A small catalog of real films (facts as in the seed) for demos and tests that pass no `--catalog`.
    public static let defaultCatalog: [FakeMovie] = [
        FakeMovie(
            id: 27205, originalTitle: "Inception", titles: ["en": "Inception", "ko": "인셉션"], releaseDate: "2010-07-15",
            genreIds: [28, 878, 12],
            posters: [
                FakePoster(filePath: "/4i1I0cvwYhUTVbU5Qe6HbD1audF.jpg", language: "en", voteAverage: 5.8, voteCount: 40),
                FakePoster(filePath: "/jSm8mzp7sucgL8NwINIoAmx4dS5.jpg", language: "ko", voteAverage: 5.3, voteCount: 4),
                FakePoster(filePath: "/textless-inception.jpg", language: nil, voteAverage: 5.1, voteCount: 2),
            ],
            alternativeTitles: ["Origen", "Début"]),
        FakeMovie(
            id: 496243, originalTitle: "기생충", titles: ["en": "Parasite", "ko": "기생충"], releaseDate: "2019-05-30",
            genreIds: [35, 53, 18],
            posters: [
                FakePoster(filePath: "/x23Fqkt00uqV2TzfSiB60hrc3HY.jpg", language: "en", voteAverage: 5.9, voteCount: 30),
                FakePoster(filePath: "/eRM0PykovgtK4lin1D4BUql8TBa.jpg", language: "ko", voteAverage: 5.5, voteCount: 8),
            ],
            alternativeTitles: ["Gisaengchung"]),
        FakeMovie(
            id: 862, originalTitle: "Toy Story", titles: ["en": "Toy Story", "ko": "토이 스토리"], releaseDate: "1995-11-22",
            genreIds: [16, 12, 10751, 35],
            posters: [FakePoster(filePath: "/uXDfjJbdP4ijW5hWSBrPrlKpxab.jpg", language: "en", voteAverage: 5.7, voteCount: 20)]),
        FakeMovie(
            id: 863, originalTitle: "Toy Story 2", titles: ["en": "Toy Story 2", "ko": "토이 스토리 2"],
            releaseDate: "1999-10-30", genreIds: [16, 35, 12, 10751],
            posters: [FakePoster(filePath: "/yFWQkz2ynjwsazT6xQiIXEUsyuh.jpg", language: "en", voteAverage: 5.6, voteCount: 12)]),
        FakeMovie(
            id: 157336, originalTitle: "Interstellar", titles: ["en": "Interstellar", "ko": "인터스텔라"],
            releaseDate: "2014-11-05", genreIds: [12, 18, 878],
            posters: [
                FakePoster(filePath: "/bzONet3OeCTz5q9WOkGjVpOHMSR.jpg", language: "en", voteAverage: 5.9, voteCount: 25),
                FakePoster(filePath: "/jM4VN1IFD2R1ElpqT3T0bt08uJt.jpg", language: "ko", voteAverage: 5.4, voteCount: 6),
            ]),
        FakeMovie(
            id: 1255, originalTitle: "괴물", titles: ["en": "The Host", "ko": "괴물"], releaseDate: "2006-07-27",
            genreIds: [27, 878, 18],
            posters: [FakePoster(filePath: "/lkxw4unGwkMOHAMSyEEBodbeWZV.jpg", language: "ko", voteAverage: 5.3, voteCount: 3)]),
        FakeMovie(
            id: 19, originalTitle: "Metropolis", titles: ["en": "Metropolis", "ko": "메트로폴리스"], releaseDate: "1927-01-10",
            genreIds: [18, 878], posters: [FakePoster(filePath: "/metropolis-1927.jpg", language: "en", voteAverage: 5.5, voteCount: 9)]),
    ]
}
