import Foundation
import PosterGrid
import QuizCore
import Testing

/// One guess put to a judge, with the verdict the rules give.
struct JudgeCase: CustomTestStringConvertible, Sendable {
    var guess: String
    var titles: [String]
    var others: [String]
    var expected: Verdict

    /// Decomposed input looks the same as composed input when printed, so it is labelled; whitespace is escaped.
    var testDescription: String {
        let form = guess.unicodeScalars.elementsEqual(guess.precomposedStringWithCanonicalMapping.unicodeScalars) ? "" : "NFD "
        let titles = titles.map(\.debugDescription).joined(separator: " / ")
        return "\(form)\(guess.debugDescription) for \(titles)"
            + (others.isEmpty ? "" : " (others: \(others.joined(separator: ", ")))")
    }

    /// Accepted, matching `matched` (the first title unless told) with `typos` edits.
    static func accept(
        _ guess: String, _ titles: String..., others: [String] = [], matched: String? = nil, typos: Int = 0
    ) -> JudgeCase {
        JudgeCase(
            guess: guess, titles: titles, others: others, expected: .accepted(matchedTitle: matched ?? titles[0], distance: typos))
    }

    static func reject(_ guess: String, _ titles: String..., others: [String] = [], because rejection: Rejection) -> JudgeCase {
        JudgeCase(guess: guess, titles: titles, others: others, expected: .rejected(rejection))
    }
}

private func nfd(_ text: String) -> String { text.decomposedStringWithCanonicalMapping }

@Suite("Answer judge")
struct AnswerJudgeTests {
    static let spacingAndPunctuation: [JudgeCase] = [
        .accept("Inception", "Inception"),
        .accept("inception", "Inception"),
        .accept("INCEPTION", "Inception"),
        .accept("iNcEpTiOn", "Inception"),
        .accept("  Inception  ", "Inception"),
        .accept("In ception", "Inception"),
        .accept("I N C E P T I O N", "Inception"),
        .accept("Inception!", "Inception"),
        .accept("\tInception\n", "Inception"),
        .accept("Mission Impossible", "Mission: Impossible"),
        .accept("mission:impossible", "Mission: Impossible"),
        .accept("Spiderman", "Spider-Man"),
        .accept("Spider Man", "Spider-Man"),
        .accept("spider-man", "Spider-Man"),
        .accept("Schindlers List", "Schindler's List"),
        .accept("Schindler’s List", "Schindler's List"),
        .accept("WALL-E", "WALL·E"),
        .accept("Wall E", "WALL·E"),
        .accept("walle", "WALL·E"),
        .accept("The Cabinet of Dr Caligari", "The Cabinet of Dr. Caligari"),
        .accept("Crouching Tiger Hidden Dragon", "Crouching Tiger, Hidden Dragon"),
        .accept("E.T.", "E.T. the Extra-Terrestrial", "ET", matched: "ET"),
        .accept("et", "E.T. the Extra-Terrestrial", "E.T.", matched: "E.T."),
        .accept("토이스토리", "토이 스토리"),
        .accept("토이  스토리", "토이 스토리"),
        .accept("살인의추억", "살인의 추억"),
        .accept("헤어질결심", "헤어질 결심"),
        .accept("어벤져스 엔드게임", "어벤져스: 엔드게임"),
        .accept("어벤져스-엔드게임!", "어벤져스: 엔드게임"),
        .accept("해리포터와 마법사의돌", "해리 포터와 마법사의 돌"),
    ]

