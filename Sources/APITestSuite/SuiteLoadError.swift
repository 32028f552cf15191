package import APITestSupport

/// Everything wrong with one suite file, found in one pass.
package struct SuiteLoadError: Error, Sendable, CustomStringConvertible {
    /// The problems, in source order; at least one is an error.
    package var diagnostics: [Diagnostic]
    /// The file's text, for showing the offending lines; `nil` when the file could not be read.
    package var source: String?
    /// The texts of the files the suite includes, by the path used in their diagnostics' locations.
    package var includedSources: [String: String]
    /// The files the suite includes, as absolute paths with symbolic links resolved (as far as it got).
    package var includedFiles: Set<String> = []
    /// The files found on an include cycle (absolute, symbolic links resolved); a file on a cycle is never a
    /// shared fragment, so its error is always shown.
    package var includeCycleFiles: Set<String> = []
    /// Whether the file's top-level map has a `tests` key: such a file is a suite, never a shared fragment.
    package var declaresTests = false

    /// A failure with `diagnostics` for a file whose text is `source`.
    package init(diagnostics: [Diagnostic], source: String?, includedSources: [String: String] = [:]) {
        self.diagnostics = diagnostics
        self.source = source
        self.includedSources = includedSources
    }

    /// Every diagnostic with its source line and caret, as rustc and Hurl show them; a diagnostic in an included
    /// file shows that file's line.
    package func render(colored: Bool = false) -> String {
        DiagnosticRenderer(colored: colored).render(diagnostics, source: source, includedSources: includedSources)
    }

    /// Every diagnostic in the one-line `file:line:column: error: message` form, one per line.
    package var oneLineSummary: String {
        DiagnosticRenderer.oneLine(diagnostics)
    }

    package var description: String { oneLineSummary }
}
