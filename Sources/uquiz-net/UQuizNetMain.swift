import RoomSocket
import UQuizCLI

/// `uquiz-net`: the `uquiz` commands with the server and the live-room client linked in. `uquiz serve` and
/// `uquiz room` become this binary (see `NetworkCommands`); every other command runs here as it does in `uquiz`.
@main
enum UQuizNetMain {
    static func main() async {
        await UQuizCommand.runMain(
            network: NetworkCommands(
                serve: { try await $0.serve() }, roomConnector: { WebSocketRoomConnector() },
                moderate: { options, body in try await moderate(options, body) }))
    }
}
