import Foundation
import FuzzSupport
import QuizCore

let judge = AnswerJudge(
    acceptedTitles: ["기생충", "Parasite", "Rocky II", "X-Men", "The Lord of the Rings: The Return of the King"],
    otherMovieTitles: ["Toy Story 2", "범죄도시 2"])

/// Whatever a player types must be normalized and judged, and give a hint, without crashing or hanging.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNormalizer(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    _ = TitleNormalizer.normalize(text)
    _ = judge.judge(text)
    _ = AnswerJudge(acceptedTitles: [text]).judge("x")
    _ = Hint.firstHint(for: text)
    _ = try? PackageDocument.checkText(text, path: "title", name: "title")
    return 0
}

@_cdecl("NormalizerFuzzer_main")
public func normalizerFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, size in fuzzNormalizer(bytes, size) }
}
