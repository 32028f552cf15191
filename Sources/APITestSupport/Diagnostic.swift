/// A located problem found in an input file, such as an error in a suite.
///
/// A diagnostic points at `length` characters starting at `location`; renderers underline them with carets.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is: errors stop a run, warnings do not.
    public enum Severity: String, Sendable, Hashable, Codable {
        case error
        case warning
    }

    public var severity: Severity
    public var location: SourceLocation
    /// How many characters of the source line the caret underline covers (at least 1 when rendered).
    public var length: Int
    public var message: String
    /// Extra help shown below the source excerpt, such as where a duplicate was first defined.
    public var note: String?

    public init(
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
    public static func error(
        _ message: String, at location: SourceLocation, length: Int = 1, note: String? = nil
    ) -> Diagnostic {
        Diagnostic(severity: .error, location: location, length: length, message: message, note: note)
    }

    /// Creates a warning diagnostic.
    public static func warning(
        _ message: String, at location: SourceLocation, length: Int = 1, note: String? = nil
    ) -> Diagnostic {
        Diagnostic(severity: .warning, location: location, length: length, message: message, note: note)
    }

    /// The one-line form `file:line:column: error: message`, for machines and editors.
    public var description: String { DiagnosticRenderer.oneLine(self) }
}
