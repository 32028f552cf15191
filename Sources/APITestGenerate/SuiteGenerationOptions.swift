/// What `apitest generate openapi` was asked for, with the paths it writes into the files worked out.
package struct SuiteGenerationOptions: Sendable {
    /// How operations are split into suite files.
    package enum Grouping: String, Sendable, CaseIterable {
        /// One file per tag (an operation's first); untagged operations in `default.yaml`.
        case tag
        /// One file per first path segment (`/pets/{id}` → `pets.yaml`).
        case path
    }

    /// How operations are split into files.
    package var grouping: Grouping
    /// `--base-url`: the suites' `baseURL` and their contract's `server`; nil takes the document's first server.
    package var baseURL: String?
    /// The document's path relative to the output folder, for `openapi: {file: ...}`.
    package var documentReference: String
    /// The suite schema's path relative to the output folder, for the editor modeline.
    package var schemaReference: String
    /// The document's file name, for the files' header comment.
    package var documentName: String

    /// Options.
    package init(
        grouping: Grouping = .tag, baseURL: String? = nil, documentReference: String, schemaReference: String,
        documentName: String
    ) {
        self.grouping = grouping
        self.baseURL = baseURL
        self.documentReference = documentReference
        self.schemaReference = schemaReference
        self.documentName = documentName
    }
}
