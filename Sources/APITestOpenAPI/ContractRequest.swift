/// A request as the contract checks it: what was sent.
package struct ContractRequest: Sendable {
    /// The method (any case).
    package var method: String
    /// The URL sent (absolute, or a path with its query).
    package var url: String
    /// The header fields sent (a `Cookie` field carries the cookies).
    package var headers: [(name: String, value: String)]
    /// The body sent; empty for none.
    package var body: any ContractBody

    /// Creates a request.
    package init(
        method: String, url: String, headers: [(name: String, value: String)],
        body: any ContractBody = ContractDataBody.empty
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
