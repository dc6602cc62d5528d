import Foundation
import PosterGrid
@testable import QuizCore
@testable import ServerUseCases
import Testing
import UQuizStorage

/// A room's checkpoint as `JSONWriter` writes it reads as its `Codable` form does (`JSONDecoder` reads the same
/// record; the same members, absent optionals left out), on generated rooms: every phase, dropped and departed seats,
/// rounds, results, teams, big screens, Unicode and control characters in names, durations past 2^64 attoseconds.
@Suite struct RoomCheckpointJSONTests {
    @Test func aCheckpointWrittenByHandReadsAsItsCodableForm() throws {
        var random = AreaLayout.SeededGenerator(seed: 40_2000)
        let names = ["Ada", "스즈메", "Amélie", "quote \"me\"", "back\\slash", "tab\there", "\u{1}\u{1F}", "🎬", "e\u{301}"]
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
        func micros() -> Int64 { Int64.random(in: 0...Int64(1) << 52, using: &random) }
        func duration() -> Duration {
            [.seconds(2), .milliseconds(150), .seconds(7_200), .seconds(10), .zero, .seconds(30 * 60)]
                .randomElement(using: &random)!
        }
        func result() -> QuizResult {
            QuizResult(
                outcome: [.solved, .missed, .skipped].randomElement(using: &random)!,
                seconds: [0, 7.2, 20, 0.001, 13.337, 1e-7].randomElement(using: &random)!,
                stageReached: Int.random(in: 1...7, using: &random), hintsUsed: Int.random(in: 0...1, using: &random),
                score: Int.random(in: 0...300, using: &random))
        }
        for _ in 0..<200 {
            let seats = (0..<Int.random(in: 0...40, using: &random)).map { index in
                RoomCheckpoint.Seat(
                    player: index + 1, name: names.randomElement(using: &random)!,
                    tokenDigest: String(repeating: "ab", count: 32), droppedAt: maybe(micros()),
                    departure: maybe(["left", "seatExpired", "kicked"].randomElement(using: &random)!),
                    firstQuiz: Int.random(in: 1...5, using: &random), loadedQuiz: maybe(Int.random(in: 1...5, using: &random)),
                    round: maybe(RoomCheckpoint.Round(
                        hintsUsed: Int.random(in: 0...1, using: &random), result: maybe(result()), answered: maybe(Bool.random(using: &random)))),
                    results: (0..<Int.random(in: 0...4, using: &random)).map { RoomCheckpoint.QuizOutcome(quiz: $0 + 1, result: result()) },
                    team: maybe(Int.random(in: 1...6, using: &random)))
            }
            let phases: [RoomCheckpoint.Phase] = [
                .lobby, .loading(quiz: 2, since: micros()), .playing(quiz: 3, start: micros(), revealedStages: 4),
                .interlude(after: 1, until: micros()), .finished(at: micros()),
            ]
            var rules = RoomRules(
                stageDuration: duration(), timeLimit: duration(), loadingTimeout: duration(), interlude: duration(),
                seatHold: duration(), idleLifetime: duration(), endedLifetime: duration(), unjoinedLifetime: duration())
            rules.seatLimit = maybe(Int.random(in: 2...2_000, using: &random))
            let room = RoomCheckpoint(
                code: "AB12", shareCode: "FE7NWW", quizCount: 5, rules: rules, openedAt: micros(), lastActivity: micros(),
                now: micros(), phase: phases.randomElement(using: &random)!, host: maybe(Int.random(in: 1...40, using: &random)),
                joinCount: seats.count,
                lastQuiz: maybe(RoomCheckpoint.LastQuiz(
                    quiz: 1, ending: [.everyoneSolved, .timeUp, .skipped].randomElement(using: &random)!, at: micros())),
                seats: seats, screens: maybe([String(repeating: "cd", count: 32)]),
                teams: maybe(RoomTeams(count: Int.random(in: 2...6, using: &random), scoring: [.mean, .best].randomElement(using: &random)!)))
            let record = RoomCheckpointRecord(
                room: room, packageId: Int64.random(in: 1...1 << 40, using: &random), openedBy: Int64.random(in: 1...1 << 40, using: &random),
                accounts: Dictionary(uniqueKeysWithValues: seats.prefix(5).map { (String($0.player), Int64.random(in: 1...1 << 40, using: &random)) }),
                anyoneJoined: Bool.random(using: &random), resultsStored: Bool.random(using: &random), handedOver: Bool.random(using: &random))

            let written = Data(JSONWriter.write(record))
            let read = try JSONDecoder().decode(RoomCheckpointRecord.self, from: written)
            #expect(read.room == record.room)
            #expect(read.accounts == record.accounts && read.packageId == record.packageId && read.openedBy == record.openedBy)
            #expect(read.anyoneJoined == record.anyoneJoined && read.resultsStored == record.resultsStored)
            #expect(read.handedOver == record.handedOver)
            let asWritten = try JSONSerialization.jsonObject(with: written) as? NSDictionary
            let asEncoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? NSDictionary
            #expect(asWritten == asEncoded, "\(String(decoding: written, as: UTF8.self))")
        }
    }
}
