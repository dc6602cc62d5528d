import CTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Swift's Glibc module leaves out the pseudo-terminal calls (they need _XOPEN_SOURCE); they are plain C functions.
@_silgen_name("posix_openpt") private func posixOpenpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantPseudoTerminal(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockPseudoTerminal(_ fd: Int32) -> Int32
@_silgen_name("ptsname") private func pseudoTerminalName(_ fd: Int32) -> UnsafeMutablePointer<CChar>?

/// A program running on a pseudo-terminal, driven like a person at a keyboard: its standard input, output and error are
/// the terminal, so it sees `isatty` true.
public final class PseudoTerminalSession: @unchecked Sendable {
    public let process = Process()
    private let master: Int32
    private let lock = NSLock()
    private var buffer = Data()
    private var reader: Thread?
    /// Our copy of the terminal's program side: the reader sees EIO, and so knows it has read everything, only once
    /// this and the program's copies are closed.
    private let terminal: FileHandle
    /// Signalled when the reader has read the last byte.
    private let drained = DispatchSemaphore(value: 0)

    public init(binary: URL, arguments: [String], environment: [String: String]) throws {
        master = posixOpenpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantPseudoTerminal(master) == 0, unlockPseudoTerminal(master) == 0,
            let name = pseudoTerminalName(master)
        else {
            throw PseudoTerminalError.unavailable
        }
        let slave = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw PseudoTerminalError.unavailable }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        self.terminal = terminal
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        let master = self.master
        let drained = self.drained
        reader = Thread { [weak self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &chunk, chunk.count)
                if count <= 0 { break }  // EIO once the program and we have closed the other side
                self?.append(chunk.prefix(count))
            }
            drained.signal()
        }
        reader?.start()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    private func append(_ bytes: ArraySlice<UInt8>) {
        lock.withLock { buffer.append(contentsOf: bytes) }
    }

    /// Everything the program has written so far.
    public var transcript: String {
        lock.withLock { String(decoding: buffer, as: UTF8.self) }
    }

    /// Types a line and Enter.
    public func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    /// Sends bytes as typed, with no Enter.
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    /// Changes the terminal's size, as a window resize would.
    public func resize(rows: Int, columns: Int) {
        _ = uquiz_set_terminal_size(master, Int32(rows), Int32(columns))
    }

    /// Sends the terminal's end-of-input character (Ctrl-D).
    public func sendEndOfInput() {
        var byte: UInt8 = 4
        _ = write(master, &byte, 1)
    }

    /// Waits until `text` has appeared at least `occurrence` times, for at most `timeout` seconds, and says whether it
    /// did: a synchronisation point with the program, not a timing measurement.
    @discardableResult
    public func waitFor(_ text: String, occurrence: Int = 1, timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if transcript.components(separatedBy: text).count - 1 >= occurrence { return true }
            if !process.isRunning { return transcript.components(separatedBy: text).count - 1 >= occurrence }
            usleep(5_000)
        }
        return false
    }

    public func interrupt() {
        kill(process.processIdentifier, SIGINT)
    }

    /// Waits for the program to end and for the reader to have read all it wrote: what a program writes just before it
    /// dies (restoring the screen on a signal) is still in the terminal's buffer when it has exited.
    public func waitForExit() -> (status: Int32, reason: Process.TerminationReason) {
        process.waitUntilExit()
        try? terminal.close()
        _ = drained.wait(timeout: .now() + 30)
        return (process.terminationStatus, process.terminationReason)
    }
}

public enum PseudoTerminalError: Error {
    case unavailable
}
