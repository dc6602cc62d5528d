import ArgumentParser
import Configuration
import Foundation
import GRDB
import Logging

/// Parses no arguments and exits; it names a type from each library so the linker keeps them all, like `uquiz`.
@main
struct Noop: ParsableCommand {
    static let linked: [Any.Type] = [DatabaseQueue.self, ConfigReader.self, Logger.self, JSONEncoder.self]

    func run() {
        if Self.linked.isEmpty { print("unreachable") }
    }
}
