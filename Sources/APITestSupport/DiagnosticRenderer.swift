/// Renders diagnostics the way rustc and Hurl do: a headline, the location, the source line and a caret underline.
///
/// ```
/// error: unknown key 'stauts' in expect; did you mean 'status'?
///   --> suites/users.yaml:12:7
///    |
/// 12 |       stauts: 200
///    |       ^^^^^^
/// ```
///
/// The source line is shown escaped (a control character of the file is `\u{1B}`, never the raw byte) and, when it is
/// long (a minified JSON document is one line), as a window of about 60 characters each side of the column between
/// `…`; the carets sit under the column in what is shown (``excerpt(line:column:length:)``). The message, the path
/// and the note are escaped too (``Swift/String/shownInMessage``): a message quotes values of the file.
package struct DiagnosticRenderer: Sendable {
    /// Whether to colour the output with ANSI escape sequences.
    package var colored: Bool

    package init(colored: Bool = false) {
        self.colored = colored
    }

    // MARK: - One-line form

    /// The one-line form `file:line:column: severity: message` (with `; note` appended when there is one). Like the
    /// excerpt form, it shows the message, the note and the file's path escaped for the display
    /// (``Swift/String/shownInMessage``): they quote values of the file (a key, a method), which may hold ESC.
    package static func oneLine(_ diagnostic: Diagnostic) -> String {
        var line =
            "\(diagnostic.location.description.shownInMessage): \(diagnostic.severity.rawValue): "
            + diagnostic.message.shownInMessage
        if let note = diagnostic.note { line += " (\(note.shownInMessage))" }
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
            + paint(": \(diagnostic.message.shownInMessage)", Style.bold) + "\n"
        out += gutter.dropLast() + paint("--> ", Style.blue) + "\(location.description.shownInMessage)\n"
        if let sourceLine {
            let bar = paint("|", Style.blue)
            out += gutter + bar + "\n"
            let excerpt = Self.excerpt(line: sourceLine, column: location.column, length: diagnostic.length)
            out += paint(number, Style.blue) + " " + bar + " " + excerpt.text + "\n"
            out +=
                gutter + bar + " " + excerpt.padding
                + paint(String(repeating: "^", count: excerpt.width), severityStyle(diagnostic.severity)) + "\n"
        }
        if let note = diagnostic.note {
            out += gutter + paint("=", Style.blue) + " " + paint("note", Style.bold) + ": \(note.shownInMessage)\n"
        }
        return out
    }

    // MARK: - Geometry

    /// Lines of `source` without their terminators (`\n`, `\r\n`).
    package static func splitLines(_ source: String) -> [Substring] {
        // "\r\n" is one Character, so split on both forms.
        source.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
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
