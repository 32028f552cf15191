package import APITestSupport

/// Everything wrong with an OpenAPI document read for `apitest generate openapi`, found in one pass.
package struct OpenAPIDocumentError: Error, Sendable, CustomStringConvertible {
    /// The problems, in the order the document's load found them.
    package var diagnostics: [Diagnostic]
    /// The document's text, for showing the offending lines; `nil` when it could not be read.
    package var source: String?
    /// The texts of every file read (the document and the files its `$ref`s name), by absolute path.
    package var includedSources: [String: String]

    /// The problems of a document whose text is `source`.
    package init(diagnostics: [Diagnostic], source: String?, includedSources: [String: String]) {
        self.diagnostics = diagnostics
        self.source = source
        self.includedSources = includedSources
    }

    /// Every diagnostic with its source line and caret, as a suite's load errors are shown.
    package func render(colored: Bool = false) -> String {
        DiagnosticRenderer(colored: colored).render(diagnostics, source: source, includedSources: includedSources)
    }

    package var description: String {
        DiagnosticRenderer.oneLine(diagnostics)
    }
}
