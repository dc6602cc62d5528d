import Foundation
import QuizCore
import Synchronization
import UQuizStorage
import UQuizWire

/// What the store keeps of a live room for another instance to carry it on: the room's checkpoint and what the server
/// knows around it.
struct RoomCheckpointRecord: Codable {
    var room: RoomCheckpoint
    var packageId: Int64
    var openedBy: Int64
    /// The accounts of the players who joined with their token, by player number.
    var accounts: [String: Int64]
    var anyoneJoined: Bool
    var resultsStored: Bool
    /// Written by a holder handing the room over, so the room as it is: its running quiz goes on. Otherwise the
    /// holder may have gone on past the checkpoint before it died, and a running quiz is played again.
    var handedOver: Bool
}

/// Runs writes of a changing state one at a time so that the last one written is the latest: a call while a write runs
/// asks for one more write after it (calls meanwhile share that one), at least `spacing` after the one before, and
/// returns once it is done.
final class LatestWins: Sendable {
    private struct State {
        var running = false
        var again = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func run(spacing: Duration = .zero, _ write: () async -> Void) async {
        let leads = state.withLock { state in
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        guard leads else {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state in
                    if !state.running { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
            return
        }
        while true {
            let started = ContinuousClock.now
            await write()
            if spacing > .zero, state.withLock({ $0.again }) {
                try? await Task.sleep(until: started + spacing)
            }
            let waiters: [CheckedContinuation<Void, Never>]? = state.withLock { state in
                if state.again {
                    state.again = false
                    return nil
                }
                state.running = false
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            guard let waiters else { continue }
            for waiter in waiters { waiter.resume() }
            return
        }
    }
}

extension Rooms {
    /// Renews this instance's leases and takes over the rooms whose lease ended, every `RoomLimits.leaseRenewal`,
    /// until the task is cancelled.
    public func maintainLeases() async {
        while !Task.isCancelled {
            await renewLeases()
            do { try await Task.sleep(for: limits.leaseRenewal) } catch { return }
        }
    }

    /// One round of `maintainLeases`: the leases renewed, and rooms whose lease ended taken over.
    public func renewLeases() async {
        guard listeningURL != nil, !isStopping else { return }
        await leaseConfirmations.run { await renewOwnLeases() }
        do {
            for code in try await environment.store().roomsWithEndedLeases(now: now().wholeMicroseconds, limit: 20) {
                guard let code = RoomCode(code) else { continue }
                _ = await adopt(code)
            }
        } catch {
            environment.log("live rooms: rooms whose lease ended could not be listed (\(error))")
        }
    }

    /// Renews the lease on this instance's rooms. A room this instance holds in memory that the directory gives to
    /// another instance (this one stalled past its lease and the room was taken over) is let go: its players are told
    /// to reconnect, and reach it where it is now.
    private func renewOwnLeases() async {
        guard let instance = listeningURL, !isStopping else { return }
        let instant = now()
        do {
            // Listed before the renewal: a room placed after it began may not be in what it returns yet.
            let before = liveRooms.filter(\.listed)
            let held = Set(try await environment.store().renewRoomLeases(
                instance: instance, until: (instant + limits.lease).wholeMicroseconds))
            leaseRenewedAt.withLock { $0 = instant }
            for live in before where !held.contains(live.code.value) && !live.isGone {
                environment.log("room \(live.code): another server instance holds it now; its players are sent there")
                letGo(live)
            }
        } catch {
            environment.log("live rooms: the leases could not be renewed (\(error))")
        }
    }

    /// Whether the room may send and store what it does now. Another instance may take a room over once its lease has
    /// ended, so a holder whose lease has run out on its own clock (it stalled: a long pause, a frozen machine, a
    /// store that did not answer its renewals) first renews it. A room the directory has given to another instance
    /// meanwhile is let go, unsent (its players reconnect to where it is now), and so is every room while the lease
    /// cannot be renewed: better a reconnect than two holders naming answers and storing results.
    func mayActFor(_ live: LiveRoom) async -> Bool {
        guard live.listed, listeningURL != nil else { return true }
        let asked = now()
        if let renewed = leaseRenewedAt.withLock({ $0 }), asked < renewed + limits.lease { return true }
        await leaseConfirmations.run { await renewOwnLeases() }
        if live.isGone { return false }
        // A renewal that began after the question went through: the room was still this instance's then.
        if let renewed = leaseRenewedAt.withLock({ $0 }), renewed >= asked { return true }
        environment.log("room \(live.code): its lease could not be renewed; its players are sent to reconnect")
        letGo(live)
        return false
    }

    /// Takes the room `code`, whose lease has ended, over from its checkpoint; `true` when it is here now. Whoever asks
    /// while a takeover of it runs waits for that one.
    func adopt(_ code: RoomCode) async -> Bool {
        if liveRoom(code) != nil { return true }
        let task = adoptions.withLock { adoptions in
            if let running = adoptions[code] { return running }
            let task = Task { await self.takeOver(code) }
            adoptions[code] = task
            return task
        }
        let adopted = await task.value
        adoptions.withLock { adoptions in if adoptions[code] == task { adoptions[code] = nil } }
        return adopted
    }

    private func takeOver(_ code: RoomCode) async -> Bool {
        guard let instance = listeningURL, !isStopping else { return false }
        let instant = now()
        let data: Data
        do {
            guard let taken = try await environment.store().takeOverRoom(
                code.value, instance: instance, leaseUntil: (instant + limits.lease).wholeMicroseconds,
                now: instant.wholeMicroseconds)
            else { return false }
            data = taken
        } catch {
            environment.log("room \(code): could not be taken over (\(error))")
            return false
        }
        do {
            let record = try JSONDecoder().decode(RoomCheckpointRecord.self, from: data)
            let prepared = try await prepared(packageId: record.packageId)
            let room = try Room(
                restoring: record.room, quizzes: prepared.roomQuizzes, at: now(),
                replayingRunningQuiz: !record.handedOver)
            let live = place(restored: room, record: record, quizzes: prepared.quizzes)
            ServerCounters.roomTakenOver(handedOver: record.handedOver)
            environment.log(
                "room \(code): carried on here from its checkpoint (\(record.handedOver ? "handed over by a server instance that stopped" : "its server instance stopped answering; a quiz that was running starts again"))")
            await live.tick()
            await live.saveCheckpoint()
            return true
        } catch {
            environment.log("room \(code): could not be carried on from its checkpoint (\(error)); it is gone")
            await release(code)
            return false
        }
    }

    /// Hands every room of this instance over, for another instance to carry on: no room is opened or taken over here
    /// from now on, each room's last checkpoint is written, their leases end, and their players are told to reconnect
    /// (`RoomWire.CloseReason.moved`) and resume where they land. Done once; what the server does first when it
    /// stops, while it still answers.
    public func handOver() async {
        let first = stoppingFlag.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first, let instance = listeningURL else { return }
        let live = liveRooms.filter(\.listed)
        for room in live {
            room.state.withLock { state in
                state.gone = true
                state.handedOver = true
                state.timer?.cancel()
                state.timer = nil
            }
            await room.saveCheckpoint()
        }
        do {
            try await environment.store().endRoomLeases(instance: instance)
        } catch {
            // Their leases then end on their own, a few seconds later.
            environment.log("live rooms: their leases could not be ended (\(error)); another instance takes them over when they run out")
        }
        for room in live { letGo(room) }
        if !live.isEmpty { environment.log("live rooms: \(live.count) handed over to the other server instances") }
    }

    /// Keeps `data` as the room's checkpoint; a room the directory no longer gives to this instance is let go.
    func storeCheckpoint(_ data: Data, of live: LiveRoom) async {
        guard let instance = listeningURL else { return }
        do {
            if try await environment.store().saveRoomCheckpoint(live.code.value, instance: instance, checkpoint: data) == false,
                !live.isGone
            {
                environment.log("room \(live.code): another server instance holds it now; its players are sent there")
                letGo(live)
            }
        } catch {
            environment.log("room \(live.code): its checkpoint could not be kept (\(error))")
        }
    }
}

extension LiveRoom {
    var isGone: Bool { state.withLock { $0.gone } }

    /// Writes the room's checkpoint to the store (a listed room only), after any write of it still running and at
    /// least `spacing` after it.
    func saveCheckpoint(spacing: Duration = .zero) async {
        guard listed else { return }
        await checkpoints.run(spacing: spacing) {
            guard let data = checkpointRecord() else { return }
            await rooms.storeCheckpoint(data, of: self)
        }
    }

    /// The room's checkpoint, taken under the room's lock and encoded after it: a large room's encoding takes
    /// milliseconds that its players' messages would otherwise wait for.
    private func checkpointRecord() -> Data? {
        let record: RoomCheckpointRecord? = state.withLock { state in
            guard let checkpoint = state.room.checkpoint else { return nil }
            return RoomCheckpointRecord(
                room: checkpoint, packageId: packageId, openedBy: openedBy,
                accounts: Dictionary(uniqueKeysWithValues: state.accounts.map { (String($0.key.value), $0.value) }),
                anyoneJoined: state.anyoneJoined, resultsStored: state.resultsStored, handedOver: state.handedOver)
        }
        return record.map { Data(JSONWriter.write($0)) }
    }

    /// What the poster route may show of each quiz of `room`: every stage of the quizzes that ended, and the stages
    /// of the running one announced so far.
    static func announced(in room: Room) -> [Int: Int] {
        var announced: [Int: Int] = [:]
        let ended: Int
        switch room.phase {
        case .lobby:
            ended = 0
        case .loading(let quiz, _):
            ended = quiz - 1
            announced[quiz] = 1
        case .playing(let quiz):
            ended = quiz - 1
            announced[quiz] = room.revealedStages
        case .interlude(let after, _):
            ended = after
        case .finished, .expired:
            ended = room.quizzes.count
        }
        for quiz in stride(from: 1, through: ended, by: 1) { announced[quiz] = wholePoster }
        return announced
    }
}
