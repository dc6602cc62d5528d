import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C during a play: the first stops the play (the summary of the quizzes played is printed and they are recorded),
/// a second ends the process at once. The game loop's inputs poll `wakeDescriptor`, which becomes readable at the
/// first Ctrl-C, so a loop asleep until its next deadline notices at once.
final class Interruption: Sendable {
    let wakeDescriptor: Int32
    private let state: State
    /// Kept alive for the process's life; only its handler touches it.
    nonisolated(unsafe) private let source: any DispatchSourceSignal

    private final class State: Sendable {
        let requested = Mutex(false)
        let signalDescriptor: Int32

        init(signalDescriptor: Int32) {
            self.signalDescriptor = signalDescriptor
        }
    }

    /// `beforeDying` runs before a second Ctrl-C ends the process (to restore the terminal).
    init(beforeDying: @escaping @Sendable () -> Void = {}) {
        var descriptors: [Int32] = [-1, -1]
        _ = pipe(&descriptors)
        wakeDescriptor = descriptors[0]
        let state = State(signalDescriptor: descriptors[1])
        self.state = state
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            let again = state.requested.withLock { wasRequested in
                defer { wasRequested = true }
                return wasRequested
            }
            if again {
                beforeDying()
                signal(SIGINT, SIG_DFL)
                kill(getpid(), SIGINT)
            } else {
                var byte: UInt8 = 1
                _ = write(state.signalDescriptor, &byte, 1)
            }
        }
        source.resume()
    }

    var isRequested: Bool { state.requested.withLock { $0 } }
}
