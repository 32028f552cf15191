package import APITestSupport

/// Turns YAML errors (scanner, parser, composer, duplicate keys) into located diagnostics.
package enum YAMLErrorDiagnostic {
    package static func make(_ error: YAMLComposeError, text: SourceText) -> Diagnostic {
        switch error {
        case .syntax(let problem, let line, let column, let context):
            let at = location(line: line, column: column, text)
            if let context, isAtEnd(at, text) {
                // An unclosed quote or bracket is noticed only at the end of the file: point where it opens.
                return .error(
                    "invalid YAML: \(problem)", at: location(line: context.line, column: context.column, text),
                    note: "\(context.text) that starts here; the file ends at line \(line) before it is closed")
            }
            var note = context.map(contextNote)
            if let line = text.line(at.line), at.column - 1 < line.count, line[at.column - 1] == "\t" {
                note = "YAML does not allow tabs for indentation; use spaces"
            }
            return .error("invalid YAML: \(problem)", at: pastBlankLines(at, text), note: note)
        case .reader(let problem, let offset):
            let at = offset.map(text.location(ofUTF8Offset:)) ?? SourceLocation(file: text.file, line: 1, column: 1)
            return .error("invalid YAML: \(problem)", at: at)
        case .duplicateKey(let key, let line, let column):
            return duplicateKey(key, first: location(line: line, column: column, text), text: text)
        case .memory:
            return .error("invalid YAML: Memory error", at: SourceLocation(file: text.file, line: 1, column: 1))
        case .keysTooLarge(let line, let column):
            return .error(
                "the keys of this map are too large to compare once aliases are expanded",
                at: location(line: line, column: column, text),
                note: "list and map keys nest at most \(LoadBudget.maximumNesting) levels, and a file's keys may hold "
                    + "\(YAMLComposer.keyComparisonWork) lists and maps together")
        case .tooDeep(let line, let column):
            return .error(
                "the YAML is \(LoadBudget.nestingLimitText)", at: location(line: line, column: column, text),
                note: "a list or map opens here inside \(LoadBudget.maximumNesting) others")
        }
    }

    private static func location(line: Int, column: Int, _ text: SourceText) -> SourceLocation {
        SourceLocation(file: text.file, line: max(1, line), column: max(1, column))
    }

    /// Whether nothing but white space follows `location` in the text.
    private static func isAtEnd(_ location: SourceLocation, _ text: SourceText) -> Bool {
        let offset = text.offset(line: location.line, column: location.column)
        return text.scalars(in: offset..<text.scalarCount).allSatisfy { $0.properties.isWhitespace }
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
    private static func contextNote(_ context: YAMLComposeError.Context) -> String {
        "\(context.text) at line \(context.line), column \(context.column)"
    }

    /// Points at the repeated key: the next line that has the same key at the same column as the first one.
    private static func duplicateKey(_ key: String, first: SourceLocation, text: SourceText) -> Diagnostic {
        let keyScalars = Array(key.unicodeScalars)
        var line = first.line + 1
        while let content = text.line(line) {
            let start = first.column - 1
            if start >= 0, start + keyScalars.count <= content.count,
                Array(content[start..<(start + keyScalars.count)]) == keyScalars,
                start == 0 || content[..<start].allSatisfy({ $0 == " " || $0 == "-" })
            {
                let at = SourceLocation(file: text.file, line: line, column: first.column)
                return .error(
                    "duplicate key '\(key)'", at: at, length: max(1, keyScalars.count),
                    note: "first defined at \(first)")
            }
            line += 1
        }
        return .error("duplicate key '\(key)' in this map", at: first, length: max(1, keyScalars.count))
    }
}
