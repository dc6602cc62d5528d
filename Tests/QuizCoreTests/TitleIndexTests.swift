import QuizCore
import Testing

@Suite("Title suggestions: what a player has typed finds movies by any of their names")
struct TitleIndexTests {
    static let movies: [TitleIndex.Movie] = [
        .init(key: "sw", titles: [.en: "Star Wars", .ko: "스타워즈"], originalTitle: "Star Wars", year: 1977),
        .init(key: "st", titles: [.en: "Stardust"], originalTitle: "Stardust", year: 2007),
        .init(key: "suzume", titles: [.en: "Suzume", .ko: "스즈메의 문단속"], originalTitle: "すずめの戸締まり", year: 2022),
        .init(key: "godfather", titles: [.en: "The Godfather", .ko: "대부"], originalTitle: "The Godfather", year: 1972),
        .init(key: "amelie", titles: [.en: "Amélie"], originalTitle: "Le Fabuleux Destin d'Amélie Poulain",
              aliases: ["Amelie from Montmartre"], year: 2001),
        .init(key: "rocky2", titles: [.en: "Rocky II"], originalTitle: "Rocky II", year: 1979),
        .init(key: "lion94", titles: [.en: "The Lion King"], originalTitle: "The Lion King", year: 1994),
        .init(key: "lion19", titles: [.en: "The Lion King"], originalTitle: "The Lion King", year: 2019),
    ]
    let index = TitleIndex(Self.movies)

    func keys(_ typed: String, _ language: QuizLanguage = .en, limit: Int = 10) -> [String] {
        index.suggestions(for: typed, language: language, limit: limit).map(\.key)
    }

    @Test func aTitleIsFoundFromTheStartOfAnyOfItsWords() {
        #expect(keys("star") == ["st", "sw"], "a title that starts with it, the shorter first")
        #expect(keys("wars") == ["sw"])
        #expect(keys("godf") == ["godfather"], "past its article")
        #expect(keys("the godf") == ["godfather"])
        #expect(keys("ars").isEmpty, "not from inside a Latin word")
    }

    @Test func caseAccentsAndPunctuationDoNotMatter() {
        #expect(keys("AMELIE") == ["amelie"])
        #expect(keys("amélie p") == ["amelie"], "the original title")
        #expect(keys("montmartre") == ["amelie"], "an alias")
        #expect(keys("star-wa") == ["sw"], "a hyphen is a space")
        #expect(keys("rocky 2") == ["rocky2"], "a Roman numeral as its digit")
    }

    @Test func aWordOfAScriptWithoutSpacesIsFoundFromAnyOfItsLetters() {
        #expect(keys("문단", .ko) == ["suzume"])
        #expect(keys("단속", .ko) == ["suzume"])
        #expect(keys("戸締", .en) == ["suzume"])
    }

    @Test func aSuggestionIsShownInThePagesLanguageWithTheOriginalBeside() throws {
        let korean = try #require(index.suggestions(for: "suzume", language: .ko, limit: 5).first)
        #expect(korean.title == "스즈메의 문단속")
        #expect(korean.originalTitle == "すずめの戸締まり")
        #expect(korean.year == 2022)
        let english = try #require(index.suggestions(for: "대부", language: .en, limit: 5).first)
        #expect(english.title == "The Godfather")
        #expect(english.originalTitle == nil, "the same as the title shown")
    }

    @Test func remakesAreTwoLinesToldApartByTheirYear() {
        let lines = index.suggestions(for: "lion k", language: .en, limit: 5)
        #expect(lines.map(\.title) == ["The Lion King", "The Lion King"])
        #expect(lines.map(\.year) == [2019, 1994])
    }

    @Test func tooShortATextOrALimitOfNoneFindsNothing() {
        #expect(keys("s").isEmpty)
        #expect(keys("  !! ").isEmpty)
        #expect(keys("star", limit: 0).isEmpty)
        #expect(keys("st", limit: 1) == ["st"])
    }

    @Test func aTitleStartBeatsAWordStartWhateverTheirLengths() {
        let index = TitleIndex([
            .init(key: "long", titles: [.en: "Heat of a Very Long Summer Night"], originalTitle: "Heat of a Very Long Summer Night", year: nil),
            .init(key: "short", titles: [.en: "The Heat"], originalTitle: "The Heat", year: nil),
        ])
        #expect(index.suggestions(for: "heat", language: .en, limit: 5).map(\.key) == ["long", "short"])
    }

    @Test func aShortTextOverManyTitlesKeepsTheBestOnes() {
        var movies = (0..<5_000).map { n in
            TitleIndex.Movie(key: "m\(n)", titles: [.en: "Thing Number \(n) of the Night"], originalTitle: "x\(n)", year: nil)
        }
        movies.append(.init(key: "the", titles: [.en: "Them"], originalTitle: "Them!", year: 1954))
        let index = TitleIndex(movies)
        let lines = index.suggestions(for: "th", language: .en, limit: 3)
        #expect(lines.map(\.key) == ["the", "m0", "m1"])
    }

    @Test func suggestionsOfTwoIndexesMergeIntoOneLinePerMovie() {
        let older = TitleIndex(Array(Self.movies.prefix(2)))
        let newer = TitleIndex([Self.movies[0], .init(key: "sd", titles: [.en: "Star Dogs"], originalTitle: "Star Dogs", year: nil)])
        let merged = TitleSuggestion.merged(
            [older.suggestions(for: "star", language: .en, limit: 5), newer.suggestions(for: "star", language: .en, limit: 5)],
            limit: 5)
        #expect(merged.map(\.key) == ["st", "sd", "sw"])
    }

    /// A text more than `walkLimit` starts begin with is answered from what the index kept when it was made: the same
    /// lines, in the same order, as walking every start finds (a limit above `keptLimit` walks).
    @Test func aCommonTextIsAnsweredAsWalkingItsStartsWould() {
        let words = ["the", "night", "thin", "red", "line", "of", "summer", "sun", "star", "storm"]
        let movies = (0..<12_000).map { n -> TitleIndex.Movie in
            let title = (0..<(1 + n % 4)).map { words[(n / (1 + $0) + $0 * 7) % words.count] }.joined(separator: " ")
            return TitleIndex.Movie(
                key: "m\(n)", titles: [.en: title.capitalized, .ko: "밤의 \(n % 13)"], originalTitle: title.capitalized,
                year: 1950 + n % 70)
        }
        let index = TitleIndex(movies)
        for text in ["th", "the", "the n", "st", "s", "밤의", "ni", "red l", "sun"] {
            for language in QuizLanguage.allCases {
                let kept = index.suggestions(for: text, language: language, limit: TitleIndex.keptLimit)
                let walked = index.suggestions(for: text, language: language, limit: TitleIndex.keptLimit + 1)
                #expect(kept == Array(walked.prefix(TitleIndex.keptLimit)), "\(text) in \(language)")
            }
        }
        #expect(index.suggestions(for: "th", language: .en, limit: 8).count == 8)
    }
}
