import Foundation
import QuizStore
import Testing
import UQuizStorage

/// What a store keeps of live rooms: final results and the directory of which instance holds each open room.
@Suite struct RoomContractTests {
    @Test(arguments: StoreKind.allCases)
    func roomResultsAddUpPerPlayer(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (packageId, ann) = try await publish(makePackage(code: "RRRRR2", quizzes: 3), on: store)
            let finished = Date(timeIntervalSince1970: 1_800_000_000)
            func row(_ room: String, _ player: Int64?, _ name: String, rank: Int, score: Int, solved: Int) -> RoomResultRow {
                RoomResultRow(
                    roomCode: room, packageId: packageId, playerId: player, name: name, rank: rank, score: score,
                    solved: solved, played: 3, shareLine: "🟩⬛⬛", finishedAt: finished)
            }
            try await store.insertRoomResults([row("K7QF", ann.id, "Ann", rank: 1, score: 900, solved: 2), row("K7QF", nil, "Guest", rank: 2, score: 100, solved: 1)])
            try await store.insertRoomResults([row("M3XZ", ann.id, "Ann", rank: 2, score: 300, solved: 1)])
            #expect(try await store.roomStats(playerId: ann.id) == RoomStats(rooms: 2, wins: 1, points: 1200, solved: 3, played: 6))
            let results = try await store.roomResults(playerId: ann.id, limit: 20)
            #expect(results.map(\.roomCode) == ["M3XZ", "K7QF"], "newest first")
            #expect(results.last == row("K7QF", ann.id, "Ann", rank: 1, score: 900, solved: 2))
            #expect(try await store.roomStats(playerId: 999) == RoomStats(rooms: 0, wins: 0, points: 0, solved: 0, played: 0))
            // A holder that no longer holds its room in the directory stores nothing of it; the one that does, stores.
            let a = "http://10.0.0.1:8080", b = "http://10.0.0.2:8080"
            #expect(try await store.claimRoomCode("T9PQ", instance: a, at: Date()))
            #expect(try await store.insertRoomResults([row("T9PQ", ann.id, "Ann", rank: 1, score: 50, solved: 1)], heldBy: b) == false)
            #expect(try await store.roomStats(playerId: ann.id).rooms == 2, "nothing stored")
            #expect(try await store.insertRoomResults([row("T9PQ", ann.id, "Ann", rank: 1, score: 50, solved: 1)], heldBy: a))
            #expect(try await store.roomStats(playerId: ann.id).rooms == 3)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRoomCodeIsHeldByOneInstanceAtATime(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let a = "http://10.0.0.1:8080", b = "http://10.0.0.2:8080"
            #expect(try await store.claimRoomCode("K7QF", instance: a, at: Date()))
            #expect(try await store.claimRoomCode("K7QF", instance: b, at: Date()) == false, "taken by A")
            #expect(try await store.claimRoomCode("M3XZ", instance: b, at: Date()))
            #expect(try await store.roomInstance(code: "K7QF") == a)
            #expect(try await store.roomInstance(code: "ZZZZ") == nil)
            try await store.releaseRoomCode("K7QF", instance: b)
            #expect(try await store.roomInstance(code: "K7QF") == a, "B cannot release A's room")
            try await store.releaseRoomCode("K7QF", instance: a)
            #expect(try await store.roomInstance(code: "K7QF") == nil)
            #expect(try await store.claimRoomCode("K7QF", instance: b, at: Date()))
            #expect(try await store.roomHolder(code: "K7QF") == RoomHolder(instance: b, leaseUntil: nil))
            // Leased from its claim: a holder that dies before renewing leaves a room the others see ended, and
            // forget (no checkpoint yet) rather than keep for ever.
            #expect(try await store.claimRoomCode("R4WY", instance: a, host: nil, at: Date(), leaseUntil: 5_000))
            #expect(try await store.roomHolder(code: "R4WY") == RoomHolder(instance: a, leaseUntil: 5_000))
            #expect(try await store.roomsWithEndedLeases(now: 4_000, limit: 10).isEmpty)
            #expect(try await store.roomsWithEndedLeases(now: 6_000, limit: 10) == ["R4WY"])
            #expect(try await store.takeOverRoom("R4WY", instance: b, leaseUntil: 9_000, now: 6_000) == nil)
            #expect(try await store.roomHolder(code: "R4WY") == nil)
        }
    }

    /// A host's rooms that have not finished, counted on the other instances.
    @Test(arguments: StoreKind.allCases)
    func aHostsUnfinishedRoomsAreCountedAcrossInstances(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let a = "http://10.0.0.1:8080", b = "http://10.0.0.2:8080"
            let host = try await store.insertPlayer(name: "Host", tokenHash: tokenHash(1), at: Date())
            let other = try await store.insertPlayer(name: "Other", tokenHash: tokenHash(2), at: Date())
            #expect(try await store.claimRoomCode("K7QF", instance: a, host: host.id, at: Date(), leaseUntil: nil))
            #expect(try await store.claimRoomCode("M3XZ", instance: b, host: host.id, at: Date(), leaseUntil: nil))
            #expect(try await store.claimRoomCode("R4WY", instance: b, host: other.id, at: Date(), leaseUntil: nil))
            #expect(try await store.claimRoomCode("T9PQ", instance: b, at: Date()))
            #expect(try await store.hostedRoomCount(host: host.id, notOn: a) == 1)
            #expect(try await store.hostedRoomCount(host: host.id, notOn: b) == 1)
            #expect(try await store.hostedRoomCount(host: host.id, notOn: "http://10.0.0.3:8080") == 2)
            try await store.markRoomFinished("M3XZ")
            #expect(try await store.hostedRoomCount(host: host.id, notOn: a) == 0, "a finished room no longer counts")
            try await store.releaseRoomCode("K7QF", instance: a)
            #expect(try await store.hostedRoomCount(host: host.id, notOn: b) == 0, "nor a room gone")
        }
    }

    /// A holder renews its leases and keeps checkpoints; when its leases end (it stopped, or they ran out), another
    /// instance takes each room over, once: from its checkpoint, or not at all when there is none.
    @Test(arguments: StoreKind.allCases)
    func aRoomWhoseLeaseEndedIsTakenOverOnceFromItsCheckpoint(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let a = "http://10.0.0.1:8080", b = "http://10.0.0.2:8080"
            for code in ["K7QF", "M3XZ", "R4WY"] { #expect(try await store.claimRoomCode(code, instance: a, at: Date())) }
            #expect(try await store.claimRoomCode("T9PQ", instance: b, at: Date()))
            #expect(try await store.renewRoomLeases(instance: a, until: 5_000) == ["K7QF", "M3XZ", "R4WY"])
            #expect(try await store.roomHolder(code: "K7QF") == RoomHolder(instance: a, leaseUntil: 5_000))
            let checkpoint = Data(#"{"room":"K7QF","quiz":2}"#.utf8)
            #expect(try await store.saveRoomCheckpoint("K7QF", instance: a, checkpoint: checkpoint))
            #expect(try await store.saveRoomCheckpoint("M3XZ", instance: a, checkpoint: Data("{}".utf8)))
            #expect(try await store.saveRoomCheckpoint("K7QF", instance: b, checkpoint: Data("{}".utf8)) == false,
                    "only the holder keeps a room's checkpoint")

            // While the lease runs, nobody takes the room.
            #expect(try await store.roomsWithEndedLeases(now: 4_000, limit: 10) == [])
            #expect(try await store.takeOverRoom("K7QF", instance: b, leaseUntil: 9_000, now: 4_000) == nil)
            // Past it, the rooms are found, the longest ended first, and taken over once.
            #expect(try await store.renewRoomLeases(instance: b, until: 7_000) == ["T9PQ"])
            #expect(try await store.roomsWithEndedLeases(now: 8_000, limit: 10) == ["K7QF", "M3XZ", "R4WY", "T9PQ"])
            #expect(try await store.roomsWithEndedLeases(now: 6_000, limit: 2) == ["K7QF", "M3XZ"])
            #expect(try await store.takeOverRoom("K7QF", instance: b, leaseUntil: 9_000, now: 6_000) == checkpoint)
            #expect(try await store.takeOverRoom("K7QF", instance: a, leaseUntil: 9_000, now: 6_000) == nil, "taken already")
            #expect(try await store.roomHolder(code: "K7QF") == RoomHolder(instance: b, leaseUntil: 9_000))
            #expect(try await store.saveRoomCheckpoint("K7QF", instance: a, checkpoint: Data("{}".utf8)) == false,
                    "the old holder's late checkpoint is refused")
            // A room with no checkpoint cannot be carried on: it is forgotten instead.
            #expect(try await store.takeOverRoom("R4WY", instance: b, leaseUntil: 9_000, now: 6_000) == nil)
            #expect(try await store.roomHolder(code: "R4WY") == nil)
            #expect(try await store.renewRoomLeases(instance: a, until: 10_000) == ["M3XZ"], "A holds what is left of its rooms")

            // An instance that stops ends its leases at once: its rooms are there for the taking.
            try await store.endRoomLeases(instance: b)
            #expect(try await store.roomsWithEndedLeases(now: 1, limit: 10) == ["K7QF"])
            #expect(try await store.roomHolder(code: "T9PQ") == nil, "B's room without a checkpoint went with it")
            #expect(try await store.takeOverRoom("K7QF", instance: a, leaseUntil: 12_000, now: 1) == checkpoint)
        }
    }
}
