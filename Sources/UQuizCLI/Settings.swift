internal import Configuration
import Foundation
import MovieSearch
import PosterGrid
import QuizCore
import QuizStore
import UQuizStorage
import Synchronization
internal import SystemPackage

/// One source of configuration, named the way `uquiz config` reports it.
struct ConfigLayer: Sendable {
    var name: String
    var provider: any ConfigProvider
}

/// A setting uquiz reads, with its type and built-in default.
struct SettingKey: Sendable {
    enum Kind: Sendable { case string, int, double }
    var key: String
    var kind: Kind
    var defaultValue: String?
    var help: String
    /// Secrets are read only from their own environment variable and the user's config file, and never printed.
    var secretVariable: String?
    /// The values a number setting may take; `lookup` refuses anything else (and NaN and infinities) in one line.
    var range: ClosedRange<Double>?

    var isSecret: Bool { secretVariable != nil }
    /// A server's address, which may carry credentials (`user:password@`, a key parameter): shown redacted.
    var isURL: Bool { key.hasSuffix("Url") || key.hasSuffix(".url") }

    /// The environment variable that sets it (swift-configuration's encoding under the `uquiz` prefix).
    var environmentVariable: String {
        if let secretVariable { return secretVariable }
        return "UQUIZ_" + key.split(separator: ".").map { component in
            component.reduce(into: "") { result, character in
                if character.isUppercase, let last = result.last, last.isLowercase { result.append("_") }
                result.append(character)
            }.uppercased()
        }.joined(separator: "_")
    }
}

/// Every setting of this build. Defaults here match `Config/uquiz.json`; the file documents them for users.
enum SettingKeys {
    static let database = SettingKey(
        key: "db", kind: .string, defaultValue: nil,
        help: "database file (default $XDG_DATA_HOME/uquiz/uquiz.sqlite)")
    static let seed = SettingKey(
        key: "seed", kind: .string, defaultValue: nil, help: "seed bundle folder (default: found beside the binary)")
    static let web = SettingKey(
        key: "web", kind: .string, defaultValue: nil,
        help: "the web player's folder for uquiz serve (default: found beside the binary)")
    // Ranges: what a playable game and a working client can use, and small enough that every value converts to
    // milliseconds, bytes or cells without overflow. Grid sides are GridGeometry's own bound; a stage of up to an hour
    // and a quiz of up to a day are far beyond play; a timeout below 1 ms would be 0 ms, which libcurl takes as none.
    static let gridSides = Double(GridGeometry.sides.lowerBound)...Double(GridGeometry.sides.upperBound)
    static let gridColumns = SettingKey(
        key: "grid.columns", kind: .int, defaultValue: "50", help: "grid columns", range: gridSides)
    static let gridRows = SettingKey(key: "grid.rows", kind: .int, defaultValue: "75", help: "grid rows", range: gridSides)
    static let gridAreaSize = SettingKey(
        key: "grid.areaSize", kind: .int, defaultValue: "5", help: "side of an area's square block, in cells",
        range: gridSides)
    static let gridMargin = SettingKey(
        key: "grid.margin", kind: .int, defaultValue: "2", help: "cells kept free at the poster's edges",
        range: 0...gridSides.upperBound)
    static let timeLimit = SettingKey(
        key: "quiz.timeLimitSeconds", kind: .double, defaultValue: "20", help: "time limit of one quiz",
        range: 0.001...86_400)

    static func levelAreas(_ level: Level) -> SettingKey {
        SettingKey(
            key: "levels.\(level.rawValue).areas", kind: .int,
            defaultValue: "\(LevelRules.standard[level].areaCount)", help: "areas per quiz at \(level.rawValue)",
            range: 1...100)
    }

    static func levelStageSeconds(_ level: Level) -> SettingKey {
        SettingKey(
            key: "levels.\(level.rawValue).stageSeconds", kind: .double,
            defaultValue: Settings.format(seconds: LevelRules.standard[level].stageDuration),
            help: "seconds per stage at \(level.rawValue)", range: 0.001...3600)
    }

