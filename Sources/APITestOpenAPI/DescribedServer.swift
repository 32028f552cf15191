/// A Server Object of an ``OpenAPIDescription``.
package struct DescribedServer: Sendable, Hashable {
    /// The URL as written (`https://{region}.example.com/v1`, `/v1`).
    package var url: String
    /// The `default` of each of its variables, by name.
    package var variables: [String: String]

    /// A server.
    package init(url: String, variables: [String: String]) {
        self.url = url
        self.variables = variables
    }

    /// The URL with each `{variable}` replaced by its default (a variable without one is left as written).
    package var resolvedURL: String {
        ServerURL.substitute(url, variables, keepingUnknown: true)
    }
}
