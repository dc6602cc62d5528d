import Synchronization

/// Values kept `lifetime` each on a caller's clock, at most `capacity` of them: when full, the expired ones go, and if
/// none has, all do, so that a flood of new keys costs memory once rather than without bound.
final class ExpiringMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let lifetime: Duration
    let capacity: Int
    private let entries = Mutex<[Key: (value: Value, at: Duration)]>([:])

    init(lifetime: Duration, capacity: Int) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The value kept for `key`, unless it was set `lifetime` or more before `now`.
    func value(for key: Key, at now: Duration) -> Value? {
        entries.withLock { $0[key].flatMap { now - $0.at < lifetime ? $0.value : nil } }
    }

    /// Keeps `value` for each of `keys` from `now`.
    func set(_ value: Value, for keys: some Sequence<Key>, at now: Duration) {
        entries.withLock { entries in
            if entries.count >= capacity { entries = entries.filter { now - $0.value.at < lifetime } }
            if entries.count >= capacity { entries.removeAll() }
            for key in keys { entries[key] = (value, now) }
        }
    }

    func set(_ value: Value, for key: Key, at now: Duration) {
        set(value, for: CollectionOfOne(key), at: now)
    }

    /// Forgets the keys whose value `matches`.
    func removeAll(where matches: (Value) -> Bool) {
        entries.withLock { entries in entries = entries.filter { !matches($0.value.value) } }
    }
}
