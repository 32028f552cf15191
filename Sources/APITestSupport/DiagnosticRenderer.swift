/// Renders diagnostics the way rustc and Hurl do: a headline, the location, the source line and a caret underline.
///
/// ```
/// error: unknown key 'stauts' in expect; did you mean 'status'?
///   --> suites/users.yaml:12:7
///    |
/// 12 |       stauts: 200
///    |       ^^^^^^
/// ```
package struct DiagnosticRenderer: Sendable {
    /// Whether to colour the output with ANSI escape sequences.
    package var colored: Bool

    package init(colored: Bool = false) {
        self.colored = colored
    }

    // MARK: - One-line form

    /// The one-line form `file:line:column: severity: message` (with `; note` appended when there is one).
    package static func oneLine(_ diagnostic: Diagnostic) -> String {
        var line = "\(diagnostic.location): \(diagnostic.severity.rawValue): \(diagnostic.message)"
        if let note = diagnostic.note { line += " (\(note))" }
        return line
    }

    /// Every diagnostic in the one-line form, one per line.
    package static func oneLine(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map(oneLine).joined(separator: "\n")
    }

    // MARK: - Excerpt form

    /// Renders several diagnostics, separated by blank lines, ending in a newline: each against the text of its
    /// file, `includedSources[file]` (by the path in its location) or else `source`; each file's text is split into
    /// lines once, however many diagnostics it has. The one rendering of a suite's and an OpenAPI document's errors.
    package func render(
        _ diagnostics: [Diagnostic], source: String?, includedSources: [String: String] = [:]
    ) -> String {
        var lines: [String: [Substring]?] = [:]
        return diagnostics.map { diagnostic in
            let file = diagnostic.location.file
            if lines[file] == nil {
                lines[file] = .some((includedSources[file] ?? source).map(Self.splitLines))
            }
            return render(diagnostic, lines: lines[file] ?? nil)
        }.joined(separator: "\n")
    }

    /// Renders one diagnostic; `source` is the text of the diagnostic's file (`nil` when it could not be read).
    /// The result ends in a newline.
    package func render(_ diagnostic: Diagnostic, source: String?) -> String {
        render(diagnostic, lines: source.map(Self.splitLines))
    }

    /// Renders one diagnostic against its file's text already split by `splitLines` (`nil` when unreadable).
    package func render(_ diagnostic: Diagnostic, lines: [Substring]?) -> String {
        let location = diagnostic.location
        let sourceLine: Substring? =
            if let lines, location.line >= 1, location.line <= lines.count { lines[location.line - 1] } else { nil }
        let number = String(location.line)
        let gutter = String(repeating: " ", count: sourceLine == nil ? 2 : number.count + 1)

        var out =
            paint(diagnostic.severity.rawValue, severityStyle(diagnostic.severity))
            + paint(": \(diagnostic.message)", Style.bold) + "\n"
        out += gutter.dropLast() + paint("--> ", Style.blue) + "\(location)\n"
        if let sourceLine {
            let bar = paint("|", Style.blue)
            out += gutter + bar + "\n"
            out += paint(number, Style.blue) + " " + bar + " " + sourceLine + "\n"
            let (padding, width) = Self.caretGeometry(
                line: sourceLine, column: location.column,
                length: diagnostic.length)
            out +=
                gutter + bar + " " + padding
                + paint(String(repeating: "^", count: width), severityStyle(diagnostic.severity)) + "\n"
        }
        if let note = diagnostic.note {
            out += gutter + paint("=", Style.blue) + " " + paint("note", Style.bold) + ": \(note)\n"
        }
        return out
    }

    // MARK: - Geometry

    /// Lines of `source` without their terminators (`\n`, `\r\n`).
    package static func splitLines(_ source: String) -> [Substring] {
        // "\r\n" is one Character, so split on both forms.
        source.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    /// The padding before the carets (tabs kept so the carets line up) and the caret count, for a 1-based column
    /// counted in Unicode scalars as libyaml counts them.
    static func caretGeometry(line: Substring, column: Int, length: Int) -> (padding: String, width: Int) {
        let scalars = line.unicodeScalars
        let offset = max(0, column - 1)
        let start =
            scalars.index(scalars.startIndex, offsetBy: offset, limitedBy: scalars.endIndex)
            ?? scalars.endIndex
        let prefix = String(scalars[scalars.startIndex..<start])
        let padding = String(prefix.map { $0 == "\t" ? "\t" : " " })
        let available = String(scalars[start...]).count
        let width = max(1, available > 0 ? min(max(1, length), available) : 1)
        return (padding, width)
    }

    // MARK: - Colour

    private enum Style {
        static let bold = ANSIStyle.Code.bold
        static let blue = ANSIStyle.Code.boldBlue
    }

    private func severityStyle(_ severity: Diagnostic.Severity) -> ANSIStyle.Code {
        severity == .error ? .boldRed : .boldYellow
    }

    private func paint(_ text: String, _ style: ANSIStyle.Code) -> String {
        ANSIStyle(enabled: colored).paint(text, style)
    }
}
