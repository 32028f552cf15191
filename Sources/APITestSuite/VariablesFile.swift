import APITestSupport
import Foundation

/// Variables read from a file given with `--variables-file`: a YAML map of names to scalars, or a `.env` file of
/// `NAME=value` lines. Values from `.env` files are secret (masked in every report), as environment values are.
public struct VariablesFile: Sendable {
    /// The values by name, as text.
    public var values: [String: String]
    /// The names whose values are secret.
    public var secretNames: Set<String>

    public init(values: [String: String] = [:], secretNames: Set<String> = []) {
        self.values = values
        self.secretNames = secretNames
    }

    // MARK: - Loading

    /// Reads the file at `path`: `.env` files (by name or extension) as dotenv, anything else as YAML.
    public static func load(path: String) throws(SuiteLoadError) -> VariablesFile {
        let start = SourceLocation(file: path, line: 1, column: 1)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SuiteLoadError(
                diagnostics: [.error("variables file not found or not readable", at: start)], source: nil)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SuiteLoadError(diagnostics: [.error("the variables file is not valid UTF-8", at: start)], source: nil)
        }
        let name = (path as NSString).lastPathComponent
        if name == ".env" || name.hasSuffix(".env") || name.hasPrefix(".env.") {
            return try dotenv(text, file: path)
        }
        return try yaml(text, file: path)
    }

    /// `NAME=value` lines; `export NAME=value` too; `#` starts a comment line (or an inline comment after an
    /// unquoted value and a space); values may be single-quoted (literal) or double-quoted (with `\n`, `\t`, `\"`,
    /// `\\` escapes).
    static func dotenv(_ text: String, file: String) throws(SuiteLoadError) -> VariablesFile {
        var result = VariablesFile()
        var diagnostics: [Diagnostic] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var line = Substring(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine)
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            line = line.dropFirst(indent)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = line.dropFirst("export ".count).drop { $0 == " " } }
            guard let equals = line.firstIndex(of: "=") else {
                diagnostics.append(
                    .error(
                        "expected NAME=value", at: SourceLocation(file: file, line: number, column: indent + 1)))
                continue
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard TemplateScanner.isValidName(name) else {
                diagnostics.append(
                    .error(
                        "invalid variable name '\(name)'; names match [A-Za-z_][A-Za-z0-9_.-]*",
                        at: SourceLocation(file: file, line: number, column: indent + 1)))
                continue
            }
            let valueColumn = indent + line.distance(from: line.startIndex, to: equals) + 2
            var value = line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            switch value.first {
            case "'":
                guard let close = value.dropFirst().firstIndex(of: "'") else {
                    diagnostics.append(
                        .error(
                            "a single-quoted value is not closed",
                            at: SourceLocation(file: file, line: number, column: valueColumn)))
                    continue
                }
                value = value[value.index(after: value.startIndex)..<close]
                result.values[name] = String(value)
            case "\"":
                var unescaped = ""
                var escaped = false
                var closed = false
                for character in value.dropFirst() {
                    if escaped {
                        switch character {
                        case "n": unescaped.append("\n")
                        case "t": unescaped.append("\t")
                        case "r": unescaped.append("\r")
                        default: unescaped.append(character)
                        }
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        closed = true
                        break
                    } else {
                        unescaped.append(character)
                    }
                }
                guard closed else {
                    diagnostics.append(
                        .error(
                            "a double-quoted value is not closed",
                            at: SourceLocation(file: file, line: number, column: valueColumn)))
                    continue
                }
                result.values[name] = unescaped
            default:
                if let comment = value.range(of: " #") { value = value[..<comment.lowerBound] }
                result.values[name] = value.trimmingCharacters(in: .whitespaces)
            }
            result.secretNames.insert(name)
        }
        guard diagnostics.isEmpty else { throw SuiteLoadError(diagnostics: diagnostics, source: text) }
        return result
    }

    /// A YAML map of names to scalars (strings, numbers, booleans), kept as written.
    static func yaml(_ text: String, file: String) throws(SuiteLoadError) -> VariablesFile {
        let composed: (document: YAMLDocument, root: YAMLNode?)
        do {
            composed = try YAMLComposer.compose(text)
        } catch {
            throw SuiteLoadError(
                diagnostics: [YAMLErrorDiagnostic.make(error, text: SourceText(file: file, text: text))], source: text)
        }
        var result = VariablesFile()
        guard let root = composed.root else { return result }
        let document = composed.document
        func at(_ node: YAMLNode) -> SourceLocation {
            let mark = document.mark(of: node)
            return SourceLocation(file: file, line: mark.line, column: mark.column)
        }
        guard let pairs = document.pairs(of: root) else {
            throw SuiteLoadError(
                diagnostics: [.error("a variables file is a map of names to values", at: at(root))], source: text)
        }
        var diagnostics: [Diagnostic] = []
        for (keyNode, valueNode) in pairs {
            guard let key = document.scalar(keyNode), TemplateScanner.isValidName(key.string) else {
                diagnostics.append(
                    .error("invalid variable name; names match [A-Za-z_][A-Za-z0-9_.-]*", at: at(keyNode)))
                continue
            }
            guard let value = document.scalar(valueNode) else {
                diagnostics.append(
                    .error("variable '\(key.string)' must be a text, a number or a boolean", at: at(valueNode)))
                continue
            }
            result.values[key.string] = YAMLScalar.isNull(value) ? "" : value.string
        }
        guard diagnostics.isEmpty else { throw SuiteLoadError(diagnostics: diagnostics, source: text) }
        return result
    }
}
