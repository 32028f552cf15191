import ArgumentParser

/// A command whose plain command lines ``ArgumentScanner`` reads without swift-argument-parser's parse.
///
/// Its table (``scannedOptions``, ``scanningDefaults()``, ``appendPath(_:to:)``, ``validateGroups(of:)``) is
/// generated from the command's own declarations into `<Command>ArgumentTable.swift` by `ArgumentTableTests`,
/// which fails until the table is regenerated: an option is declared once, with swift-argument-parser.
protocol ScannableCommand: ParsableCommand {
    /// Every option and flag of the command and its option groups, as swift-argument-parser spells them.
    static var scannedOptions: [ArgumentScanner<Self>.Option] { get }

    /// The command with every option at its declared default and no path.
    static func scanningDefaults() -> Self

    /// Appends a path (the command's one positional argument, a list).
    static func appendPath(_ path: String, to command: inout Self)

    /// The checks of the option groups, which swift-argument-parser runs as it decodes them.
    static func validateGroups(of command: inout Self) throws
}

// MARK: - Storing values (used by the generated tables)

extension ScannableCommand {
    /// Converts `text` as swift-argument-parser does and stores it; false when it does not convert.
    static func store<Value: ExpressibleByArgument>(_ text: String, in slot: inout Value) -> Bool {
        guard let value = Value(argument: text) else { return false }
        slot = value
        return true
    }

    /// As the other `store`, for an optional option.
    static func store<Value: ExpressibleByArgument>(_ text: String, in slot: inout Value?) -> Bool {
        guard let value = Value(argument: text) else { return false }
        slot = value
        return true
    }

    /// Converts `text` and appends it, for a repeating option; false when it does not convert.
    static func append<Value: ExpressibleByArgument>(_ text: String, to list: inout [Value]) -> Bool {
        guard let value = Value(argument: text) else { return false }
        list.append(value)
        return true
    }

    /// An option's declared default, from its text in swift-argument-parser's description of the command.
    static func defaultValue<Value: ExpressibleByArgument>(_ text: String) -> Value {
        guard let value = Value(argument: text) else { preconditionFailure("default '\(text)' does not convert") }
        return value
    }
}
