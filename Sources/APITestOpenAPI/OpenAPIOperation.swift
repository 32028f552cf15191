package import APITestSupport

/// One operation of an OpenAPI document: a method on a path template.
package struct OpenAPIOperation: Sendable, Hashable {
    /// The operation's `operationId`, when it has one.
    package var operationId: String?
    /// The HTTP method, upper case (`GET`).
    package var method: String
    /// The path template as the document writes it (`/pets/{id}`), without the server prefix.
    package var pathTemplate: String
    /// The keys of the operation's `responses`, in the document's order (`200`, `2XX`, `default`).
    package var responseKeys: [String]
    /// Where the operation is declared: the start of its Operation Object (the value of its method in the path item).
    package var location: SourceLocation
    /// The operation's position in the contract's table of compiled operations (what counters per operation use).
    package let index: Int

    /// Creates an operation; `index` is its place in the contract's table.
    init(
        operationId: String?, method: String, pathTemplate: String, responseKeys: [String], location: SourceLocation,
        index: Int
    ) {
        self.operationId = operationId
        self.method = method
        self.pathTemplate = pathTemplate
        self.responseKeys = responseKeys
        self.location = location
        self.index = index
    }

    /// The `operationId`, else `METHOD /path/{template}`.
    package var displayName: String {
        operationId ?? methodAndPath
    }

    /// `METHOD /path/{template}`.
    package var methodAndPath: String {
        "\(method) \(pathTemplate)"
    }
}