    static let unicodeForms: [JudgeCase] = [
        .accept(nfd("기생충"), "기생충"),
        .accept("기생충", nfd("기생충"), matched: nfd("기생충")),
        .accept(nfd("살인의 추억"), "살인의 추억"),
        .accept(nfd("부산행"), "부산행", "Train to Busan"),
        .accept("ｉｎｃｅｐｔｉｏｎ", "Inception"),
        .accept("ＩＮＣＥＰＴＩＯＮ", "Inception"),
        .accept("Ｔｏｙ Ｓｔｏｒｙ ２", "Toy Story 2"),
        .accept("범죄도시 ２", "범죄도시 2"),
        .accept("Rocky Ⅱ", "Rocky II"),
        .accept("Rocky ⅱ", "Rocky 2"),
        .accept("ﬁght club", "Fight Club"),
        .accept("Amelie", "Amélie"),
        .accept("Amélie", "Amelie"),
        .accept("AMÉLIE", "Amélie"),
        .accept(nfd("Amélie"), "Amélie"),
        .accept("Haxan", "Häxan"),
        .accept("Häxan", "Haxan"),
        .accept("Leon", "Léon"),
        .accept("Leon The Professional", "Léon: The Professional"),
        .accept("Le Fabuleux Destin d'Amelie Poulain", "Le Fabuleux Destin d'Amélie Poulain"),
        .accept("Der Himmel uber Berlin", "Der Himmel über Berlin"),
        .accept("Der Himmel ueber Berlin", "Der Himmel über Berlin", typos: 1),
        .accept("Les Miserables", "Les Misérables"),
        .accept("Y tu mama tambien", "Y tu mamá también"),
        .accept("Tystnaden", "Tystnaden"),
        .accept("Smorgasbord", "Smørgåsbord"),
        .accept("Lodz", "Łódź"),
        .accept("Die Strasse", "Die Straße"),
        .accept("Pho", "Phở"),
        .accept("Anime ga suki", "アニメが好き", "Anime ga Suki", matched: "Anime ga Suki"),
        // Dakuten are part of kana, not Latin diacritics: か is a typo for が.
        .accept("アニメか好き", "アニメが好き", typos: 1),
        .reject("かき", "がき", because: .tooFar),
    ]

    static let romanNumeralsAndAmpersands: [JudgeCase] = [
        .accept("Rocky 2", "Rocky II"),
        .accept("Rocky II", "Rocky 2"),
        .accept("rocky ii", "Rocky II"),
        .accept("Godfather Part 2", "The Godfather Part II"),
        .accept("The Godfather Part II", "Godfather Part 2"),
        .accept("Star Wars Episode 4 A New Hope", "Star Wars: Episode IV – A New Hope"),
        .accept("Henry 5", "Henry V"),
        .accept("Malcolm X", "Malcolm X"),
        .accept("Malcolm 10", "Malcolm X"),
        .accept("X-Men", "X-Men"),
        .accept("X Men", "X-Men"),
        .accept("xmen", "X-Men"),
        .reject("10 Men", "X-Men", because: .tooFar),
        .accept("X-Men 2", "X-Men II"),
        .accept("X-Files", "The X-Files"),
        .accept("The X Files", "The X-Files"),
        .accept("V for Vendetta", "V for Vendetta"),
        .reject("5 for Vendetta", "V for Vendetta", because: .digitsDiffer(from: "V for Vendetta")),
        .accept("II Mare", "II Mare"),
        .reject("2 Mare", "II Mare", because: .tooFar),
        .reject("Rocky 3", "Rocky II", because: .digitsDiffer(from: "Rocky II")),
        .reject("Rocky IV", "Rocky II", because: .digitsDiffer(from: "Rocky II")),
        .accept("Fast and Furious", "Fast & Furious"),
        .accept("Fast & Furious", "Fast and Furious"),
        .accept("fast&furious", "Fast and Furious"),
        .accept("Fast ＆ Furious", "Fast & Furious"),
        .reject("Fast Furious", "Fast & Furious", because: .tooFar),
        .accept("Romeo and Juliet", "Romeo & Juliet"),
        .accept("Tom and Jerry", "Tom & Jerry"),
    ]

