import Foundation
import FuzzSupport
import PosterGrid
import QuizCore

/// libFuzzer's entry point: any bytes must be refused with a SpecProblem or accepted, never crash or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let read = try? ExportDocument.read(data, levels: .standard) {
        // A grid that passed must be usable: every cell of it addressable, every area's block computable.
        for quiz in read.packages.flatMap(\.quizzes) {
            _ = quiz.geometry.cell(atIndex: quiz.geometry.cellCount - 1)
            for area in quiz.areas { _ = quiz.geometry.block(around: area) }
        }
    }
    _ = try? PackageSpec.decode(data).check(geometry: .standard, levels: .standard)
    // Grids as settings and stored rows give them (alone, or nested under "grid" as in a config file).
    struct Nested: Decodable { var grid: GridGeometry }
    _ = try? JSONDecoder().decode(GridGeometry.self, from: data)
    _ = try? JSONDecoder().decode(Nested.self, from: data)
    if let text = String(data: data, encoding: .utf8) {
        _ = try? CellParser.parse(text, geometry: .standard)
        _ = try? PackageSpec.parseQuizLine(text, geometry: .standard, label: "$")
        _ = PosterPath.isTMDBPath(text)
        _ = try? PackageDocument.checkText(text, path: "$", name: "text")
    }
    return 0
}

@_cdecl("ImportFuzzer_main")
public func importFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, size in fuzzImport(bytes, size) }
}
