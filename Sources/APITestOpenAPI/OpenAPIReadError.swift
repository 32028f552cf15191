package import APITestSupport

/// Why an ``OpenAPIFileReader`` could not read a file.
package struct OpenAPIReadError: Error, Sendable, Hashable {
    /// What went wrong.
    package enum Kind: Sendable, Hashable {
        /// There is no file at the path.
        case missing
        /// The file exists but cannot be read (a directory, no permission, not UTF-8, an I/O error).
        case unreadable
        /// The file is not valid YAML or JSON; the location of the first error.
        case syntax(SourceLocation)
    }

    /// What went wrong.
    package var kind: Kind
    /// The reader's explanation, for people (e.g. `did not find expected key`).
    package var message: String
    /// For a syntax error in a JSON document, the JSON Pointer's reference tokens of the member or element it is in
    /// (``OpenAPILoadProblem/pointer``): in a minified document every position is on line 1.
    package var pointer: [String]?

    /// Creates an error.
    package init(kind: Kind, message: String, pointer: [String]? = nil) {
        self.kind = kind
        self.message = message
        self.pointer = pointer
    }
}
