package import APITestJSON
package import APITestSupport

/// One operation of ``OpenAPIDescription``: what a request to it must carry, as the document declares it.
package struct DescribedOperation: Sendable {
    /// The operation as the contract names it (`operationId`, method, path template, response keys, place).
    package var operation: OpenAPIOperation
    /// `tags`, in order (empty when it has none).
    package var tags: [String]
    /// `summary`, when it is a string.
    package var summary: String?
    /// Path-level and operation-level parameters merged (the operation's win by name and place); header
    /// parameters named `Accept`, `Content-Type` and `Authorization` are left out, as OpenAPI says.
    package var parameters: [DescribedParameter]
    /// The request body, when the operation declares one.
    package var requestBody: DescribedRequestBody?
    /// The security requirements that apply (the operation's `security`, else the document's): alternatives, any
    /// one of which is enough; empty when none applies. An empty requirement (`{}`) means no credential.
    package var security: [DescribedSecurityRequirement]

    /// The `operationId`, else `METHOD /path/{template}`.
    package var displayName: String { operation.displayName }
    /// The HTTP method, upper case.
    package var method: String { operation.method }
    /// The path template as written (`/pets/{id}`).
    package var pathTemplate: String { operation.pathTemplate }
    /// The keys of `responses`, in the document's order.
    package var responseKeys: [String] { operation.responseKeys }
}

/// A parameter of a ``DescribedOperation``.
package struct DescribedParameter: Sendable {
    /// The name as written.
    package var name: String
    /// Where it goes: `path`, `query`, `header`, `cookie`.
    package var location: ContractViolation.ParameterLocation
    /// Whether a request must carry it.
    package var isRequired: Bool
    /// How the value is serialized (`simple`, `form`, `label`, `matrix`, `spaceDelimited`, `pipeDelimited`,
    /// `deepObject`); the default of its place when not written.
    package var style: String
    /// Whether arrays and objects are spread over several values.
    package var explode: Bool
    /// The value's schema: `schema`, or the schema of the one media type of `content`; nil when none is declared.
    package var schema: DescribedSchema?
    /// The media type of `content` when the value is declared that way (`application/json`): the value is sent as
    /// that media type's text, not styled.
    package var contentType: String?
    /// The document's examples of the value, in order: `example`, then the values of `examples` (a `$ref` followed;
    /// an `externalValue` is never fetched, so left out), then those of the `content` media type.
    package var examples: [JSONValue]
    /// Where the parameter is declared.
    package var declaration: SourceLocation
}

/// The request body of a ``DescribedOperation``.
package struct DescribedRequestBody: Sendable {
    /// Whether a request must have a body.
    package var isRequired: Bool
    /// The declared media types, in the document's order.
    package var content: [DescribedMediaType]
    /// Where the request body is declared.
    package var declaration: SourceLocation
}

/// A media type of a ``DescribedRequestBody``.
package struct DescribedMediaType: Sendable {
    /// The key as written (`application/json`).
    package var key: String
    /// Its schema; nil when none is declared.
    package var schema: DescribedSchema?
    /// The document's examples, in order: `example`, then the values of `examples`.
    package var examples: [JSONValue]

    /// Whether the key names JSON: `application/json`, a `+json` type, or a wildcard that covers
    /// `application/json` (`*/*`, `application/*`).
    package var isJSON: Bool {
        let range = MediaRange(key)
        return range.isJSON || range.specificity(for: MediaRange("application/json")) != nil
    }

    /// The key without parameters, lower-cased (`application/json` for `application/json; charset=utf-8`).
    package var essence: String { MediaRange(key).essence }
}
