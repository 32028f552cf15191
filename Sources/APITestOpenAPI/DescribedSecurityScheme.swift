/// A Security Scheme Object of an ``OpenAPIDescription``: what kind of credential a request carries, and where.
package struct DescribedSecurityScheme: Sendable, Hashable {
    /// `type`: `apiKey`, `http`, `oauth2`, `openIdConnect`, `mutualTLS` (as written).
    package var type: String
    /// `name` of an `apiKey` scheme: the header, query parameter or cookie that carries the key.
    package var name: String?
    /// `in` of an `apiKey` scheme: `header`, `query` or `cookie`.
    package var location: String?
    /// `scheme` of an `http` scheme (`bearer`, `basic`, `digest`), lower-cased.
    package var scheme: String?

    /// A scheme.
    package init(type: String, name: String? = nil, location: String? = nil, scheme: String? = nil) {
        self.type = type
        self.name = name
        self.location = location
        self.scheme = scheme
    }
}

/// One Security Requirement Object: schemes that a request must all satisfy (an empty one: no credential).
package struct DescribedSecurityRequirement: Sendable, Hashable {
    /// The names of the schemes, in the document's order.
    package var schemes: [String]

    /// A requirement.
    package init(schemes: [String]) {
        self.schemes = schemes
    }
}
