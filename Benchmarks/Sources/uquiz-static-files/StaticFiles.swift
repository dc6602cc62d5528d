// The baseline for the cached stage poster over HTTP (issue 14): `uquiz serve` has no static-file route, so this serves
// a folder with the same framework (Hummingbird 2, its FileMiddleware), built the same way, on 127.0.0.1. Benchmarks/
// server.sh puts a file of the poster's exact byte size in it and runs the same wrk load against both.
// Usage: uquiz-static-files FOLDER; prints `listening on http://127.0.0.1:PORT` once bound (any free port).

import Foundation
import Hummingbird
import Logging

@main
struct StaticFiles {
    static func main() async throws {
        guard CommandLine.arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: uquiz-static-files FOLDER\n".utf8))
            exit(2)
        }
        var logger = Logger(label: "uquiz-static-files")
        // uquiz serve logs every request at info; nothing here is logged per request, as a plain static server would.
        logger.logLevel = .warning
        let router = Router()
        router.add(middleware: FileMiddleware(CommandLine.arguments[1], logger: logger))
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in
                // Straight to the file descriptor: whoever waits for the line reads a pipe.
                FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(channel.localAddress?.port ?? 0)\n".utf8))
            },
            logger: logger)
        try await app.runService()
    }
}