    static let maker = SettingKey(
        key: "maker", kind: .string, defaultValue: nil, help: "your name on packages you make (default: your user name)")
    static let player = SettingKey(
        key: "player", kind: .string, defaultValue: nil, help: "your name in the statistics (default: your user name)")
    static let language = SettingKey(
        key: "language", kind: .string, defaultValue: nil, help: "ko or en (default: from LANG)")
    static let tmdbAPIURL = SettingKey(
        key: "tmdb.apiUrl", kind: .string, defaultValue: TMDBSettings.defaultAPIURL, help: "TMDB-compatible API")
    static let tmdbImageURL = SettingKey(
        key: "tmdb.imageUrl", kind: .string, defaultValue: TMDBSettings.defaultImageURL, help: "TMDB image server")
    static let tmdbReadAccessToken = SettingKey(
        key: "tmdb.readAccessToken", kind: .string, defaultValue: nil, help: "TMDB v4 read access token",
        secretVariable: "TMDB_READ_ACCESS_TOKEN")
    static let tmdbAPIKey = SettingKey(
        key: "tmdb.apiKey", kind: .string, defaultValue: nil, help: "TMDB v3 API key", secretVariable: "TMDB_API_KEY")
    static let retryAttempts = SettingKey(
        key: "tmdb.retryAttempts", kind: .int, defaultValue: "3", help: "tries of a GET that failed with 429, 5xx or a reset",
        range: 1...100)
    static let retryBudget = SettingKey(
        key: "tmdb.retryBudgetSeconds", kind: .double, defaultValue: "10", help: "most time spent waiting to retry",
        range: 0...3600)
    static let retryBaseDelay = SettingKey(
        key: "tmdb.retryBaseDelaySeconds", kind: .double, defaultValue: "0.5", help: "first backoff, doubled each try",
        range: 0...600)
    static let timeout = SettingKey(
        key: "tmdb.timeoutSeconds", kind: .double, defaultValue: "20", help: "most time one request may take",
        range: 0.001...3600)
    static let posterPlayWidth = SettingKey(
        key: "posters.playWidth", kind: .int, defaultValue: "342", help: "poster width fetched for playing, in pixels",
        range: 1...2000)
    static let posterCacheMegabytes = SettingKey(
        key: "posters.cacheMegabytes", kind: .int, defaultValue: "200", help: "poster cache size before eviction",
        range: 1...1_048_576)
    static let serverURL = SettingKey(
        key: "server.url", kind: .string, defaultValue: nil,
        help: "the UQuiz server of login, publish, browse and solve --server (set by uquiz login)")
    static let serverToken = SettingKey(
        key: "server.token", kind: .string, defaultValue: nil, help: "your player's token on that server (set by uquiz login)",
        secretVariable: "UQUIZ_SERVER_TOKEN")
    static let logFormat = SettingKey(
        key: "serve.logFormat", kind: .string, defaultValue: "text",
        help: "how uquiz serve writes its log to standard error: text, or json (one object per line)")
    static let metricsToken = SettingKey(
        key: "serve.metricsToken", kind: .string, defaultValue: nil,
        help: "the bearer token uquiz serve's GET /metrics asks for (none: no /metrics)", secretVariable: "UQUIZ_METRICS_TOKEN")
    static let instanceSecret = SettingKey(
        key: "serve.instanceSecret", kind: .string, defaultValue: nil,
        help: "a secret every uquiz serve on one database shares: rooms' requests one forwards to another are signed with it",
        secretVariable: "UQUIZ_INSTANCE_SECRET")
    static let sound = SettingKey(
        key: "sound", kind: .string, defaultValue: "off",
        help: "on: the full-screen solve and room players ring the terminal's bell for right, wrong and time up")
    static let cacheDirectory = SettingKey(
        key: "cacheDir", kind: .string, defaultValue: nil, help: "cache folder (default $XDG_CACHE_HOME/uquiz)")

