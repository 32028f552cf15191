/// How a suite uses its OpenAPI document: the server it tests, strictness, and operations to leave out.
package struct OpenAPIContractOptions: Sendable, Hashable {
    /// A base URL (`https://staging.example.com/v2`) or path (`/v2`) that replaces the document's `servers`: only
    /// its path is used, as the prefix of every operation's path.
    package var server: String?
    /// Whether request violations and requests that match no operation are failures rather than warnings (the
    /// runner's decision; the contract reports the same violations either way).
    package var strict: Bool
    /// Operations left out of checks and coverage: an `operationId`, `METHOD /path/{template}`, or
    /// `/path/{template}` (every method of the path). An entry that names nothing is a load problem.
    package var ignore: [String]
    /// Whether the document must conform: every load warning (a 3.0 form in a 3.1 document translated, an unknown
    /// format or a misused example ignored, ``OpenAPILoadProblem/isWarning``) is an error that stops the load
    /// (`--strict-spec`).
    package var strictSpec: Bool

    /// Creates options.
    package init(server: String? = nil, strict: Bool = false, ignore: [String] = [], strictSpec: Bool = false) {
        self.server = server
        self.strict = strict
        self.ignore = ignore
        self.strictSpec = strictSpec
    }
}
