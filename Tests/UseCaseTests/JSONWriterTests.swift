import Foundation
import PosterGrid
import QuizCore
import Testing
import UQuizStorage
import UQuizWire

/// The hand-written JSON of a play's state and the answers that carry it reads as their `Codable` form does, on
/// generated plays: every quiz status, absent and present optionals, results, Unicode and control characters in titles.
@Suite struct JSONWriterTests {
    typealias SplitMix = AreaLayout.SeededGenerator

    static let texts = [
        "", "Metropolis", "스즈메의 문단속", "Amélie", "Crouching \"Tiger\"", "back\\slash", "a/b", "tab\there",
        "line\nbreak", "\u{0}\u{1}\u{1F}\u{7F}", "🎬 Ponyo", "e\u{301}", "\r\u{8}\u{C}",
    ]

    /// A play's state as its JSON would be sent, with some of every optional left out.
    static func playObject(_ random: inout SplitMix) -> [String: Any] {
        func maybe(_ value: @autoclosure () -> Any) -> Any? { Bool.random(using: &random) ? value() : nil }
        let text = { (random: inout SplitMix) in texts.randomElement(using: &random)! }
        let quizzes: [[String: Any]] = (0..<Int.random(in: 0...6, using: &random)).map { index in
            var quiz: [String: Any] = [
                "number": index + 1, "status": ["upcoming", "playing", "solved", "missed", "skipped"].randomElement(using: &random)!,
                "stageCount": Int.random(in: 1...7, using: &random), "stage": Int.random(in: 0...7, using: &random),
            ]
            quiz["startsInMs"] = maybe(Int.random(in: -100_000...100_000, using: &random))
            quiz["stagesInMs"] = maybe((0..<Int.random(in: 0...5, using: &random)).map { _ in Int.random(in: -9_999...99_999, using: &random) })
            quiz["endsInMs"] = maybe(Int.random(in: Int.min / 2...Int.max / 2, using: &random))
            quiz["hint"] = maybe(text(&random))
            quiz["result"] = maybe([
                "outcome": ["solved", "missed", "skipped"].randomElement(using: &random)!,
                "seconds": [0, 7.2, 20, 0.001, 13.337, 1e-7, 123_456.75].randomElement(using: &random)!,
                "stageReached": Int.random(in: 1...7, using: &random), "hintsUsed": Int.random(in: 0...1, using: &random),
                "score": Int.random(in: 0...100, using: &random),
            ] as [String: Any])
            var answer: [String: Any] = ["title": text(&random)]
            answer["year"] = maybe(String(Int.random(in: 1895...2030, using: &random)))
            quiz["answer"] = maybe(answer)
            return quiz
        }
        var play: [String: Any] = [
            "id": text(&random), "shareCode": "FE7NWW", "packageTitle": text(&random), "finished": Bool.random(using: &random),
            "score": Int.random(in: 0...2_500, using: &random), "quizzes": quizzes,
        ]
        play["daily"] = maybe(Int.random(in: 1...1_000, using: &random))
        play["ranked"] = maybe(Bool.random(using: &random))
        play["unrankedReason"] = maybe(["maker", "answer_seen_in_play", "answer_seen_in_room"].randomElement(using: &random)!)
        play["currentQuiz"] = maybe(Int.random(in: 1...6, using: &random))
        play["shareLine"] = maybe(text(&random))
        return play
    }

