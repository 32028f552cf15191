/// A response as the contract checks it.
package struct ContractResponse: Sendable {
    /// The status code.
    package var status: Int
    /// The header fields in the order received (names in any case; a repeated name appears repeatedly).
    package var headers: [(name: String, value: String)]
    /// The body.
    package var body: any ContractBody
    /// The method of the request answered, when known: a `HEAD`'s response has no body whatever its operation
    /// declares.
    package var requestMethod: String?

    /// Creates a response.
    package init(
        status: Int, headers: [(name: String, value: String)], body: any ContractBody, requestMethod: String? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.requestMethod = requestMethod
    }
}
