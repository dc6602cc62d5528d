import Synchronization

/// Beats the heartbeat (`RoomConnection.heartbeat`: the hello deadline, pings on quiet connections, dead ones) of every
/// connection of one room from one task. A sleeping task per socket is a Dispatch timer per socket: with a thousand
/// players, their two wake-ups a second each were a fifth of the server's CPU during a play.
final class RoomHeartbeats: Sendable {
    static let interval = Duration.milliseconds(500)
    /// Connections beaten between two yields, so that one large room's beat does not hold a thread for long.
    static let batch = 200

    private struct State {
        var connections: [ObjectIdentifier: RoomConnection] = [:]
        var ticker: Task<Void, Never>?
    }

    private let state = Mutex(State())

    func add(_ connection: RoomConnection) {
        state.withLock { state in
            state.connections[ObjectIdentifier(connection)] = connection
            if state.ticker == nil { state.ticker = Task { await self.beat() } }
        }
    }

    func remove(_ connection: RoomConnection) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Every `interval` until no connection is left (the next `add` starts it again).
    private func beat() async {
        while true {
            do { try await Task.sleep(for: Self.interval) } catch { return }
            let connections: [RoomConnection] = state.withLock { state in
                if state.connections.isEmpty { state.ticker = nil }
                return Array(state.connections.values)
            }
            if connections.isEmpty { return }
            for (index, connection) in connections.enumerated() {
                if index > 0, index.isMultiple(of: Self.batch) { await Task.yield() }
                await connection.heartbeat()
                if connection.isClosed { remove(connection) }
            }
        }
    }
}
