import Foundation
import PosterArt
import PosterGrid
import RemoteClient
import Testing

@testable import UQuizCLI
import UQuizWire

/// The room's screen computed from a session fed the server's messages, without a terminal or a server.
@Suite("The live room's screen, computed without a terminal")
struct RoomScreenTests {
    static let lobby = #"{"v":1,"type":"snapshot","code":"K7QF","you":1,"quizCount":2,"lobby":{"players":[{"player":1,"name":"Host","connected":true,"watching":false},{"player":2,"name":"Bob","connected":false,"watching":false}],"host":1},"phase":"lobby","scoreboard":[],"serverTime":1000}"#
    static let started = #"{"v":1,"type":"quizStarted","quiz":1,"stage":2,"stageCount":3,"nextStageInMs":3000,"endsInMs":15000,"serverTime":6000,"posterURL":"/v1/rooms/K7QF/quizzes/1/poster?stage=2"}"#
    static let ended = #"{"v":1,"type":"quizEnded","quiz":1,"quizCount":2,"answerTitle":"Metropolis","ending":"timeUp","solvers":[],"scoreboard":[{"rank":1,"player":2,"name":"Bob","score":250,"solved":1,"played":1,"left":false},{"rank":2,"player":1,"name":"Host","score":0,"solved":0,"played":1,"left":false}],"nextQuizInMs":8000,"serverTime":9500,"posterURL":"/v1/rooms/K7QF/quizzes/1/poster"}"#

    let raster: CellRaster = {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seed/posters/metropolis-1927.jpg")
        return CellRaster(image: try! JPEG.decode(try! Data(contentsOf: seed)), geometry: .standard)
    }()

    func session(_ messages: String...) throws -> RoomSession {
        var session = RoomSession(code: "K7QF", name: "Host", playerToken: "token")
        for message in messages { _ = session.receive(try RoomWire.decodeServer(message), at: .zero) }
        return session
    }

    func frame(_ session: RoomSession, poster: CellRaster? = nil, size: (rows: Int, columns: Int) = (45, 100)) -> PlayerFrame {
        RoomScreen.frame(
            session: session, now: .seconds(5), poster: poster, status: "", typed: "metro", server: "http://127.0.0.1:8080",
            size: size)
    }

    @Test func theLobbySaysHowToJoinWhoIsInAndWhatTheHostTypes() throws {
        let shown = frame(try session(Self.lobby))
        #expect(shown.header == " Room K7QF · lobby · 2 in")
        #expect(shown.notice.prefix(2) == ["Friends join with: uquiz room join K7QF --server http://127.0.0.1:8080", ""])
        #expect(shown.notice.contains("1. Host (host) ← you"))
        #expect(shown.notice.contains("2. Bob (connection lost)"))
        #expect(shown.notice.last == "Type /start when everyone is in.")
        #expect(shown.footer.contains("/start /skip /kick N /host N"), "the host's commands")
    }

    @Test func aRunningQuizShowsTheServersPosterWholeAndTheCountdown() throws {
        let shown = frame(try session(Self.lobby, Self.started), poster: raster)
        // 15 s left when the message came, 5 s ago.
        #expect(shown.header.hasPrefix(" Room K7QF · quiz 1/2 · stage 2/3 · 0 pts · 10.0 s "))
        let picture = try #require(shown.picture)
        #expect(picture.width == 50 && shown.input == "metro")
        let waiting = frame(try session(Self.lobby, Self.started))
        #expect(waiting.picture == nil && waiting.notice == ["The poster is on its way…"])
    }

    @Test func betweenQuizzesTheScoreboardAndTheWaitForTheNext() throws {
        let shown = frame(try session(Self.lobby, Self.started, Self.ended))
        #expect(shown.header == " Room K7QF · quiz 1/2 ended · next in 3 s")
        #expect(shown.notice == ["Scoreboard", "", "1. Bob 250 pts, 1/1 solved", "2. Host 0 pts, 0/1 solved (you)"])
    }

    @Test func aSmallTerminalIsToldSo() throws {
        let shown = frame(try session(Self.lobby), size: (8, 20))
        #expect(shown.header.hasPrefix("terminal too small"))
        #expect(shown.notice.isEmpty && shown.picture == nil)
    }
}