    static let articles: [JudgeCase] = [
        .accept("Godfather", "The Godfather"),
        .accept("The Godfather", "Godfather"),
        .accept("the godfather", "The Godfather"),
        .accept("Teh Godfather", "The Godfather", typos: 1),
        .accept("Godfathr", "The Godfather", typos: 1),
        .accept("Star Is Born", "A Star Is Born"),
        .accept("A Star Is Born", "Star Is Born"),
        .accept("a star is born", "A Star Is Born"),
        .accept("American Werewolf in London", "An American Werewolf in London"),
        .accept("An American Werewolf in London", "An American Werewolf in London"),
        .accept("The Handmaiden", "아가씨", "The Handmaiden", matched: "The Handmaiden"),
        .accept("Handmaiden", "아가씨", "The Handmaiden", matched: "The Handmaiden"),
        .accept("The Inception", "Inception"),
        .reject("The", "The Thing", because: .tooFar),
        .reject("A", "A Star Is Born", because: .tooFar),
        .reject("Samourai", "Le Samouraï", because: .tooFar),
        // Only English articles may be dropped; a French one costs its letters in typos.
        .accept("Fabuleux Destin d'Amelie Poulain", "Le Fabuleux Destin d'Amélie Poulain", typos: 2),
    ]

    /// The allowance counts the normalized accepted title: 0 typos below 6 Characters, 1 from 6, 2 from 12.
    static let typoBoundaries: [JudgeCase] = [
        // 5 Characters: exact only.
        .accept("Rocky", "Rocky"),
        .reject("Rokcy", "Rocky", because: .tooFar),
        .reject("Rocki", "Rocky", because: .tooFar),
        .reject("Rock", "Rocky", because: .tooFar),
        .reject("Alein", "Alien", because: .tooFar),
        .reject("Alens", "Alien", because: .tooFar),
        .reject("살인의 추엌", "살인의 추억", because: .tooFar),
        .reject("기생층", "기생충", because: .tooFar),
        .reject("Heat!!", "Heat2", because: .digitsDiffer(from: "Heat2")),
        // 6 Characters: one typo, a swap of neighbours counting one.
        .accept("Psycho", "Psycho"),
        .accept("Psyhco", "Psycho", typos: 1),
        .accept("Pyscho", "Psycho", typos: 1),
        .accept("Psych", "Psycho", typos: 1),
        .accept("Psychoo", "Psycho", typos: 1),
        .accept("Psycko", "Psycho", typos: 1),
        .reject("Psiho", "Psycho", because: .tooFar),
        .accept("Batmna", "Batman", typos: 1),
        .reject("Btamna", "Batman", because: .tooFar),
        .accept("Alien", "Aliens", typos: 1),
        .accept("이터널 선사인", "이터널 선샤인", typos: 1),
        .reject("이터늘 선사인", "이터널 선샤인", because: .tooFar),
        // 11 Characters: still one.
        .accept("Pulp Fictoin", "Pulp Fiction", typos: 1),
        .accept("Pulp Fction", "Pulp Fiction", typos: 1),
        .accept("Pulp Fiktion", "Pulp Fiction", typos: 1),
        .reject("Pulp Fixion", "Pulp Fiction", because: .tooFar),
        .reject("Plup Fictoin", "Pulp Fiction", because: .tooFar),
        // 12 Characters: two.
        .accept("Interstellar", "Interstellar"),
        .accept("Intersteller", "Interstellar", typos: 1),
        .accept("Intrestellar", "Interstellar", typos: 1),
        .accept("Intrestelar", "Interstellar", typos: 2),
        .accept("Intersteler", "Interstellar", typos: 2),
        .accept("Innterstelllar", "Interstellar", typos: 2),
        .reject("Intrstelr", "Interstellar", because: .tooFar),
        .reject("Intrestelr", "Interstellar", because: .tooFar),
        .accept("Incpetion", "Inception", typos: 1),
        .accept("Inceptoin", "Inception", typos: 1),
        .reject("Icnpetion", "Inception", because: .tooFar),
        .accept("해리 포터와 마법사의 돐", "해리 포터와 마법사의 돌", typos: 1),
        .reject("해리 포타와 마법사의 돐", "해리 포터와 마법사의 돌", because: .tooFar),
        .accept("Crouching Tigre Hiden Dragon", "Crouching Tiger, Hidden Dragon", typos: 2),
    ]

