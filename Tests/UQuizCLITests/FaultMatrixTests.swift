import Foundation
import GRDB
import Testing
import UQuizTestSupport

/// Every HTTP fault against every command that goes online, through the real binary and a real fake-tmdb: one clear
/// line, the documented exit code, the database unchanged when the command fails, and a retry where the rules say so.
/// `solve` plays on a pseudo-terminal a quiz whose poster is not cached: the fault costs the poster, not the game.
@Suite("Reliability: faults through the whole CLI")
struct FaultMatrixTests {
    struct Fault {
        var name: String
        /// fake-tmdb fault keys after the path, or nil for a server that is not there.
        var keys: String?
        /// For a server that is not there: a host no resolver knows, or (nil) a local port nobody listens on.
        var host: String? = nil
        /// Whether the rules retry it (3 tries).
        var retried: Bool
        /// Whether a search falls back to the catalog on it.
        var searchFallsBack: Bool
    }

    static let faults: [Fault] = [
        Fault(name: "401", keys: "status=401", retried: false, searchFallsBack: false),
        Fault(name: "404", keys: "status=404", retried: false, searchFallsBack: false),
        Fault(name: "429 with Retry-After", keys: "status=429;retry-after=0", retried: true, searchFallsBack: true),
        Fault(name: "429 without Retry-After", keys: "status=429", retried: true, searchFallsBack: true),
        Fault(name: "500", keys: "status=500", retried: true, searchFallsBack: true),
        Fault(name: "502", keys: "status=502", retried: true, searchFallsBack: true),
        Fault(name: "503", keys: "status=503", retried: true, searchFallsBack: true),
        Fault(name: "timeout", keys: "delay-ms=2000", retried: true, searchFallsBack: true),
        Fault(name: "slow drip", keys: "drip-ms=1;status=200", retried: false, searchFallsBack: false),
        Fault(name: "truncated body", keys: "truncate", retried: true, searchFallsBack: true),
        Fault(name: "closed connection", keys: "close", retried: true, searchFallsBack: true),
        Fault(name: "malformed JSON", keys: "malformed", retried: false, searchFallsBack: false),
        Fault(name: "wrong content type", keys: "content-type=text/html;status=200", retried: false, searchFallsBack: false),
        Fault(name: "oversized body", keys: "huge=6000000", retried: false, searchFallsBack: true),
        Fault(name: "connection refused", keys: nil, retried: false, searchFallsBack: true),
        Fault(name: "DNS failure", keys: nil, host: "no-such-host.invalid", retried: false, searchFallsBack: true),
    ]

    struct Command {
        var name: String
        var arguments: [String]
        /// The path prefix the fault applies to.
        var path: String
    }

    static let commands: [Command] = [
        Command(name: "search", arguments: ["search", "toy", "--json"], path: "/3/search"),
        Command(name: "posters", arguments: ["posters", "27205"], path: "/3/movie"),
        Command(name: "create", arguments: ["create", "--title", "t", "--level", "expert", "--quiz", "movie=863 areas=30:25"], path: "/3/movie"),
        Command(name: "fetch-posters", arguments: ["fetch-posters", "en-beginner"], path: "/t/p/"),
        Command(name: "solve", arguments: ["solve", "en-expert", "--quiz", "1", "--time-scale", "0.5", "--player", "m"], path: "/t/p/"),
    ]

    /// Plays `arguments` on a pseudo-terminal: waits for the player to say the poster is missing, skips the quiz with
    /// Tab (and a key past the answer), and returns the status line as standard error and the whole screen as standard output.
    func playWithoutPoster(_ sandbox: Sandbox, _ arguments: [String]) throws -> RunResult {
        var environment = sandbox.environment
        environment["TERM"] = "xterm-256color"
        let session = try PseudoTerminalSession(binary: uquizBinary, arguments: arguments, environment: environment)
        session.resize(rows: 40, columns: 200)
        if session.waitFor("No poster: ") {
            session.type("\t")
            // The skipped quiz's answer stays on screen until a key.
            if session.waitFor("any key: ") { session.type(" ") }
        } else {
            session.interrupt()
        }
        let exit = session.waitForExit()
        let screen = session.transcript
        let status = screen.range(of: "No poster: ").map { String(screen[$0.lowerBound...].prefix { $0 != "\u{1B}" }) } ?? ""
        return RunResult(status: exit.status, stdout: screen, stderr: status.trimmingCharacters(in: .whitespaces) + "\n")
    }

