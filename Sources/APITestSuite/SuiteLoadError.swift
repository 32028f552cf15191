import APITestSupport

/// Everything wrong with one suite file, found in one pass.
public struct SuiteLoadError: Error, Sendable, CustomStringConvertible {
    /// The problems, in source order; at least one is an error.
    public var diagnostics: [Diagnostic]
    /// The file's text, for showing the offending lines; `nil` when the file could not be read.
    public var source: String?

    public init(diagnostics: [Diagnostic], source: String?) {
        self.diagnostics = diagnostics
        self.source = source
    }

    /// Every diagnostic with its source line and caret, as rustc and Hurl show them.
    public func render(colored: Bool = false) -> String {
        DiagnosticRenderer(colored: colored).render(diagnostics, source: source)
    }

    /// Every diagnostic in the one-line `file:line:column: error: message` form, one per line.
    public var oneLineSummary: String {
        diagnostics.map(DiagnosticRenderer.oneLine).joined(separator: "\n")
    }

    public var description: String { oneLineSummary }
}
