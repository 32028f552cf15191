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
///
/// This and the other parts of a compiled operation that never change after the load (a response entry, a header,
/// a request body, a media type) are objects, so that the checks, which read them for every exchange, pass one
/// reference around instead of copying and releasing each field.
final class CompiledSchemaReference: Sendable {
    /// The compiled schema.
    let schema: JSONSchema
    /// Where the schema (or the `$ref` standing for it) is.
    let site: SpecLocation

    init(schema: JSONSchema, site: SpecLocation) {
        self.schema = schema
        self.site = site
    }
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
    /// For a path parameter read as one scalar in `simple` style that is the whole of one segment of the template
    /// (`/items/{file}`) and named by no other: that segment's offset, so that its value is the routed path's
    /// segment there, found without looking for its name; worked out once when the document loads.
    var scalarPathSegment: Int?
}

/// The request body of an operation.
final class CompiledRequestBody: Sendable {
    /// Whether a request must have a body.
    let isRequired: Bool
    /// The declared media types, in the document's order.
    let content: [CompiledMediaType]
    /// Where the request body is declared.
    let declaration: SpecLocation

    init(isRequired: Bool, content: [CompiledMediaType], declaration: SpecLocation) {
        self.isRequired = isRequired
        self.content = content
        self.declaration = declaration
    }
}

/// An entry of an operation's `responses`.
final class CompiledResponse: Sendable {
    /// Which statuses an entry covers.
    enum Status: Sendable, Hashable {
        case exact(Int)
        /// `2XX`: the hundreds digit.
        case range(Int)
        case `default`
    }

    /// The key as written (`200`, `2XX`, `default`).
    let key: String
    /// The statuses it covers.
    let status: Status
    /// The declared headers (`Content-Type` left out, as OpenAPI says).
    let headers: [CompiledHeader]
    /// The declared media types; nil when the entry declares no content.
    let content: [CompiledMediaType]?
    /// Where the entry is.
    let declaration: SpecLocation

    init(
        key: String, status: Status, headers: [CompiledHeader], content: [CompiledMediaType]?,
        declaration: SpecLocation
    ) {
        self.key = key
        self.status = status
        self.headers = headers
        self.content = content
        self.declaration = declaration
    }
}

/// A response header.
final class CompiledHeader: Sendable {
    /// The name as written (looked up case-insensitively).
    let name: String
    /// Whether the response must have it.
    let isRequired: Bool
    /// Whether arrays and objects are `k=v` pairs (`explode`).
    let explode: Bool
    /// The value's schema.
    let schema: CompiledSchemaReference?
    /// The value's shape.
    let shape: ValueShape
    /// Whether the value is JSON text (`content: {application/json: ...}`).
    let isJSONContent: Bool
    /// Where the header is declared.
    let declaration: SpecLocation

    init(
        name: String, isRequired: Bool, explode: Bool, schema: CompiledSchemaReference?, shape: ValueShape,
        isJSONContent: Bool, declaration: SpecLocation
    ) {
        self.name = name
        self.isRequired = isRequired
        self.explode = explode
        self.schema = schema
        self.shape = shape
        self.isJSONContent = isJSONContent
        self.declaration = declaration
    }
}

/// A media type of a request body or a response.
final class CompiledMediaType: Sendable {
    /// The key as written (`application/json`).
    let key: String
    /// The key parsed.
    let range: MediaRange
    /// The schema; nil when none is declared.
    let schema: CompiledSchemaReference?
    /// Where the media type is declared.
    let declaration: SpecLocation
    /// `type/subtype` as UTF-8 bytes when neither is a wildcard: a `Content-Type` that is these bytes up to its
    /// parameters is this type exactly (``MediaRange/isExactly(_:)``), compared without parsing it.
    private let exactEssence: [UInt8]?

    init(key: String, range: MediaRange, schema: CompiledSchemaReference?, declaration: SpecLocation) {
        self.key = key
        self.range = range
        self.schema = schema
        self.declaration = declaration
        let isExact = range.type != "*" && range.subtype != "*" && !range.subtype.isEmpty
        self.exactEssence = isExact ? Array(range.type.utf8) + [UInt8(ascii: "/")] + Array(range.subtype.utf8) : nil
    }

    /// Whether `contentType`, up to a `;`, is this type's `type/subtype` byte for byte (what
    /// ``MediaRange/isExactly(_:)`` answers for ``range``).
    func isExactly(_ contentType: String) -> Bool {
        guard let exactEssence else { return false }
        let compared = contentType.utf8.withContiguousStorageIfAvailable { bytes in
            let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            guard end == exactEssence.count else { return false }
            for position in 0..<end where bytes[position] != exactEssence[position] { return false }
            return true
        }
        return compared ?? range.isExactly(contentType)
    }
}
