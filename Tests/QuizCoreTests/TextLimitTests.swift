import Foundation
import PosterGrid
import QuizCore
import Testing

/// A one-package export whose only quiz has these values, as `uquiz export` writes it.
func exportJSON(
    title: String = "Metropolis", posterPath: String = "/metropolis-1927.jpg", posterSource: String = "tmdb",
    grid: String = #"{"columns": 50, "rows": 75, "areaSize": 5, "margin": 2}"#, aliases: [String] = []
) -> Data {
    let encodedAliases = String(decoding: try! JSONEncoder().encode(aliases), as: UTF8.self)
    let encodedTitle = String(decoding: try! JSONEncoder().encode(title), as: UTF8.self)
    let encodedPath = String(decoding: try! JSONEncoder().encode(posterPath), as: UTF8.self)
    return Data("""
        {"format": 1, "kind": "uquiz-packages", "packages": [{
          "shareCode": "HSTX22", "title": \(encodedTitle), "maker": "mallory", "level": "expert", "language": "en",
          "createdAt": "2026-11-23T00:00:00Z",
          "quizzes": [{
            "movie": {"catalogKey": "tmdb-19", "tmdbId": 19, "originalTitle": "Metropolis", "titles": {"en": "Metropolis"},
                      "releaseDate": "1927-01-10", "aliases": \(encodedAliases)},
            "title": "Metropolis", "posterPath": \(encodedPath), "posterSource": "\(posterSource)", "genreIds": [],
            "grid": \(grid), "areas": [[20, 20]]
          }]
        }]}
        """.utf8)
}

func spec(title: String = "Mine", poster: String? = nil) -> PackageSpec {
    PackageSpec(
        title: title, maker: "me", level: "expert", language: "en",
        quizzes: [.init(movie: .tmdb(19), poster: poster, areas: nil)])
}

@Suite("Text limits count what a text weighs")
struct TextLimitTests {
    static let heavy = "a" + String(repeating: "\u{0301}", count: 10_000)

    @Test func oneLetterWithTenThousandCombiningMarksIsTooLong() {
        #expect(Self.heavy.count == 1, "one grapheme cluster")
        #expect(throws: SpecProblem("$.title", "the title has 10001 Unicode scalars: at most \(PackageDocument.maxTextScalars)")) {
            try PackageDocument.checkText(Self.heavy, path: "$.title", name: "title")
        }
    }

    @Test func everyWayInUsesTheSameLimit() throws {
        #expect(throws: SpecProblem.self) { try spec(title: Self.heavy).check(geometry: .standard, levels: .standard) }
        #expect(throws: SpecProblem.self) { try ExportDocument.read(exportJSON(title: Self.heavy), levels: .standard) }
        let package = try ExportDocument.read(exportJSON(), levels: .standard).packages[0]
        #expect(throws: EditProblem.self) { try package.applying([.title(Self.heavy)], levels: .standard) }
        #expect(throws: EditProblem.self) { try package.applying([.maker(Self.heavy)], levels: .standard) }
    }

    @Test func realTitlesStillPass() throws {
        // 200 Hangul syllables decomposed (NFD) are 400 to 600 scalars; accented Latin is 2 per letter.
        let decomposed = String(repeating: "한", count: 200).decomposedStringWithCanonicalMapping
        try PackageDocument.checkText(decomposed, path: "$.title", name: "title")
        try PackageDocument.checkText(String(repeating: "é", count: 200).decomposedStringWithCanonicalMapping, path: "$", name: "title")
        try PackageDocument.checkText(String(repeating: "👨‍👩‍👧", count: 100), path: "$", name: "title")
    }
}

@Suite("Names people read")
struct ReadableNameTests {
    @Test(arguments: ["\u{202E}", "\u{2066}", "\u{200B}", "\u{200D}", "\u{00AD}", "\u{FEFF}", "\u{E0041}", "\u{061C}"])
    func hiddenAndReorderingCharactersAreFound(_ hidden: String) {
        #expect(ReadableName.firstHidden(in: "Ada" + hidden + "Lovelace") != nil, "\(hidden.unicodeScalars.first!.value)")
        #expect(throws: SpecProblem.self) { try PackageDocument.checkText("My " + hidden + "quiz", path: "$.title", name: "title") }
    }

    @Test(arguments: ["Ada Lovelace", "무성영화 고전", "Amélie", "❤️ movies", "👨‍👩‍👧 night", "L'Atalante (1934)"])
    func whatReadersSeeIsKept(_ text: String) throws {
        #expect(ReadableName.firstHidden(in: text) == nil)
        try PackageDocument.checkText(text, path: "$.title", name: "title")
    }

    @Test func namesAreStoredComposedAndComparedByHowTheyLook() {
        // "Amélie" with its accent typed apart, and 한 typed as its jamo.
        #expect(ReadableName.normalized("Ame\u{301}lie").unicodeScalars.count == 6)
        #expect(ReadableName.normalized("\u{1112}\u{1161}\u{11AB}") == "한")
        #expect(ReadableName.skeleton("Ada") == ReadableName.skeleton("\u{0410}d\u{0430}"))
        #expect(ReadableName.skeleton("paypal") == ReadableName.skeleton("p\u{0430}yp\u{0430}l"))
        #expect(ReadableName.skeleton("ＡＤＡ") == ReadableName.skeleton("ada"), "full-width letters")
        #expect(ReadableName.skeleton("modern") == ReadableName.skeleton("rnodern"))
        #expect(ReadableName.skeleton("Ada") != ReadableName.skeleton("Ida"))
        // Beyond Latin, Cyrillic and Greek: TR39's whole table (Armenian, Cherokee, mathematical letters, ...).
        #expect(ReadableName.skeleton("polo") == ReadableName.skeleton("p\u{0585}l\u{0585}"), "Armenian oh")
        #expect(ReadableName.skeleton("AGE") == ReadableName.skeleton("\u{13AA}\u{13C0}\u{13AC}"), "Cherokee")
        #expect(ReadableName.skeleton("lisa") == ReadableName.skeleton("\u{2113}isa"), "script small l")
        #expect(ReadableName.skeleton("BOSS") == ReadableName.skeleton("b0ss"), "zero and O, in any case")
        #expect(ReadableName.skeleton("\u{00C0}da") == ReadableName.skeleton("A\u{0300}da"), "composed and decomposed")
        #expect(ReadableName.skeleton("\u{00C0}da") != ReadableName.skeleton("Ada"), "an accent is seen")
        #expect(ReadableName.skeleton("<B>B</B><IMG SRC=X>") == ReadableName.skeleton("<b>b</b><img src=x>"), "any case")
    }
}
