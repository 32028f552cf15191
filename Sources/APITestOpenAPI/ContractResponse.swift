/// A response as the contract checks it.
package struct ContractResponse: Sendable {
    /// The status code.
    package var status: Int
    /// The header fields as the checks read them (names in any case; a repeated name appears repeatedly).
    package var fields: any ContractHeaderFields
    /// The body.
    package var body: any ContractBody
    /// The method of the request answered, when known: a `HEAD`'s response has no body whatever its operation
    /// declares.
    package var requestMethod: String?

    /// The header fields in the order received, as pairs.
    package var headers: [(name: String, value: String)] {
        get { fields.pairs }
        set { fields = ContractHeaderPairs(pairs: newValue) }
    }

    /// Creates a response.
    package init(
        status: Int, headers: [(name: String, value: String)], body: any ContractBody, requestMethod: String? = nil
    ) {
        self.init(status: status, fields: ContractHeaderPairs(pairs: headers), body: body, requestMethod: requestMethod)
    }

    /// Creates a response whose header fields are read through `fields`.
    package init(
        status: Int, fields: any ContractHeaderFields, body: any ContractBody, requestMethod: String? = nil
    ) {
        self.status = status
        self.fields = fields
        self.body = body
        self.requestMethod = requestMethod
    }
}