    /// Both forms, read back as JSON values.
    func bothForms(_ value: some JSONWritable & Encodable) throws -> (written: NSDictionary, encoded: NSDictionary) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let written = try #require(try JSONSerialization.jsonObject(with: Data(JSONWriter.write(value))) as? NSDictionary)
        let encoded = try #require(try JSONSerialization.jsonObject(with: encoder.encode(value)) as? NSDictionary)
        return (written, encoded)
    }

    @Test func aPlaysStateAndTheAnswersCarryingItReadAsTheirCodableForms() throws {
        var random = SplitMix(seed: 35_39)
        for _ in 0..<400 {
            let object = Self.playObject(&random)
            let play = try JSONDecoder().decode(ServerAPI.PlayState.self, from: JSONSerialization.data(withJSONObject: object))
            let state = try bothForms(play)
            #expect(state.written == state.encoded, "\(object)")
            // A guess's answer: the play's totals and some of its quizzes, with the whole play or without.
            var change = object.filter { !["id", "shareCode", "packageTitle", "daily"].contains($0.key) }
            change["judgement"] = "another_movie"
            if Bool.random(using: &random) { change["play"] = Self.playObject(&random) }
            let answer = try JSONDecoder().decode(ServerAPI.GuessAnswer.self, from: JSONSerialization.data(withJSONObject: change))
            let guess = try bothForms(answer)
            #expect(guess.written == guess.encoded, "\(change)")
            let hint = try bothForms(ServerAPI.HintAnswer(hint: Self.texts.randomElement(using: &random)!, play: play))
            #expect(hint.written == hint.encoded)
        }
    }

    /// A room's quiz end and podium, written by hand for a large room's thousands of players, read as their `Codable`
    /// forms do and decode to the messages they were made from; each player's text of a large room's board, made from
    /// the shared text with their own lines set in, is the text of their trimmed message.
    @Test func aRoomsQuizEndAndPodiumReadAsTheirCodableForms() throws {
        var random = SplitMix(seed: 40)
        func text() -> String { Self.texts.randomElement(using: &random)! }
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
        for _ in 0..<300 {
            let scores = (0..<Int.random(in: 0...30, using: &random)).map { _ in
                RoomWire.Score(
                    rank: Int.random(in: 1...2_000, using: &random), player: Int.random(in: 1...5_000, using: &random),
                    name: text(), score: Int.random(in: 0...10_000, using: &random), solved: Int.random(in: 0...25, using: &random),
                    played: Int.random(in: 0...25, using: &random), left: Bool.random(using: &random))
            }
            let teams = (0..<Int.random(in: 0...6, using: &random)).map { team in
                RoomWire.TeamScore(
                    rank: Int.random(in: 1...6, using: &random), team: team + 1, score: Int.random(in: 0...9_999, using: &random),
                    players: (0..<Int.random(in: 0...5, using: &random)).map { _ in Int.random(in: 1...5_000, using: &random) })
            }
            let ended = RoomWire.QuizEnded(
                quiz: Int.random(in: 1...25, using: &random), quizCount: 25, answerTitle: text(), answerYear: maybe("1927"),
                ending: ["everyoneSolved", "timeUp", "skipped"].randomElement(using: &random)!,
                solvers: (0..<Int.random(in: 0...30, using: &random)).map { _ in
                    RoomWire.Solver(
                        player: Int.random(in: 1...40, using: &random), name: text(), points: Int.random(in: 0...1_000, using: &random),
                        stage: Int.random(in: 1...7, using: &random),
                        seconds: [0, 7.2, 20, 0.001, 13.337, 1e-7, 123_456.75].randomElement(using: &random)!)
                },
                scoreboard: scores, teamScoreboard: maybe(teams), nextQuizInMs: maybe(Int.random(in: 0...60_000, using: &random)),
                serverTime: Int.random(in: 0...Int.max / 2, using: &random), posterURL: "/v1/rooms/AB12/quizzes/3/poster")
            var withCount = ended
            withCount.solverCount = maybe(Int.random(in: 0...2_000, using: &random))
            let podium = RoomWire.Podium(
                places: scores.map {
                    RoomWire.Place(rank: $0.rank, player: $0.player, name: $0.name, score: $0.score, left: $0.left, shareLine: maybe(text()))
                },
                teams: maybe(teams))
            for message in [RoomWire.ServerMessage.quizEnded(withCount), .podium(podium)] {
                let written = RoomWire.encode(message)
                let coded = RoomWire.encodedByCoder(message)
                let read = { (text: String) in try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary }
                #expect(try read(written) == read(coded), "\(written)")
                #expect(try RoomWire.decodeServer(Data(written.utf8)) == message)
                // A large room's text for each player (and one who has no line) is that player's trimmed message.
                let board = try #require(RoomWire.LargeRoomBoard(message))
                #expect(board.shared == RoomWire.encode(RoomWire.forLargeRoom(message, player: nil)))
                for player in 1...41 {
                    #expect(board.text(for: player) == RoomWire.encode(RoomWire.forLargeRoom(message, player: player)))
                }
            }
        }
    }

    /// Bytes for bytes where `JSONEncoder`'s choices are plain: keys sorted, nothing absent written, `/` kept.
    @Test func theWrittenBytesAreTheEncodersForPlainValues() throws {
        let object: [String: Any] = [
            "id": "p/1", "shareCode": "FE7NWW", "packageTitle": "Silent \"classics\"\n", "finished": true, "score": 92,
            "ranked": false, "quizzes": [[
                "number": 1, "status": "solved", "stageCount": 5, "stage": 4, "hint": "M_________",
                "result": ["outcome": "solved", "seconds": 7.25, "stageReached": 4, "hintsUsed": 1, "score": 92],
                "answer": ["title": "메트로폴리스", "year": "1927"],
            ]],
        ]
        let play = try JSONDecoder().decode(ServerAPI.PlayState.self, from: JSONSerialization.data(withJSONObject: object))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: JSONWriter.write(play), as: UTF8.self) == String(decoding: try encoder.encode(play), as: UTF8.self))
    }

    /// A guess's or a hint's body read by hand reads as `JSONDecoder` reads it, on generated bodies (plain ones, ones
    /// with members more or twice, numbers and strings in every JSON spelling, broken bytes); the plain form clients
    /// send is read by hand.
    @Test func aRequestBodyReadByHandReadsAsTheDecoderReadsIt() throws {
        let keys = ["\"quiz\"", "\"text\"", "\"qu\\u0069z\"", "\"score\"", "\"Quiz\""]
        let values = [
            "1", "0", "-0", "01", "1.0", "1e2", "-5", "25", "9223372036854775807", "9223372036854775808", "1.5", "null",
            "true", "[]", "{}", "\"Cats\"", "\"\"", "\"Am\\u00e9lie\"", "\"\\ud83c\\udfac\"", "\"\\udc00\"",
            "\"\\ud800x\"", "\"tab\there\"", "\"a\\/b\\\"c\\n\"", "\"스즈메\"", "\"\\x\"", "+1", "-", "\"\\u00\"",
        ]
        let spaces = ["", " ", "\n\t", "\r\n "]
        var random = SplitMix(seed: 39_39)
        let decoder = JSONDecoder()
        var plainlyRead = 0
        for _ in 0..<20_000 {
            let space = { (random: inout SplitMix) in spaces.randomElement(using: &random)! }
            let member = { (random: inout SplitMix, key: String, value: String) in
                space(&random) + key + space(&random) + ":" + space(&random) + value + space(&random)
            }
            var members = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                member(&random, keys.randomElement(using: &random)!, values.randomElement(using: &random)!)
            }
            if Bool.random(using: &random) {
                // Near the plain form: a quiz number and a text in some spelling.
                members = [
                    member(&random, keys[0], values[..<11].randomElement(using: &random)!),
                    member(&random, keys[1], values[15...].randomElement(using: &random)!),
                ].shuffled(using: &random)
            }
            var bytes = Array(("{" + members.joined(separator: ",") + "}").utf8)
            switch Int.random(in: 0..<8, using: &random) {
            case 0 where !bytes.isEmpty: bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
            case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...bytes.count, using: &random))
            case 2: bytes = Array(" [".utf8) + bytes
            default: break
            }
            let guess = ServerAPI.GuessRequest.readPlainJSON(bytes)
            if let guess {
                plainlyRead += 1
                #expect((try? decoder.decode(ServerAPI.GuessRequest.self, from: Data(bytes))) == guess, "\(String(decoding: bytes, as: UTF8.self))")
            }
            if let quiz = ServerAPI.QuizRequest.readPlainJSON(bytes) {
                #expect((try? decoder.decode(ServerAPI.QuizRequest.self, from: Data(bytes))) == quiz, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(plainlyRead > 100, "plain bodies are read by hand")
        #expect(ServerAPI.GuessRequest.readPlainJSON(Array(#"{"quiz": 2, "text": "Am\u00e9lie \"2\""}"#.utf8))
            == ServerAPI.GuessRequest(quiz: 2, text: "Amélie \"2\""))
        #expect(ServerAPI.GuessRequest.readPlainJSON(Array(#"{"quiz": 2, "text": "x", "score": 9}"#.utf8)) == nil)
    }

    /// The stored open play, written and read by hand, is the record its `Codable` form writes and reads, both ways:
    /// generated records with every action kind, absent and present optionals, Unicode and control characters.
    @Test func anOpenPlayIsStoredAndReadAsItsCodableForm() throws {
        var random = SplitMix(seed: 39)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        for _ in 0..<400 {
            let events = (0..<Int.random(in: 0...30, using: &random)).map { _ in
                let kind = [PlayerAction.Kind.guess, .hint, .skip].randomElement(using: &random)!
                return PlayerAction(
                    kind: kind, quiz: Int.random(in: 1...25, using: &random),
                    text: kind == .guess ? Self.texts.randomElement(using: &random)! : nil,
                    atMicros: Int64.random(in: 0...Int64(1) << 50, using: &random))
            }
            let daily = Bool.random(using: &random)
            let record = OpenPlayRecord(
                id: Self.texts.randomElement(using: &random)!, playerId: Int64.random(in: 1...Int64.max, using: &random),
                playerName: Self.texts.randomElement(using: &random)!, packageId: Int64.random(in: 1...1 << 40, using: &random),
                quizIds: (0..<Int.random(in: 1...25, using: &random)).map { _ in Int64.random(in: 1...1 << 40, using: &random) },
                dailyDay: daily ? "2026-11-27" : nil, dailyNumber: daily ? Int.random(in: 1...999, using: &random) : nil,
                startedAt: Date(timeIntervalSince1970: Double(Int.random(in: 1_700_000_000_000...1_900_000_000_000, using: &random)) / 1000
                    + [0, 0.0001, 0.000_000_3].randomElement(using: &random)!),
                startMicros: Int64.random(in: -1 << 40...1 << 50, using: &random),
                endsByMicros: Int64.random(in: 0...1 << 50, using: &random), events: events)
            // Milliseconds in a Double do not hold every Date: what the Codable form reads back is the record.
            let encoded = String(decoding: try encoder.encode(record), as: UTF8.self)
            let expected = try decoder.decode(OpenPlayRecord.self, from: Data(encoded.utf8))
            #expect(abs(expected.startedAt.timeIntervalSince(record.startedAt)) < 0.000_001)
            let written = try record.storedJSON()
            #expect(try decoder.decode(OpenPlayRecord.self, from: Data(written.utf8)) == expected, "\(written)")
            #expect(try OpenPlayRecord(storedJSON: encoded) == expected, "\(encoded)")
            #expect(try OpenPlayRecord(storedJSON: written) == expected)
        }
    }

    /// What is not an open play's JSON is a problem, never a record made up.
    @Test func aDamagedStoredPlayIsAProblem() throws {
        let good = try OpenPlayRecord(
            id: "p", playerId: 1, playerName: "Ann", packageId: 2, quizIds: [3], dailyDay: nil, dailyNumber: nil,
            startedAt: Date(timeIntervalSince1970: 1_800_000_000), startMicros: 5, endsByMicros: 9,
            events: [PlayerAction(kind: .guess, quiz: 1, text: "x", atMicros: 6)]
        ).storedJSON()
        for damaged in [
            "", "{", String(good.dropLast()), good + "x", good.replacingOccurrences(of: "\"guess\"", with: "\"shout\""),
            good.replacingOccurrences(of: "\"playerId\":1", with: "\"playerId\":1.5"),
            good.replacingOccurrences(of: "\"packageId\":2,", with: ""),
            good.replacingOccurrences(of: "\"Ann\"", with: "\"A\u{1}nn\""),
            good.replacingOccurrences(of: "\"playerId\":1", with: "\"playerId\":99999999999999999999"),
        ] {
            #expect(throws: (any Error).self, "\(damaged)") { try OpenPlayRecord(storedJSON: damaged) }
        }
        #expect(try OpenPlayRecord(storedJSON: " " + good + "\n").id == "p", "white space around it is JSON")
        let extra = good.replacingOccurrences(of: "{\"id\"", with: "{\"later\":[1,{\"a\":null}],\"id\"")
        #expect(try OpenPlayRecord(storedJSON: extra).id == "p", "a member it does not know is skipped")
    }
}
