/// What `apitest generate openapi` made of a document: the suite files to write and the operations left out.
package struct GeneratedSuites: Sendable {
    /// The files, in the order their first operation appears in the document.
    package var files: [GeneratedSuiteFile]
    /// Every operation skipped, with the file its comment is in (nil when its group had no test, so no file).
    package var skipped: [SkippedOperation]
    /// The environment variables the suites' credential placeholders name, in order.
    package var environment: [String]
    /// How many operations the document declares under `paths`.
    package var operationCount: Int
}

/// One suite file to write.
package struct GeneratedSuiteFile: Sendable {
    /// The file name (`pets.yaml`), unique among the files.
    package var fileName: String
    /// The YAML text.
    package var text: String
    /// The names of its tests, in order (what `apitest validate` counts as the file's tests).
    package var testNames: [String]
    /// The names of its `teardown` steps, in the order they run: the operations that change state.
    package var teardownNames: [String] = []
}

/// An operation no test was generated for, and why.
package struct SkippedOperation: Sendable, Hashable {
    /// `operationId`, else `METHOD /path`.
    package var name: String
    /// `METHOD /path/{template}`.
    package var methodAndPath: String
    /// Why (`the required body is multipart/form-data`).
    package var reason: String
    /// The file whose comment names it; nil when no file was written for its group.
    package var fileName: String?
}
