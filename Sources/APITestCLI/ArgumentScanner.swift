import ArgumentParser

/// Reads a plain command line of `apitest run` or `apitest validate` into the command without
/// swift-argument-parser's parse.
///
/// swift-argument-parser builds its view of a command by reflection on every parse, and the first parse in a
/// process instantiates the runtime metadata of every option type and scans the binary's ~6,000 protocol
/// conformance records dozens of times: about 3 ms of a 1 MiB upload's 14 (bench/README.md, "Start-up"). This
/// scanner accepts only the forms whose meaning is unambiguous: `--name value`, `--name=value`, `-j N`, `-v`,
/// `-q`, flags, paths and `--`; values convert with the same `init?(argument:)` swift-argument-parser calls, and
/// the same `validate()` methods run. For anything else (help, version, an unknown or repeated option, combined
/// short flags, a value that starts with `-` or is empty, a value that does not convert, a check that fails) it
/// returns `nil`, and `apitest` parses with swift-argument-parser, which then reports the error or does what was
/// asked. So the scanner never decides an error and never accepts what the full parser would not.
///
/// Each command's table is generated from its declarations (``ScannableCommand``); `ArgumentScannerTests`
/// compares both parsers on generated command lines of each command.
enum ArgumentScanner<Command: ScannableCommand> {
    /// What an option does to the command.
    enum Action {
        /// A flag: sets a Bool.
        case flag(@Sendable (inout Command) -> Void)
        /// An option given at most once; the closure converts and stores the value, false when it does not convert.
        case single(@Sendable (inout Command, String) -> Bool)
        /// An option that may repeat; each value is converted and appended, false when it does not convert.
        case repeating(@Sendable (inout Command, String) -> Bool)
    }

    /// One option of the command, under all its spellings.
    struct Option: Sendable {
        /// The spellings, as typed: `-j`, `--jobs`.
        let names: [String]
        let action: Action
    }

    // MARK: - Scanning

    /// The command `apitest <command> ARGUMENTS` (the arguments after the command's name) asks for, validated, or
    /// `nil` when swift-argument-parser must decide.
    static func command(for arguments: [String]) -> Command? {
        let options = Command.scannedOptions
        var command = Command.scanningDefaults()
        // A linear search over ~30 options: cheaper than the first use of a dictionary of closures.
        var given = [Bool](repeating: false, count: options.count)
        var index = arguments.startIndex
        var positionalOnly = false
        var paths = 0
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if positionalOnly || !argument.hasPrefix("-") {
                guard !argument.isEmpty else { return nil }
                Command.appendPath(argument, to: &command)
                paths += 1
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
                set(&command)
            case .single(let store):
                guard !given[optionIndex], let value = value(attached, arguments, &index), store(&command, value)
                else { return nil }
                given[optionIndex] = true
            case .repeating(let append):
                guard let value = value(attached, arguments, &index), append(&command, value) else { return nil }
            }
        }
        // The paths are required: swift-argument-parser says so when there are none.
        guard paths > 0 else { return nil }
        do {
            // swift-argument-parser's order: the option groups as it decodes them, then the command.
            try Command.validateGroups(of: &command)
            try command.validate()
        } catch {
            return nil
        }
        return command
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
}