    static let digits: [JudgeCase] = [
        .reject("Toy Story 2", "Toy Story", because: .digitsDiffer(from: "Toy Story")),
        .reject("Toy Story", "Toy Story 2", because: .digitsDiffer(from: "Toy Story 2")),
        .reject("Toy Story 3", "Toy Story 2", because: .digitsDiffer(from: "Toy Story 2")),
        .reject("Toy Stroy 3", "Toy Story 2", because: .digitsDiffer(from: "Toy Story 2")),
        .accept("Toy Story 2", "Toy Story 2"),
        .accept("Toy Stroy 2", "Toy Story 2", typos: 1),
        .accept("toystory2", "Toy Story 2"),
        .reject("범죄도시 2", "범죄도시", because: .digitsDiffer(from: "범죄도시")),
        .reject("범죄도시", "범죄도시 2", because: .digitsDiffer(from: "범죄도시 2")),
        .reject("범죄도시 3", "범죄도시 2", because: .digitsDiffer(from: "범죄도시 2")),
        .accept("범죄도시2", "범죄도시 2"),
        .accept("범죄도시 2", "범죄도시 2", "The Roundup", matched: "범죄도시 2"),
        .accept("Blade Runner 2049", "Blade Runner 2049"),
        .accept("Blade Runer 2049", "Blade Runner 2049", typos: 1),
        .reject("Blade Runner 2094", "Blade Runner 2049", because: .digitsDiffer(from: "Blade Runner 2049")),
        .reject("Blade Runner", "Blade Runner 2049", because: .digitsDiffer(from: "Blade Runner 2049")),
        .reject("1918", "1917", because: .digitsDiffer(from: "1917")),
        .accept("1917", "1917"),
        .accept("2001 A Space Odyssey", "2001: A Space Odyssey"),
        .reject("2010 A Space Odyssey", "2001: A Space Odyssey", because: .digitsDiffer(from: "2001: A Space Odyssey")),
        .reject("Seven", "Se7en", because: .tooFar),
        .accept("Seven", "Se7en", "Seven", matched: "Seven"),
        .reject("Oceans 11", "Ocean's Eleven", because: .tooFar),
        .accept("Oceans 11", "Ocean's Eleven", "Ocean's 11", matched: "Ocean's 11"),
        .reject("Godfather 2", "The Godfather", because: .digitsDiffer(from: "The Godfather")),
        .reject("대부 2", "대부", "The Godfather", because: .digitsDiffer(from: "대부")),
        .accept("대부 2", "대부 2", "The Godfather Part II"),
        .accept("Godfather II", "대부 2", "The Godfather Part II", "The Godfather: Part II", "Godfather II", matched: "Godfather II"),
    ]

