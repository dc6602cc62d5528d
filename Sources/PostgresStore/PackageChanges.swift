import Foundation
import Logging
internal import PostgresNIO
import QuizCore
import ServiceLifecycle
import UQuizStorage

/// Package changes across instances: the transaction that updates or deletes a package sends a notification on
/// `changeChannel`, which PostgreSQL delivers to every listening connection when (and only if) it commits; each
/// instance listens on a connection of its own and hands what it hears to its `packageChanges()` listeners.
extension PostgresQuizStore {
    static let changeChannel = "uquiz_packages"

    static func notifyChange(packageId: Int64, shareCode: ShareCode, in session: Session) async throws {
        try await session.execute(
            "SELECT pg_notify($1, $2)", [.text(changeChannel), .text("\(packageId) \(shareCode.value)")])
    }

    public func packageChanges() -> AsyncStream<PackageChange> { changes.listen() }

    /// Listens until cancelled or shut down gracefully, connecting again a second after any failure. Each time it
    /// starts listening it says `.unknown` first: what was sent while nobody listened is lost, so every cache starts
    /// afresh.
    func listenForChanges() async {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: url.connectionConfiguration, id: -1, logger: logger)
                do {
                    try await withTaskCancellationOrGracefulShutdownHandler {
                        try await connection.listen(on: Self.changeChannel) { notifications in
                            changes.publish(.unknown)
                            for try await notification in notifications {
                                if let change = Self.change(notification.payload) { changes.publish(change) }
                            }
                        }
                    } onCancelOrGracefulShutdown: {
                        // Ends the notifications' sequence, and with it the listening.
                        let closing: EventLoopFuture<Void> = connection.close()
                        _ = closing
                    }
                } catch {
                    logger.debug("package changes: listening ended (\(type(of: error)))")
                }
                // Closed here in every case: a connection must be closed before it goes.
                try? await connection.close()
            } catch {
                logger.debug("package changes: could not connect (\(type(of: error))); trying again")
            }
            try? await Task.sleep(for: .seconds(1))
        }
        changes.finish()
    }

    private static func change(_ payload: String) -> PackageChange? {
        let parts = payload.split(separator: " ")
        guard parts.count == 2, let id = Int64(parts[0]), let code = ShareCode(String(parts[1])) else { return nil }
        return .package(id: id, shareCode: code)
    }
}
