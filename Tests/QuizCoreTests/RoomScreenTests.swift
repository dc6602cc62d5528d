import Foundation
import QuizCore
import Testing

/// A room's big screens: opened by the host (their pass, once), told what everyone is told and how many have answered,
/// never what anyone typed, and carried to another instance with the room.
@Suite("Room big screens")
struct RoomScreenTests {
    func roomInLobby() throws -> (RoomScript, ana: RoomPlayerID, ben: RoomPlayerID) {
        var script = try RoomScript(quizCount: 2)
        let ana = try script.join("Ana")
        let ben = try script.join("Ben")
        return (script, ana, ben)
    }

    @Test func theHostsPassOpensOneScreenOnce() throws {
        var (script, ana, ben) = try roomInLobby()
        #expect(throws: RoomError.notHost) { try script.room.issueScreenPass(by: ben, at: script.now, using: &script.generator) }
        let (pass, lifetime) = try script.room.issueScreenPass(by: ana, at: script.now, using: &script.generator)
        #expect(pass.count == 8 && pass.allSatisfy(\.isNumber))
        #expect(lifetime == 600_000)
        let token = try script.room.openScreen(pass: pass, at: script.now, using: &script.generator)
        #expect(script.room.isScreen(token))
        #expect(throws: RoomError.wrongScreenPass, "a pass opens one screen") {
            try script.room.openScreen(pass: pass, at: script.now, using: &script.generator)
        }
        let snapshot = try script.room.screenSnapshot(at: script.now)
        #expect(snapshot.you == nil && snapshot.standing == nil)
        #expect(snapshot.lobby.players.map(\.name) == ["Ana", "Ben"])
    }

    @Test func aPassLastsTenMinutesAndFiveWrongTries() throws {
        var (script, ana, _) = try roomInLobby()
        let (late, _) = try script.room.issueScreenPass(by: ana, at: script.now, using: &script.generator)
        script.wait(.seconds(600))
        #expect(throws: RoomError.wrongScreenPass) { try script.room.openScreen(pass: late, at: script.now, using: &script.generator) }

        let (pass, _) = try script.room.issueScreenPass(by: ana, at: script.now, using: &script.generator)
        let wrong = pass == "00000000" ? "11111111" : "00000000"
        for _ in 1...5 {
            #expect(throws: RoomError.wrongScreenPass) { try script.room.openScreen(pass: wrong, at: script.now, using: &script.generator) }
        }
        #expect(throws: RoomError.wrongScreenPass, "five wrong tries withdraw the pass") {
            try script.room.openScreen(pass: pass, at: script.now, using: &script.generator)
        }
        let (fresh, _) = try script.room.issueScreenPass(by: ana, at: script.now, using: &script.generator)
        _ = try script.room.openScreen(pass: fresh, at: script.now, using: &script.generator)
    }

    @Test func aFifthScreenTakesThePlaceOfTheFirst() throws {
        var (script, _, _) = try roomInLobby()
        let tokens = (1...5).map { _ in script.room.addScreen(at: script.now, using: &script.generator) }
        #expect(!script.room.isScreen(tokens[0]))
        #expect(tokens.dropFirst().allSatisfy(script.room.isScreen))
    }

    @Test func aRoomWithoutAScreenCountsNoAnswers() throws {
        var (script, ana, ben) = try roomInLobby()
        try script.act { try $0.start(by: ana, at: $1) }
        for player in [ana, ben] { try script.act { try $0.loaded(player, quiz: 1, at: $1) } }
        try script.act { try $0.guess(by: ben, quiz: 1, text: "Vertigo", at: $1) }
        try script.act { try $0.guess(by: ana, quiz: 1, text: "Inception", at: $1) }
        #expect(!script.screen.contains { if case .progress = $0 { true } else { false } })
        #expect(script.screen.contains(.solved(quiz: 1, player: ana, stage: 1)), "what everyone is told is still there")
    }

    /// The screen sees the stages, counts of who answered and solved, and who solved at which stage; no guess's text
    /// and no answer before the quiz ends.
    @Test func aScreenCountsAnswersAndNeverSeesWhatWasTyped() throws {
        var (script, ana, ben) = try roomInLobby()
        _ = script.room.addScreen(at: script.now, using: &script.generator)
        try script.act { try $0.start(by: ana, at: $1) }
        for player in [ana, ben] { try script.act { try $0.loaded(player, quiz: 1, at: $1) } }
        #expect(script.screen.contains(.progress(RoomProgress(quiz: 1, players: 2, answered: 0, solved: 0))))
        script.screen = []
        script.wait(.seconds(1))
        try script.act { try $0.guess(by: ben, quiz: 1, text: "Vertigo", at: $1) }
        try script.act { try $0.guess(by: ben, quiz: 1, text: "Casablanca", at: $1) }
        #expect(script.screen == [.progress(RoomProgress(quiz: 1, players: 2, answered: 1, solved: 0))],
                "a second wrong guess of the same player changes no count")
        let midQuiz = try script.room.screenSnapshot(at: script.now)
        #expect(midQuiz.progress == RoomProgress(quiz: 1, players: 2, answered: 1, solved: 0))
        #expect(!String(describing: midQuiz).contains("Inception") && !String(describing: midQuiz).contains("Vertigo"))
        script.screen = []
        try script.act { try $0.guess(by: ana, quiz: 1, text: "Inception", at: $1) }
        #expect(script.screen.first == .progress(RoomProgress(quiz: 1, players: 2, answered: 2, solved: 1)))
        #expect(script.screen.contains(.solved(quiz: 1, player: ana, stage: 1)))
        #expect(!script.screen.contains { if case .guessJudged = $0 { true } else { false } }, "verdicts are the guesser's")
        #expect(!String(describing: script.screen).contains("Vertigo"))
        script.runUntil(isLoading(2))
        guard case .quizEnded(let summary)? = script.screen.first(where: { if case .quizEnded = $0 { true } else { false } })
        else { Issue.record("the screen was not told the quiz ended"); return }
        #expect(summary.answerTitle == "Inception" && summary.solvers.map(\.player) == [ana])
    }

    @Test func screensAreCarriedOnWithTheRoom() throws {
        var (script, _, _) = try roomInLobby()
        let token = script.room.addScreen(at: script.now, using: &script.generator)
        let data = try JSONEncoder().encode(try #require(script.room.checkpoint))
        #expect(!String(decoding: data, as: UTF8.self).contains(token.value), "the checkpoint keeps digests, never tokens")
        let checkpoint = try JSONDecoder().decode(RoomCheckpoint.self, from: data)
        let restored = try Room(restoring: checkpoint, quizzes: quizzes(2), at: script.now, replayingRunningQuiz: false)
        #expect(restored.isScreen(token))
    }

    @Test func aCheckpointFromBeforeScreensIsRead() throws {
        let (script, _, _) = try roomInLobby()
        let checkpoint = try #require(script.room.checkpoint)
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(checkpoint)) as? [String: Any])
        object["screens"] = nil
        let old = try JSONDecoder().decode(RoomCheckpoint.self, from: JSONSerialization.data(withJSONObject: object))
        let restored = try Room(restoring: old, quizzes: quizzes(2), at: script.now, replayingRunningQuiz: false)
        #expect(restored.lobby.players.count == 2)
    }
}
