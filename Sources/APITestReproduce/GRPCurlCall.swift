/// What a `grpcurl` command holds of a `grpc:` step besides its connection (which the step's request carries): the
/// method, the request messages as the JSON mapping, rendered twice with stand-ins, and where the schema comes from.
package struct GRPCurlCall: Sendable, Hashable {
    /// The method as grpcurl names it: `package.Service/Method`.
    package var method: String
    /// The request messages as JSON text, rendered with the first stand-ins.
    package var messages: [String]
    /// The same messages rendered with the second stand-ins.
    package var otherMessages: [String]
    /// Whether the step writes a list of messages (a client or bidirectional stream): then none is sent as none.
    package var isMessageList: Bool
    /// The `:authority`, rendered with the first stand-ins; nil for the URL's host and port.
    package var authority: String?
    /// The `:authority` rendered with the second stand-ins.
    package var otherAuthority: String?
    /// The largest response message the step accepts, in bytes; nil for gRPC's 4 MiB.
    package var maxMessageSize: Int?
    /// The `.proto` files as the suite writes them (relative to its folder); empty when the schema comes from the
    /// server's reflection service, which grpcurl then asks as apitest does.
    package var protoFiles: [String]
    /// The import paths, absolute; the suite's folder when there are none.
    package var importPaths: [String]
    /// The suite's folder, absolute: what `protoFiles` are relative to.
    package var directory: String

    /// A call of `method` with `messages` (`otherMessages` the same rendered with the other stand-ins).
    package init(
        method: String, messages: [String], otherMessages: [String], isMessageList: Bool,
        authority: String? = nil, otherAuthority: String? = nil, maxMessageSize: Int? = nil, protoFiles: [String] = [],
        importPaths: [String] = [], directory: String = ""
    ) {
        self.method = method
        self.messages = messages
        self.otherMessages = otherMessages
        self.isMessageList = isMessageList
        self.authority = authority
        self.otherAuthority = otherAuthority
        self.maxMessageSize = maxMessageSize
        self.protoFiles = protoFiles
        self.importPaths = importPaths
        self.directory = directory
    }
}
