/// What a request's method and URL correspond to in a contract.
package enum OpenAPIMatch: Sendable, Hashable {
    /// The operation, and the values of its path parameters (percent-decoded).
    case operation(OpenAPIOperation, pathParameters: [String: String])
    /// An operation that the options' `ignore` leaves out.
    case ignored
    /// Under a server of the document, but no operation has this method and path (the path without the server
    /// prefix, as it was sent).
    case noOperation(method: String, path: String)
    /// The URL's path is under none of the document's servers: the request is not for this API.
    case outsideServers
}
