import Foundation
import PosterArt
import Testing
import UQuizTestSupport

/// Issue 13, item 13, through the binary.
@Suite("A poster is cached only when it decodes")
struct PosterDecodeCommandTests {
    @Test func anUndecodablePosterInTheCacheIsDroppedAndFetchedAgain() throws {
        let server = try seedServer()
        let sandbox = try onlineSandbox(server)
        let first = try sandbox.run(["fetch-posters", "en-expert"])
        #expect(first.status == 0, "\(first.stderr)")
        let folder = sandbox.path("cache/uquiz/posters/w342")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.count == 5)
        // A body that starts like a JPEG and is not one, as a broken server or disk leaves it.
        for name in names {
            try Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 200)).write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
        }
        let second = try sandbox.run(["fetch-posters", "en-expert"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "5 posters (w342): 5 downloaded, 0 replaced, 0 already cached, 0 failed.\n", "\(second.stdout)")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))
            #expect((try? JPEG.decode(data)) != nil, "\(name) decodes")
        }
    }
}
