import APITestJSON
import APITestSupport

/// What an OpenAPI document declares, read-only, for building requests from it (`apitest generate openapi`): its
/// title and servers, every operation with its tags, parameters, request body, response keys and security, the
/// security schemes, and the raw Schema Objects with a way to follow their `$ref`s.
///
/// ```swift
/// let description = try OpenAPIDescription.load(path: "api.yaml", reader: reader)
/// for operation in description.operations {
///     print(operation.displayName, operation.tags, operation.parameters.map(\.name))
/// }
/// ```
///
/// It is loaded as a contract is (the same reader, the same problems: a document that would not load as a suite's
/// contract does not load here either), and keeps that contract to check the requests built from it
/// (``checkRequest(to:pathAndQuery:headers:body:)``).
package struct OpenAPIDescription: Sendable {
    /// The document's `openapi` version (`3.0.3`, `3.1.0`).
    package var version: String
    /// `info.title`, when it is a string.
    package var title: String?
    /// The root file's absolute path.
    package var rootPath: String
    /// The document's `servers`, in order (empty when it declares none).
    package var servers: [DescribedServer]
    /// The operations of `paths`, in document order (webhooks and callbacks are requests the API sends: left out).
    package var operations: [DescribedOperation]
    /// `components.securitySchemes` by name.
    package var securitySchemes: [String: DescribedSecurityScheme]
    /// The schema dialect.
    let dialect: SchemaDialect
    /// Every file of the document as read, by absolute path, for following `$ref`s.
    let files: [String: JSONValue]
    /// The document as a contract, for checking built requests.
    let contract: OpenAPIContract

    /// Creates a description (the loader's).
    init(
        version: String, title: String?, rootPath: String, servers: [DescribedServer],
        operations: [DescribedOperation], securitySchemes: [String: DescribedSecurityScheme], dialect: SchemaDialect,
        files: [String: JSONValue], contract: OpenAPIContract
    ) {
        self.version = version
        self.title = title
        self.rootPath = rootPath
        self.servers = servers
        self.operations = operations
        self.securitySchemes = securitySchemes
        self.dialect = dialect
        self.files = files
        self.contract = contract
    }

    /// The document's load warnings (``OpenAPIContract/warnings``): what was translated or ignored, at its place.
    package var warnings: [OpenAPILoadProblem] { contract.warnings }

    /// Whether the document is OpenAPI 3.0 (its schemas: `nullable`, boolean `exclusiveMinimum`, a `$ref`'s
    /// siblings ignored), rather than 3.1 (JSON Schema 2020-12).
    package var isOpenAPI30: Bool { dialect == .openAPI30 }

    /// Loads the document whose root file is at `path` (made absolute against the current directory), reading it and
    /// every file its `$ref`s name through `reader`, exactly as a suite's contract is loaded.
    ///
    /// With `strictSpec`, every load warning is an error (``OpenAPIContractOptions/strictSpec``).
    ///
    /// - Throws: every problem found, as ``OpenAPIContract/load(path:options:reader:)`` reports them.
    package static func load(
        path: String, reader: some OpenAPIFileReader, strictSpec: Bool = false
    ) throws(OpenAPILoadFailure)
        -> OpenAPIDescription
    {
        let loader = OpenAPILoader(
            rootPath: FilePaths.absolute(path), options: OpenAPIContractOptions(strictSpec: strictSpec),
            reader: reader)
        let contract = try loader.load()
        return loader.describe(contract)
    }
}
