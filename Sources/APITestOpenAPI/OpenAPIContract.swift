import APITestSupport

/// An OpenAPI 3.0 or 3.1 document loaded for checking: its operations, a router from requests to them, and every
/// schema compiled once.
///
/// ```swift
/// let contract = try OpenAPIContract.load(path: "/api/openapi.yaml", options: .init(), reader: reader)
/// if case .operation(let operation, _) = contract.match(method: "GET", url: "http://host/v1/pets/1") {
///     let check = contract.checkResponse(operation, response)
///     for violation in check.violations { print(violation) }   // 418 is not declared for getPet (200, default)
/// }
/// ```
///
/// Loading reads files only through the reader and fetches nothing; checking compiles nothing and does no I/O.
package struct OpenAPIContract: Sendable {
    /// The document's `openapi` version (`3.0.3`, `3.1.0`).
    package var version: String
    /// The operations, in document order, without the ignored ones.
    package var operations: [OpenAPIOperation]
    /// Every operation, ignored ones included, by ``OpenAPIOperation``'s index.
    let table: [CompiledOperation]
    /// Method and path to operation.
    let router: OperationRouter
    /// The servers' path prefixes (decoded segments), longest first.
    let serverPrefixes: [[String]]
    /// Finds failing keywords in the document.
    let tracer: SchemaPathTracer
    /// What the document does that apitest checks, but not as its version says (a 3.0 schema's `const` is checked
    /// as JSON Schema 2020-12 defines it): each at its place, to show when the document loads.
    package var warnings: [OpenAPILoadProblem] = []

    /// A contract of compiled operations.
    init(
        version: String, table: [CompiledOperation], router: OperationRouter, serverPrefixes: [[String]],
        tracer: SchemaPathTracer
    ) {
        self.version = version
        self.table = table
        self.operations = table.filter { !$0.isIgnored }.map(\.operation)
        self.router = router
        self.serverPrefixes = serverPrefixes
        self.tracer = tracer
    }

    /// Loads the document whose root file is at `path` (made absolute against the current directory), reading it
    /// and every file its `$ref`s name through `reader`.
    ///
    /// - Throws: every problem found: a file that cannot be read, a document that is not OpenAPI 3.0 or 3.1, a
    ///   `$ref` that cannot be followed, a schema that does not compile, clashing operations, an `ignore` entry
    ///   that names nothing.
    package static func load(
        path: String, options: OpenAPIContractOptions, reader: some OpenAPIFileReader
    ) throws(OpenAPILoadFailure) -> OpenAPIContract {
        let loader = OpenAPILoader(rootPath: FilePaths.absolute(path), options: options, reader: reader)
        return try loader.load()
    }
}
