import ArgumentParser
import MovieSearch

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the effective configuration and where each value came from.",
        discussion: """
            Sources, strongest first: flags, environment variables (UQUIZ_...), the user file \
            $XDG_CONFIG_HOME/uquiz/config.json, the defaults file Config/uquiz.json, built-in defaults. Secrets are \
            never printed. --check FILE reads only that file (over the built-in defaults) and says every problem it \
            would cause, without using it: exit 0 when it has none.
            """
    )

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print JSON instead of a table.") var json = false
    @Option(name: .customLong("check"), help: ArgumentHelp("Check this config file instead.", valueName: "file"))
    var checkFile: String?

    struct Entry: Encodable {
        var key: String
        var value: String?
        var source: String
        var environmentVariable: String
    }

    func run() async throws {
        if let checkFile {
            let problems = await ConfigFileCheck.problems(inFile: checkFile)
            if problems.isEmpty { print("\(SafeText.clean(checkFile)): ok") }
            for problem in problems { print(SafeText.clean(problem)) }
            if !problems.isEmpty { throw ExitCode.failure }
            return
        }
        let context = try await AppContext.make(store)
        let settings = context.settings
        // Report a configured grid or level table that could not be played before listing the values.
        _ = try settings.gridGeometry()
        _ = try settings.levelRules()
        var entries: [Entry] = []
        for setting in SettingKeys.all {
            let found = try settings.lookup(setting)
            var value = found?.value
            if setting.isSecret, value != nil { value = "(set, hidden)" }
            if setting.isURL { value = value.map(Redaction.redact(url:)) }
            entries.append(
                Entry(key: setting.key, value: value, source: found?.source ?? "-", environmentVariable: setting.environmentVariable))
        }
        if let index = entries.firstIndex(where: { $0.key == SettingKeys.database.key }), entries[index].value == nil {
            entries[index].value = try settings.databasePath()
            entries[index].source = "XDG default"
        }
        if json {
            print(try JSONOutput.string(entries))
            return
        }
        let table = TextTable(
            headers: ["KEY", "VALUE", "SOURCE", "ENVIRONMENT"],
            rows: entries.map { [$0.key, $0.value ?? "(not set)", $0.source, $0.environmentVariable] })
        print(table.render(terminal: context.terminal))
    }
}

/// A config file's problems, as `uquiz config --check` finds them; public for the settings fuzzer in `.ci/fuzz`.
public enum ConfigFileCheck {
    public static func problems(inFile path: String) async -> [String] {
        await Settings.problems(inFile: path)
    }
}
