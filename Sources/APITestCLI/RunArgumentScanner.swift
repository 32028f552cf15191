import APITestHTTP
import ArgumentParser

/// Reads a plain `apitest run` command line into ``RunSettings`` without swift-argument-parser.
///
/// swift-argument-parser builds its view of a command by reflection on every parse, and the first parse in a
/// process instantiates the runtime metadata of every option type and scans the binary's ~6,000 protocol
/// conformance records dozens of times: about 3 ms of a 1 MiB upload's 14 (bench/README.md, "Start-up"). This
/// scanner knows `run`'s options by name and accepts only the forms whose meaning is unambiguous: `--name value`,
/// `--name=value`, `-j N`, `-v`, `-q`, flags, suite paths and `--`; values convert with the same
/// `init?(argument:)` swift-argument-parser calls. For anything else (help, version, an unknown
/// or repeated option, combined short flags, a value that starts with `-` or is empty, a value that does not
/// convert, a check that fails) it returns `nil`, and `apitest` parses with swift-argument-parser, which then
/// reports the error or does what was asked. So the scanner never decides an error and never accepts what the
/// full parser would not; `RunArgumentScannerTests` holds its table to `run --experimental-dump-help` and compares
/// both parsers on generated command lines.
enum RunArgumentScanner {
    /// What an option does to the settings.
    enum Action {
        /// A flag: sets a Bool.
        case flag(@Sendable (inout RunSettings) -> Void)
        /// An option given at most once; the closure converts and stores the value, false when it does not convert.
        case single(@Sendable (inout RunSettings, String) -> Bool)
        /// An option that may repeat; each value is appended.
        case repeating(@Sendable (inout RunSettings, String) -> Void)
    }

    /// One option of `run`, under all its spellings.
    struct Option: Sendable {
        /// The spellings, as typed: `--jobs`, `-j`.
        let names: [String]
        let action: Action
    }

    // MARK: - The options of `apitest run`

    /// Every option and flag of `run` and its option groups, as swift-argument-parser spells them.
    static let options: [Option] = [
        // SuiteOptions
        Option(names: ["--var"], action: .repeating { $0.suites.variables.append($1) }),
        Option(names: ["--variables-file"], action: .repeating { $0.suites.variablesFiles.append($1) }),
        Option(names: ["--no-color"], action: .flag { $0.suites.noColor = true }),
        // RunCommand
        Option(
            names: ["-j", "--jobs"],
            action: .single { settings, text in store(Int(argument: text), in: &settings.jobs) }),
        Option(names: ["--timeout"], action: .single { store(DurationArgument(argument: $1), in: &$0.timeout) }),
        Option(
            names: ["--connect-timeout"],
            action: .single { store(DurationArgument(argument: $1), in: &$0.connectTimeout) }),
        Option(
            names: ["--max-response-size"],
            action: .single { store(ByteSizeArgument(argument: $1), in: &$0.maxResponseSize) }),
        Option(names: ["-v", "--verbose"], action: .flag { $0.verbose = true }),
        Option(names: ["-q", "--quiet"], action: .flag { $0.quiet = true }),
        Option(names: ["--wait-for"], action: .single { store(DurationArgument(argument: $1), in: &$0.waitFor) }),
        // ReportOptions
        Option(names: ["--report-junit"], action: .single { store($1, in: &$0.reports.reportJunit) }),
        Option(names: ["--report-tap"], action: .single { store($1, in: &$0.reports.reportTap) }),
        Option(names: ["--report-json"], action: .single { store($1, in: &$0.reports.reportJson) }),
        Option(names: ["--report-html"], action: .single { store($1, in: &$0.reports.reportHtml) }),
        Option(names: ["--tap-version"], action: .single { store(Int(argument: $1), in: &$0.reports.tapVersion) }),
        // SelectionOptions
        Option(names: ["--filter"], action: .repeating { $0.selection.filter.append($1) }),
        Option(names: ["--tag"], action: .repeating { $0.selection.tag.append($1) }),
        Option(names: ["--exclude-tag"], action: .repeating { $0.selection.excludeTag.append($1) }),
        Option(names: ["--shard"], action: .single { store($1, in: &$0.selection.shard) }),
        // SecurityFlags
        Option(
            names: ["--pinning"],
            action: .single { store(SecurityPolicy.PinningMode(argument: $1), in: &$0.security.pinning) }),
        Option(names: ["--pin"], action: .repeating { $0.security.pins.append($1) }),
        Option(names: ["--certificate"], action: .repeating { $0.security.certificates.append($1) }),
        Option(names: ["--allow-invalid-certificates"], action: .flag { $0.security.allowInvalidCertificates = true }),
        Option(names: ["--no-validate-domain"], action: .flag { $0.security.noValidateDomain = true }),
        Option(names: ["--ca-file"], action: .single { store($1, in: &$0.security.caFile) }),
        Option(names: ["--client-cert"], action: .single { store($1, in: &$0.security.clientCertificate) }),
        Option(names: ["--client-key"], action: .single { store($1, in: &$0.security.clientKey) }),
    ]

    // MARK: - Scanning

    /// The settings of `apitest run ARGUMENTS` (the arguments after `run`), or `nil` when swift-argument-parser
    /// must decide.
    static func settings(for arguments: [String]) -> RunSettings? {
        var settings = RunSettings()
        // A linear search over ~30 options: cheaper than the first use of a dictionary of closures.
        var given = [Bool](repeating: false, count: options.count)
        var index = arguments.startIndex
        var positionalOnly = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if positionalOnly || !argument.hasPrefix("-") {
                guard !argument.isEmpty else { return nil }
                settings.suites.paths.append(argument)
                continue
            }
            if argument == "--" {
                positionalOnly = true
                continue
            }
            var name = Substring(argument)
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = argument[..<equals]
                attached = String(argument[argument.index(after: equals)...])
            }
            guard let optionIndex = options.firstIndex(where: { $0.names.contains { $0 == name } }) else { return nil }
            switch options[optionIndex].action {
            case .flag(let set):
                guard attached == nil, !given[optionIndex] else { return nil }
                given[optionIndex] = true
                set(&settings)
            case .single(let store):
                guard !given[optionIndex], let value = value(attached, arguments, &index), store(&settings, value)
                else { return nil }
                given[optionIndex] = true
            case .repeating(let append):
                guard let value = value(attached, arguments, &index) else { return nil }
                append(&settings, value)
            }
        }
        guard !settings.suites.paths.isEmpty, (try? settings.validate()) != nil else { return nil }
        return settings
    }

    /// An option's value: the part after `=`, or the next argument. `nil` when there is none, or when it is empty
    /// or starts with `-` (swift-argument-parser's reading of those is left to it).
    private static func value(_ attached: String?, _ arguments: [String], _ index: inout Int) -> String? {
        let value: String
        if let attached {
            value = attached
        } else {
            guard index < arguments.endIndex else { return nil }
            value = arguments[index]
            index += 1
        }
        guard !value.isEmpty, !value.hasPrefix("-") else { return nil }
        return value
    }

    /// Stores a converted value; false when the conversion failed.
    private static func store<Value>(_ value: Value?, in slot: inout Value) -> Bool {
        guard let value else { return false }
        slot = value
        return true
    }

    private static func store<Value>(_ value: Value?, in slot: inout Value?) -> Bool {
        guard let value else { return false }
        slot = value
        return true
    }
}
