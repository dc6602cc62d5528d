import UQuizCLI

/// The executable only hands off: everything lives in UQuizCLI so that tests and other front ends reuse it.
@main
enum UQuizMain {
    static func main() async {
        await UQuizCommand.runMain()
    }
}
