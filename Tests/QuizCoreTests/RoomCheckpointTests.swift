import Foundation
import QuizCore
import Testing

/// A room carried on by another server instance from a checkpoint: handed over as it is (the running quiz goes on on
/// its clock), or taken over after its holder died (the quiz that was running is played again).
@Suite("Room checkpoints")
struct RoomCheckpointTests {
    /// The checkpoint as the store keeps it: JSON, read back.
    func stored(_ room: Room) throws -> RoomCheckpoint {
        let data = try JSONEncoder().encode(try #require(room.checkpoint))
        return try JSONDecoder().decode(RoomCheckpoint.self, from: data)
    }

    /// Ana hosts, Ben and Cleo play: quiz 1 solved by Ana, quiz 2 running with Ben's hint and a wrong guess of Cleo's.
    func roomInQuiz2() throws -> (RoomScript, ana: RoomPlayerID, ben: RoomPlayerID, cleo: RoomPlayerID) {
        var script = try RoomScript(quizCount: 3)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        let cleo = try script.join("Cleo")
        try script.act { try $0.start(by: ana, at: $1) }
        for quiz in 1...2 {
            for player in [ana, ben, cleo] { try script.act { try $0.loaded(player, quiz: quiz, at: $1) } }
            #expect(script.room.phase == .playing(quiz: quiz))
            if quiz == 1 {
                script.wait(.seconds(3))
                try script.act { try $0.guess(by: ana, quiz: 1, text: titles[0], at: $1) }
                script.runUntil(isLoading(2))
            }
        }
        script.wait(.seconds(3))
        try script.act { try $0.hint(by: ben, quiz: 2, at: $1) }
        try script.act { try $0.guess(by: cleo, quiz: 2, text: "Vertigo", at: $1) }
        return (script, ana, ben, cleo)
    }

    @Test func aRoomHandedOverMidQuizGoesOnAsIfNothingHappened() throws {
        var (kept, ana, ben, cleo) = try roomInQuiz2()
        let checkpoint = try stored(kept.room)
        let text = String(decoding: try JSONEncoder().encode(checkpoint), as: UTF8.self)
        for token in kept.tokens.values {
            #expect(!text.contains(token.value), "no resume token is in a checkpoint")
            #expect(text.contains(token.digest))
        }
        #expect(!text.contains(titles[1]), "nor an answer: the quizzes are the package's")

        // The new holder carries the room on 400 ms later; its players come back with their tokens.
        var moved = kept
        moved.now = kept.now + .milliseconds(400)
        moved.room = try Room(
            restoring: checkpoint, quizzes: quizzes(3), at: moved.now, replayingRunningQuiz: false)
        #expect(moved.room.phase == .playing(quiz: 2))
        #expect(moved.room.lobby.players.map(\.connected) == [false, false, false], "nobody is connected to the new holder")
        moved.at(moved.now)
        for player in [ana, ben, cleo] {
            let resumed = try moved.room.resume(token: moved.tokens[player]!, at: moved.now)
            #expect(resumed.player == player)
            moved.deliver(resumed.messages)
            let snapshot = snapshots(moved.take(player)).last
            if case .playing(let clock) = snapshot?.phase {
                #expect(clock.quiz == 2 && clock.stage == 2, "the quiz goes on on its own clock")
            } else {
                Issue.record("not playing after the hand-over: \(String(describing: snapshot?.phase))")
            }
            if player == ben { #expect(snapshot?.standing == .playing(hint: kept.room.quizzes[1].hint), "Ben's hint is his still") }
        }
        #expect(throws: RoomError.wrongResumeToken) {
            try moved.room.resume(token: ResumeToken(String(repeating: "ab", count: 16))!, at: moved.now)
        }

        // From here both rooms hear the same: Ben solves quiz 2 (with his hint), nobody solves quiz 3.
        func playToTheEnd(_ script: inout RoomScript) throws {
            try script.act { try $0.guess(by: ben, quiz: 2, text: titles[1], at: $1) }
            script.runUntil(isLoading(3))
            for player in [ana, ben, cleo] { try script.act { try $0.loaded(player, quiz: 3, at: $1) } }
            script.runUntil { if case .finished = $0 { true } else { false } }
            #expect(script.room.podium?.places.map(\.name) == ["Ana", "Ben", "Cleo"])
        }
        kept.at(moved.now)
        try playToTheEnd(&kept)
        try playToTheEnd(&moved)
        #expect(moved.room.podium == kept.room.podium, "the same podium, to the point and the share line")
        #expect(moved.room.podium?.places[1].results[2]?.hintsUsed == 1)
    }

    @Test func aRoomTakenOverAfterItsHolderDiedPlaysTheRunningQuizAgain() throws {
        var (script, ana, ben, cleo) = try roomInQuiz2()
        let checkpoint = try stored(script.room)
        script.now += .seconds(4)
        script.room = try Room(restoring: checkpoint, quizzes: quizzes(3), at: script.now, replayingRunningQuiz: true)
        guard case .loading(2, _) = script.room.phase else {
            Issue.record("quiz 2 is not loading again: \(script.room.phase)")
            return
        }
        #expect(script.room.scoreboard.map(\.played) == [1, 1, 1], "quiz 1's results are kept, quiz 2's are not")
        // Two come back; the quiz starts when they have its poster (Cleo is still away: it does not wait for her).
        for player in [ana, ben] {
            let resumed = try script.room.resume(token: script.tokens[player]!, at: script.now)
            script.deliver(resumed.messages)
        }
        for player in [ana, ben] { try script.act { try $0.loaded(player, quiz: 2, at: $1) } }
        #expect(script.room.phase == .playing(quiz: 2))
        #expect(script.room.revealedStages == 1, "the stage clock starts again")
        try script.act { try $0.guess(by: ben, quiz: 2, text: titles[1], at: $1) }
        #expect(judgements(script.take(ben)).last == .accepted(points: 260, stage: 1), "at stage 1 with no hint: full points (his hint went with the replayed quiz)")
        // Cleo resumes within the seat hold and plays on.
        script.wait(.seconds(1))
        let back = try script.room.resume(token: script.tokens[cleo]!, at: script.now)
        #expect(back.player == cleo)
    }

    @Test func aCheckpointOnOtherQuizzesIsRefused() throws {
        let (script, _, _, _) = try roomInQuiz2()
        let checkpoint = try stored(script.room)
        #expect(throws: RoomRestoreError.quizzesChanged) {
            try Room(restoring: checkpoint, quizzes: quizzes(2), at: script.now, replayingRunningQuiz: true)
        }
        var broken = checkpoint
        broken.phase = .interlude(after: 3, until: 0)
        #expect(throws: RoomRestoreError.invalidCheckpoint) {
            try Room(restoring: broken, quizzes: quizzes(3), at: script.now, replayingRunningQuiz: true)
        }
    }

    @Test func aRoomBetweenQuizzesShowsTheLastAnswerAfterTheHandOver() throws {
        var (script, ana, _, _) = try roomInQuiz2()
        script.runUntil { if case .interlude(after: 2, _) = $0 { true } else { false } }
        let before = try #require(script.room.snapshot(for: ana, at: script.now).lastQuiz)
        let checkpoint = try stored(script.room)
        var moved = try Room(restoring: checkpoint, quizzes: quizzes(3), at: script.now, replayingRunningQuiz: true)
        _ = try moved.resume(token: script.tokens[ana]!, at: script.now)
        let after = try moved.snapshot(for: ana, at: script.now)
        #expect(after.lastQuiz == before, "quiz 2's answer, who solved it and the scoreboard")
        #expect(after.scoreboard == script.room.scoreboard)
    }
}
