import Dispatch
import Foundation
import FuzzSupport
import UQuizCLI

/// One file per process, rewritten for each input: the settings are read from a file as every command reads them.
let configFile = FileManager.default.temporaryDirectory.appendingPathComponent("uquiz-settings-fuzz-\(getpid()).json")

/// Whatever a config file holds must give problems in lines or none, never crash or hang (issue 13: nan, inf, 1e308,
/// a 0.4 ms timeout, a million-column grid crashed even `uquiz config`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard (try? Data(bytes: bytes, count: count).write(to: configFile)) != nil else { return 0 }
    let done = DispatchSemaphore(value: 0)
    Task {
        _ = await ConfigFileCheck.problems(inFile: configFile.path)
        done.signal()
    }
    done.wait()
    return 0
}

@_cdecl("SettingsFuzzer_main")
public func settingsFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, size in fuzzSettings(bytes, size) }
}