    static var all: [SettingKey] {
        [database, seed, web, gridColumns, gridRows, gridAreaSize, gridMargin]
            + Level.allCases.flatMap { [levelAreas($0), levelStageSeconds($0)] }
            + [timeLimit, maker, player, language, tmdbAPIURL, tmdbImageURL, tmdbReadAccessToken, tmdbAPIKey, retryAttempts, retryBudget,
                retryBaseDelay, timeout, posterPlayWidth, posterCacheMegabytes, cacheDirectory, serverURL, serverToken, logFormat, metricsToken, instanceSecret, sound]
    }
}

/// A configuration problem, said in one line with where it came from.
struct SettingsError: Error, LocalizedError {
    var message: String
    var errorDescription: String? { message }
}

/// The effective configuration: flags > environment (`UQUIZ_…`) > user file > `Config/uquiz.json` > built-in defaults.
package struct Settings: Sendable {
    let layers: [ConfigLayer]
    let environment: [String: String]
    package let executable: URL
    /// The path of the user's own config file, the only file a secret may come from.
    var userFileLayer: String { Self.userConfigPath(environment: environment) }
    /// Where a secret may come from, strongest first: its own environment variable, then the user's file. Built once
    /// with the layers, not at every secret's lookup.
    let secretLayers: [ConfigLayer]

    init(layers: [ConfigLayer], environment: [String: String], executable: URL) {
        self.layers = layers
        self.environment = environment
        self.executable = executable
        let userFile = Self.userConfigPath(environment: environment)
        secretLayers = [Self.secretVariablesLayer(environment: environment)] + layers.filter { $0.name == userFile }
    }

    /// Builds the layers once at start-up. A config file that exists but is not valid JSON is an error, not ignored.
    static func load(
        flags: [String: String], environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = Settings.currentExecutable()
    ) async throws -> Settings {
        var layers: [ConfigLayer] = []
        var flagValues: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, value) in flags { flagValues[AbsoluteConfigKey(ConfigKey(key))] = ConfigValue(.string(value), isSecret: false) }
        layers.append(ConfigLayer(name: "flag", provider: InMemoryProvider(name: "flags", values: flagValues)))
        let uquizEnvironment = environment.filter { $0.key.hasPrefix("UQUIZ_") }
        layers.append(
            ConfigLayer(
                name: "environment",
                provider: EnvironmentVariablesProvider(environmentVariables: uquizEnvironment).prefixKeys(with: "uquiz")
            ))
        let userFile = userConfigPath(environment: environment)
        if let provider = try await fileProvider(at: userFile, secrets: Set(SettingKeys.all.filter(\.isSecret).map(\.key))) {
            layers.append(ConfigLayer(name: userFile, provider: provider))
        }
        if let defaultsFile = defaultConfigPath(executable: executable),
            let provider = try await fileProvider(at: defaultsFile)
        {
            layers.append(ConfigLayer(name: defaultsFile, provider: provider))
        }
        layers.append(builtInLayer())
        return Settings(layers: layers, environment: environment, executable: executable)
    }

    /// The built-in defaults, typed like a JSON file's values: a provider refuses a string where an int is asked for.
    private static func builtInLayer() -> ConfigLayer {
        var builtIn: [AbsoluteConfigKey: ConfigValue] = [:]
        for setting in SettingKeys.all {
            guard let value = setting.defaultValue else { continue }
            let content: ConfigContent =
                switch setting.kind {
                case .string: .string(value)
                case .int: .int(Int(value)!)
                case .double: .double(Double(value)!)
                }
            builtIn[AbsoluteConfigKey(ConfigKey(setting.key))] = ConfigValue(content, isSecret: false)
        }
        return ConfigLayer(name: "built-in", provider: InMemoryProvider(name: "built-in", values: builtIn))
    }

    /// Every problem the config file at `path` would cause, read alone over the built-in defaults, each in the line
    /// any command would fail with: what `uquiz config --check` prints.
    static func problems(inFile path: String) async -> [String] {
        let settings: Settings
        do {
            guard let provider = try await fileProvider(at: path) else { return ["\(path) does not exist"] }
            settings = Settings(
                layers: [ConfigLayer(name: path, provider: provider), builtInLayer()], environment: ["HOME": "/nonexistent"],
                executable: URL(fileURLWithPath: "/nonexistent"))
        } catch {
            return [error.localizedDescription]
        }
        var problems: [String] = []
        func check(_ read: () throws -> Void) {
            do { try read() } catch { problems.append(error.localizedDescription) }
        }
        for setting in SettingKeys.all { check { _ = try settings.lookup(setting) } }
        guard problems.isEmpty else { return problems }
        // Each setting is good alone; these read them together (a grid whose areas do not fit, levels out of order).
        check { _ = try settings.gridGeometry() }
        check { _ = try settings.levelRules() }
        check { _ = try settings.makerName() }
        check { _ = try settings.playerName() }
        check { _ = try settings.language(flag: nil) }
        check { _ = try settings.retryPolicy() }
        check { _ = try settings.transportOptions() }
        return problems
    }

    /// The secrets' own variables (`TMDB_API_KEY`, `TMDB_READ_ACCESS_TOKEN`, `UQUIZ_SERVER_TOKEN`), read under their
    /// settings' keys: the key mapping turns `tmdb.apiKey` into the key the provider spells `TMDB_API_KEY`. Every
    /// value here is secret (swift-configuration redacts it wherever it reports one).
    static func secretVariablesLayer(environment: [String: String]) -> ConfigLayer {
        var variableOfKey: [AbsoluteConfigKey: String] = [:]
        var values: [String: String] = [:]
        for setting in SettingKeys.all {
            guard let variable = setting.secretVariable else { continue }
            variableOfKey[AbsoluteConfigKey(ConfigKey(setting.key))] = variable
            if let value = environment[variable], !value.isEmpty { values[variable] = value }
        }
        let variables = variableOfKey
        let provider = EnvironmentVariablesProvider(environmentVariables: values, secretsSpecifier: .all).mapKeys { key in
            variables[key].map { AbsoluteConfigKey($0.lowercased().split(separator: "_").map(String.init)) } ?? key
        }
        return ConfigLayer(name: "environment", provider: provider)
    }

    private static func fileProvider(at path: String, secrets: Set<String> = []) async throws -> (any ConfigProvider)? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try await FileProvider<JSONSnapshot>(
                parsingOptions: JSONSnapshot.ParsingOptions(secretsSpecifier: .specific(secrets)), filePath: FilePath(path))
        } catch {
            // Foundation's parser says where in its debug description; its localized text says only "not valid".
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String).map {
                " (" + $0.trimmingCharacters(in: CharacterSet(charactersIn: ".")).lowercased() + ")"
            } ?? ""
            throw SettingsError(message: "config file \(path) is not valid JSON\(detail); fix or remove it")
        }
    }

    static func currentExecutable() -> URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }

    static func userConfigPath(environment: [String: String]) -> String {
        xdgDirectory("XDG_CONFIG_HOME", fallback: ".config", environment: environment) + "/uquiz/config.json"
    }

    /// `Config/uquiz.json` of the checkout, or `share/uquiz/config/uquiz.json` under an install prefix.
    static func defaultConfigPath(executable: URL) -> String? {
        let bin = executable.deletingLastPathComponent()
        var candidates = [bin.deletingLastPathComponent().appendingPathComponent("share/uquiz/config/uquiz.json")]
        var folder = bin
        while folder.path != "/" && !folder.path.isEmpty {
            candidates.append(folder.appendingPathComponent("Config/uquiz.json"))
            folder.deleteLastPathComponent()
        }
        return candidates.map(\.path).first { FileManager.default.fileExists(atPath: $0) }
    }

    static func xdgDirectory(_ variable: String, fallback: String, environment: [String: String]) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/" + fallback
    }

    // MARK: - Reading values

    /// The value of `setting` as text and the layer it came from; `nil` when no layer sets it. Read through a
    /// `ConfigReader` over the layers (a secret: over `secretLayers` only); which layer answered, or refused the value,
    /// is the last provider the reader asked, as its access report lists them in order.
    func lookup(_ setting: SettingKey) throws -> (value: String, source: String)? {
        let layers = setting.isSecret ? secretLayers : self.layers
        let lastRead = LastRead()
        let reader = ConfigReader(providers: layers.map(\.provider), accessReporter: lastRead)
        let key = ConfigKey(setting.key)
        let text: String
        do {
            switch setting.kind {
            case .string: text = try reader.requiredString(forKey: key, isSecret: setting.isSecret)
            case .int: text = String(try reader.requiredInt(forKey: key))
            case .double: text = Self.format(try reader.requiredDouble(forKey: key))
            }
        } catch {
            guard let answered = lastRead.event?.providerResults.last, let index = lastRead.answeringIndex else { return nil }
            let described = Self.describe(setting, in: layers[index])
            // Text where a number belongs (an environment variable is always text) is quoted; a file's value of
            // another JSON type is not.
            if case .success(let found) = answered.result, case .string(let given)? = found.value?.content {
                throw SettingsError(message: "\(described) must be \(Self.expected(setting.kind)), not \"\(SafeText.clean(given))\"")
            }
            throw SettingsError(message: "\(described) must be \(Self.expected(setting.kind))")
        }
        let layer = layers[lastRead.answeringIndex!]
        // The one check of every number setting: finite and in its range, so nothing later traps converting it.
        if let range = setting.range, !(Double(text).map { $0.isFinite && range.contains($0) } ?? false) {
            throw SettingsError(
                message: "\(Self.describe(setting, in: layer)) must be \(Self.expected(setting.kind)) from "
                    + "\(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), not \(SafeText.clean(text))")
        }
        return (text, layer.name)
    }

    /// The last access a `ConfigReader` reported, and the position of the provider that answered it: `nil` when no
    /// provider had a value.
    private final class LastRead: AccessReporter {
        private let last = Mutex<AccessEvent?>(nil)

        var event: AccessEvent? { last.withLock { $0 } }

        var answeringIndex: Int? {
            guard let results = event?.providerResults, let answer = results.last else { return nil }
            if case .success(let found) = answer.result, found.value == nil { return nil }
            return results.count - 1
        }

        func report(_ event: AccessEvent) { last.withLock { $0 = event } }
    }

    private static func describe(_ setting: SettingKey, in layer: ConfigLayer) -> String {
        switch layer.name {
        case "environment": "\(setting.environmentVariable)"
        case "flag", "built-in": "\(setting.key) (\(layer.name))"
        default: "\(setting.key) in \(layer.name)"
        }
    }

    private static func expected(_ kind: SettingKey.Kind) -> String {
        switch kind {
        case .string: "text"
        case .int: "a whole number"
        case .double: "a number"
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static func format(seconds: Duration) -> String {
        format(Double(seconds.components.seconds) + Double(seconds.components.attoseconds) / 1e18)
    }

    private func int(_ setting: SettingKey) throws -> Int { Int(try lookup(setting)!.value)! }
    private func double(_ setting: SettingKey) throws -> Double { Double(try lookup(setting)!.value)! }

    // MARK: - Typed settings

    /// The database file: `--db`, else `UQUIZ_DB`, else the config files, else `$XDG_DATA_HOME/uquiz/uquiz.sqlite`.
    /// A PostgreSQL URL there is for `uquiz serve` alone (`serverDatabase()`): the other commands say so.
    func databasePath() throws -> String {
        if case .postgres = try serverDatabase() {
            throw CommandFailure(
                message: "the database setting names a PostgreSQL server, which only `uquiz serve` uses; the other commands work on a SQLite file: pass --db PATH")
        }
        return try sqlitePath()
    }

    private func sqlitePath() throws -> String {
        if let (path, _) = try lookup(SettingKeys.database), !path.isEmpty { return expandTilde(path) }
        return Self.xdgDirectory("XDG_DATA_HOME", fallback: ".local/share", environment: environment) + "/uquiz/uquiz.sqlite"
    }

    /// Whether the full-screen players ring the bell: `--sound`, else the `sound` setting (off by default).
    func sound(flag: Bool) throws -> Bool {
        if flag { return true }
        guard let (value, source) = try lookup(SettingKeys.sound) else { return false }
        switch value.lowercased() {
        case "on": return true
        case "off": return false
        default: throw CommandFailure(message: "sound \"\(value)\" (from \(source)) is not on or off")
        }
    }

    /// How `uquiz serve` logs: `--log-format`, else the `serve.logFormat` setting (text by default).
    package func logFormat(flag: LogFormat?) throws -> LogFormat {
        if let flag { return flag }
        guard let (value, source) = try lookup(SettingKeys.logFormat) else { return .text }
        guard let format = LogFormat(rawValue: value.lowercased()) else {
            throw CommandFailure(message: "serve.logFormat \"\(value)\" (from \(source)) is not text or json")
        }
        return format
    }

    /// The bearer token `GET /metrics` asks for; `nil` (the default) serves no metrics at all.
    package func metricsToken() throws -> String? {
        try lookup(SettingKeys.metricsToken)?.value.nonEmpty
    }

    package func instanceSecret() throws -> String? {
        try lookup(SettingKeys.instanceSecret)?.value.nonEmpty
    }

    /// Where `uquiz serve` keeps its data: a PostgreSQL server when the database setting is a `postgres://` or
    /// `postgresql://` URL (as given: it may hold a password, never printed), else the SQLite file of `databasePath()`.
    package func serverDatabase() throws -> ServerDatabaseLocation {
        if let (value, _) = try lookup(SettingKeys.database),
            ["postgres://", "postgresql://"].contains(where: { value.lowercased().hasPrefix($0) })
        {
            return .postgres(url: value)
        }
        return .sqlite(path: try sqlitePath())
    }

    package enum ServerDatabaseLocation {
        case sqlite(path: String)
        case postgres(url: String)
    }

    /// The web player's folder as named: `--web`, else the `web` setting (`UQUIZ_WEB`, config files); `nil` to look
    /// for it beside the binary.
    package func webFolder(flag: String?) throws -> String? {
        try (flag ?? lookup(SettingKeys.web)?.value.nonEmpty).map(expandTilde)
    }

    package func seedBundle(marker: String = SeedBundle.databaseFileName) throws -> SeedBundle {
        try SeedBundle.locate(
            override: try lookup(SettingKeys.seed)?.value.nonEmpty.map(expandTilde), executable: executable, marker: marker)
    }

    package func gridGeometry() throws -> GridGeometry {
        do {
            return try GridGeometry(
                columns: try int(SettingKeys.gridColumns), rows: try int(SettingKeys.gridRows),
                areaSize: try int(SettingKeys.gridAreaSize), margin: try int(SettingKeys.gridMargin))
        } catch let error as GridGeometryError {
            throw SettingsError(message: "configured grid is invalid: \(error)")
        }
    }

    package func levelRules() throws -> LevelRules {
        var rules = LevelRules.standard
        for level in Level.allCases {
            rules[level] = LevelRule(
                areaCount: try int(SettingKeys.levelAreas(level)),
                stageDuration: .milliseconds(Int((try double(SettingKeys.levelStageSeconds(level)) * 1000).rounded())))
        }
        rules.timeLimit = .milliseconds(Int((try double(SettingKeys.timeLimit) * 1000).rounded()))
        do {
            try rules.validate()
        } catch {
            throw SettingsError(message: "configured levels are invalid: \(error)")
        }
        return rules
    }

    /// `--language`, else `language` in the configuration, else Korean when `LANG` is Korean, else English.
    func language(flag: QuizLanguage?) throws -> QuizLanguage {
        if let flag { return flag }
        if let (value, source) = try lookup(SettingKeys.language) {
            guard let language = QuizLanguage(rawValue: value) else {
                throw SettingsError(message: "language \"\(value)\" from \(source) must be ko or en")
            }
            return language
        }
        return (environment["LC_ALL"] ?? environment["LANG"] ?? "").hasPrefix("ko") ? .ko : .en
    }

    func makerName() throws -> String {
        try name(SettingKeys.maker, what: "maker name")
    }

    /// `--player` when given, else the player setting, else the user name.
    func playerName(flag: String? = nil) throws -> String {
        if let flag { return try Self.checkedName(flag, from: "--player", what: "player name") }
        return try name(SettingKeys.player, what: "player name")
    }

    /// A name that will be stored and shown, held to the rule of every text (`PackageDocument.checkText`) here, where
    /// settings are read, so that the error names where it came from. `USER` is only a default: one that breaks the
    /// rule, or no user name at all, gives way to "anonymous".
    private func name(_ setting: SettingKey, what: String) throws -> String {
        if let (name, source) = try lookup(setting), !name.isEmpty {
            let place = source == "environment" ? setting.environmentVariable : "\(setting.key) in \(source)"
            return try Self.checkedName(name, from: place, what: what)
        }
        guard let user = environment["USER"].flatMap(\.nonEmpty) ?? Self.accountName(),
            (try? PackageDocument.checkText(user, path: "USER", name: what)) != nil
        else { return "anonymous" }
        return user
    }

    /// The login name of this process's user from the password database, for when `USER` is unset or empty (cron,
    /// containers).
    private static func accountName() -> String? {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name).nonEmpty
    }

    private static func checkedName(_ name: String, from place: String, what: String) throws -> String {
        do {
            try PackageDocument.checkText(name, path: place, name: what)
        } catch {
            throw SettingsError(message: error.description)
        }
        return name
    }

    func tmdbSettings() throws -> TMDBSettings {
        var credentials: TMDBSettings.Credentials?
        if let (token, _) = try lookup(SettingKeys.tmdbReadAccessToken) {
            credentials = .readAccessToken(token)
        } else if let (key, _) = try lookup(SettingKeys.tmdbAPIKey) {
            credentials = .apiKey(key)
        }
        return TMDBSettings(
            apiURL: try lookup(SettingKeys.tmdbAPIURL)?.value ?? TMDBSettings.defaultAPIURL,
            imageURL: try lookup(SettingKeys.tmdbImageURL)?.value ?? TMDBSettings.defaultImageURL,
            credentials: credentials)
    }

    func retryPolicy() throws -> RetryPolicy {
        let attempts = try int(SettingKeys.retryAttempts)
        let budget = try double(SettingKeys.retryBudget)
        let base = try double(SettingKeys.retryBaseDelay)
        return RetryPolicy(
            maxAttempts: attempts, totalBudget: .milliseconds(Int(budget * 1000)), baseDelay: .milliseconds(Int(base * 1000)),
            maxDelay: .milliseconds(Int(max(base * 8, 0) * 1000)))
    }

    func transportOptions() throws -> HTTPTransportOptions {
        let total = try double(SettingKeys.timeout)
        return HTTPTransportOptions(
            userAgent: "uquiz/\(UQuizCommand.version)", connectTimeout: min(5, total), totalTimeout: total)
    }

    func posterCache() throws -> PosterCache {
        let megabytes = try int(SettingKeys.posterCacheMegabytes)
        return PosterCache(directory: try cacheDirectory().appendingPathComponent("posters"), capBytes: megabytes << 20)
    }

    func posterPlayWidth() throws -> Int {
        try int(SettingKeys.posterPlayWidth)
    }

    func cacheDirectory() throws -> URL {
        if let (path, _) = try lookup(SettingKeys.cacheDirectory), !path.isEmpty {
            return URL(fileURLWithPath: expandTilde(path))
        }
        return URL(fileURLWithPath: Self.xdgDirectory("XDG_CACHE_HOME", fallback: ".cache", environment: environment) + "/uquiz")
    }

    func expandTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + path.dropFirst()
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
