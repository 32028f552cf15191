import ArgumentParser
import Foundation
import Testing

@testable import APITestCLI

/// Writes a command's argument table (`RunArgumentTable.swift`, `ValidateArgumentTable.swift`) from
/// swift-argument-parser's own view of it: the properties of the command and its option groups in declaration
/// order (`Mirror`), paired with the arguments of `<command> --experimental-dump-help` (the same order:
/// swift-argument-parser builds both from that mirror).
enum ArgumentTableGenerator {
    /// One argument of `<command> --experimental-dump-help`.
    struct DumpedArgument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }
        var kind: String
        var names: [Name]?
        var isRepeating: Bool
        var parsingStrategy: String
        var defaultValue: String?

        var spellings: [String] {
            (names ?? []).map { $0.kind == "long" ? "--\($0.name)" : "-\($0.name)" }
        }
    }

    struct Dump: Decodable {
        struct Command: Decodable { var arguments: [DumpedArgument] }
        var command: Command
    }

    /// A stored property of a command or of one of its option groups, with its argument.
    struct Property {
        /// Labels from the command: `["suites", "variables"]`.
        var path: [String]
        /// The property wrapper's type, as `Option<Optional<DurationArgument>>`.
        var wrapper: String
        var dumped: DumpedArgument
    }

    /// An option group, and the properties it holds, in order.
    indirect enum Member {
        case property(path: [String], wrapper: String)
        case group(path: [String], type: String, members: [Member])
    }

    struct GenerationError: Error, CustomStringConvertible {
        var description: String
    }

    static func dumpedArguments(of command: any ParsableCommand.Type) throws -> [DumpedArgument] {
        var text: String?
        do {
            _ = try command.parseAsRoot(["--experimental-dump-help"])
        } catch {
            text = command.fullMessage(for: error)
        }
        let json = try #require(text)
        return try JSONDecoder().decode(Dump.self, from: Data(json.utf8)).command.arguments
            .filter { !$0.spellings.contains("--help") && !$0.spellings.contains("--version") }
    }

    /// The members of `type`, in declaration order.
    static func members(of type: any ParsableArguments.Type, path: [String]) -> [Member] {
        Mirror(reflecting: type.init()).children.compactMap { child -> Member? in
            guard let label = child.label else { return nil }
            let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
            if let group = child.value as? any OptionGroupProbe {
                let groupType = Swift.type(of: group).groupType
                let typeName = String(reflecting: groupType).replacingOccurrences(of: "APITestCLI.", with: "")
                return .group(path: path + [name], type: typeName, members: members(of: groupType, path: path + [name]))
            }
            let wrapper = String(describing: Swift.type(of: child.value))
            // A stored value that is not an argument (what a group's validate() keeps) has no spelling.
            guard ["Option", "Flag", "Argument"].contains(String(wrapper.prefix { $0 != "<" })) else { return nil }
            return .property(path: path + [name], wrapper: wrapper)
        }
    }

    static func flattened(_ members: [Member]) -> [(path: [String], wrapper: String)] {
        members.flatMap { member -> [(path: [String], wrapper: String)] in
            switch member {
            case .property(let path, let wrapper): [(path, wrapper)]
            case .group(_, _, let members): flattened(members)
            }
        }
    }

    static func properties(of command: any ParsableCommand.Type) throws -> [Property] {
        let declared = flattened(members(of: command, path: []))
        let dumped = try dumpedArguments(of: command)
        guard declared.count == dumped.count else {
            throw GenerationError(
                description: "\(command) declares \(declared.count) arguments, its dump lists \(dumped.count)")
        }
        return try zip(declared, dumped).map { declared, dumped in
            let expected = ["Option": "option", "Flag": "flag", "Argument": "positional"]
            let wrapperName = String(declared.wrapper.prefix { $0 != "<" })
            guard expected[wrapperName] == dumped.kind else {
                throw GenerationError(
                    description: "\(declared.path.joined(separator: ".")) is a \(declared.wrapper), dumped as "
                        + "\(dumped.kind) \(dumped.spellings)")
            }
            return Property(path: declared.path, wrapper: declared.wrapper, dumped: dumped)
        }
    }

    // MARK: - Source

    static func header(name: String, type: String) -> String {
        """
        // swift-format-ignore-file
        // GENERATED from the declarations of `apitest \(name)` (\(type) and its option groups) by
        // Tests/APITestCLITests/ArgumentTableTests.swift: do not edit. After adding, changing or removing an option
        // of `\(name)`, regenerate it with
        //     APITEST_UPDATE_EXPECTED=1 swift test --filter ArgumentTableTests
        // (the test fails until then) and review the diff.

        """
    }

    /// The table of `command` (`ScannableCommand`'s requirements), as Swift source.
    static func source(of command: any ScannableCommand.Type) throws -> String {
        let properties = try properties(of: command)
        let name = command.configuration.commandName ?? "?"
        let type = String(describing: command)
        var lines: [String] = []
        lines.append("extension \(type): ScannableCommand {")
        lines.append(
            "    /// Every option and flag of `\(name)` and its option groups, as swift-argument-parser spells them.")
        lines.append("    static let scannedOptions: [ArgumentScanner<\(type)>.Option] = [")
        for property in properties where property.dumped.kind != "positional" {
            let names = property.dumped.spellings.map { "\"\($0)\"" }.joined(separator: ", ")
            let action = try Self.action(for: property)
            lines.append("        .init(names: [\(names)], action: \(action)),")
        }
        lines.append("    ]")
        lines.append("")
        let positional = properties.filter { $0.dumped.kind == "positional" }
        guard positional.count == 1, let paths = positional.first, paths.wrapper == "Argument<Array<String>>" else {
            throw GenerationError(description: "\(name) takes one positional list of paths")
        }
        lines.append("    /// Appends a suite path (`\(name)`'s positional argument).")
        lines.append("    static func appendPath(_ path: String, to command: inout \(type)) {")
        lines.append("        command.\(paths.path.joined(separator: ".")).append(path)")
        lines.append("    }")
        lines.append("")
        lines.append("    /// `\(name)` with every option at its declared default and no path.")
        lines.append("    static func scanningDefaults() -> \(type) {")
        let byPath = Dictionary(uniqueKeysWithValues: properties.map { ($0.path, $0) })
        lines += try defaultLines(
            for: members(of: command, path: []), variable: "command", type: type, byPath: byPath)
        lines.append("        return command")
        lines.append("    }")
        lines.append("")
        lines.append("    /// The checks of the option groups, which swift-argument-parser runs as it decodes them.")
        lines.append("    static func validateGroups(of command: inout \(type)) throws {")
        lines += validationLines(for: members(of: command, path: []))
        lines.append("    }")
        lines.append("}")
        return header(name: name, type: type) + "\n" + lines.joined(separator: "\n") + "\n"
    }

    /// The scanner's action for an option or flag; throws for a kind the scanner does not read as
    /// swift-argument-parser does.
    static func action(for property: Property) throws -> String {
        let slot = "$0." + property.path.joined(separator: ".")
        let names = property.dumped.spellings.joined(separator: ", ")
        switch property.dumped.kind {
        case "flag":
            // Not an inversion (--x/--no-x), a count (-vvv) or an enumerable flag: the scanner would misread them.
            let longNames = property.dumped.spellings.filter { $0.hasPrefix("--") }
            guard property.wrapper == "Flag<Bool>", property.dumped.defaultValue ?? "false" == "false",
                longNames.count == 1
            else {
                throw GenerationError(
                    description: "\(property.wrapper) \(names): the scanner reads only Bool flags, off by default, "
                        + "with one long name")
            }
            return ".flag { \(slot) = true }"
        case "option":
            // One value after the name (or after `=`): the scanner reads no other parsing strategy.
            guard property.dumped.parsingStrategy == "default" else {
                throw GenerationError(
                    description: "\(names): parsing strategy \(property.dumped.parsingStrategy) is not read by the "
                        + "scanner")
            }
            return property.dumped.isRepeating
                ? ".repeating { append($1, to: &\(slot)) }" : ".single { store($1, in: &\(slot)) }"
        default:
            throw GenerationError(description: "\(names): \(property.dumped.kind) is not an option or a flag")
        }
    }

    /// `var variable = Type()` and an assignment of every member's default.
    static func defaultLines(
        for members: [Member], variable: String, type: String, byPath: [[String]: Property]
    )
        throws -> [String]
    {
        var lines: [String] = []
        var assignments: [String] = []
        for member in members {
            switch member {
            case .group(let path, let groupType, let groupMembers):
                let name = path.joined(separator: "_")
                lines += try defaultLines(for: groupMembers, variable: name, type: groupType, byPath: byPath)
                assignments.append("        \(variable).\(path.last!) = \(name)")
            case .property(let path, let wrapper):
                let property = try #require(byPath[path])
                let value: String
                if wrapper.contains("<Optional<") {
                    value = "nil"
                } else if wrapper.contains("<Array<") {
                    value = "[]"
                } else if wrapper == "Flag<Bool>" {
                    value = "false"
                } else if let text = property.dumped.defaultValue {
                    value = "defaultValue(\(String(reflecting: text)))"
                } else {
                    throw GenerationError(description: "\(path.joined(separator: ".")) has no default")
                }
                assignments.append("        \(variable).\(path.last!) = \(value)")
            }
        }
        return lines + ["        var \(variable) = \(type)()"] + assignments
    }

    static func validationLines(for members: [Member]) -> [String] {
        members.flatMap { member -> [String] in
            guard case .group(let path, _, let groupMembers) = member else { return [] }
            // Inner groups first, as swift-argument-parser decodes them.
            return validationLines(for: groupMembers)
                + ["        try command.\(path.joined(separator: ".")).validate()"]
        }
    }
}

/// Names an option group's type without swift-argument-parser's internals.
protocol OptionGroupProbe {
    static var groupType: any ParsableArguments.Type { get }
}

extension OptionGroup: OptionGroupProbe {
    static var groupType: any ParsableArguments.Type { Value.self }
}
