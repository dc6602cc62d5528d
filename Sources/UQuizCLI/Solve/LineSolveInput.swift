import Foundation
import QuizCore
import RemoteClient
import Synchronization
import UQuizRules

#if canImport(Glibc)
    import Glibc
#endif

/// What a typed line means in `--plain` and `--json`: a guess, `?` for the hint, `/skip`, or nothing (the clock moves).
enum TypedLine {
    static func action(for line: String) -> SolveAction {
        switch line.trimmingCharacters(in: .whitespaces) {
        case "": .tick
        case "?": .hint
        case "/skip": .skip
        case let text: .guess(text)
        }
    }
}

/// Lines from a file descriptor (standard input) on the monotonic clock: the loop sleeps in `poll` until a line comes or
/// the deadline passes, so it wakes on time with no thread of its own. It feeds local plays, plays on a server and live
/// rooms alike (a room's socket is polled beside it).
final class LineSolveInput: SolveInput, RemoteSolveInput, RoomInput {
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private let descriptor: Int32
    private let interruption: Interruption?
    private var buffer: [UInt8] = []
    private var ended = false

    init(descriptor: Int32 = STDIN_FILENO, interruption: Interruption? = nil) {
        self.descriptor = descriptor
        self.interruption = interruption
        origin = clock.now
    }

    func now() -> Duration { clock.now - origin }

    func next(until deadline: Duration?, in round: QuizRound) -> SolveAction {
        switch nextLine(until: deadline) {
        case .line(let line): return TypedLine.action(for: line)
        case .interrupted: return .quit
        case .deadline: return .tick
        case .ended:
            // No more input: the quiz runs out its time.
            guard let deadline else { return .endOfInput }
            sleep(until: deadline)
            return interruption?.isRequested == true ? .quit : .tick
        }
    }

    /// The next line typed before `deadline`, or what came instead.
    func nextLine(until deadline: Duration?) -> RemoteLine {
        while true {
            if interruption?.isRequested == true { return .interrupted }
            if let line = takeLine() { return .line(line) }
            if ended { return .ended }
            guard waitForInput(until: deadline) else { return interruption?.isRequested == true ? .interrupted : .deadline }
            readAvailable()
        }
    }

    /// The next line, or the room's socket readable, whichever comes first.
    func next(until deadline: Duration?, socket: Int32, keyboard: Bool) -> RoomInputEvent {
        while true {
            if interruption?.isRequested == true { return .interrupted }
            if keyboard, let line = takeLine() { return .line(line) }
            if keyboard && ended { return .ended }
            var entries = [
                pollfd(fd: keyboard ? descriptor : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: interruption?.wakeDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let result = poll(&entries, nfds_t(entries.count), milliseconds(until: deadline))
            if interruption?.isRequested == true { return .interrupted }
            if result == 0 { return .deadline }
            if result < 0 {
                if errno == EINTR { continue }
                return .deadline
            }
            if entries[1].revents != 0 { return .socket }
            if entries[0].revents != 0 { readAvailable() }
        }
    }

    /// The next whole line of the buffer, or the unterminated rest once input has ended.
    private func takeLine() -> String? {
        if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            return line.hasSuffix("\r") ? String(line.dropLast()) : line
        }
        if ended && !buffer.isEmpty {
            defer { buffer.removeAll() }
            return String(decoding: buffer, as: UTF8.self)
        }
        return nil
    }

    /// Whether input (or a Ctrl-C) is ready before the deadline (`false` once it has passed).
    private func waitForInput(until deadline: Duration?) -> Bool {
        var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        if let interruption { entries.append(pollfd(fd: interruption.wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
        while true {
            let result = poll(&entries, nfds_t(entries.count), milliseconds(until: deadline))
            if interruption?.isRequested == true { return false }
            if result > 0 { return true }
            if result == 0 { return false }
            if errno != EINTR { return true }  // let read report the error as the end of input
        }
    }

    private func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &chunk, chunk.count)
        if count > 0 {
            buffer += chunk.prefix(count)
        } else if count == 0 || errno != EINTR {
            ended = true
        }
    }

    private func sleep(until deadline: Duration) {
        var wake = [pollfd(fd: interruption?.wakeDescriptor ?? -1, events: Int16(POLLIN), revents: 0)]
        while now() < deadline, interruption?.isRequested != true { _ = poll(&wake, 1, milliseconds(until: deadline)) }
    }

    func pause(until deadline: Duration) -> Bool {
        sleep(until: deadline)
        return interruption?.isRequested != true
    }

    /// `poll`'s timeout for `deadline`: -1 waits for ever; rounded up so the loop never wakes just before it.
    private func milliseconds(until deadline: Duration?) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - now()
        guard left > .zero else { return 0 }
        return Int32(min(Double(Int32.max), (left.seconds * 1000).rounded(.up)))
    }
}
