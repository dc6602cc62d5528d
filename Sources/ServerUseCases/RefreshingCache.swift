import Synchronization

/// The values an instance made from the store, one per key (a package's play plan), each made once however many
/// requests want it at the same time, and made again in the background once older than `lifetime` while the old one
/// is still served.
///
/// Why: making a plan reads the package and the catalog and prepares a judge per quiz, tens of milliseconds of CPU.
/// When a plan expired, every request in flight used to make its own at once, and a server under load stalled for
/// hundreds of milliseconds every `lifetime` (seen as p99s of 400 ms in the benchmarks). A change to the package comes
/// through `forget` at once (the store's change feed), so the lifetime bounds only what the feed does not carry.
final class RefreshingCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private enum Entry {
        case making(id: Int, Task<Value, any Error>)
        /// `refreshing` is the id of the making under way in the background, if any.
        case ready(Value, madeAt: Duration, refreshing: Int?)
    }

    private enum Step {
        case kept(Value)
        case wait(Task<Value, any Error>)
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var nextId = 0
    }

    let lifetime: Duration
    let capacity: Int
    private let now: @Sendable () -> Duration
    private let state = Mutex(State())

    init(lifetime: Duration, capacity: Int, now: @escaping @Sendable () -> Duration) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.now = now
    }

    /// The value of `key`: the one kept when there is one (fresh, or stale while a new one is made in the background),
    /// else the one being made, else one made now by `make`. `fresh` skips what is kept and waits for a new one.
    func value(
        of key: Key, fresh: Bool = false, make: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let step = state.withLock { state -> Step in
            if !fresh, let entry = state.entries[key] {
                switch entry {
                case .making(_, let task):
                    return .wait(task)
                case .ready(let value, let madeAt, let refreshing):
                    if refreshing == nil, now() - madeAt >= lifetime {
                        let (id, _) = startMaking(key, make, in: &state)
                        state.entries[key] = .ready(value, madeAt: madeAt, refreshing: id)
                    }
                    return .kept(value)
                }
            }
            if state.entries.count >= capacity { state.entries.removeAll() }
            let (id, task) = startMaking(key, make, in: &state)
            state.entries[key] = .making(id: id, task)
            return .wait(task)
        }
        switch step {
        case .kept(let value): return value
        case .wait(let task): return try await task.value
        }
    }

    /// Drops what is kept of `key` (and what is being made of it: whoever waits for it still gets it, but it is not
    /// kept).
    func forget(_ key: Key) {
        state.withLock { _ = $0.entries.removeValue(forKey: key) }
    }

    func forgetAll() {
        state.withLock { $0.entries.removeAll() }
    }

    private func startMaking(
        _ key: Key, _ make: @escaping @Sendable () async throws -> Value, in state: inout State
    ) -> (Int, Task<Value, any Error>) {
        let id = state.nextId
        state.nextId += 1
        let task = Task {
            do {
                let value = try await make()
                self.settle(key, id: id, with: value)
                return value
            } catch {
                self.settle(key, id: id, with: nil)
                throw error
            }
        }
        return (id, task)
    }

    /// Keeps what making `id` gave, unless `key` was forgotten or made anew since it started.
    private func settle(_ key: Key, id: Int, with value: Value?) {
        let madeAt = now()
        state.withLock { state in
            switch state.entries[key] {
            case .making(id, _)?:
                state.entries[key] = value.map { .ready($0, madeAt: madeAt, refreshing: nil) }
            case .ready(let kept, let keptAt, id)?:
                state.entries[key] = .ready(value ?? kept, madeAt: value == nil ? keptAt : madeAt, refreshing: nil)
            default:
                break
            }
        }
    }
}
