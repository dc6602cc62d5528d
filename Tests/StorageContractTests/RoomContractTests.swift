import Foundation
import QuizStore
import UQuizStorage
import Testing
import UQuizApp

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
            let results = try await store.roomResults(playerId: ann.id)
            #expect(results.map(\.roomCode) == ["M3XZ", "K7QF"], "newest first")
            #expect(results.last == row("K7QF", ann.id, "Ann", rank: 1, score: 900, solved: 2))
            #expect(try await store.roomStats(playerId: 999) == RoomStats(rooms: 0, wins: 0, points: 0, solved: 0, played: 0))
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
            try await store.releaseRoomCodes(instance: b)
            #expect(try await store.roomInstance(code: "K7QF") == nil)
            #expect(try await store.roomInstance(code: "M3XZ") == nil)
        }
    }
}
