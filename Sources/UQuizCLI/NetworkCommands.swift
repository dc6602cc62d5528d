import Foundation
import RemoteClient
import ServerUseCases

#if canImport(Glibc)
    import Glibc
#endif

/// What `uquiz serve` and `uquiz room` run on, which the `uquiz` binary does not link: the HTTP server (Hummingbird,
/// SwiftNIO, postgres-nio) and the WebSocket client of live rooms. Linked into `uquiz` they made its static build
/// 207 MB instead of 121 MB and `uquiz list` 11.6 ms instead of 9.9 ms, so they live in a second binary beside it,
/// `uquiz-net`: the same commands, built with them. `uquiz` parses and checks a `serve` or `room` command line like
/// any other, then becomes `uquiz-net` with the same arguments (one process: same pid, streams, environment and exit
/// status).
package struct NetworkCommands: Sendable {
    package var serve: @Sendable (ServeCommand) async throws -> Void
    package var roomConnector: @Sendable () -> any RoomSocketConnector
    /// Runs `body` with the moderation desk of the server's database (`--db`: a SQLite file or a PostgreSQL URL), as
    /// `uquiz serve` opens it.
    package var moderate: @Sendable (StoreOptions, @escaping @Sendable (ModerationDesk) async throws -> Void) async throws -> Void

    package init(
        serve: @escaping @Sendable (ServeCommand) async throws -> Void,
        roomConnector: @escaping @Sendable () -> any RoomSocketConnector,
        moderate: @escaping @Sendable (StoreOptions, @escaping @Sendable (ModerationDesk) async throws -> Void) async throws -> Void
    ) {
        self.serve = serve
        self.roomConnector = roomConnector
        self.moderate = moderate
    }

    /// Set by `uquiz-net` around the whole run; `nil` in `uquiz`.
    @TaskLocal package static var linked: NetworkCommands?

    /// The name of the binary that links them, beside `uquiz`.
    package static let binaryName = "uquiz-net"

    /// This process's network commands. In `uquiz` the process becomes `uquiz-net` here and this never returns, unless
    /// `uquiz-net` cannot be started (then it throws one line saying so).
    static func here() throws -> NetworkCommands {
        if let linked { return linked }
        let binary = Settings.currentExecutable().deletingLastPathComponent().appendingPathComponent(binaryName).path
        let arguments = [binary] + CommandLine.arguments.dropFirst()
        var argv = arguments.map { strdup($0) }
        argv.append(nil)
        execv(binary, argv)
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        throw CommandFailure(
            message: "cannot start \(binary) (\(reason)): `uquiz serve`, `uquiz room` and `uquiz admin` run in it; build it with `swift build` or install it beside uquiz")
    }
}
