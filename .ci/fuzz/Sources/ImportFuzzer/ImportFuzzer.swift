import Foundation
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

/// libFuzzer's driver, for executables that bring their own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// SwiftPM links an executable's entry point under this name and points `main` at it, so libFuzzer's own `main` is
/// never linked: start its driver from here instead.
@_cdecl("ImportFuzzer_main")
public func importFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { bytes, size in fuzzImport(bytes, size) }
}
