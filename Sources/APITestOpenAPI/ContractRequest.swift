/// A request as the contract checks it: what was sent.
package struct ContractRequest: Sendable {
    /// The method (any case).
    package var method: String
    /// The URL sent (absolute, or a path with its query).
    package var url: String
    /// The header fields sent (a `Cookie` field carries the cookies), as the checks read them.
    package var fields: any ContractHeaderFields
    /// The body sent; empty for none.
    package var body: any ContractBody

    /// The header fields sent, as pairs.
    package var headers: [(name: String, value: String)] {
        get { fields.pairs }
        set { fields = ContractHeaderPairs(pairs: newValue) }
    }

    /// Creates a request.
    package init(
        method: String, url: String, headers: [(name: String, value: String)],
        body: any ContractBody = ContractDataBody.empty
    ) {
        self.init(method: method, url: url, fields: ContractHeaderPairs(pairs: headers), body: body)
    }

    /// Creates a request whose header fields are read through `fields`.
    package init(
        method: String, url: String, fields: any ContractHeaderFields, body: any ContractBody = ContractDataBody.empty
    ) {
        self.method = method
        self.url = url
        self.fields = fields
        self.body = body
    }
}