    static let otherMovies: [JudgeCase] = [
        .reject("Toy Story 2", "Toy Story", others: ["Toy Story 2", "Toy Story 3"], because: .titleOfAnotherMovie("Toy Story 2")),
        .reject("toy story 3", "Toy Story", others: ["Toy Story 2", "Toy Story 3"], because: .titleOfAnotherMovie("Toy Story 3")),
        .reject("Alien", "Aliens", others: ["Alien"], because: .titleOfAnotherMovie("Alien")),
        .reject("The Alien", "Aliens", others: ["Alien"], because: .titleOfAnotherMovie("Alien")),
        .reject("ALIEN!", "Aliens", others: ["Alien"], because: .titleOfAnotherMovie("Alien")),
        .reject("Alen", "Aliens", others: ["Alien"], because: .tooFar),
        .accept("Alliens", "Aliens", others: ["Alien"], typos: 1),
        .reject("부산행", "반도", "Peninsula", others: ["부산행", "Train to Busan"], because: .titleOfAnotherMovie("부산행")),
        .reject("Train to Busan", "반도", "Peninsula", others: ["부산행", "Train to Busan"], because: .titleOfAnotherMovie("Train to Busan")),
        .reject("범죄도시", "범죄도시 2", others: ["범죄도시"], because: .titleOfAnotherMovie("범죄도시")),
        .reject("Godfather", "The Godfather Part II", others: ["The Godfather"], because: .titleOfAnotherMovie("The Godfather")),
        .reject("Rocky", "Rocky II", others: ["Rocky"], because: .titleOfAnotherMovie("Rocky")),
        .accept("A Star Is Born", "A Star Is Born", others: ["A Star Is Born"]),
        .accept("Star Is Born", "A Star Is Born", others: ["A Star Is Born", "Born Free"]),
        .accept("Oldboy", "올드보이", "Oldboy", others: ["Oldboy"], matched: "Oldboy"),
        .accept("Metropolis", "Metropolis", others: ["Nosferatu", "Faust"]),
        .reject("Nosferatu", "Metropolis", others: ["Nosferatu", "Faust"], because: .titleOfAnotherMovie("Nosferatu")),
        .reject("nosferatu", "Metropolis", others: ["Nosferatu", "Faust"], because: .titleOfAnotherMovie("Nosferatu")),
        .reject("Nosferatoo", "Metropolis", others: ["Nosferatu", "Faust"], because: .tooFar),
    ]

    static let aliases: [JudgeCase] = [
        .accept("Parasite", "기생충", "Gisaengchung", "Parasite", matched: "Parasite"),
        .accept("Gisaengchung", "기생충", "Gisaengchung", "Parasite", matched: "Gisaengchung"),
        .accept("Parasit", "기생충", "Gisaengchung", "Parasite", matched: "Parasite", typos: 1),
        .accept("Memories of Murder", "살인의 추억", "Memories of Murder", matched: "Memories of Murder"),
        .accept("Memories of Muder", "살인의 추억", "Memories of Murder", matched: "Memories of Murder", typos: 1),
        .accept("Train to Busan", "부산행", "Train to Busan", matched: "Train to Busan"),
        .accept("Decision to Leave", "헤어질 결심", "Decision to Leave", matched: "Decision to Leave"),
        .accept("Battleship Potemkin", "Bronenosets Potyomkin", "Battleship Potemkin", matched: "Battleship Potemkin"),
        .accept("Potemkin", "Bronenosets Potyomkin", "Battleship Potemkin", "Potemkin", matched: "Potemkin"),
        .accept("토이 스토리", "Toy Story", "토이 스토리", matched: "토이 스토리"),
        .reject("Parasites Lost", "기생충", "Gisaengchung", "Parasite", because: .tooFar),
    ]

    static let notGuesses: [JudgeCase] = [
        .reject("", "Inception", because: .emptyGuess),
        .reject(" ", "Inception", because: .emptyGuess),
        .reject("   \t\n", "Inception", because: .emptyGuess),
        .reject("!!!", "Inception", because: .emptyGuess),
        .reject("...", "Inception", because: .emptyGuess),
        .reject("—", "Inception", because: .emptyGuess),
        .reject("・", "기생충", because: .emptyGuess),
        .reject("?!:'-", "Toy Story 2", because: .emptyGuess),
        .reject("\u{301}", "Amélie", because: .emptyGuess),
        .reject("\u{3000}", "기생충", because: .emptyGuess),
        .reject("Dunkirk", "Inception", because: .tooFar),
        .reject("ㄱㅅㅊ", "기생충", because: .tooFar),
    ]

    static let allCases = spacingAndPunctuation + unicodeForms + romanNumeralsAndAmpersands + articles + typoBoundaries
        + digits + otherMovies + aliases + notGuesses

    @Test(arguments: allCases)
    func judgesTheGuess(_ example: JudgeCase) {
        let judge = AnswerJudge(acceptedTitles: example.titles, otherMovieTitles: example.others)
        #expect(judge.judge(example.guess) == example.expected)
    }

