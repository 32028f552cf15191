import APITestSupport
import Yams

/// Turns Yams' errors (scanner, parser, composer, duplicate keys) into located diagnostics.
enum YAMLErrorDiagnostic {
    static func make(_ error: any Error, text: SourceText) -> Diagnostic {
        guard let yamlError = error as? YamlError else {
            return .error("invalid YAML: \(error)", at: SourceLocation(file: text.file, line: 1, column: 1))
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let at = location(mark, text)
            var note = context.map(contextNote)
            if let line = text.line(at.line), at.column - 1 < line.count, line[at.column - 1] == "\t" {
                note = "YAML does not allow tabs for indentation; use spaces"
            }
            return .error("invalid YAML: \(problem)", at: pastBlankLines(at, text), note: note)
        case .reader(let problem, let offset, _, _):
            let at = offset.map(text.location(ofUTF8Offset:)) ?? SourceLocation(file: text.file, line: 1, column: 1)
            return .error("invalid YAML: \(problem)", at: at)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return duplicateKey(duplicates.first ?? "", first: context.mark, text: text)
        default:
            return .error("invalid YAML: \(yamlError)", at: SourceLocation(file: text.file, line: 1, column: 1))
        }
    }

    private static func location(_ mark: Mark, _ text: SourceText) -> SourceLocation {
        SourceLocation(file: text.file, line: max(1, mark.line), column: max(1, mark.column))
    }

    /// libyaml often notices a problem (an unclosed bracket) only at the next token, past blank lines or at the
    /// end of the file; pointing just after the last character before them is more helpful.
    private static func pastBlankLines(_ location: SourceLocation, _ text: SourceText) -> SourceLocation {
        func isBlank(_ line: Int) -> Bool {
            text.line(line).map { $0.allSatisfy { $0 == " " || $0 == "\t" } } ?? true
        }
        guard isBlank(location.line) else { return location }
        var line = location.line - 1
        while line >= 1 {
            if !isBlank(line), let content = text.line(line) {
                return SourceLocation(file: location.file, line: line, column: content.count + 1)
            }
            line -= 1
        }
        return location
    }

    /// `while scanning a quoted scalar at line 3, column 8`.
    private static func contextNote(_ context: YamlError.Context) -> String {
        "\(context.text) at line \(context.mark.line), column \(context.mark.column)"
    }

    /// Points at the repeated key: the next line that has the same key at the same column as the first one.
    private static func duplicateKey(_ key: String, first: Mark, text: SourceText) -> Diagnostic {
        let firstLocation = location(first, text)
        let keyScalars = Array(key.unicodeScalars)
        var line = first.line + 1
        while let content = text.line(line) {
            let start = first.column - 1
            if start >= 0, start + keyScalars.count <= content.count,
                Array(content[start..<(start + keyScalars.count)]) == keyScalars,
                start == 0 || content[..<start].allSatisfy({ $0 == " " || $0 == "-" })
            {
                return .error(
                    "duplicate key '\(key)'", at: SourceLocation(file: text.file, line: line, column: first.column),
                    length: max(1, keyScalars.count), note: "first defined at \(firstLocation)")
            }
            line += 1
        }
        return .error("duplicate key '\(key)' in this map", at: firstLocation, length: max(1, keyScalars.count))
    }
}
