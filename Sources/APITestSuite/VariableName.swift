/// The rule for a variable name given from outside a suite (`--var NAME=value`, a `--variables-file` entry): what
/// a suite's `variables` take (`[A-Za-z_][A-Za-z0-9_.-]*`, not `env.…`), and, since an expression reads a name up
/// to its last letter, digit or `_`, not ending in `.` or `-` (`{{ a.b. }}` could never name it).
package enum VariableName {
    /// What is wrong with a name.
    package enum Problem: Error, Sendable, Hashable {
        /// Not `[A-Za-z_][A-Za-z0-9_.-]*`: empty, a space, braces, a leading digit...
        case invalid
        /// Ends in `.` or `-`.
        case trailingSeparator
        /// `env.NAME`: the environment variable NAME, which a variable cannot replace (nor unmark as secret).
        case environment

        /// The sentence for the name `name`, given by `source` (`--var`).
        package func message(name: String, source: String) -> String {
            "\(source): " + message(name: name)
        }

        /// The sentence for the name `name`, without saying where it was given (a located error says that).
        package func message(name: String) -> String {
            switch self {
            case .invalid:
                "invalid variable name '\(name)'; names match [A-Za-z_][A-Za-z0-9_.-]*"
            case .trailingSeparator:
                "invalid variable name '\(name)'; a name cannot end in '.' or '-'"
            case .environment:
                "'\(name)' is the environment variable \(name.dropFirst(TemplateScanner.environmentPrefix.count)), "
                    + "which a variable cannot replace; set it in the environment instead"
            }
        }
    }

    /// What is wrong with `name`, or `nil` when a variable may have it.
    package static func problem(_ name: String) -> Problem? {
        guard TemplateScanner.isValidName(name) else { return .invalid }
        if name.hasSuffix(".") || name.hasSuffix("-") { return .trailingSeparator }
        if name.hasPrefix(TemplateScanner.environmentPrefix) { return .environment }
        return nil
    }
}