    @Test func theTableIsLarge() {
        #expect(Self.allCases.count >= 120)
    }

    @Test(arguments: [
        (0, 0), (1, 0), (5, 0), (6, 1), (7, 1), (11, 1), (12, 2), (13, 2), (40, 2),
    ])
    func typoAllowanceGrowsWithTheTitle(length: Int, allowance: Int) {
        #expect(AnswerJudge.typoAllowance(forLength: length) == allowance)
    }

    @Test(arguments: [
        ("", "", 0), ("abc", "", 3), ("", "abc", 3), ("abc", "abc", 0), ("abc", "abd", 1), ("abc", "acb", 1),
        ("abc", "ab", 1), ("ab", "abc", 1), ("ca", "ac", 1),
        // Optimal string alignment does not edit a swapped pair again (true Damerau distance would be 2).
        ("ca", "abc", 3), ("kitten", "sitting", 3), ("기생충", "기충생", 1), ("기생충", "기생", 1),
    ])
    func distanceIsOptimalStringAlignment(source: String, target: String, distance: Int) {
        #expect(AnswerJudge.distance(source, target) == distance)
        #expect(AnswerJudge.distance(target, source) == distance)
    }

    @Test func distanceCountsCharactersNotScalars() {
        #expect(AnswerJudge.distance("e\u{301}", "é") == 0)
        #expect(AnswerJudge.distance(nfd("기생충"), "기생충") == 0)
        #expect(AnswerJudge.distance("👨‍👩‍👧", "👨") == 1)
    }

    @Test func theClosestAcceptedTitleIsReported() {
        let judge = AnswerJudge(acceptedTitles: ["Interstellar", "Interstelar"])
        #expect(judge.judge("Interstelar") == .accepted(matchedTitle: "Interstelar", distance: 0))
        #expect(judge.judge("Intersteler") == .accepted(matchedTitle: "Interstelar", distance: 1))
    }

    @Test func titlesWithNothingToCompareAreIgnored() {
        let judge = AnswerJudge(acceptedTitles: ["!!!", "Inception", ""], otherMovieTitles: ["???", ""])
        #expect(judge.judge("Inception") == .accepted(matchedTitle: "Inception", distance: 0))
        #expect(judge.judge("Dunkirk") == .rejected(.tooFar))
        #expect(AnswerJudge(acceptedTitles: []).judge("Inception") == .rejected(.tooFar))
    }

    @Test func aCatalogMovieAcceptsEveryTitleAndAliasAndRefusesTheOtherMovies() {
        let parasite = CatalogMovie(
            catalogKey: "tmdb-496243", tmdbId: 496243, originalTitle: "기생충", titles: [.ko: "기생충", .en: "Parasite"],
            releaseDate: "2019-05-30", posterPaths: [:], bundledPoster: nil, aliases: ["Gisaengchung"])
        let busan = CatalogMovie(
            catalogKey: "tmdb-396535", tmdbId: 396535, originalTitle: "부산행", titles: [.ko: "부산행", .en: "Train to Busan"],
            releaseDate: "2016-07-20", posterPaths: [:], bundledPoster: nil, aliases: [])
        let judge = AnswerJudge(movie: parasite, catalog: [parasite, busan])
        #expect(judge.judge("parasite") == .accepted(matchedTitle: "Parasite", distance: 0))
        #expect(judge.judge("Gisaengchung") == .accepted(matchedTitle: "Gisaengchung", distance: 0))
        #expect(judge.judge(nfd("기생충")) == .accepted(matchedTitle: "기생충", distance: 0))
        #expect(judge.judge("Train to Busan") == .rejected(.titleOfAnotherMovie("Train to Busan")))
        #expect(judge.judge("부산행") == .rejected(.titleOfAnotherMovie("부산행")))
    }
}

