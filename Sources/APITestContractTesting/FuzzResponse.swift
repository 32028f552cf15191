/// What came back for a case: a response, or why none did. Text from the server is kept as received; it is escaped
/// and masked where it is shown (the sealing point of the results, and the console's escaping).
package struct FuzzResponse: Sendable, Hashable {
    /// The status code.
    package var status: Int
    /// The header fields in the order received.
    package var headers: [BuiltRequest.Header]
    /// The body (at most ``FuzzEngine/bodyLimit`` bytes are kept).
    package var body: [UInt8]
    /// The whole transfer's time.
    package var elapsed: Duration

    /// A response.
    package init(status: Int, headers: [BuiltRequest.Header], body: [UInt8], elapsed: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.body = body
        self.elapsed = elapsed
    }

    /// The first value of header `name` (any case).
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The headers as the contract takes them.
    package var headerPairs: [(name: String, value: String)] { headers.map { ($0.name, $0.value) } }
}

/// A check that failed for a case.
package struct CheckFailure: Sendable, Hashable {
    /// The check.
    package var check: FuzzCheck
    /// What is wrong, one sentence (it may quote the server's text: escaped where shown).
    package var message: String
    /// What makes two failures of one check and operation the same finding (`status 500`, `/id type`).
    package var signature: String

    /// A failure of `check`.
    package init(_ check: FuzzCheck, _ message: String, signature: String) {
        self.check = check
        self.message = message
        self.signature = signature
    }
}
