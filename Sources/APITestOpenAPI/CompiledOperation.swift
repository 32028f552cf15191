import APITestJSONSchema

/// Everything the checks need about one operation, compiled at load: parameters, request body and responses with
/// their schemas.
struct CompiledOperation: Sendable {
    /// The operation as callers see it.
    var operation: OpenAPIOperation
    /// The path template, parsed.
    var template: PathTemplate
    /// Whether the options' `ignore` leaves it out.
    var isIgnored = false
    /// Path-level and operation-level parameters merged (the operation's win by name and location).
    var parameters: [CompiledParameter] = []
    /// The request body, when the operation declares one.
    var requestBody: CompiledRequestBody?
    /// Whether the operation has a `responses` member (OpenAPI 3.1 makes it optional).
    var declaresResponses = false
    /// The entries of `responses`, in the document's order.
    var responses: [CompiledResponse] = []
    /// Where `responses` is (the operation when it has none); made a source location only for a violation.
    var responsesLocation: SpecLocation

    /// The entry for `status`: the exact code, else its range (`2XX`), else `default`.
    func response(for status: Int) -> CompiledResponse? {
        // By position: only the entry found is copied (a copy retains each of its fields).
        var range: Int?
        var fallback: Int?
        for position in responses.indices {
            switch responses[position].status {
            case .exact(let code) where code == status: return responses[position]
            case .range(let hundreds) where hundreds == status / 100: range = range ?? position
            case .default: fallback = fallback ?? position
            default: break
            }
        }
        return (range ?? fallback).map { responses[$0] }
    }
}

/// A compiled schema and where it is declared in the document.
struct CompiledSchemaReference: Sendable {
    /// The compiled schema.
    var schema: JSONSchema
    /// Where the schema (or the `$ref` standing for it) is.
    var site: SpecLocation
}

/// A parameter of an operation.
struct CompiledParameter: Sendable {
    /// The name (as written; header names compare case-insensitively).
    var name: String
    /// Where the parameter goes.
    var location: ContractViolation.ParameterLocation
    /// Whether a request must carry it.
    var isRequired: Bool
    /// How the value is serialized: `form`, `simple`, `label`, `matrix`, `spaceDelimited`, `pipeDelimited`,
    /// `deepObject`.
    var style: String
    /// Whether arrays and objects are spread over several values.
    var explode: Bool
    /// The schema of the value; nil when none is declared or its media type is not JSON.
    var schema: CompiledSchemaReference?
    /// The value's shape, for reading the text into typed JSON.
    var shape: ValueShape
    /// Whether the value is JSON text (`content: {application/json: ...}`) rather than styled.
    var isJSONContent: Bool
    /// Where the parameter is declared.
    var declaration: SpecLocation
    /// The names of the operation's other parameters in the same place (query or cookie), which a `form`-style
    /// object spread over several pairs must not claim; worked out once when the document loads.
    var siblingNames: Set<String> = []
}

/// The request body of an operation.
struct CompiledRequestBody: Sendable {
    /// Whether a request must have a body.
    var isRequired: Bool
    /// The declared media types, in the document's order.
    var content: [CompiledMediaType]
    /// Where the request body is declared.
    var declaration: SpecLocation
}

/// An entry of an operation's `responses`.
struct CompiledResponse: Sendable {
    /// Which statuses an entry covers.
    enum Status: Sendable, Hashable {
        case exact(Int)
        /// `2XX`: the hundreds digit.
        case range(Int)
        case `default`
    }

    /// The key as written (`200`, `2XX`, `default`).
    var key: String
    /// The statuses it covers.
    var status: Status
    /// The declared headers (`Content-Type` left out, as OpenAPI says).
    var headers: [CompiledHeader]
    /// The declared media types; nil when the entry declares no content.
    var content: [CompiledMediaType]?
    /// Where the entry is.
    var declaration: SpecLocation
}

/// A response header.
struct CompiledHeader: Sendable {
    /// The name as written (looked up case-insensitively).
    var name: String
    /// Whether the response must have it.
    var isRequired: Bool
    /// Whether arrays and objects are `k=v` pairs (`explode`).
    var explode: Bool
    /// The value's schema.
    var schema: CompiledSchemaReference?
    /// The value's shape.
    var shape: ValueShape
    /// Whether the value is JSON text (`content: {application/json: ...}`).
    var isJSONContent: Bool
    /// Where the header is declared.
    var declaration: SpecLocation
}

/// A media type of a request body or a response.
struct CompiledMediaType: Sendable {
    /// The key as written (`application/json`).
    var key: String
    /// The key parsed.
    var range: MediaRange
    /// The schema; nil when none is declared.
    var schema: CompiledSchemaReference?
    /// Where the media type is declared.
    var declaration: SpecLocation
}