@Suite("Title normalizer")
struct TitleNormalizerTests {
    @Test(arguments: [
        ("Inception", "inception"),
        ("  Toy Story 2 ", "toystory2"),
        ("Spider-Man: No Way Home", "spidermannowayhome"),
        ("ｉｎｃｅｐｔｉｏｎ", "inception"),
        ("Ｔｏｙ Ｓｔｏｒｙ ２", "toystory2"),
        ("Amélie", "amelie"),
        ("Häxan", "haxan"),
        ("Smørgåsbord", "smorgasbord"),
        ("Die Straße", "diestrasse"),
        ("İstanbul", "istanbul"),
        ("Fast & Furious", "fastandfurious"),
        ("Rocky II", "rocky2"),
        ("Rocky Ⅳ", "rocky4"),
        ("Star Wars: Episode IV", "starwarsepisode4"),
        ("Ocean's Eleven", "oceanseleven"),
        ("X-Men", "xmen"),
        ("X-Men II", "xmen2"),
        ("The X-Files", "thexfiles"),
        ("II Mare", "iimare"),
        ("Malcolm X", "malcolm10"),
        ("I, Robot", "irobot"),
        ("범죄도시 2", "범죄도시2"),
        ("범죄도시 Ⅱ", "범죄도시2"),
        ("어벤져스: 엔드게임", "어벤져스엔드게임"),
        ("ﾊﾟﾗｻｲﾄ", "パラサイト"),
        ("٢٠٤٩", "2049"),
        ("!!!", ""),
        ("", ""),
    ])
    func normalizes(title: String, normalized: String) {
        #expect(TitleNormalizer.normalize(title) == normalized)
    }

    @Test func decomposedHangulComposesBackToSyllables() {
        let decomposed = "기생충".decomposedStringWithCanonicalMapping
        #expect(decomposed.unicodeScalars.count == 8)
        #expect(TitleNormalizer.normalize(decomposed) == "기생충")
        #expect(TitleNormalizer.normalize(decomposed).count == 3)
    }

    @Test(arguments: [
        ("The Godfather", ["thegodfather", "godfather"]),
        ("A Star Is Born", ["astarisborn", "starisborn"]),
        ("An American Werewolf in London", ["anamericanwerewolfinlondon", "americanwerewolfinlondon"]),
        ("the  thing", ["thething", "thing"]),
        ("Godfather", ["godfather"]),
        ("The", ["the"]),
        ("A", ["a"]),
        ("Theory of Everything", ["theoryofeverything"]),
        ("Le Samouraï", ["lesamourai"]),
        ("기생충", ["기생충"]),
        ("...", []),
    ])
    func variantsMayDropALeadingEnglishArticle(title: String, variants: [String]) {
        #expect(TitleNormalizer.variants(title) == variants)
    }
}

@Suite("Hints")
struct HintTests {
    @Test(arguments: [
        ("기생충", "ㄱㅅㅊ"),
        ("토이 스토리", "ㅌㅇ ㅅㅌㄹ"),
        ("범죄도시 2", "ㅂㅈㄷㅅ 2"),
        ("살인의 추억", "ㅅㅇㅇ ㅊㅇ"),
        ("해리 포터와 마법사의 돌", "ㅎㄹ ㅍㅌㅇ ㅁㅂㅅㅇ ㄷ"),
        ("어벤져스: 엔드게임", "ㅇㅂㅈㅅ: ㅇㄷㄱㅇ"),
        ("007 스카이폴", "007 ㅅㅋㅇㅍ"),
        ("엑스맨 X-Men", "ㅇㅅㅁ X-Men"),
        ("까치 뚜껑 빵 쌀 짜장", "ㄲㅊ ㄸㄲ ㅃ ㅆ ㅉㅈ"),
        ("  헤어질   결심 ", "ㅎㅇㅈ ㄱㅅ"),
    ])
    func koreanTitlesShowTheirInitialConsonants(title: String, hint: String) {
        #expect(Hint.firstHint(for: title) == hint)
    }

