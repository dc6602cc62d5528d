import Foundation
import FuzzSupport
import PosterGrid
import QuizCore

/// libFuzzer's entry point: any bytes must be refused with a SpecProblem or accepted, never crash or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    _ = try? ExportDocument.read(data, levels: .standard)
    _ = try? PackageSpec.decode(data).check(geometry: .standard, levels: .standard)
    if let text = String(data: data, encoding: .utf8) {
        _ = try? CellParser.parse(text, geometry: .standard)
        _ = try? PackageSpec.parseQuizFlag(text, geometry: .standard)
    }
    return 0
}

@_cdecl("ImportFuzzer_main")
public func importFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, size in fuzzImport(bytes, size) }
}
