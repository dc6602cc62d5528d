import Foundation
import Metrics
import PosterGrid
import Synchronization

/// Cut stage posters kept in memory, the least recently used dropped first once their bytes pass a cap. One per
/// server process, shared by every request: every method is safe to call from any thread.
///
/// `Poster` names a poster's source (a TMDB path, an upload's id, ...); a key adds the grid, the revealed areas and
/// the quality, everything a cut depends on, so a cached cut is always the one `StagePoster.cut` would make.
public final class StagePosterCache<Poster: Hashable & Sendable>: Sendable {
    public struct Key: Hashable, Sendable {
        public let poster: Poster
        public let geometry: GridGeometry
        /// The revealed areas' centres, sorted and without repeats: a cut depends only on which areas show.
        public let revealed: [Cell]
        public let quality: Int

        public init(poster: Poster, geometry: GridGeometry, revealed: [Cell], quality: Int = StagePoster.defaultQuality) {
            self.poster = poster
            self.geometry = geometry
            self.revealed = Array(Set(revealed)).sorted()
            self.quality = quality
        }
    }

    public struct Statistics: Equatable, Sendable {
        public var entries: Int
        /// JPEG bytes held, at most `byteLimit`.
        public var bytes: Int
        public var hits: Int
        public var misses: Int
        public var evictions: Int
    }

    /// The most JPEG bytes held at once; a single cut larger than this is returned but not kept.
    public let byteLimit: Int
    private let state: Mutex<State>

    public init(byteLimit: Int) {
        precondition(byteLimit >= 0, "a cache cannot hold fewer than 0 bytes")
        self.byteLimit = byteLimit
        state = Mutex(State())
    }

    /// The cut for `key`, if held; it becomes the most recently used.
    public func cached(_ key: Key) -> Data? {
        state.withLock { state in
            guard let slot = state.index[key] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            state.moveToNewest(slot)
            return state.slots[slot].data
        }
    }

    /// Keeps `data` as the cut for `key`, then drops the least recently used cuts until the bytes fit the cap.
    public func insert(_ data: Data, for key: Key) {
        state.withLock { state in
            if let slot = state.index[key] { state.remove(slot) }
            guard data.count <= byteLimit else { return }
            state.add(key, data)
            while state.bytes > byteLimit, state.oldest != State.none {
                state.remove(state.oldest)
                state.evictions += 1
            }
        }
    }

    /// The cut for `key`: from the cache, or made from the poster `jpeg` loads (called only on a miss) and kept.
    ///
    /// The cut is made outside the lock, so other requests go on meanwhile; two requests missing the same key at once
    /// both cut it, and both get the same bytes.
    public func cut<LoadError: Error>(
        _ key: Key, jpeg: () throws(LoadError) -> Data
    ) throws(StagePosterFailure<LoadError>) -> Data {
        if let data = cached(key) {
            Counter(label: "uquiz_stage_posters_total", dimensions: [("source", "cache")]).increment()
            return data
        }
        Counter(label: "uquiz_stage_posters_total", dimensions: [("source", "cut")]).increment()
        let source: Data
        do { source = try jpeg() } catch { throw .loading(error) }
        let data: Data
        do {
            data = try StagePoster.cut(jpeg: source, geometry: key.geometry, revealed: key.revealed, quality: key.quality)
        } catch { throw .cutting(error) }
        insert(data, for: key)
        return data
    }

    public var statistics: Statistics {
        state.withLock { state in
            Statistics(
                entries: state.index.count, bytes: state.bytes, hits: state.hits, misses: state.misses,
                evictions: state.evictions)
        }
    }

    public func removeAll() {
        state.withLock { state in
            let (hits, misses, evictions) = (state.hits, state.misses, state.evictions)
            state = State()
            (state.hits, state.misses, state.evictions) = (hits, misses, evictions)
        }
    }

    /// Entries in an array, linked from the most to the least recently used; removed slots are reused.
    private struct State {
        static var none: Int { -1 }

        struct Slot {
            var key: Key?
            var data = Data()
            var newer = State.none
            var older = State.none
        }

        var slots: [Slot] = []
        var freeSlots: [Int] = []
        var index: [Key: Int] = [:]
        var newest = State.none
        var oldest = State.none
        var bytes = 0
        var hits = 0
        var misses = 0
        var evictions = 0

        mutating func add(_ key: Key, _ data: Data) {
            let slot: Int
            if let free = freeSlots.popLast() {
                slot = free
                slots[slot] = Slot(key: key, data: data)
            } else {
                slot = slots.count
                slots.append(Slot(key: key, data: data))
            }
            index[key] = slot
            bytes += data.count
            linkAsNewest(slot)
        }

        mutating func remove(_ slot: Int) {
            unlink(slot)
            if let key = slots[slot].key { index[key] = nil }
            bytes -= slots[slot].data.count
            slots[slot] = Slot()
            freeSlots.append(slot)
        }

        mutating func moveToNewest(_ slot: Int) {
            guard newest != slot else { return }
            unlink(slot)
            linkAsNewest(slot)
        }

        private mutating func linkAsNewest(_ slot: Int) {
            slots[slot].older = newest
            slots[slot].newer = State.none
            if newest != State.none { slots[newest].newer = slot }
            newest = slot
            if oldest == State.none { oldest = slot }
        }

        private mutating func unlink(_ slot: Int) {
            let (newer, older) = (slots[slot].newer, slots[slot].older)
            if newer != State.none { slots[newer].older = older } else { newest = older }
            if older != State.none { slots[older].newer = newer } else { oldest = newer }
            slots[slot].newer = State.none
            slots[slot].older = State.none
        }
    }
}

/// Why `StagePosterCache.cut` gave no poster: its source could not be loaded, or could not be cut.
public enum StagePosterFailure<LoadError: Error>: Error {
    case loading(LoadError)
    case cutting(PosterArtError)
}
