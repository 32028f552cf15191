/// A located problem found in an input file, such as an error in a suite.
///
/// A diagnostic points at `length` characters starting at `location`; renderers underline them with carets.
package struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is: errors stop a run, warnings do not.
    package enum Severity: String, Sendable, Hashable, Codable {
        case error
        case warning
    }

    package var severity: Severity
    package var location: SourceLocation
    /// How many characters of the source line the caret underline covers (at least 1 when rendered).
    package var length: Int
    package var message: String
    /// Extra help shown below the source excerpt, such as where a duplicate was first defined.
    package var note: String?

    package init(
        severity: Severity = .error, location: SourceLocation, length: Int = 1, message: String,
        note: String? = nil
    ) {
        self.severity = severity
        self.location = location
        self.length = length
        self.message = message
        self.note = note
    }

    /// Creates an error diagnostic.
    package static func error(
        _ message: String, at location: SourceLocation, length: Int = 1, note: String? = nil
    ) -> Diagnostic {
        Diagnostic(severity: .error, location: location, length: length, message: message, note: note)
    }

    /// Creates a warning diagnostic.
    package static func warning(
        _ message: String, at location: SourceLocation, length: Int = 1, note: String? = nil
    ) -> Diagnostic {
        Diagnostic(severity: .warning, location: location, length: length, message: message, note: note)
    }

    /// The one-line form `file:line:column: error: message`, for machines and editors.
    package var description: String { DiagnosticRenderer.oneLine(self) }
}
