import APITestSupport
import APITestYAML
import Foundation

/// Variables read from a file given with `--variables-file`: a YAML map of names to scalars, or a `.env` file of
/// `NAME=value` lines. Values whose names say they are credentials (`API_KEY`, `token`, `DB_PASSWORD`, ...) are
/// secret, masked in every report, whichever the file's format.
package struct VariablesFile: Sendable {
    /// The values by name, as text.
    package var values: [String: String]
    /// The names whose values are secret.
    package var secretNames: Set<String>

    package init(values: [String: String] = [:], secretNames: Set<String> = []) {
        self.values = values
        self.secretNames = secretNames
    }

    // MARK: - Loading

    /// Reads the file at `path`: `.env` files (by name or extension) as dotenv, anything else as YAML.
    package static func load(path: String) throws(SuiteLoadError) -> VariablesFile {
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

    /// `NAME=value` lines (names as ``VariableName`` rules: not `env.…`); `export NAME=value` too; `#` starts a
    /// comment line (or an inline comment after an unquoted value and a space); values may be single-quoted
    /// (literal) or double-quoted (with `\n`, `\t`, `\"`, `\\` escapes).
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
            if let problem = VariableName.problem(name) {
                diagnostics.append(
                    .error(
                        problem.message(name: name),
                        at: SourceLocation(file: file, line: number, column: indent + 1)))
                continue
            }
            var value = line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            // Columns count Unicode scalars (as in suites), from the line's start to where the value starts.
            let valueColumn = rawLine.unicodeScalars.distance(from: rawLine.startIndex, to: value.startIndex) + 1
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
        }
        // The excerpts under the errors show the lines with their values masked: a `.env` file holds secrets.
        guard diagnostics.isEmpty else { throw SuiteLoadError(diagnostics: diagnostics, source: maskedValues(text)) }
        result.secretNames = Set(result.values.keys.filter(isSecretName))
        return result
    }

    /// `text` with every value of a `.env` file replaced by `*`, one per Unicode scalar, so that columns still
    /// match: the part after the first `=` of a line, or the whole line when it has none. Quotes and white space
    /// stay, to show where a quoted value opens.
    static func maskedValues(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var masking = false
        var sawEquals = false
        var lineScalars: [Unicode.Scalar] = []
        func flush() {
            let trimmed = lineScalars.drop { $0 == " " || $0 == "\t" }
            let isComment = trimmed.first == "#"
            let hasEquals = lineScalars.contains("=")
            masking = !isComment && !hasEquals
            sawEquals = false
            for scalar in lineScalars {
                let keep = scalar == "\"" || scalar == "'" || scalar == " " || scalar == "\t" || scalar == "\r"
                result.append(masking && !keep ? "*" : scalar)
                if !isComment, !sawEquals, scalar == "=" {
                    sawEquals = true
                    masking = true
                }
            }
            lineScalars.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                flush()
                result.append(scalar)
            } else {
                lineScalars.append(scalar)
            }
        }
        flush()
        return String(result)
    }

    /// The words that mark a name as a credential, matched case-insensitively anywhere in the name.
    package static let secretWords = [
        "secret", "token", "password", "passwd", "pwd", "key", "auth", "credential", "private", "session", "cookie",
        "signature", "cert",
    ]

    /// True when `name` holds one of `secretWords` (`API_KEY`, `githubToken`, `db.password`).
    package static func isSecretName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return secretWords.contains { lowered.contains($0) }
    }

    /// A YAML map of names to scalars (strings, numbers, booleans), kept as written; names as ``VariableName``
    /// rules (an `env.…` name would replace the environment's value and unmark it as secret).
    static func yaml(_ text: String, file: String) throws(SuiteLoadError) -> VariablesFile {
        let composed: (document: YAMLDocument, root: YAMLNode?)
        do {
            composed = try YAMLComposer.compose(text)
        } catch {
            // The excerpt shows the lines with their values masked, as for every other error of this file (the
            // masking keeps one `*` per character, so the error's column still points at the same place).
            let masked = maskedValues(text)
            throw SuiteLoadError(
                diagnostics: [YAMLErrorDiagnostic.make(error, text: SourceText(file: file, text: masked))],
                source: masked)
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
                diagnostics: [.error("a variables file is a map of names to values", at: at(root))],
                source: maskedValues(text))
        }
        var diagnostics: [Diagnostic] = []
        for (keyNode, valueNode) in pairs {
            guard let key = document.scalar(keyNode) else {
                diagnostics.append(
                    .error("invalid variable name; names match [A-Za-z_][A-Za-z0-9_.-]*", at: at(keyNode)))
                continue
            }
            if let problem = VariableName.problem(key.string) {
                diagnostics.append(.error(problem.message(name: key.string), at: at(keyNode)))
                continue
            }
            guard let value = document.scalar(valueNode) else {
                diagnostics.append(
                    .error("variable '\(key.string)' must be a text, a number or a boolean", at: at(valueNode)))
                continue
            }
            result.values[key.string] = YAMLScalar.isNull(value) ? "" : value.string
        }
        // The excerpts under the errors show the lines with their values masked: a `.env` file holds secrets.
        guard diagnostics.isEmpty else { throw SuiteLoadError(diagnostics: diagnostics, source: maskedValues(text)) }
        result.secretNames = Set(result.values.keys.filter(isSecretName))
        return result
    }
}