    @Test func decomposedKoreanTitlesShowTheSameConsonants() {
        #expect(Hint.firstHint(for: "기생충".decomposedStringWithCanonicalMapping) == "ㄱㅅㅊ")
        #expect(Hint.firstHint(for: "범죄도시 2".decomposedStringWithCanonicalMapping) == "ㅂㅈㄷㅅ 2")
    }

    @Test(arguments: [
        ("Toy Story 2", "T__ S____ 2"),
        ("Inception", "I________"),
        ("The Godfather Part II", "T__ G________ P___ I_"),
        ("X-Men", "X-M__"),
        ("Schindler's List", "S________'_ L___"),
        ("2001: A Space Odyssey", "2001: A S____ O______"),
        ("Mission: Impossible", "M______: I_________"),
        ("The Cabinet of Dr. Caligari", "T__ C______ o_ D_. C_______"),
        ("WALL·E", "W___·E"),
        ("Amélie", "A_____"),
        ("Häxan", "H____"),
        ("Se7en", "S_7e_"),
        ("  Toy   Story ", "T__ S____"),
        ("Fast & Furious", "F___ & F______"),
        ("Léon: The Professional", "L___: T__ P___________"),
    ])
    func latinTitlesShowTheFirstLetterOfEachWord(title: String, hint: String) {
        #expect(Hint.firstHint(for: title) == hint)
    }

    @Test func decomposedAccentsStayOneLetter() {
        #expect(Hint.firstHint(for: "Amélie".decomposedStringWithCanonicalMapping) == "A_____")
    }
}

/// A server's judges share one lookup of the whole catalog's titles: they judge as a judge holding the catalog does.
@Suite struct SharedCatalogTitlesJudgeTests {
    @Test func aJudgeWithTheSharedTitlesJudgesAsOneWithTheWholeCatalog() {
        let quiz = Quiz(
            tmdbId: 19, catalogKey: "tmdb-19", title: "Metropolis", originalTitle: "Metropolis", releaseDate: nil,
            genreIds: [], posterPath: "/metropolis-1927.jpg", posterSource: .tmdb, geometry: .standard,
            areas: [Cell(row: 20, column: 20)], aliases: ["Metropolis 1927"])
        func movie(_ key: String, _ en: String, ko: String? = nil, original: String? = nil, aliases: [String] = []) -> CatalogMovie {
            var titles: [QuizLanguage: String] = [.en: en]
            titles[.ko] = ko
            return CatalogMovie(
                catalogKey: key, tmdbId: nil, originalTitle: original ?? en, titles: titles, releaseDate: nil,
                posterPaths: [:], bundledPoster: nil, aliases: aliases)
        }
        let catalog = [
            movie("tmdb-19", "Metropolis", ko: "메트로폴리스", aliases: ["Metropolis (1927)"]),
            movie("tmdb-653", "Nosferatu", original: "Nosferatu, eine Symphonie des Grauens"),
            movie("metropolis-2001", "Metropolis", original: "メトロポリス"),
            movie("tmdb-862", "Toy Story", ko: "토이 스토리"),
            movie("tmdb-863", "Toy Story 2"),
        ]
        let whole = AnswerJudge(quiz: quiz, catalog: catalog)
        let shared = AnswerJudge(quiz: quiz, movie: catalog[0], catalogTitles: CatalogTitleLookup(movies: catalog))
        for guess in ["Metropolis", "metropolis!", "메트로폴리스", "Metropolsi", "Nosferatu", "toy story 2", "Toy Story",
                      "토이 스토리", "メトロポリス", "nosferatu eine symphonie des grauens", "Metropolis 2", "", "zzz"] {
            #expect(shared.judge(guess) == whole.judge(guess), "\(guess)")
        }
        #expect(shared.judge("Nosferatu") == .rejected(.titleOfAnotherMovie("Nosferatu")))
        #expect(shared.judge("메트로폴리스").isAccepted, "the quiz's movie from the catalog: its Korean title")
    }
}
