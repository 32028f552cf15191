package import APITestSupport

/// One way a response or a request breaks its operation's contract.
///
/// Its words are in `ContractViolation+Description.swift` only.
package struct ContractViolation: Sendable, Hashable {
    /// Whether the violation is about the response or the request.
    package enum Subject: Sendable, Hashable {
        case response
        case request
    }

    /// Where a parameter goes.
    package enum ParameterLocation: String, Sendable, Hashable, CaseIterable {
        case path
        case query
        case header
        case cookie
    }

    /// What is wrong.
    package enum Kind: Sendable, Hashable {
        /// The status matches no entry of `responses`; the keys declared, in the document's order.
        case undeclaredStatus(Int, declared: [String])
        /// There is a body but no `Content-Type`; the media types declared.
        case missingContentType(declared: [String])
        /// `Content-Type` is none of the media types declared (they are listed).
        case undeclaredContentType(String, declared: [String])
        /// Content is declared (and, for a request, required) but the body is empty; the media types declared.
        case missingBody(declared: [String])
        /// The media type is JSON but the body is not.
        case invalidJSON(contentType: String)
        /// A value does not match its schema: the schema validator's message (`must be integer, got string`).
        case schemaMismatch(message: String)
        /// A response header that the entry requires is missing.
        case missingHeader(String)
        /// A parameter that the operation requires is missing from the request.
        case missingParameter(String, in: ParameterLocation)
    }

    /// What is wrong.
    package var kind: Kind
    /// Whether it concerns the response or the request.
    package var subject: Subject
    /// The operation.
    package var operation: OpenAPIOperation
    /// The entry of `responses` used (`200`, `2XX`, `default`); nil for requests and undeclared statuses.
    package var responseKey: String?
    /// Where in the message: a JSON pointer in the body (`/0/id`, empty for the whole body), or a header or
    /// parameter (`header X-Rate-Limit`, `query id`, with a pointer after it inside an array or object value).
    package var instancePath: String?
    /// The schema keyword that failed (`type`, `required`).
    package var keyword: String?
    /// Where the failing keyword is in the document, as a JSON pointer: `#/components/schemas/Pet/properties/id/type`
    /// in the root file, `schemas.yaml#/Pet/...` in another.
    package var schemaPath: String?
    /// Where in the document the violated declaration is (the keyword, the header, the entry, `responses`).
    package var specLocation: SourceLocation?

    /// Creates a violation.
    package init(
        kind: Kind, subject: Subject, operation: OpenAPIOperation, responseKey: String? = nil,
        instancePath: String? = nil, keyword: String? = nil, schemaPath: String? = nil,
        specLocation: SourceLocation? = nil
    ) {
        self.kind = kind
        self.subject = subject
        self.operation = operation
        self.responseKey = responseKey
        self.instancePath = instancePath
        self.keyword = keyword
        self.schemaPath = schemaPath
        self.specLocation = specLocation
    }
}