    @Test func everyFaultAgainstEveryOnlineCommand() throws {
        var table = ["| command | fault | exit | requests | first line |", "|---|---|---|---|---|"]
        for command in Self.commands {
            for fault in Self.faults {
                let server: FakeServerProcess? = try fault.keys.map {
                    try FakeServerProcess(["--seed", repositoryRoot.appendingPathComponent("Seed/seed.json").path,
                                           "--fault", "\(command.path);\($0)"])
                }
                let sandbox = try Sandbox()
                let authority = fault.host ?? "127.0.0.1:\(server?.port ?? closedLocalPort())"
                sandbox.environment["UQUIZ_TMDB_API_URL"] = "http://\(authority)/3"
                sandbox.environment["UQUIZ_TMDB_IMAGE_URL"] = "http://\(authority)/t/p"
                sandbox.environment["TMDB_API_KEY"] = "matrix-key"
                sandbox.environment["UQUIZ_TMDB_TIMEOUT_SECONDS"] = "0.5"
                sandbox.environment["UQUIZ_TMDB_RETRY_BASE_DELAY_SECONDS"] = "0.01"
                sandbox.environment["XDG_CACHE_HOME"] = sandbox.path("cache")
                try sandbox.run(["list"])
                let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.defaultDatabase))
                let result = command.name == "solve"
                    ? try playWithoutPoster(sandbox, command.arguments) : try sandbox.run(command.arguments)
                let faulted = server?.requests.filter { $0.contains(" \(command.path)") }.count ?? 0
                let firstLine = result.stderrLines.first ?? ""
                let label = "\(command.name) × \(fault.name)"
                table.append("| \(command.name) | \(fault.name) | \(result.status) | \(faulted) | \(firstLine.prefix(90)) |")

                // The drip and content-type faults send a search-shaped JSON body: a fine answer to search and posters,
                // malformed movie details for create, and not a JPEG for fetch-posters.
                let passes = (fault.name == "slow drip" || fault.name == "wrong content type")
                    && (command.name == "search" || command.name == "posters")
                switch command.name {
                case "search":
                    let expected: Int32 = passes || fault.searchFallsBack ? 0 : 1
                    #expect(result.status == expected, "\(label): \(result.stderr)")
                    if fault.searchFallsBack {
                        #expect(result.stdout.contains("\"source\" : \"catalog\""), "\(label) answers from the catalog")
                    }
                case "fetch-posters":
                    // Posters are cached files, not database rows; with every image failing, the command fails.
                    #expect(result.status == 1, "\(label): \(result.stderr)")
                case "solve":
                    // The quiz is played without its poster: skipped, recorded, and the game ends normally.
                    #expect(result.status == 0, "\(label)")
                    #expect(result.stderr.hasPrefix("No poster: it could not be downloaded: "), "\(label): \(result.stderr)")
                    #expect(result.stdout.contains("0 of 1 solved"), "\(label)")
                    let (attempts, posterPath) = try DatabaseQueue(path: sandbox.defaultDatabase).read { db in
                        (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attempt"),
                         try String.fetchOne(db, sql: "SELECT posterPath FROM quiz WHERE packageId = (SELECT id FROM package WHERE seedId = 'en-expert') ORDER BY position LIMIT 1"))
                    }
                    #expect(attempts == 1, "\(label): the skipped quiz is recorded")
                    #expect(posterPath == "/x23Fqkt00uqV2TzfSiB60hrc3HY.jpg", "\(label): the quiz keeps its poster")
                default:
                    #expect(result.status == (passes ? 0 : 1), "\(label): \(result.stderr)")
                }
                if result.status != 0 {
                    #expect(result.stderrLines.filter { $0.hasPrefix("Error: ") }.count == 1, "\(label): one error line")
                    if command.name != "fetch-posters" && command.name != "solve" {
                        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.defaultDatabase)) == before, "\(label): nothing written")
                    }
                }
                if fault.keys != nil && fault.retried {
                    #expect(faulted >= 3, "\(label): retried (\(faulted) requests)")
                } else if fault.keys != nil && command.path != "/t/p/" {
                    #expect(faulted == 1, "\(label): not retried (\(faulted) requests)")
                }
                #expect(!(result.stdout + result.stderr).contains("matrix-key"), "\(label): the key never shows")
            }
        }
        // The table of cases and outcomes, for the test report.
        print(table.joined(separator: "\n"))
    }
}
